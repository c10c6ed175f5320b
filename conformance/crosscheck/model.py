"""What a cross-check is made of: checks, divergences and agreements (declared by the library modules,
conformance/implementations/, per tool)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

from conformance.crosscheck.comparison import Comparison


@dataclass(frozen=True)
class Check:
    """One library function compared with one tool: ``compare(input, oracle output) -> Comparison``.

    A check converts the tool's input into the library's form (saying when no conversion is
    faithful), calls the library, and lines its values up with the contract's.
    """

    id: str
    counterpart: str  # the library call, as a reader would write it
    compare: Callable[[dict, dict], Comparison]
    library: str = ""  # filled in: the library module it is declared in
    tool_id: str = ""  # filled in: the tool it is declared for
    version: str = ""
    # its own inputs (a Hypothesis strategy of the tool's valid inputs), where the tool's INPUTS never reach what
    # the library departs on (npm bleu-score's tokens named like inherited object properties); None: the tool's
    inputs: Any = None

    @property
    def tool_label(self) -> str:
        return f"{self.tool_id}@{self.version}"


NOT_MODELLED = None  # what a library_output gives for an input it cannot model


def _top_level_field(pattern: str) -> str:
    """The output field a Comparison name pattern is about ("segments[0].totals" -> "segments")."""
    found = re.match(r"[a-z_]+", pattern)
    if found is None:
        raise ValueError(f"a divergence's field pattern starts with an output field's name, not {pattern!r}")
    return found.group()


@dataclass(frozen=True)
class Divergence:
    """A known way a library departs from a contract.

    ``applies(input)`` is the condition under which the mechanism can change a compared value;
    a disagreement is explained only by an entry that lists its check and applies to its input.
    """

    id: str
    checks: tuple[str, ...]  # the Check ids whose values it can change
    fields: tuple[str, ...]  # the compared values it can change (fnmatch patterns of Comparison names)
    what_differs: str
    mechanism: str
    clause: str  # the contract text it departs from, quoted
    applies: Callable[[dict], bool]
    libraries: tuple[str, ...] = ()  # who shows it (default: the library module it is declared in)
    # the mechanism of conformance/divergences.py it is ("" for one no model writes out: the library's own
    # arithmetic or definition), which names the matrix's failures
    shows: str = ""
    tool_id: str = ""  # the contract of the clause: the tool it is declared for
    # What the library answers (its own call, or the mechanism written out) for every output field the
    # entry can change (``output_fields``), in the output form of the tool its checks belong to, e.g.
    # {"bleu": 1.2e-77}; NOT_MODELLED (None) where it cannot say (the library is missing). A run failure
    # is explained by this entry only where the target's answer equals it in every one of those fields
    # (catalogue.explaining_failure). Called through ``answer``, which never raises.
    library_output: Callable[[dict], dict | None] | None = None
    # True: it explains a library value outside the output_schema's bounds (a run failure of that kind),
    # not a value that differs from the contract's
    out_of_bounds: bool = False

    def answer(self, payload: dict) -> dict | None:
        """The library's answer to a tool input, or NOT_MODELLED: an input the model cannot take (an
        exception, whatever its kind) is not modelled, so no model can crash a report or change a cause."""
        if self.library_output is None:
            return NOT_MODELLED
        try:
            answer = self.library_output(payload)
        except Exception:  # noqa: BLE001 - a model's failure only means "not modelled"
            return NOT_MODELLED
        return answer if isinstance(answer, dict) else NOT_MODELLED

    @property
    def output_fields(self) -> frozenset[str]:
        """The top-level output fields it can change ("bleu * 100" and "segments[0].totals" name bleu
        and segments)."""
        return frozenset(_top_level_field(pattern) for pattern in self.fields)

    @property
    def contract_clause(self) -> str:
        return f'{self.tool_id}: "{self.clause}"'

    def changes(self, field_name: str) -> bool:
        return any(fnmatchcase(field_name, pattern) for pattern in self.fields)

    def changes_output_field(self, key: str) -> bool:
        """Can it change this top-level output field?"""
        return key in self.output_fields


@dataclass(frozen=True)
class Agreement:
    """An area where a library could have departed from the contract and, checked by running it, does not."""

    area: str
    finding: str
    checks: tuple[str, ...]

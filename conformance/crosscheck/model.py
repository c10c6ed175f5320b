"""What a cross-check is made of: checks, divergences and agreements (declared per tool by the adapters)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Callable

from conformance.crosscheck.comparison import Comparison


@dataclass(frozen=True)
class Check:
    """One library function compared with one tool: ``compare(input, oracle output) -> Comparison``.

    A check converts the tool's input into the library's form (saying when no conversion is
    faithful), calls the library, and lines its values up with the contract's.
    """

    id: str
    library: str  # "sacrebleu" | "nltk"
    counterpart: str  # the library call, as a reader would write it
    compare: Callable[[dict, dict], Comparison]
    tool_id: str = ""  # filled in from the adapter module it is declared in
    version: str = ""

    @property
    def tool_label(self) -> str:
        return f"{self.tool_id}@{self.version}"


@dataclass(frozen=True)
class Divergence:
    """A known way a library departs from a contract.

    ``applies(input)`` is the condition under which the mechanism can change a compared value;
    a disagreement is explained only by an entry that lists its check and applies to its input.
    """

    id: str
    libraries: tuple[str, ...]
    checks: tuple[str, ...]  # the Check ids whose values it can change
    fields: tuple[str, ...]  # the compared values it can change (fnmatch patterns of Comparison names)
    what_differs: str
    mechanism: str
    clause: str  # the contract text it departs from, quoted
    applies: Callable[[dict], bool]
    tool_id: str = ""  # the contract of the clause: the adapter module it is declared in
    # What the library answers (its own call, or the mechanism written out), as a partial output
    # object of the tools its checks belong to, e.g. {"bleu": 1.2e-77}; {} where it cannot say (the
    # library is missing, the input has no faithful conversion). A run failure is explained by this
    # entry only where the target's value equals it (catalogue.explaining_failure).
    library_output: Callable[[dict], dict] | None = None

    @property
    def contract_clause(self) -> str:
        return f"{self.tool_id}: \"{self.clause}\""

    def changes(self, field_name: str) -> bool:
        return any(fnmatchcase(field_name, pattern) for pattern in self.fields)

    def changes_output_field(self, key: str) -> bool:
        """Can it change this top-level output field? ("bleu * 100" and "segments[0].totals" name
        the fields bleu and segments.)"""
        return any(re.match(r"[a-z_]+", pattern).group() == key for pattern in self.fields)


@dataclass(frozen=True)
class Agreement:
    """An area where a library could have departed from the contract and, checked by running it, does not."""

    area: str
    finding: str
    checks: tuple[str, ...]

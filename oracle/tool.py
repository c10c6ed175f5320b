"""A tool of the oracle: its contract's validation, its computation and its output checks.

Every tool module (``oracle/<tool_id with _>.py``) defines ``TOOL = Tool(...)``:

    validation     the rules of the input, in the order the first failing one decides
    compute        ``compute(payload, **steps) -> output``, reading like the contract
    steps          the named stages ``compute`` calls (preparation, aggregation, ...)
    output_checks  rules on the finished output (e.g. an output-size limit)
    float_fields   output fields computed through a libm ``exp``/``log`` (compared within a bound),
    float_terms    the exact statistics of an output those fields are computed from
    clauses        the semantics line defining each output field (the clause a wrong value breaks)
    defaults       the value an omitted option means ("lowercase omitted means false")

``Tool.execute`` runs the three in order. The parts are seams: a reading of an open point
is the same tool with one part swapped (``replacing(old, new)``, ``without(part)``,
``prepending(rule)``), so it never re-implements the oracle, and a swap that names a part
the tool does not have fails loudly instead of silently doing nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from oracle.contracts import Contract, contract
from oracle.validation import OutputCheck, Rule, Schema, validate


@dataclass(frozen=True, eq=False)
class Tool:
    id: str
    version: str
    validation: tuple[Schema | Rule, ...]
    compute: Callable[..., dict[str, Any]]
    steps: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    output_checks: tuple[OutputCheck, ...] = ()
    float_fields: tuple[str, ...] = ()
    # (payload, output) -> oracle.bleu_score.ScoreTerms: the exact statistics the float fields come from
    float_terms: Callable[[Any, dict[str, Any]], Any] | None = None
    # The semantics line (1-based) defining each output field, by JSON pointer class ("/segments/*/totals"):
    # a line number, or a tuple of them in which a (line, option) pair counts only when the input sets
    # that option (e.g. "decimals"). Reports name the clause a differing value breaks from it; a field
    # not listed, or with more than one applicable line, is "unattributed".
    clauses: Mapping[str, Any] = field(default_factory=dict)
    # The value an omitted option means, where the contract gives one: an input setting an option to it
    # is the input without it (a (line, option) pair of ``clauses`` does not count for it).
    defaults: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", MappingProxyType(dict(self.steps)))
        object.__setattr__(self, "clauses", MappingProxyType(dict(self.clauses)))
        object.__setattr__(self, "defaults", MappingProxyType(dict(self.defaults)))

    @property
    def label(self) -> str:
        return f"{self.id}@{self.version}"

    @property
    def contract(self) -> Contract:
        return contract(self.id, self.version)

    def execute(self, payload: Any) -> dict[str, Any]:
        """Validate, compute, check the output; ContractError for anything the contract rejects."""
        validate(self.contract, payload, self.validation)
        # the tools only read the payload ("Inputs are never mutated"; tests hold them to it)
        output = self.compute(payload, **self.steps)
        for check in self.output_checks:
            check.check_fn(output, payload, self.contract.limits)
        return output

    # --- seams -----------------------------------------------------------------------

    def parts(self) -> list[Any]:
        return [*self.validation, *self.steps.values(), *self.output_checks]

    def has(self, part: Any) -> bool:
        return any(part is mine for mine in self.parts())

    def replacing(self, old: Any, new: Any) -> Tool:
        """The same tool with one rule, step or output check swapped for another."""
        self._require(old)
        return dataclasses.replace(
            self,
            validation=tuple(new if rule is old else rule for rule in self.validation),
            steps={name: new if step is old else step for name, step in self.steps.items()},
            output_checks=tuple(new if check is old else check for check in self.output_checks),
        )

    def without(self, old: Rule | OutputCheck) -> Tool:
        """The same tool without one rule or output check."""
        self._require(old)
        return dataclasses.replace(
            self,
            validation=tuple(rule for rule in self.validation if rule is not old),
            output_checks=tuple(check for check in self.output_checks if check is not old),
        )

    def prepending(self, rule: Rule) -> Tool:
        """The same tool with one more rule checked before all others."""
        return dataclasses.replace(self, validation=(rule, *self.validation))

    def _require(self, part: Any) -> None:
        if not self.has(part):
            raise LookupError(f"{self.label} has no part {getattr(part, 'name', None) or part!r}")

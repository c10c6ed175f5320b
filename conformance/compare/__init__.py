"""The comparison policy: does a target's response satisfy a case?

    expect(case) -> Expected                   what the oracle (and every reading) does with the input
    judge(case, expected, response) -> Verdict the verdict, with the first telling difference
    check(case, response) -> Verdict           both at once

One concern a module:

    expected.py  the expected behaviour: the oracle's, and lazily every reading of an open point's
    verdict.py   the policy: rejections (never a 5xx, the code where the contract names it), outputs
                 (schema first, then field by field against every reading)
    schema.py    the output_schema check
    diff.py      the exact structural diff and the one JSON-pointer formatter
    floats.py    libm floats within a forward error bound, toFixed boundaries
    readings.py  which reading of an open point a passing answer took (report.json "readings")
    clause.py    the contract clause a failure breaks (a semantics line, a limit, a schema keyword)
    signature.py a failure's cause (kind, pointer class, clause, divergence): what groups failures

chrF++ ``score`` (six decimals, ties to even on the exact rational), ``score_fraction``
and ``segment_scores`` are exact strings: no libm is involved.
"""

from __future__ import annotations

from typing import Any

from conformance.compare.diff import first_difference
from conformance.compare.expected import Expected, expect
from conformance.compare.floats import (
    acceptable_rounded,
    bleu_bound,
    brevity_penalty_bound,
    exact_full_precision,
    float_tolerance,
)
from conformance.compare.schema import output_schema_error
from conformance.compare.verdict import compare_output, judge
from conformance.jsonio import json_pointer
from conformance.model import Case, TargetResponse, Verdict

__all__ = [
    "expect",
    "judge",
    "check",
    "expected_for",
    "Expected",
    "compare_output",
    "first_difference",
    "json_pointer",
    "output_schema_error",
    "acceptable_rounded",
    "bleu_bound",
    "brevity_penalty_bound",
    "exact_full_precision",
    "float_tolerance",
]


def check(case: Case, response: TargetResponse) -> Verdict:
    return judge(case, expect(case), response)


def expected_for(case: Case) -> Any:
    """What the case expects: the oracle's output, or ``{"error": code}`` for a rejection."""
    return expect(case).summary()

"""Tool.clauses entries whose line depends on the value the target answered.

Most output fields are defined by one semantics line whatever the answer. A few are defined by one
line or another depending on what went wrong, and the answer itself (with the target's own
statistics) says which, where anything does:

    ValueClause(lines, choose)   choose(payload, actual, pointer) -> one of lines, or None (no single
                                 line determines the differing value: the failure is unattributed)
    chrf_score(...)              a six-decimal chrF score
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from oracle import chrf

STEP = Fraction(1, 10**6)  # the six-decimal grid of a chrF score
FLOAT_PRECISION = Fraction(1, 10**9)  # relative: a floating-point computation of the exact value lies within it


@dataclass(frozen=True)
class ValueClause:
    lines: tuple[int, ...]  # every line ``choose`` may give (so the entry can be checked against the contract)
    choose: Callable[[Any, Any, str], int | None]


def chrf_score(rounding: int, exact: Callable[[Any, Any, str], Fraction], otherwise: int | None = None) -> ValueClause:
    """A differing chrF score.

    ``exact(payload, actual, pointer)`` is the contract's exact value of that score. The rounding line
    (``rounding``) where the target's score is one step of the six-decimal grid off it and the target's
    own exact value (its score_fraction, for /score) is that value within floating-point precision: the
    value is right, its rounding is not. A score more than a step off is ``otherwise``: the line that
    determines it from the target's own statistics rows (``from_own_rows``), where the tool reports them.
    Anything else (a score a step off with no exact value of the target's to judge, a wrong score of a
    tool without rows, which may come from any line) is None.
    """

    def choose(payload: Any, actual: Any, pointer: str) -> int | None:
        try:
            target, value = Fraction(actual_at(actual, pointer)), exact(payload, actual, pointer)
            if abs(target - value) >= STEP:
                return otherwise
            own = Fraction(actual["score_fraction"]) if pointer == "/score" else None
            return rounding if own is not None and abs(own - value) <= FLOAT_PRECISION * abs(value) else None
        except (ArithmeticError, LookupError, TypeError, ValueError):  # answers too malformed to judge
            return None

    return ValueClause(tuple(line for line in (rounding, otherwise) if line is not None), choose)


def from_own_rows(beta: Callable[[Any], int]) -> Callable[[Any, Any, str], Fraction]:
    """The exact score the contract's rule gives for the target's own rows (the summed rows for /score,
    segment i's for /segments/i/score) and the input's beta."""

    def exact(payload: Any, actual: Any, pointer: str) -> Fraction:
        rows = (
            actual["statistics"]
            if pointer == "/score"
            else actual["segments"][int(pointer.split("/")[2])]["statistics"]
        )
        statistics = [
            chrf.OrderStatistics(int(r["hypothesis_ngrams"]), int(r["reference_ngrams"]), int(r["matches"]))
            for r in rows
        ]
        return 100 * chrf.f_score(statistics, beta(payload))

    return exact


def actual_at(actual: Any, pointer: str) -> Any:
    """The value at a JSON pointer of plain keys and indices."""
    value = actual
    for key in pointer.split("/")[1:]:
        value = value[int(key)] if isinstance(value, list) else value[key]
    return value

"""A library's float for a score the contract gives exactly (the chrF tools' six-decimal scores).

The chrF contracts give ``score`` and each segment's score as the exact value rounded to six decimals
(ties to even) and ``score_fraction`` as the exact fraction. A library computes the same formula in
doubles and returns a float (0..100 or 0..1). Rounding that float to six decimals would make the
adapter err wherever the exact value lies near a tie (the suite aims at those), so the float is
compared with the exact value itself, in exact arithmetic on the judge's side:
``|Fraction(actual) - exact * scale/100| <= SAFETY * B * exact * scale/100``.

The bound B, from a forward error analysis of chrF in doubles, u = 2^-53 (unit roundoff), the counts
exact (integers up to 65,536), over k effective orders (k <= MAX_ORDERS = 14, the contracts' largest
char_order + word_order):

  p_i = m_i/h_i and r_i = m_i/r_i: one rounding each, relative u;
  P = (sum p_i)/k: the k-1 additions of non-negative terms add at most (k-1)u relative, the terms' own
    u, and the division by k (or a product with fl(1/k)) 2u: e = (k+2)u, the same for R;
  F = (1+b^2)*P*R / (b^2*P + R), b^2 exact (at most 256): the numerator errs by 2e + 2u, the
    denominator (two non-negative terms) by e + 2u, the quotient adds u: 3e + 5u;
  the scale (100*F, or F on 0..1 read as such) adds u:
    B = 3(k+2)u + 6u = (3k + 12)u, i.e. 54u for k = 14.

Another arrangement of the same formula (F as (1+b^2)/(b^2/R + 1/P), sums in another order, the
average as a product with 1/k, the corpus sums as floats, exact up to 2^53) stays within the same
few dozen roundings; SAFETY = 4 covers that (the tolerance is 216u, about 2.4e-14 relative). An exact
0 (no effective order, or no match in any) is compared exactly: a correct implementation computes
0 there, and epsilon smoothing (1e-16) is another formula.

Every real divergence fails: one n-gram more or less among at most 65,536 moves some p_i or r_i by
at least 1/65,537 of itself, which moves F (averaged over at most 14 orders, weighted by at least
1/257 through b <= 16) by more than 1e-9 relative unless that term is 0 on both sides: five orders of
magnitude above the tolerance. So dropped hypothesis n-grams (sacreBLEU's corpus sums), a missing
effective order, another whitespace set, F averaged per order (NLTK) or epsilon smoothing all fail,
while any correct double computation passes. (The cross-check's 1e-9, comparison.REL_TOL, is looser:
it only needs to tell a formula from another, not to judge a target.)

An exact value comes from the oracle's output: ``score`` from ``score_fraction``; a segment's score
(``segment_scores/i``, ``segments/i/score``) from the tool's score_fraction of that segment alone,
as a one-segment corpus (the contracts apply the same rule to one segment's rows as to the sums).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from conformance.compare.diff import as_json, is_number, short
from conformance.model import Mismatch
from oracle.tool import Tool

UNIT_ROUNDOFF = Fraction(1, 2**53)
MAX_ORDERS = 14  # the contracts' largest char_order + word_order (chrf-components: 10 + 4)
SAFETY = 4
BOUND = (3 * MAX_ORDERS + 12) * UNIT_ROUNDOFF  # B = (3k + 12)u
TOLERANCE = SAFETY * BOUND  # relative, exact arithmetic
SEGMENT_SCORE = re.compile(r"^/(?:segment_scores/(\d+)|segments/(\d+)/score)$")


def exact_value(tool: Tool, payload: dict, expected: dict, pointer: str) -> Fraction:
    """The exact value (0..100) of a six-decimal score field: the corpus's or one segment's."""
    if pointer == "/score":
        return Fraction(expected["score_fraction"])
    found = SEGMENT_SCORE.match(pointer)
    if found is None:
        raise LookupError(f"no exact value is known for {pointer}")
    i = int(found.group(1) or found.group(2))
    alone = {**payload, "hypotheses": [payload["hypotheses"][i]], "references": [payload["references"][i]]}
    return Fraction(tool.execute(alone)["score_fraction"])


def compare_library_float(pointer: str, exact: Fraction, actual: Any, scale: float) -> Mismatch | None:
    """The library's float (on its ``scale``) against the exact value (0..100), within the bound."""
    wanted = exact * Fraction(scale) / 100
    if not is_number(actual) or not math.isfinite(actual):
        return Mismatch(
            pointer, float(wanted), short(actual), f"expected a finite number, got {as_json(short(actual))}"
        )
    delta = abs(Fraction(actual) - wanted)
    allowed = TOLERANCE * wanted
    if delta <= allowed:
        return None
    where = f"the exact {exact.numerator}/{exact.denominator}" + (f" on the 0..{scale:g} scale" if scale != 100 else "")
    if wanted == 0:
        return Mismatch(
            pointer,
            0.0,
            actual,
            f"expected exactly 0 ({where}: no effective order or no match), got {actual!r}",
            delta=float(delta),
            tolerance=0.0,
        )
    return Mismatch(
        pointer,
        float(wanted),
        actual,
        f"expected {float(wanted)!r} ({where}) within {float(TOLERANCE):.3g} relative (the float error "
        f"bound of chrF), got {actual!r}: off by {float(delta / wanted):.3g} relative",
        delta=float(delta),
        tolerance=float(allowed),
    )


def on_percent_scale(output: Any, library_floats: dict | None) -> Any:
    """The answer with each library float on the 0..100 scale the catalogue's models give a chrF score in
    (a float on 0..1, scale 1, times 100: the same float a model computes as 100 * its library's value).
    ``library_floats``: pointer class -> scale, as a response's ``expressed`` records it."""
    for pointer_class, scale in (library_floats or {}).items():
        if scale != 100:
            output = _scaled(output, pointer_class.strip("/").split("/"), 100 / scale)
    return output


def _scaled(value: Any, parts: list[str], factor: float) -> Any:
    if not parts:
        return factor * value if is_number(value) else value
    head, rest = parts[0], parts[1:]
    if head == "*" and isinstance(value, list):
        return [_scaled(item, rest, factor) for item in value]
    if isinstance(value, dict) and head in value:
        return {**value, head: _scaled(value[head], rest, factor)}
    return value

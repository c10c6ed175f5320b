"""Libm floats within a bound from a forward error analysis of the contract's formula.

Full-precision floats (bleu-corpus-compute ``bleu`` and ``brevity_penalty`` when
``decimals`` is omitted) are held to a tolerance from a forward error analysis of the
contract's formula. With u = 2^-53 (unit roundoff), E_EXP = E_LOG = 4 (ulps a libm exp/log
may err by: glibc, fdlibm/V8 and musl stay under 1), and counts c, r, m_n, l_n exact:

  brevity_penalty = exp(1 - r/c), 0 < c <= r:
    q = fl(r/c) errs by <= u*r/c; fl(1 - q) adds <= u*|1 - r/c|; so the argument errs by
    e_t <= u*(r/c + |1 - r/c|), which exp turns into relative error e_t, plus E_EXP ulps
    (2u each, relative) for exp itself:
      B_bp = u*(r/c + |1 - r/c|) + 2u*E_EXP

  bleu = bp * exp((1/N) * sum_{n=1..N} ln(m_n/l_n)), all m_n > 0:
    each term: fl(m_n/l_n) errs by u relatively, i.e. <= u absolutely after ln; ln itself
    E_LOG ulps of its value; to also cover ln(m_n) - ln(l_n) we bound by the larger
      e_n = u + 2u*E_LOG*(|ln m_n| + |ln l_n|)
    the N-1 additions in any order add <= (N-1)*u*S with S = sum |ln(m_n/l_n)|;
    (1/N)*s, s/N or sum of (1/N)*ln terms adds <= 2u*S/N; so the exponent errs by
      e_a = (sum_n e_n + (N-1)*u*S)/N + 2u*S/N
    exp turns it into relative error e_a, plus 2u*E_EXP; the product with bp adds u:
      B_bleu = B_bp + e_a + 2u*E_EXP + u        (B_bp = 0 when bp = 1 by the contract)

  The oracle and the target each err by at most B (relative), so they differ by at most 2B;
  the tolerance is SAFETY = 4 times that: |actual - expected| <= 8*B*|expected|. Where the
  value falls below the smallest normal double (a huge r/c drives exp towards underflow),
  precision is absolute: SUBNORMAL_ULPS = 4 steps of 2^-1074 are added to the bound.
  Values the contract makes exact are compared exactly: brevity_penalty 1 when c > r and
  0 when c = 0; bleu 0 when c = 0 or any m_n = 0.

  A correct implementation with any libm passes (the tolerance is 4 times the sum of both
  bounds); a wrong formula does not: the tolerance stays below about 2e-12 relative for
  every input the limits allow (r/c < 746 while bp is a normal double; |ln m_n|, |ln l_n|
  <= ln 50,000), while exp(1 - c/r), a missing 1/N, an off-by-one N, log base 10 or any
  smoothing move the value by 1e-6 or more on all but degenerate inputs.

``decimals``-rounded values (toFixed) compare exactly, except when the full-precision value
lies within that tolerance of a rounding boundary: then either neighbour passes, as a
correct implementation could land on either side (oracle.jsnumber.to_fixed).
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from conformance.compare.diff import as_json, is_number, short
from conformance.compare.diff import delta as absolute_difference
from conformance.model import Mismatch
from oracle.bleu_score import ScoreTerms, brevity_penalty, geometric_mean_score
from oracle.jsnumber import to_fixed

UNIT_ROUNDOFF = 2.0**-53
E_EXP = 4  # ulps a libm exp may err by
E_LOG = 4  # ulps a libm log may err by
SAFETY = 4  # on top of the factor 2 for the oracle's own error
SUBNORMAL_ULPS = 4
SMALLEST_NORMAL = 2.0**-1022
SMALLEST_SUBNORMAL = 2.0**-1074
FIXED_BY_CONTRACT = "the contract fixes this value"  # in the message of a value compared exactly (0 or 1)


def brevity_penalty_bound(c: int, r: int) -> float:
    """B_bp: relative error bound of any correct computation of exp(1 - r/c), 0 < c <= r."""
    u = UNIT_ROUNDOFF
    ratio = r / c
    return u * (ratio + abs(1 - ratio)) + 2 * u * E_EXP


def bleu_bound(c: int, r: int, precisions: list[tuple[float, int]]) -> float:
    """B_bleu: relative error bound of bp * exp((1/N) * sum ln(a_n/d_n)), every p_n = a_n/d_n > 0.

    a_n and d_n are exact (m_n and l_n, or a smoothing's 0.1, m_n + 1, 1 and l_n + 1, 2^k l_n)."""
    u = UNIT_ROUNDOFF
    n_orders = len(precisions)
    log_terms = [abs(math.log(a / d)) for a, d in precisions]
    total = sum(log_terms)
    per_term = sum(u + 2 * u * E_LOG * (abs(math.log(a)) + abs(math.log(d))) for a, d in precisions)
    exponent = (per_term + (n_orders - 1) * u * total) / n_orders + 2 * u * total / n_orders
    bp_part = 0.0 if c > r else brevity_penalty_bound(c, r)
    return bp_part + exponent + 2 * u * E_EXP + u


def float_tolerance(value: float, relative_bound: float) -> float:
    """|actual - expected| allowed: 2B for the two computations, times SAFETY, plus subnormal steps."""
    return 2 * SAFETY * relative_bound * abs(value) + SUBNORMAL_ULPS * SMALLEST_SUBNORMAL


def exact_full_precision(field: str, terms: ScoreTerms) -> tuple[float | None, float]:
    """(the exact contract value if the contract fixes it, else None; the relative bound)."""
    c, r = terms.candidate_length, terms.reference_length
    if c == 0:
        return 0.0, 0.0
    if field == "brevity_penalty":
        return (1.0, 0.0) if c > r else (None, brevity_penalty_bound(c, r))
    if terms.precisions is None:
        return 0.0, 0.0
    return None, bleu_bound(c, r, terms.precisions)


def full_precision_value(field: str, terms: ScoreTerms) -> float:
    """The oracle's unrounded value, recomputed from the exact statistics of the expected output."""
    bp = brevity_penalty(terms.candidate_length, terms.reference_length)
    if field == "brevity_penalty":
        return bp
    return 0.0 if terms.precisions is None else geometric_mean_score(bp, terms.precisions)


def compare_float_field(field: str, payload: Any, expected: dict, terms: ScoreTerms, actual: Any) -> Mismatch | None:
    pointer = f"/{field}"
    if not is_number(actual) or not math.isfinite(absolute_difference(0, actual)):
        return Mismatch(
            pointer, expected[field], short(actual), f"expected a finite number, got {as_json(short(actual))}"
        )
    exact, bound = exact_full_precision(field, terms)
    decimals = payload.get("decimals") if isinstance(payload, dict) else None
    if exact is not None:
        wanted = exact  # 0 or 1 by the contract: toFixed keeps them exact too
        if actual == wanted:
            return None
        return Mismatch(
            pointer,
            wanted,
            actual,
            f"expected exactly {wanted!r} ({FIXED_BY_CONTRACT}), got {actual!r}",
            delta=abs(actual - wanted),
            tolerance=0.0,
        )
    value = full_precision_value(field, terms)
    tolerance = float_tolerance(value, bound)
    if decimals is None:
        delta = abs(actual - value)
        if delta <= tolerance:
            return None
        return Mismatch(
            pointer,
            value,
            actual,
            f"expected {value!r} within {tolerance:.3g} (forward error bound of the contract's formula), "
            f"got {actual!r}: off by {delta:.3g}",
            delta=delta,
            tolerance=tolerance,
        )
    return _compare_rounded(pointer, value, tolerance, int(decimals), actual)


def acceptable_rounded(value: float, tolerance: float, digits: int) -> tuple[Decimal, Decimal]:
    """The lowest and highest toFixed results of any value within the tolerance of ``value``."""
    low = to_fixed(max(0.0, value - tolerance), digits)
    high = to_fixed(value + tolerance, digits)
    return Decimal(low), Decimal(high)


def on_decimal_grid(actual: float, digits: int) -> bool:
    """Is the number one that toFixed(digits) can give (read back as a double)?"""
    step = Decimal(1).scaleb(-digits)
    as_decimal = Decimal(repr(float(actual)))
    return as_decimal == as_decimal.quantize(step) or float(as_decimal.quantize(step)) == float(actual)


def _compare_rounded(pointer: str, value: float, tolerance: float, digits: int, actual: float) -> Mismatch | None:
    low, high = acceptable_rounded(value, tolerance, digits)
    step = Decimal(1).scaleb(-digits)
    as_decimal = Decimal(repr(float(actual)))
    on_grid = on_decimal_grid(actual, digits)
    if on_grid and low <= as_decimal.quantize(step) <= high:
        return None
    wanted = float(to_fixed(value, digits))
    either = f"{low} or {high}" if low != high else f"{low}"
    return Mismatch(
        pointer,
        wanted,
        actual,
        f"expected {either} (Number(x.toFixed({digits})) of the full-precision value {value!r}), got {actual!r}",
        delta=abs(actual - wanted),
        tolerance=float(high - low),
    )

"""Rounding across magnitudes: `decimals` 1..15 on values in every decade from about 1e-12 to 1,
and chrF scores at exact six-decimal ties from below 1 to above 50.

toFixed keeps `decimals` digits after the point; precision-based formatting (toPrecision, %g)
keeps significant digits, which agrees for values in [0.1, 1) only: a brevity penalty of exp(-7)
or a BLEU of 1e-3 tells them apart. The values are drawn by decade, then the lengths that give
them are solved for; the comparison (conformance/compare/floats.py) still accepts either
neighbour where a full-precision value lies within its tolerance of a rounding boundary.

The chrF ties are exact: a reference of the one character "x" against a hypothesis of H
one-character words, one of them "x", leaves the character unigrams (and the word unigrams,
with W = H words) as the only orders both sides have, so P = 1/H, R = 1 and
score = 100 (1 + beta^2) / (beta^2 + H). ties() lists the (beta, H) whose score has exactly seven
decimals ending in 5, from the divisors of 2 * 10^8 * (1 + beta^2).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

from hypothesis import strategies as st

from conformance.strategies.base import EXPECT_OUTPUT, Family, aimed, case, composite
from oracle.jsnumber import to_fixed

# values m * 10^-k, k = 0..12; k = 3 and 4 (a BLEU around 1e-3, a penalty of exp(-7)) more often
DECADES = st.sampled_from((*range(13), 3, 4))
DECIMALS = st.integers(1, 15)


def target_value(draw) -> float:
    """m * 10^-k; drawn before anything else, so that every decade comes early in a run."""
    decade = draw(DECADES)
    return draw(st.integers(1, 9)) * 10.0**-decade


def record_rounding(value: float, decimals: int) -> None:
    """The aimed features of a rounded value: its magnitude, the decimals, whether toPrecision differs."""
    for bound, feature in ((1e-9, "value<1e-9"), (1e-3, "value<1e-3"), (0.1, "value<0.1")):
        if value < bound:
            aimed(feature)
    aimed("decimals>=10" if decimals >= 10 else "decimals<=3" if decimals <= 3 else "decimals-4-9")
    if value > 0 and float(f"{value:.{decimals}g}") != to_fixed(value, decimals):
        aimed("to-fixed-not-to-precision")


ROUNDING_AIMS = (
    "value<1e-9",
    "value<1e-3",
    "value<0.1",
    "decimals>=10",
    "decimals<=3",
    "decimals-4-9",
    "to-fixed-not-to-precision",
)


def lengths_for(c: int, value: float) -> int:
    """The reference length r >= c with exp(1 - r/c) about ``value`` (<= 1)."""
    return max(c, round(c * (1 - math.log(value))))


def penalty_magnitudes(max_length: int) -> Family:
    """bleu-brevity-penalty: a penalty in a drawn decade, over 1 to 4 segments, with decimals 1..15."""

    @composite
    def build(draw):
        target = target_value(draw)
        segments = draw(st.integers(1, 4))
        candidates = [draw(st.integers(10, 5000)) for _ in range(segments)]
        c = sum(candidates)
        r = min(lengths_for(c, target), segments * max_length)
        references = [[n] for n in split_total(r, candidates)]
        decimals = draw(DECIMALS)
        record_rounding(math.exp(1 - r / c), decimals)
        payload = {"candidate_lengths": candidates, "reference_lengths": references, "decimals": decimals}
        return case(
            payload,
            EXPECT_OUTPUT,
            f"c = {c}, r = {r}: brevity penalty exp(1 - r/c) = {math.exp(1 - r / c):.3g}, decimals {decimals}",
        )

    return Family(
        "valid/decimals-across-magnitudes",
        "valid",
        build(),
        "decimals 1..15 on penalties in every decade from 1e-12 to 1 (toFixed, not toPrecision)",
        aims=ROUNDING_AIMS,
    )


def split_total(total: int, weights: list[int]) -> list[int]:
    """``total`` in shares proportional to ``weights`` (each at least its weight, so r_i >= c_i)."""
    shares = [total * w // sum(weights) for w in weights]
    shares[-1] += total - sum(shares)
    return shares


@composite
def scored_segment(draw) -> tuple[list[str], list[str], int, float]:
    """(hypothesis, reference, max_order, about the BLEU): a matched run of a tokens and b unmatched
    tokens, against the run and filler making the reference long enough for a drawn decade."""
    target = target_value(draw)
    max_order = draw(st.integers(1, 4))
    a, b = draw(st.integers(max_order, 20)), draw(st.integers(0, 20))
    c = a + b
    precisions = math.exp(sum(math.log((a - n + 1) / (c - n + 1)) for n in range(1, max_order + 1)) / max_order)
    r = c if target >= precisions else lengths_for(c, target / precisions)
    matched = [f"m{i}" for i in range(a)]
    hypothesis = matched + [f"u{i}" for i in range(b)]
    reference = matched + [f"f{i}" for i in range(r - a)]
    return hypothesis, reference, max_order, precisions * math.exp(1 - r / c)


def bleu_magnitudes(options: st.SearchStrategy[dict]) -> Family:
    """BLEU and its brevity penalty in drawn decades, decimals 1..15."""

    @composite
    def build(draw):
        hypothesis, reference, max_order, about = draw(scored_segment())
        chosen = {key: value for key, value in draw(options).items() if value is not None}
        chosen.update(max_order=max_order, decimals=draw(DECIMALS))
        record_rounding(about, chosen["decimals"])
        payload = {"hypotheses": [hypothesis], "references": [[reference]], **chosen}
        return case(
            payload,
            EXPECT_OUTPUT,
            f"a BLEU of about {about:.3g} ({len(hypothesis)} hypothesis, "
            f"{len(reference)} reference tokens), decimals {chosen['decimals']}",
        )

    return Family(
        "valid/decimals-across-magnitudes",
        "valid",
        build(),
        "decimals 1..15 on BLEU scores in every decade from 1e-12 to 1 (toFixed, not toPrecision)",
        aims=ROUNDING_AIMS,
    )


# --- chrF: exact six-decimal ties ----------------------------------------------------------


def odd_divisors(n: int) -> list[int]:
    while n % 2 == 0:
        n //= 2
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


@functools.cache
def ties(largest_h: int) -> tuple[tuple[int, int], ...]:
    """(beta, H) with 100 (1 + beta^2) / (beta^2 + H) exactly halfway between two six-decimal values.

    2 * 10^6 * score = 2 * 10^8 (1 + beta^2) / T with T = beta^2 + H must be an odd integer: T is a
    divisor of N = 2 * 10^8 (1 + beta^2) holding all of N's factors 2."""
    found = []
    for beta in range(1, 17):
        n = 2 * 10**8 * (1 + beta * beta)
        twos = n & -n
        for odd in odd_divisors(n):
            h = twos * odd - beta * beta
            if 1 <= h <= largest_h:
                found.append((beta, h))
    return tuple(sorted(found))


def tie_score(beta: int, h: int) -> Fraction:
    return Fraction(100 * (1 + beta * beta), beta * beta + h)


LETTERS = "abcdefghijklmnopqrstuvwyz"  # every lowercase letter but "x"


def six_decimal_ties(extra: st.SearchStrategy[dict], largest_h: int = 1500) -> Family:
    """Scores exactly halfway between two six-decimal values, below 1, between 1 and 50 and above 50."""
    found = ties(largest_h)
    groups = {
        "below-1": [t for t in found if tie_score(*t) < 1],
        "1-to-50": [t for t in found if 1 <= tie_score(*t) < 50],
        "above-50": [t for t in found if tie_score(*t) >= 50],
    }

    @composite
    def build(draw):
        where = draw(st.sampled_from(sorted(groups)))
        beta, h = draw(st.sampled_from(groups[where]))
        segments = draw(st.integers(1, 2))  # identical segments: the sums scale, the score stays
        separator = draw(st.sampled_from((" ", "\t")))  # short in JSON: the valid inputs stay small
        words = [LETTERS[i % len(LETTERS)] for i in range(h - 1)]  # few examples: no draw per word
        words.insert(h // 2, "x")
        hypotheses = [separator.join(words)] * segments
        aimed(f"tie-{where}")
        score = tie_score(beta, h)
        payload = {"hypotheses": hypotheses, "references": ["x"] * segments, "beta": beta, **draw(extra)}
        return case(
            payload,
            EXPECT_OUTPUT,
            f"an exact tie: {h} one-letter words, one 'x', against 'x' with beta {beta}: score "
            f"100 (1 + {beta}^2) / ({beta}^2 + {h}) = {float(score):.7f}, halfway (ties to even)",
        )

    return Family(
        "valid/six-decimal-ties",
        "valid",
        build(),
        "scores exactly halfway between six-decimal values, below 1, below 50 and above 50",
        aims=("tie-below-1", "tie-1-to-50", "tie-above-50"),
    )

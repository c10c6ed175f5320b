"""BLEU scores from sufficient statistics (Papineni et al. 2002, section 2.3).

Scores only: the statistics they are computed from live in ``oracle.bleu_statistics``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ScoreTerms:
    """The exact statistics a BLEU-family float is computed from: c and r of the brevity penalty,
    and the (numerator, denominator) of each p_n the score uses, or None where the contract fixes
    the score at exactly 0. The comparison bounds a libm's error from these."""

    candidate_length: int
    reference_length: int
    precisions: list[tuple[float, int]] | None = None


def brevity_penalty(candidate_length: int, reference_length: int) -> float:
    """1 when c > r, 0 when c = 0 (even if r = 0), otherwise exp(1 - r/c)."""
    c, r = candidate_length, reference_length
    if c > r:
        return 1.0
    if c == 0:
        return 0.0
    return math.exp(1 - r / c)


def geometric_mean_score(bp: float, precisions: list[tuple[float, int]]) -> float:
    """bp * exp((1/N) * sum of ln(p_n)), each p_n = numerator / denominator (one division), summed in order."""
    n_orders = len(precisions)
    log_sum = 0.0
    for numerator, denominator in precisions:
        log_sum += math.log(numerator / denominator)
    return bp * math.exp((1 / n_orders) * log_sum)


def bleu_score(bp: float, matches: list[int], totals: list[int]) -> float:
    """bp * exp((1/N) * sum of ln(m_n / l_n)), summed in order n = 1..N.

    Exactly 0 when bp is 0 or any m_n is 0 (which covers l_n = 0): never NaN.
    """
    if bp == 0 or any(m == 0 for m in matches):
        return 0.0
    return geometric_mean_score(bp, list(zip(matches, totals)))


# --- Smoothed sentence BLEU (Chen and Cherry 2014, section 2) ------------------------------

SMOOTHING_METHODS = ("none", "chen-cherry-1", "chen-cherry-2", "chen-cherry-3")
FLOOR_EPSILON = 0.1  # smoothing 1: "epsilon 0.1", the double nearest 1/10


def smoothed_precisions(matches: list[int], totals: list[int], method: str) -> list[tuple[float, int]]:
    """(numerator, denominator) of each p_n as the method defines it; a denominator 0 means no p_n.

    none: m_n / l_n. chen-cherry-1: 0.1 / l_n where m_n = 0. chen-cherry-2 (Lin and Och 2004):
    (m_n + 1) / (l_n + 1) for n >= 2. chen-cherry-3 (NIST): 1 / (2^k l_n) where m_n = 0, k
    starting at 1 and growing by one at each such order.
    """
    precisions: list[tuple[float, int]] = []
    k = 1
    for n, (m_n, l_n) in enumerate(zip(matches, totals), start=1):
        if method == "chen-cherry-1" and m_n == 0:
            precisions.append((FLOOR_EPSILON, l_n))
        elif method == "chen-cherry-2" and n >= 2:
            precisions.append((m_n + 1, l_n + 1))
        elif method == "chen-cherry-3" and m_n == 0:
            precisions.append((1, 2**k * l_n))
            k += 1
        else:
            precisions.append((m_n, l_n))
    return precisions


def orders_used(precisions: list[tuple[float, int]], effective_order: bool) -> int:
    """N': every order, or with effective order the leading orders whose smoothed denominator is > 0."""
    if not effective_order:
        return len(precisions)
    used = 0
    for _, denominator in precisions:
        if denominator == 0:
            break
        used += 1
    return used


def sentence_bleu_is_zero(
    candidate_length: int,
    matches: list[int],
    precisions: list[tuple[float, int]],
    used: int,
    effective_order: bool,
    method: str,
) -> bool:
    """The contract's zero rules of sentence BLEU."""
    return (
        candidate_length == 0
        or matches[0] == 0  # "exactly 0 when c = 0, when m_1 = 0"
        # "when effective_order is false and some order n <= max_order has smoothed denominator 0"
        or not effective_order
        and any(denominator == 0 for _, denominator in precisions)
        # "and with none when some m_n = 0 for n <= N'"
        or method == "none"
        and any(m == 0 for m in matches[:used])
    )


def sentence_bleu(
    bp: float,
    candidate_length: int,
    matches: list[int],
    precisions: list[tuple[float, int]],
    used: int,
    effective_order: bool,
    method: str,
) -> float:
    """The zero rules, then bp * exp((1/N') * sum of ln(p_n)) over the N' orders used."""
    if sentence_bleu_is_zero(candidate_length, matches, precisions, used, effective_order, method):
        return 0.0
    return geometric_mean_score(bp, precisions[:used])


def corpus_terms(payload: dict[str, Any], output: dict[str, Any]) -> ScoreTerms:
    """bleu-corpus-compute's output: exactly 0 when c = 0 or any m_n = 0, else every m_n / l_n."""
    matches, totals = output["matches"], output["totals"]
    zero = output["candidate_length"] == 0 or any(m == 0 for m in matches)
    return ScoreTerms(
        output["candidate_length"], output["reference_length"], None if zero else list(zip(matches, totals))
    )

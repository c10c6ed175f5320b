"""BLEU scores from sufficient statistics (Papineni et al. 2002, section 2.3).

Scores only: the statistics they are computed from live in ``oracle.bleu_statistics``.
"""

from __future__ import annotations

import math


def brevity_penalty(candidate_length: int, reference_length: int) -> float:
    """1 when c > r, 0 when c = 0 (even if r = 0), otherwise exp(1 - r/c)."""
    c, r = candidate_length, reference_length
    if c > r:
        return 1.0
    if c == 0:
        return 0.0
    return math.exp(1 - r / c)


def bleu_score(bp: float, matches: list[int], totals: list[int]) -> float:
    """bp * exp((1/N) * sum of ln(m_n / l_n)), summed in order n = 1..N.

    Exactly 0 when bp is 0 or any m_n is 0 (which covers l_n = 0): never NaN.
    """
    if bp == 0 or any(m == 0 for m in matches):
        return 0.0
    n_orders = len(matches)
    log_sum = 0.0
    for m, l in zip(matches, totals):
        log_sum += math.log(m / l)
    return bp * math.exp((1 / n_orders) * log_sum)

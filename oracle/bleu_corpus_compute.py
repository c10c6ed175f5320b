"""bleu-corpus-compute@1.0.0: canonical corpus BLEU from pre-tokenized segments.

Reads top to bottom like the contract's semantics.
"""

from __future__ import annotations

import math

from oracle.bleu_statistics import closest_ref_length, corpus_sums, segment_statistics
from oracle.jsnumber import round_to_fixed
from oracle.validation import Rule, Schema, bleu_no_lone_surrogates, bleu_token_limits, equal_segment_counts

TOOL_ID = "bleu-corpus-compute"
VERSION = "1.0.0"
DEFAULT_MAX_ORDER = 4  # "max_order omitted means 4"

VALIDATION = [
    Schema("hypotheses"),
    Schema("references"),
    Schema("max_order"),
    Schema("decimals"),
    Rule("equal segment counts", equal_segment_counts),
    Rule("no lone surrogates", bleu_no_lone_surrogates),
    Rule("token limits", bleu_token_limits),
]


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


def compute(payload: dict, limits: dict) -> dict:
    max_order = int(payload.get("max_order", DEFAULT_MAX_ORDER))
    hypotheses, references = payload["hypotheses"], payload["references"]

    # m_n and l_n summed over all segments before dividing; clipping by the largest count in one reference.
    per_segment = [segment_statistics(h, refs, max_order) for h, refs in zip(hypotheses, references)]
    matches, totals = corpus_sums(per_segment, max_order)

    # c is the total hypothesis length; r sums per segment the closest reference length, ties to the shorter.
    candidate_length = sum(len(h) for h in hypotheses)
    reference_length = sum(closest_ref_length(len(h), refs) for h, refs in zip(hypotheses, references))

    bp = brevity_penalty(candidate_length, reference_length)
    bleu = bleu_score(bp, matches, totals)

    # decimals rounds bleu and brevity_penalty with Number.prototype.toFixed; omitted: full precision.
    if "decimals" in payload:
        digits = int(payload["decimals"])
        bleu, bp = round_to_fixed(bleu, digits), round_to_fixed(bp, digits)

    return {
        "bleu": bleu,
        "brevity_penalty": bp,
        "candidate_length": candidate_length,
        "reference_length": reference_length,
        "max_order": max_order,
        "matches": matches,
        "totals": totals,
    }

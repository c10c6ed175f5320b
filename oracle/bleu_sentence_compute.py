"""bleu-sentence-compute@1.0.0: smoothed sentence BLEU (Chen and Cherry 2014).

Reads top to bottom like the contract's semantics; the statistics are those of
bleu-sentence-components (``oracle.bleu_statistics``), the precisions and the score those of
``oracle.bleu_score``.
"""

from __future__ import annotations

from typing import Any

from oracle.bleu_score import (
    ScoreTerms,
    brevity_penalty,
    orders_used,
    sentence_bleu,
    sentence_bleu_is_zero,
    smoothed_precisions,
)
from oracle.bleu_statistics import DEFAULT_MAX_ORDER, closest_ref_length, segment_statistics
from oracle.jsnumber import round_to_fixed
from oracle.tool import Tool
from oracle.validation import LIMIT_KEYWORDS, SENTENCE_LIMITS, Schema, lone_surrogates_in
from oracle.value_clauses import ValueClause

DEFAULT_EFFECTIVE_ORDER = False  # "effective_order is false (omitted means false)"


def compute(payload: dict[str, Any]) -> dict[str, Any]:
    max_order = int(payload.get("max_order", DEFAULT_MAX_ORDER))  # "max_order omitted means 4"
    smoothing = payload["smoothing"]  # "smoothing is required"
    effective_order = payload.get("effective_order", DEFAULT_EFFECTIVE_ORDER)
    hypothesis, references = payload["hypothesis"], payload["references"]

    # m_n, l_n, c and r "are those of bleu-sentence-components@1.0.0"
    statistics = segment_statistics(hypothesis, references, max_order)
    c = len(hypothesis)
    r = closest_ref_length(c, references)

    # "brevity_penalty is 1 when c > r, 0 when c = 0 (even if r = 0), otherwise exp(1 - r/c)"
    bp = brevity_penalty(c, r)
    # "Precision p_n by smoothing method"; N' the orders used
    precisions = smoothed_precisions(statistics.matches, statistics.totals, smoothing)
    used = orders_used(precisions, effective_order)
    bleu = sentence_bleu(bp, c, statistics.matches, precisions, used, effective_order, smoothing)

    # "decimals (0-15) rounds bleu and brevity_penalty with Number.prototype.toFixed"
    if "decimals" in payload:
        digits = int(payload["decimals"])
        bleu, bp = round_to_fixed(bleu, digits), round_to_fixed(bp, digits)

    # "matches and totals are the raw m_n and l_n, never smoothed"
    return {
        "bleu": bleu,
        "brevity_penalty": bp,
        "candidate_length": c,
        "reference_length": r,
        "max_order": max_order,
        "orders_used": used,
        "smoothing": smoothing,
        "matches": statistics.matches,
        "totals": statistics.totals,
    }


def float_terms(payload: dict[str, Any], output: dict[str, Any]) -> ScoreTerms:
    """The exact statistics bleu and brevity_penalty come from: c, r and the p_n of the orders used."""
    c, matches, method = output["candidate_length"], output["matches"], output["smoothing"]
    effective_order = payload.get("effective_order", DEFAULT_EFFECTIVE_ORDER)
    precisions = smoothed_precisions(matches, output["totals"], method)
    used = orders_used(precisions, effective_order)
    zero = sentence_bleu_is_zero(c, matches, precisions, used, effective_order, method)
    return ScoreTerms(c, output["reference_length"], None if zero else precisions[:used])


def counts_line(payload: dict[str, Any], actual: dict[str, Any], pointer: str) -> int:
    """Differing matches or totals: semantics 12 ("the raw m_n and l_n, never smoothed") where the target
    reports both as chen-cherry-2 smooths them (m_n + 1 and l_n + 1 for n >= 2, sacreBLEU's add-k); else
    semantics 2, which defines m_n and l_n (NLTK's max(1, l_n) breaks it)."""
    statistics = segment_statistics(
        payload["hypothesis"], payload["references"], int(payload.get("max_order", DEFAULT_MAX_ORDER))
    )
    smoothed = [
        (m_n + (n > 0), l_n + (n > 0)) for n, (m_n, l_n) in enumerate(zip(statistics.matches, statistics.totals))
    ]
    return 12 if list(zip(actual["matches"], actual["totals"])) == smoothed else 2


COUNTS = ValueClause((2, 12), counts_line)

# "Validation order ...: ... hypothesis (array of non-empty strings free of lone surrogates),
# references (array of at least one such array), max_order (integer 1..8), smoothing (one of the
# four names), effective_order (boolean), decimals (integer 0..15); then the limits"
TOOL = Tool(
    id="bleu-sentence-compute",
    version="1.0.0",
    validation=(
        Schema("hypothesis", leave=LIMIT_KEYWORDS),
        lone_surrogates_in("hypothesis"),
        Schema("references", leave=LIMIT_KEYWORDS),
        lone_surrogates_in("references"),
        Schema("max_order"),
        Schema("smoothing"),
        Schema("effective_order"),
        Schema("decimals"),
        SENTENCE_LIMITS,
    ),
    compute=compute,
    float_fields=("bleu", "brevity_penalty"),  # exp/log of a libm: compared within a bound
    float_terms=float_terms,
    # the semantics line defining each output field (a (line, option) pair counts when the input sets it)
    clauses={
        "/bleu": (9, (11, "decimals")),
        "/brevity_penalty": (3, (11, "decimals")),
        "/candidate_length": 2,
        "/reference_length": 2,
        "/matches": COUNTS,
        "/matches/*": COUNTS,
        "/totals": COUNTS,
        "/totals/*": COUNTS,
        "/max_order": 12,
        "/orders_used": 8,
        "/smoothing": 12,
    },
)

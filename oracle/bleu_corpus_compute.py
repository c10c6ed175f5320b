"""bleu-corpus-compute@1.0.0: canonical corpus BLEU from pre-tokenized segments.

Reads top to bottom like the contract's semantics.
"""

from __future__ import annotations

from typing import Any

from oracle.bleu_score import bleu_score, brevity_penalty, corpus_terms
from oracle.bleu_statistics import DEFAULT_MAX_ORDER, closest_ref_length, corpus_sums, segment_statistics
from oracle.jsnumber import round_to_fixed
from oracle.tool import Tool
from oracle.validation import BLEU_NO_LONE_SURROGATES, BLEU_TOKEN_LIMITS, EQUAL_SEGMENT_COUNTS, Schema


def compute(payload: dict[str, Any]) -> dict[str, Any]:
    max_order = int(payload.get("max_order", DEFAULT_MAX_ORDER))  # "max_order omitted means 4"
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


TOOL = Tool(
    id="bleu-corpus-compute",
    version="1.0.0",
    validation=(
        Schema("hypotheses"),
        Schema("references"),
        Schema("max_order"),
        Schema("decimals"),
        EQUAL_SEGMENT_COUNTS,
        BLEU_NO_LONE_SURROGATES,
        BLEU_TOKEN_LIMITS,
    ),
    compute=compute,
    float_fields=("bleu", "brevity_penalty"),  # exp/log of a libm: compared within a bound
    float_terms=corpus_terms,
    # the semantics line defining each output field (a (line, option) pair counts when the input sets it)
    clauses={
        "/bleu": (5, (6, "decimals")),
        "/brevity_penalty": (4, (6, "decimals")),
        "/candidate_length": 3,
        "/reference_length": 3,
        "/max_order": 2,
        "/matches": 2,
        "/matches/*": 2,
        "/totals": 2,
        "/totals/*": 2,
    },
)

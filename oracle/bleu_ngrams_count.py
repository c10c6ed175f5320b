"""bleu-ngrams-count@1.0.0: clipped n-gram matches and totals per order.

Reads top to bottom like the contract's semantics.
"""

from __future__ import annotations

from typing import Any

from oracle.bleu_statistics import DEFAULT_MAX_ORDER, corpus_sums, segment_statistics
from oracle.tool import Tool
from oracle.validation import (
    BLEU_NO_LONE_SURROGATES,
    BLEU_TOKEN_LIMITS,
    EQUAL_SEGMENT_COUNTS,
    OUTPUT_SIZE_LIMIT,
    Schema,
)

DEFAULT_DETAIL = "totals"  # "default when omitted"


def compute(payload: dict[str, Any]) -> dict[str, Any]:
    max_order = int(payload.get("max_order", DEFAULT_MAX_ORDER))  # "omitted means 4"
    detail = payload.get("detail", DEFAULT_DETAIL)

    # "For each order n = 1..max_order ... clipped_count(g) = min(count, max_reference_count)";
    # "N-grams never cross segment boundaries": statistics are per segment, then summed.
    per_segment = [
        segment_statistics(hypothesis, references, max_order)
        for hypothesis, references in zip(payload["hypotheses"], payload["references"])
    ]
    matches, totals = corpus_sums(per_segment, max_order)
    output: dict[str, Any] = {"max_order": max_order, "matches": matches, "totals": totals}

    # detail "segments" adds one row per segment in input order; "ngrams" also adds
    # one row per distinct hypothesis n-gram (segment, then order, then first occurrence).
    if detail in ("segments", "ngrams"):
        output["segments"] = [
            {"segment": i, "candidate_length": s.candidate_length, "matches": s.matches, "totals": s.totals}
            for i, s in enumerate(per_segment)
        ]
    if detail == "ngrams":
        output["ngrams"] = [
            {
                "segment": i,
                "order": row.order,
                "ngram": list(row.ngram),
                "count": row.count,
                "max_reference_count": row.max_reference_count,
                "clipped_count": row.clipped_count,
            }
            for i, s in enumerate(per_segment)
            for row in s.rows()
        ]
    return output


TOOL = Tool(
    id="bleu-ngrams-count",
    version="1.0.0",
    validation=(
        Schema("hypotheses"),
        Schema("references"),
        Schema("max_order"),
        Schema("detail"),
        EQUAL_SEGMENT_COUNTS,
        BLEU_NO_LONE_SURROGATES,
        BLEU_TOKEN_LIMITS,
    ),
    compute=compute,
    # "Output larger than 1,000,000 UTF-8 bytes of JSON is limit_exceeded"
    output_checks=(OUTPUT_SIZE_LIMIT,),
    # the semantics line defining each output field (a (line, option) pair counts when the input sets it)
    clauses={
        "/max_order": 2,
        "/matches": 3,
        "/matches/*": 3,
        "/totals": 3,
        "/totals/*": 3,
        "/segments": 4,
        "/segments/*": 4,
        "/segments/*/segment": 4,
        "/segments/*/matches": 3,
        "/segments/*/matches/*": 3,
        "/segments/*/totals": 3,
        "/segments/*/totals/*": 3,
        "/ngrams": 4,
        "/ngrams/*": 4,
        "/ngrams/*/segment": 4,
        "/ngrams/*/order": 4,
        "/ngrams/*/ngram": 4,
        "/ngrams/*/count": 2,
        "/ngrams/*/max_reference_count": 2,
        "/ngrams/*/clipped_count": 2,
    },
)

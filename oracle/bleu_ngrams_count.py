"""bleu-ngrams-count@1.0.0: clipped n-gram matches and totals per order.

Reads top to bottom like the contract's semantics.
"""

from __future__ import annotations

import json

from oracle.bleu_statistics import corpus_sums, segment_statistics
from oracle.errors import LIMIT_EXCEEDED, ContractError
from oracle.validation import Rule, Schema, bleu_no_lone_surrogates, bleu_token_limits, equal_segment_counts

TOOL_ID = "bleu-ngrams-count"
VERSION = "1.0.0"
DEFAULT_MAX_ORDER = 4  # "omitted means 4"
DEFAULT_DETAIL = "totals"  # "default when omitted"

VALIDATION = [
    Schema("hypotheses"),
    Schema("references"),
    Schema("max_order"),
    Schema("detail"),
    Rule("equal segment counts", equal_segment_counts),
    Rule("no lone surrogates", bleu_no_lone_surrogates),
    Rule("token limits", bleu_token_limits),
]


def output_size(output: dict) -> int:
    """UTF-8 bytes of the output as compact JSON (JSON.stringify's form) without the envelope.

    Which serialisation the limit measures is an open point (reports/ambiguities.md).
    """
    return len(json.dumps(output, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))


def compute(payload: dict, limits: dict) -> dict:
    max_order = int(payload.get("max_order", DEFAULT_MAX_ORDER))
    detail = payload.get("detail", DEFAULT_DETAIL)

    # "For each order n = 1..max_order ... clipped_count(g) = min(count, max_reference_count)";
    # "N-grams never cross segment boundaries": statistics are per segment, then summed.
    per_segment = [
        segment_statistics(hypothesis, references, max_order)
        for hypothesis, references in zip(payload["hypotheses"], payload["references"])
    ]
    matches, totals = corpus_sums(per_segment, max_order)
    output: dict = {"max_order": max_order, "matches": matches, "totals": totals}

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

    # "Output larger than 1,000,000 UTF-8 bytes of JSON is limit_exceeded."
    limit = limits["max_output_bytes"]
    size = output_size(output)
    if size > limit:
        raise ContractError(
            LIMIT_EXCEEDED,
            f"detail: the {detail!r} output would be {size} UTF-8 bytes of JSON, more than max_output_bytes {limit}; "
            "ask for a coarser detail level or split the corpus",
        )
    return output

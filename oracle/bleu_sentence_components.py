"""bleu-sentence-components@1.0.0: BLEU's sufficient statistics of one segment.

Reads top to bottom like the contract's semantics; the statistics are those of every BLEU
tool (``oracle.bleu_statistics``).
"""

from __future__ import annotations

from typing import Any

from oracle.bleu_statistics import DEFAULT_MAX_ORDER, closest_ref_length, segment_statistics
from oracle.tool import Tool
from oracle.validation import LIMIT_KEYWORDS, SENTENCE_LIMITS, Schema, lone_surrogates_in


def compute(payload: dict[str, Any]) -> dict[str, Any]:
    max_order = int(payload.get("max_order", DEFAULT_MAX_ORDER))  # "max_order (omitted means 4)"
    hypothesis, references = payload["hypothesis"], payload["references"]

    # "clipped_count(g) = min(count, max_reference_count)", summed per order; totals max(0, len - n + 1)
    statistics = segment_statistics(hypothesis, references, max_order)

    return {
        "max_order": max_order,
        "matches": statistics.matches,
        "totals": statistics.totals,
        "candidate_length": len(hypothesis),
        # "the length of the reference closest to it ..., ties going to the shorter reference"
        "reference_length": closest_ref_length(len(hypothesis), references),
    }


# "Validation order ...: plain object, unknown keys, missing keys, then the fields in schema order:
# hypothesis (array of non-empty strings free of lone surrogates), references (array of at least one
# such array), max_order (integer 1..8); then the limits"
TOOL = Tool(
    id="bleu-sentence-components",
    version="1.0.0",
    validation=(
        Schema("hypothesis", leave=LIMIT_KEYWORDS),
        lone_surrogates_in("hypothesis"),
        Schema("references", leave=LIMIT_KEYWORDS),
        lone_surrogates_in("references"),
        Schema("max_order"),
        SENTENCE_LIMITS,
    ),
    compute=compute,
    # the semantics line defining each output field (a (line, option) pair counts when the input sets it)
    clauses={
        "/max_order": 2,
        "/matches": 3,
        "/matches/*": 3,
        "/totals": 3,
        "/totals/*": 3,
        "/candidate_length": 4,
        "/reference_length": 4,
    },
)

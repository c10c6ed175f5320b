"""Generated cases for chrf-compute: the chrF families (texts, whitespace, punctuation, Unicode,
lowercase, orders a segment lacks, short and empty texts, every beta) and the contract's stated
codes: 257 segments answer limit_exceeded."""

from __future__ import annotations

from conformance.strategies import chrf
from conformance.strategies.base import LIMIT_EXCEEDED, Family


def families(tool_id: str, version: str) -> list[Family]:
    return [
        *chrf.valid_families(tool_id, version),
        *chrf.boundary_families(tool_id, version, segments_expect=LIMIT_EXCEEDED),
        *chrf.invalid_families(tool_id, version, segments_expect=LIMIT_EXCEEDED),
    ]

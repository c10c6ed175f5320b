"""Generated cases for chrf-compute: the chrF families (texts, whitespace, punctuation, Unicode,
lowercase, orders a segment lacks, short and empty texts, every beta) and the contract's stated
codes: 257 segments answer limit_exceeded."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies import aiming, chrf, keys, limit_forms, magnitudes, widths
from conformance.strategies.base import LIMIT_EXCEEDED, Family, limits


def families(tool_id: str, version: str) -> list[Family]:
    return aiming.with_aims(
        [
            *chrf.valid_families(tool_id, version),
            Family("valid/integers-as-floats", "valid", chrf.integers_as_floats(), "beta written 2.0: the integer 2"),
            *chrf.boundary_families(tool_id, version, segments_expect=LIMIT_EXCEEDED),
            limit_forms.chrf_text_family(tool_id, version),
            Family(
                "invalid/surrogate-bytes",
                "invalid",
                chrf.surrogate_bytes(tool_id, version),
                "a lone surrogate counting 3 bytes at the byte limit and one past it",
            ),
            *chrf.invalid_families(tool_id, version, segments_expect=LIMIT_EXCEEDED),
            widths.wide_texts_family(limits(tool_id, version)["max_text_bytes"]),
            magnitudes.six_decimal_ties(st.just({})),
            keys.property_named_keys(chrf.ordinary_texts()),
        ],
        {
            "valid/integers-as-floats": chrf.INTEGERS_AS_FLOATS_FEATURES,
            "invalid/surrogate-bytes": chrf.SURROGATE_BYTES_FEATURES,
        },
    )

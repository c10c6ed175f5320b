"""Generated cases for chrf-plus-plus-compute: the chrF families, with A4's readings (the
contract's corpus sums and sacreBLEU's) and A6 (257 segments: either code) left open."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies import chrf, keys, limit_forms, magnitudes, widths
from conformance.strategies.base import Family, limits
from conformance.strategies.chrf import CASED_WORDS  # noqa: F401 - the tests read the lowercase words here


def families(tool_id: str, version: str) -> list[Family]:
    return [
        *chrf.valid_families(tool_id, version),
        *chrf.boundary_families(tool_id, version),
        limit_forms.chrf_text_family(tool_id, version),
        *chrf.invalid_families(tool_id, version),
        widths.wide_texts_family(limits(tool_id, version)["max_text_bytes"]),
        keys.joined_word_ngrams(st.just(2), lambda order: st.just({})),
        magnitudes.six_decimal_ties(st.just({})),
        keys.property_named_keys(chrf.ordinary_texts()),
    ]

"""The three chrF tools agree where their contracts say they must (one engine, three option maps).

chrf-components with char_order 6, word_order 2 and whitespace false is chrF++ ("char_order 6
with word_order 2 gives chrF++"); with word_order 0 and the default char_order 6 it is chrF
("sacreBLEU's CHRF defaults, which give chrF"). Held on every valid input of the chrF families.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from conformance.hypothesis_profiles import PROJECT
from conformance.strategies import families

V = "1.0.0"
VALID = st.one_of(*(family.strategy for family in families("chrf-plus-plus-compute", V) if family.category == "valid"))


def components(payload: dict, **orders) -> dict:
    return oracle.execute("chrf-components", V, {**payload, **orders})


@settings(settings.get_profile(PROJECT), max_examples=150)
@given(VALID)
def test_components_with_orders_6_and_2_is_chrf_plus_plus(generated):
    expected = oracle.execute("chrf-plus-plus-compute", V, generated.input)
    found = components(generated.input, char_order=6, word_order=2, whitespace=False)
    assert (found["score"], found["score_fraction"]) == (expected["score"], expected["score_fraction"])
    assert [segment["score"] for segment in found["segments"]] == expected["segment_scores"]


@settings(settings.get_profile(PROJECT), max_examples=150)
@given(VALID)
def test_components_with_word_order_0_is_chrf(generated):
    expected = oracle.execute("chrf-compute", V, generated.input)
    found = components(generated.input, word_order=0)
    assert (found["score"], found["score_fraction"]) == (expected["score"], expected["score_fraction"])
    assert [segment["score"] for segment in found["segments"]] == expected["segment_scores"]


@pytest.mark.parametrize("text", ["a b", "a\u00a0b c", "\u3000x\u2028y\t"])
def test_whitespace_kept_counts_every_code_point(text):
    found = components({"hypotheses": [text], "references": [text]}, char_order=1, whitespace=True)
    assert found["statistics"][0]["hypothesis_ngrams"] == len(text)
    removed = components({"hypotheses": [text], "references": [text]}, char_order=1)
    assert removed["statistics"][0]["hypothesis_ngrams"] == len(text) - sum(ch.isspace() for ch in text)

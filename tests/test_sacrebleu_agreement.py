"""The oracle agrees with sacreBLEU 2.x wherever the two must agree.

The domain, and why outside it they may not:

* Tokens: every token free of the code points for which Python's str.isspace()
  is true. sacreBLEU takes a segment as one string and splits it with
  str.split() (tokenize='none'), so a token holding a space, U+00A0, U+001C ...
  cannot be handed to it unchanged; tokens are never empty (schema minLength 1).
  Hypotheses and references may be empty, references per segment may vary in
  number (sacreBLEU's reference streams padded with None).
* BLEU sufficient statistics (matches, totals, candidate and reference length,
  closest length with ties to the shorter): equal on the whole domain.
* Brevity penalty: within 1e-9 relative, except c = r = 0 where sacreBLEU keeps
  its initial 1.0 and the contract says 0 (catalogue: sacrebleu-bp-empty-candidate).
* BLEU score, sacreBLEU's percent scale = 100 x the contract's, within 1e-9
  relative (both are exp of a sum of a few logs: ~1e-15 apart), and 0 exactly
  equal to 0:
  - smooth_method='none': on the whole domain (a zero precision goes through
    sacreBLEU's my_log guard, -9999999999, and exp of it is exactly 0.0);
  - the default smooth_method='exp': where every m_n > 0, so smoothing never acts
    (catalogue: sacrebleu-exp-smoothing);
  - effective_order=True: where every l_n > 0, so no order is dropped
    (catalogue: sacrebleu-effective-order).
* chrF++ = CHRF(word_order=2, beta=beta, lowercase=lowercase): word tokens
  equal and segment scores within 1e-9 relative on any text (Python's
  str.split() whitespace set equals the contract's list, proved below, and
  _remove_punctuation is the contract's rule); the corpus score within 1e-9
  relative for one segment, and for corpora where no segment's reference lacks
  an order its hypothesis has (open point A4: sacreBLEU drops those hypothesis
  n-grams, the contract counts them). lowercase=true only on an alphabet whose
  lowercase mapping is the same in every Unicode version in use (open point A5:
  sacreBLEU and this oracle use Python's str.lower, the contract names the
  runtime's String.prototype.toLowerCase).
"""

import math
import sys
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU, CHRF

import oracle
from conformance.crosscheck.adapters.bleu import PLAIN_TOKENS
from conformance.crosscheck.adapters.chrf import chrf_inputs
from conformance.crosscheck.adapters.chrf_plus_plus_compute import (
    orders_missing_from_a_reference as segment_order_missing_from_reference,
)
from conformance.hypothesis_profiles import TESTS_SACREBLEU_AGREEMENT
from oracle.chrf import WHITESPACE_CODE_POINTS

REL = 1e-9


def execute(tool_id, payload):
    return oracle.execute(tool_id, "1.0.0", payload)


def sacrebleu_streams(payload):
    hypotheses = [" ".join(h) for h in payload["hypotheses"]]
    width = max(len(refs) for refs in payload["references"])
    streams = [[" ".join(refs[j]) if j < len(refs) else None for refs in payload["references"]] for j in range(width)]
    return hypotheses, streams


def close(contract_value, library_value):
    return math.isclose(float(contract_value), library_value, rel_tol=REL, abs_tol=0.0)


# Tokens without whitespace, from a small vocabulary (shared n-grams) plus non-ASCII and astral ones.
TOKEN = st.sampled_from(PLAIN_TOKENS + ["\u00e9t\u00e9", "\U0001f600", "."])


@st.composite
def bleu_payloads(draw):
    segments = draw(st.integers(1, 4))
    tokens = st.lists(TOKEN, max_size=8)
    payload = {
        "hypotheses": [draw(tokens) for _ in range(segments)],
        "references": [draw(st.lists(tokens, min_size=1, max_size=3)) for _ in range(segments)],
    }
    order = draw(st.none() | st.integers(1, 6))
    if order is not None:
        payload["max_order"] = order
    return payload


@st.composite
def matching_bleu_payloads(draw):
    """Corpora where every order matches: segment 0's hypothesis extends a reference of at least max_order tokens."""
    payload = draw(bleu_payloads())
    order = payload.get("max_order", 4)
    anchor = draw(st.lists(TOKEN, min_size=order, max_size=8))
    payload["hypotheses"][0] = anchor + draw(st.lists(TOKEN, max_size=3))
    payload["references"][0][0] = anchor
    return payload


def sacrebleu_score(payload, **options):
    bleu = BLEU(tokenize="none", max_ngram_order=payload.get("max_order", 4), **options)
    return bleu.corpus_score(*sacrebleu_streams(payload))


@settings(settings.get_profile(TESTS_SACREBLEU_AGREEMENT))
@given(bleu_payloads())
def test_statistics_equal_sacrebleu_segment_by_segment(payload):
    n = payload.get("max_order", 4)
    bleu = BLEU(tokenize="none", max_ngram_order=n)
    rows = bleu._extract_corpus_statistics(*sacrebleu_streams(payload))
    segments = execute("bleu-ngrams-count", {**payload, "detail": "segments"})["segments"]
    for row, segment in zip(rows, segments):
        assert segment["candidate_length"] == row[0]
        assert segment["matches"] == row[2 : 2 + n]
        assert segment["totals"] == row[2 + n :]


@settings(settings.get_profile(TESTS_SACREBLEU_AGREEMENT))
@given(bleu_payloads())
def test_corpus_bleu_equals_sacrebleu_without_smoothing(payload):
    output = execute("bleu-corpus-compute", payload)
    score = sacrebleu_score(payload, smooth_method="none")
    assert output["matches"] == score.counts
    assert output["totals"] == score.totals
    assert output["candidate_length"] == score.sys_len
    assert output["reference_length"] == score.ref_len
    assert close(100 * output["bleu"], score.score)
    if not (score.sys_len == 0 and score.ref_len == 0):
        assert close(output["brevity_penalty"], score.bp)


@settings(settings.get_profile(TESTS_SACREBLEU_AGREEMENT))
@given(matching_bleu_payloads())
def test_corpus_bleu_equals_sacrebleu_default_where_smoothing_cannot_act(payload):
    output = execute("bleu-corpus-compute", payload)
    assume(all(m > 0 for m in output["matches"]))
    assert close(100 * output["bleu"], sacrebleu_score(payload).score)


@settings(settings.get_profile(TESTS_SACREBLEU_AGREEMENT))
@given(matching_bleu_payloads())
def test_corpus_bleu_equals_sacrebleu_effective_order_where_every_order_has_ngrams(payload):
    output = execute("bleu-corpus-compute", payload)
    assume(all(total > 0 for total in output["totals"]))
    assert close(100 * output["bleu"], sacrebleu_score(payload, smooth_method="none", effective_order=True).score)


def test_closest_reference_tie_goes_to_the_shorter_in_both():
    # hypothesis of 3 tokens; references of 2 and 4 tokens are equally close: both take 2
    payload = {"hypotheses": [["a", "b", "c"]], "references": [[["a", "b", "c", "d"], ["a", "b"]]]}
    assert execute("bleu-corpus-compute", payload)["reference_length"] == 2
    assert sacrebleu_score(payload).ref_len == 2


def test_python_whitespace_is_the_contract_whitespace_list():
    """The premise that lets sacreBLEU's str.split() stand for the contract's whitespace list in chrF++."""
    python_whitespace = {cp for cp in range(sys.maxunicode + 1) if chr(cp).isspace()}
    assert python_whitespace == set(WHITESPACE_CODE_POINTS)


def chrf(payload):
    return CHRF(word_order=2, beta=payload.get("beta", 2), lowercase=payload.get("lowercase", False))


@settings(settings.get_profile(TESTS_SACREBLEU_AGREEMENT))
@given(chrf_inputs())
def test_chrf_segments_and_word_tokens_equal_sacrebleu(payload):
    output = execute("chrf-plus-plus-compute", payload)
    metric = chrf(payload)
    for i, (hypothesis, reference) in enumerate(zip(payload["hypotheses"], payload["references"])):
        single = execute("chrf-plus-plus-compute", {**payload, "hypotheses": [hypothesis], "references": [reference]})
        assert close(Fraction(single["score_fraction"]), metric.sentence_score(hypothesis, [reference]).score)
        assert output["word_tokens"][i]["hypothesis"] == metric._remove_punctuation(
            metric._preprocess_segment(hypothesis)
        )
        assert output["word_tokens"][i]["reference"] == metric._remove_punctuation(
            metric._preprocess_segment(reference)
        )


@settings(settings.get_profile(TESTS_SACREBLEU_AGREEMENT))
@given(chrf_inputs())
def test_chrf_corpus_score_equals_sacrebleu_outside_open_point_a4(payload):
    assume(len(payload["hypotheses"]) == 1 or not segment_order_missing_from_reference(payload))
    output = execute("chrf-plus-plus-compute", payload)
    expected = chrf(payload).corpus_score(payload["hypotheses"], [payload["references"]]).score
    assert close(Fraction(output["score_fraction"]), expected)


@pytest.mark.parametrize(
    "hypothesis, reference",
    [
        ("the cat sat on the mat.", "the cat sat on the mat."),
        ("Der Hund (bellt)!", "der hund bellt"),
        ("", "abc"),
        ("\u03a3\u039f\u03a3 \u03a3", "\u03c3\u03bf\u03c2 \u03c3"),  # final sigma under lowercase
    ],
)
@pytest.mark.parametrize("lowercase", [False, True])
def test_chrf_single_segment_examples_equal_sacrebleu(hypothesis, reference, lowercase):
    payload = {"hypotheses": [hypothesis], "references": [reference], "lowercase": lowercase}
    output = execute("chrf-plus-plus-compute", payload)
    assert close(Fraction(output["score_fraction"]), chrf(payload).sentence_score(hypothesis, [reference]).score)

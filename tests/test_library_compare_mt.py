"""compare-mt's row of the matrix (conformance/implementations/compare_mt.py): the scorers of compare_mt.scorers on
the contracts' examples and hand-computed inputs, skipped with the reason where it is absent (pip install -e
'.[matrix]'); and the model of the mechanism it shows that no other library did (zero-match-order-skipped), checked
by hand without the library.
"""

from __future__ import annotations

import math

import pytest

import oracle
from conformance import compare
from conformance.divergences import name_failure, variant
from conformance.implementations import NotApplicable, library
from conformance.model import Case, Expectation
from conformance.targets import make_target
from oracle.contracts import contract
from oracle.registry import tool

V = "1.0.0"
SENTENCE, CORPUS, COUNTS, CHRF = "bleu-sentence-compute", "bleu-corpus-compute", "bleu-ngrams-count", "chrf-compute"
NAME = "compare-mt"
MISSING = library(NAME).missing()
installed = pytest.mark.skipif(bool(MISSING), reason=f"{NAME}: {MISSING} (pip install -e '.[matrix]')")
SKIPPED, ONE = "zero-match-order-skipped", "missing-order-denominator-one"

# "a b c d" against "a b x d": m = (3, 1, 0, 0), l = (4, 3, 2, 1), c = r = 4. The contract's bleu is 0 (m_3 = 0);
# with the unmatched orders adding nothing: exp((ln(3/4) + ln(1/3)) / 4) = (1/4)^(1/4) = 2^(-1/2) = 0.70710678...
UNMATCHED = {"hypotheses": [["a", "b", "c", "d"]], "references": [[["a", "b", "x", "d"]]]}
# "a b" against itself: m = (2, 1, 0, 0), l = (2, 1, 0, 0); with denominators max(1, l_n) = (2, 1, 1, 1) and the
# unmatched orders 3 and 4 adding nothing: exp((ln 1 + ln 1) / 4) = 1 (the contract's 0: orders without n-grams)
SHORT = {"hypotheses": [["a", "b"]], "references": [[["a", "b"]]]}


# --- the model (no library needed) ---------------------------------------------------------------------------


def test_the_skipped_order_model_gives_the_hand_computed_score():
    assert oracle.execute(CORPUS, V, UNMATCHED)["bleu"] == 0
    model = variant(tool(CORPUS, V), UNMATCHED, frozenset({SKIPPED}))
    assert model["bleu"] == pytest.approx(1 / math.sqrt(2), rel=1e-15)
    assert model["matches"] == [3, 1, 0, 0] and model["totals"] == [4, 3, 2, 1]
    answer = {"bleu": 0.7071067811865476, "matches": [3, 1, 0, 0], "totals": [4, 3, 2, 1]}
    found = name_failure(tool(CORPUS, V), UNMATCHED, answer, "bleu")
    assert found is not None and found.id == SKIPPED


def test_the_skipped_order_model_of_a_sentence_and_with_denominators_one():
    sentence = {"hypothesis": ["a", "b"], "references": [["a", "b"]], "smoothing": "none"}
    assert oracle.execute(SENTENCE, V, sentence)["bleu"] == 0
    assert variant(tool(SENTENCE, V), sentence, frozenset({SKIPPED}))["bleu"] == 1  # the orders without n-grams too
    answer = {"bleu": 1.0, "matches": [2, 1, 0, 0], "totals": [2, 1, 1, 1], "candidate_length": 2}
    found = name_failure(tool(CORPUS, V), SHORT, answer, "bleu")
    assert found is not None and found.id == f"{ONE} + {SKIPPED}"


def test_no_unigram_match_is_still_zero_and_smoothing_keeps_its_orders():
    """Nothing matched: 0 in every model. chen-cherry-1 floors an unmatched order to 0.1 / l_n, which is not 0:
    the skipped-order model leaves that score as the contract's."""
    nothing = {"hypotheses": [["a", "b"]], "references": [[["c", "d"]]]}
    assert variant(tool(CORPUS, V), nothing, frozenset({SKIPPED}))["bleu"] == 0
    smoothed = {"hypothesis": ["a", "b", "c", "d"], "references": [["a", "b", "x", "d"]], "smoothing": "chen-cherry-1"}
    model = variant(tool(SENTENCE, V), smoothed, frozenset({SKIPPED}))
    assert model["bleu"] == oracle.execute(SENTENCE, V, smoothed)["bleu"]


# --- the library ---------------------------------------------------------------------------------------------


def answer(tool_id: str, payload: dict):
    found = library(NAME).execute(tool_id, V, payload)
    return getattr(found, "output", found)


def judged(tool_id: str, payload: dict) -> str:
    case = Case(tool_id, V, "x", "fixture", "valid", payload, Expectation("output"))
    verdict = compare.judge(case, compare.expect(case), make_target(f"implementation:{NAME}").call(tool_id, V, payload))
    return f"{verdict.outcome}: {verdict.message}"


@installed
@pytest.mark.parametrize("tool_id, number", [(CORPUS, 0), (SENTENCE, 2), ("bleu-sentence-components", 0)])
def test_compare_mt_answers_a_contract_example_as_the_contract_does(tool_id, number):
    found = contract(tool_id, V).document()["examples"][number]
    assert judged(tool_id, found["input"]).startswith("passed"), found["input"]


@installed
def test_compare_mt_skips_an_unmatched_order():
    assert answer(CORPUS, UNMATCHED)["bleu"] == pytest.approx(1 / math.sqrt(2), rel=1e-15)


@installed
def test_compare_mt_scores_the_contracts_unmatched_sentence_example():
    """The sentence example "the the the cat" against "the cat the mat .", smoothing none: m = (3, 1, 0, 0), l = (4,
    3, 2, 1), bp = exp(1 - 5/4). The contract's bleu is 0; orders 3 and 4 skipped: exp(-1/4) * (1/4)^(1/4) =
    0.550695 (decimals 6)."""
    example = contract(SENTENCE, V).document()["examples"][0]["input"]
    assert answer(SENTENCE, example)["bleu"] == 0.550695
    assert math.exp(-0.25) * 0.25**0.25 == pytest.approx(0.550695, abs=5e-7)
    found = name_failure(tool(SENTENCE, V), example, {"bleu": 0.550695}, "bleu")
    assert found is not None and found.id == SKIPPED


@installed
def test_compare_mt_divides_by_at_least_one_and_scores_a_short_hypothesis_one():
    found = answer(CORPUS, SHORT)
    assert found == {"bleu": 1.0, "matches": [2, 1, 0, 0], "totals": [2, 1, 1, 1], "candidate_length": 2,
                     "reference_length": 2}  # fmt: skip


@installed
def test_compare_mt_sentence_bleu_is_nltk_method2_with_denominators_one():
    """ "a b" against "a b c", chen-cherry-2: bp = exp(1 - 3/2); p_1 = p_2 = 1, and orders 3 and 4 (no hypothesis
    n-grams) are (0 + 1) / (max(1, 0) + 1) = 1/2 each: bleu = exp(-1/2) * (1/2)^(2/4) = 0.42888... (the contract's
    (0 + 1) / (0 + 1) = 1 gives exp(-1/2) = 0.60653...)."""
    payload = {"hypothesis": ["a", "b"], "references": [["a", "b", "c"]], "smoothing": "chen-cherry-2"}
    expected = math.exp(-0.5) * math.sqrt(0.5)
    assert answer(SENTENCE, payload)["bleu"] == pytest.approx(expected, rel=1e-12)
    found = name_failure(tool(SENTENCE, V), payload, {"bleu": expected}, "bleu")
    assert found is not None and found.id == ONE


@installed
def test_compare_mt_chrf_is_nltks_f_per_order_averaged():
    """ "cat" against "cats", beta 2, orders 1..6: P = 1 and R = 3/4, 2/3, 1/2 for orders 1-3, so F = 15/19, 5/7, 5/9;
    orders 4-6 have no hypothesis n-gram (F = 1e-16). The mean over six orders is 34.3219... (the contract's
    68.862275 averages P and R over the orders both sides have, then takes F)."""
    payload = {"hypotheses": ["cat"], "references": ["cats"]}
    expected = 100 * (15 / 19 + 5 / 7 + 5 / 9 + 3e-16) / 6
    found = answer(CHRF, payload)
    assert found["score"].value == pytest.approx(expected, rel=1e-12)
    assert [s.value for s in found["segment_scores"]] == [pytest.approx(expected, rel=1e-12)]
    named = name_failure(tool(CHRF, V), payload, {"score": expected, "segment_scores": [expected]}, "score")
    assert named is not None and named.id == "f-per-order-averaged"


@installed
def test_compare_mt_chrf_lowercases_the_corpus_score_only():
    found = answer(CHRF, {"hypotheses": ["Cat"], "references": ["cats"], "lowercase": True})
    assert set(found) == {"score"} and found["score"].value == pytest.approx(100 * (15 / 19 + 5 / 7 + 5 / 9) / 6)


@installed
@pytest.mark.parametrize(
    "tool_id, payload, cause",
    [
        (CORPUS, {"hypotheses": [["a"]], "references": [[["a"], ["b"]]]}, "one reference per segment"),
        (SENTENCE, {"hypothesis": ["a"], "references": [["a"]], "smoothing": "chen-cherry-1"}, "chen-cherry-1 or -3"),
        (SENTENCE, {"hypothesis": ["a"], "references": [["a"]], "smoothing": "chen-cherry-2", "max_order": 2}, "four"),
        (CHRF, {"hypotheses": ["a"], "references": ["a"], "beta": 3}, "beta other than 2"),
        (COUNTS, {"hypotheses": [["a"]], "references": [[["a"]]], "detail": "ngrams"}, "per-n-gram"),
    ],
)
def test_what_compare_mt_cannot_express_is_not_applicable(tool_id, payload, cause):
    with pytest.raises(NotApplicable, match=cause):
        library(NAME).execute(tool_id, V, payload)

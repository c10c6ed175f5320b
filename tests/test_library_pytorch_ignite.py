"""pytorch-ignite's row of the matrix (conformance/implementations/pytorch_ignite.py): ignite.metrics.nlp.Bleu on the
contracts' examples and hand-computed inputs, skipped with the reason where torch or ignite is absent
(pip install -e '.[ignite]'); and the model of the mechanism it shows that no other library did
(single-precision-reciprocal-precisions), checked by hand without the library.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

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
SENTENCE, CORPUS = "bleu-sentence-compute", "bleu-corpus-compute"
NAME = "pytorch-ignite"
MISSING = library(NAME).missing()
installed = pytest.mark.skipif(bool(MISSING), reason=f"{NAME}: {MISSING} (pip install -e '.[ignite]')")

# hypothesis a..g against a..f x, max_order 1: p_1 = 6/7, c = r = 7, so bleu = p_1 = 6/7 (0.857142857142857...).
# In float32, fl32(1/7) = 9586981 / 2^26 = 0.1428571492433548; times 6 it is 28760943 / 2^25, one bit beyond
# float32's 24: half-way between 14380471 / 2^24 and 14380472 / 2^24, the tie going to the even 14380472 / 2^24
# = 0.8571429252624512 (the correctly rounded fl32(6/7) would be 14380471 / 2^24 = 0.8571428656578064).
SIX_SEVENTHS = {
    "hypothesis": ["a", "b", "c", "d", "e", "f", "g"],
    "references": [["a", "b", "c", "d", "e", "f", "x"]],
    "max_order": 1,
    "smoothing": "none",
}
RECIPROCAL_SIX_SEVENTHS = 14380472 / 2**24


def answer(tool_id: str, payload: dict) -> dict:
    return library(NAME).execute(tool_id, V, payload).output


# --- the model (no library needed) ---------------------------------------------------------------------------


def test_the_reciprocal_model_rounds_six_sevenths_as_written_out():
    assert RECIPROCAL_SIX_SEVENTHS == 0.8571429252624512
    assert oracle.execute(SENTENCE, V, SIX_SEVENTHS)["bleu"] == pytest.approx(6 / 7, rel=1e-15)
    model = variant(tool(SENTENCE, V), SIX_SEVENTHS, frozenset({"single-precision-reciprocal-precisions"}))
    assert model["bleu"] == pytest.approx(RECIPROCAL_SIX_SEVENTHS, rel=1e-15)
    corpus = {"hypotheses": [SIX_SEVENTHS["hypothesis"]], "references": [SIX_SEVENTHS["references"]], "max_order": 1}
    model = variant(tool(CORPUS, V), corpus, frozenset({"single-precision-reciprocal-precisions"}))
    assert model["bleu"] == pytest.approx(RECIPROCAL_SIX_SEVENTHS, rel=1e-15)


def test_the_reciprocal_model_names_that_answer_and_leaves_smoothing_alone():
    found = name_failure(tool(SENTENCE, V), SIX_SEVENTHS, {"bleu": RECIPROCAL_SIX_SEVENTHS}, "bleu")
    assert found is not None and found.id == "single-precision-reciprocal-precisions"
    # the correctly rounded float32 quotient is another computation: not named by this model
    # the correctly rounded float32 of 6/7 is not the reciprocal's: float32 arithmetic, not that mechanism
    named = name_failure(tool(SENTENCE, V), SIX_SEVENTHS, {"bleu": 0.8571428656578064}, "bleu")
    assert named is not None and named.id == "single-precision-arithmetic"
    smoothed = {**SIX_SEVENTHS, "smoothing": "chen-cherry-1"}
    model = variant(tool(SENTENCE, V), smoothed, frozenset({"single-precision-reciprocal-precisions"}))
    assert model["bleu"] == oracle.execute(SENTENCE, V, smoothed)["bleu"]


def test_a_short_hypothesis_smoothed_with_epsilon_is_the_missing_order_counted_as_one():
    """["a", "b"] against itself, chen-cherry-1, max_order 4: p_1 = p_2 = 1, orders 3 and 4 have no n-grams, so
    the contract's bleu is 0; with their denominators 1 they are 0.1 / 1 each: exp((2 ln 0.1) / 4) = 0.1^0.5."""
    payload = {"hypothesis": ["a", "b"], "references": [["a", "b"]], "smoothing": "chen-cherry-1"}
    assert oracle.execute(SENTENCE, V, payload)["bleu"] == 0
    found = name_failure(tool(SENTENCE, V), payload, {"bleu": math.sqrt(0.1)}, "bleu")
    assert found is not None and found.id == "missing-order-denominator-one"


# --- the library ---------------------------------------------------------------------------------------------


def judged(tool_id: str, payload: dict, output: dict) -> str:
    case = Case(tool_id, V, "x", "fixture", "valid", payload, Expectation("output"))
    verdict = compare.judge(case, compare.expect(case), make_target(f"implementation:{NAME}").call(tool_id, V, payload))
    return f"{verdict.outcome}: {verdict.message}"


@installed
@pytest.mark.parametrize("tool_id, number", [(SENTENCE, 0), (SENTENCE, 1), (SENTENCE, 2), (CORPUS, 0), (CORPUS, 1)])
def test_ignite_answers_a_contract_example_as_the_contract_does(tool_id, number):
    found = contract(tool_id, V).document()["examples"][number]
    assert judged(tool_id, found["input"], found["output"]).startswith("passed"), found["input"]


@installed
def test_an_empty_hypothesis_scores_zero():
    payload = {"hypotheses": [[]], "references": [[["the", "cat"]]]}
    assert answer(CORPUS, payload) == {"bleu": 0.0}


@installed
def test_ignites_unsmoothed_sentence_bleu_divides_by_the_float32_reciprocal():
    assert answer(SENTENCE, SIX_SEVENTHS)["bleu"] == pytest.approx(RECIPROCAL_SIX_SEVENTHS, rel=1e-15)
    # its micro average counts in float64: the corpus score of the same segment is the contract's 6/7
    corpus = {"hypotheses": [SIX_SEVENTHS["hypothesis"]], "references": [SIX_SEVENTHS["references"]], "max_order": 1}
    assert answer(CORPUS, corpus)["bleu"] == pytest.approx(6 / 7, rel=1e-15)


@installed
def test_ignites_smooth1_scores_a_missing_order_as_one_unmatched_ngram():
    payload = {"hypothesis": ["a", "b"], "references": [["a", "b"]], "smoothing": "chen-cherry-1"}
    assert answer(SENTENCE, payload)["bleu"] == pytest.approx(math.sqrt(0.1), rel=1e-15)


@installed
def test_chen_cherry_2_is_smooth2_whose_missing_order_is_one_over_one():
    """["a", "b"] against ["a", "b", "c"]: p_1 = 2/2, p_2 = (1 + 1)/(1 + 1), p_3 = p_4 = (0 + 1)/(0 + 1), so bleu is
    the brevity penalty exp(1 - 3/2) (nltk_smooth2 would divide by max(1, l_n) + 1: 1/2 for orders 3 and 4)."""
    payload = {"hypothesis": ["a", "b"], "references": [["a", "b", "c"]], "smoothing": "chen-cherry-2"}
    assert oracle.execute(SENTENCE, V, payload)["bleu"] == pytest.approx(math.exp(-0.5), rel=1e-15)
    assert answer(SENTENCE, payload)["bleu"] == pytest.approx(math.exp(-0.5), rel=1e-15)


@installed
@pytest.mark.parametrize(
    "change, cause",
    [
        ({"smoothing": "chen-cherry-3"}, "no NIST geometric smoothing"),
        ({"effective_order": True}, "no effective order"),
    ],
)
def test_what_its_bleu_cannot_express_is_not_applicable(change, cause):
    with pytest.raises(NotApplicable, match=cause):
        answer(SENTENCE, {"hypothesis": ["a"], "references": [["a"]], "smoothing": "none", **change})


@installed
def test_the_call_a_user_would_write_prints_the_adapters_answer():
    call = library(NAME).call(SENTENCE, SIX_SEVENTHS)
    assert call is not None and call["language"] == "python"
    completed = subprocess.run([sys.executable, "-c", call["code"]], capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == answer(SENTENCE, SIX_SEVENTHS)

"""subword-nmt's chrF row of the matrix (conformance/implementations/subword_nmt.py): subword_nmt.chrF on the
contracts' examples and hand-computed inputs, skipped with the reason where it is absent (pip install -e
'.[matrix]'); and the models of the mechanisms it shows, checked by hand without the library.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conformance import compare
from conformance.divergences import Raises, name_crash, name_failure, variant
from conformance.implementations import NotApplicable, library
from conformance.model import Case, Expectation
from conformance.targets import make_target
from oracle.contracts import contract
from oracle.registry import tool

V = "1.0.0"
CHRF, COMPONENTS = "chrf-compute", "chrf-components"
NAME = "subword-nmt"
MISSING = library(NAME).missing()
installed = pytest.mark.skipif(bool(MISSING), reason=f"{NAME}: {MISSING} (pip install -e '.[matrix]')")

# "cat" against "cats": orders 1-3 have n-grams on both sides (matches 3/3 of 4, 2/2 of 3, 1/1 of 2), order 4 only
# in the reference, 5 and 6 nowhere. The contract averages over those 3 orders: chrP = 1, chrR = (3/4 + 2/3 + 1/2)/3
# = 23/36, F2 = 5 chrP chrR / (4 chrP + chrR) = 115/167 (68.862275). Over all 6 orders: chrP = 3/6 = 1/2,
# chrR = (23/12)/6 = 23/72, F2 = (5 * 23/144) / (2 + 23/72) = 115/334 (34.431137724550894).
CAT = {"hypotheses": ["cat"], "references": ["cats"]}
EVERY_ORDER_CAT = 100 * 115 / 334
# " a b " against "a b", character orders 1-2, whitespace kept: unigrams 5 (three spaces) and 3, matches 3;
# bigrams " a", "a ", " b", "b " against "a ", " b", matches 2: chrP = (3/5 + 2/4)/2 = 0.55, chrR = 1,
# F2 = 5 * 0.55 / (4 * 0.55 + 1) = 0.859375. With the ends stripped both texts are "a b": 100.
SPACED = {"hypotheses": [" a b "], "references": ["a b"], "char_order": 2, "whitespace": True}
EMPTY = {"hypotheses": [""], "references": ["abc"]}


def answer(tool_id: str, payload: dict) -> dict:
    return library(NAME).execute(tool_id, V, payload).output


# --- the models (no library needed) ---------------------------------------------------------------------------


def test_averaging_over_every_order_gives_the_hand_computed_score():
    assert tool(CHRF, V).execute(CAT)["score"] == "68.862275"
    model = variant(tool(CHRF, V), CAT, frozenset({"precision-recall-averaged-over-every-order"}))
    assert model["score"] == pytest.approx(EVERY_ORDER_CAT, rel=1e-13)
    assert model["segment_scores"] == [pytest.approx(EVERY_ORDER_CAT, rel=1e-13)]
    found = name_failure(tool(CHRF, V), CAT, {"score": EVERY_ORDER_CAT, "segment_scores": [EVERY_ORDER_CAT]}, "score")
    assert found is not None and found.id == "precision-recall-averaged-over-every-order"


def test_where_two_models_agree_the_librarys_own_mechanism_is_named():
    """ "a" against "a": only order 1 has n-grams. Over every order chrP = chrR = 1/6, so F = 1/6; F per order averaged
    is (1 + 5 * 1e-16) / 6, the same within the models' comparison: the library's own mechanism is named first."""
    payload = {"hypotheses": ["a"], "references": ["a"]}
    answer = {"score": 100 / 6, "segment_scores": [100 / 6]}
    found = name_failure(tool(CHRF, V), payload, answer, "score", implementation=NAME)
    assert found is not None and found.id == "precision-recall-averaged-over-every-order"
    found = name_failure(tool(CHRF, V), payload, answer, "score", implementation="torchmetrics")
    assert found is not None and found.id == "f-per-order-averaged"


def test_a_segment_without_a_match_divides_by_zero_in_the_model():
    assert tool(CHRF, V).execute(EMPTY)["score"] == "0.000000"
    with pytest.raises(Raises, match="ZeroDivisionError"):
        variant(tool(CHRF, V), EMPTY, frozenset({"f-score-division-by-zero"}))
    found = name_crash(tool(CHRF, V), EMPTY, "raised ZeroDivisionError", NAME)
    assert found is not None and found.id == "f-score-division-by-zero"
    # a corpus with a match everywhere does not raise
    assert variant(tool(CHRF, V), CAT, frozenset({"f-score-division-by-zero"}))["score"] == pytest.approx(
        100 * 115 / 167
    )


def test_stripping_the_ends_of_kept_whitespace_gives_the_hand_computed_score():
    assert tool(COMPONENTS, V).execute(SPACED)["score"] == "85.937500"
    model = variant(tool(COMPONENTS, V), SPACED, frozenset({"kept-whitespace-ends-stripped"}))
    assert model["score"] == 100
    found = name_failure(tool(COMPONENTS, V), SPACED, {"score": 100.0, "segments": [{"score": 100.0}]}, "score")
    assert found is not None and found.id == "kept-whitespace-ends-stripped"


# --- the library ---------------------------------------------------------------------------------------------


def judged(tool_id: str, payload: dict) -> str:
    case = Case(tool_id, V, "x", "fixture", "valid", payload, Expectation("output"))
    verdict = compare.judge(case, compare.expect(case), make_target(f"implementation:{NAME}").call(tool_id, V, payload))
    return f"{verdict.outcome}: {verdict.message}"


@installed
def test_it_answers_a_contract_example_whose_orders_all_have_ngrams():
    """chrf-components example 0: "a b" against "ab", orders 1-2 with whitespace, both orders on both sides."""
    payload = contract(COMPONENTS, V).document()["examples"][0]["input"]
    assert judged(COMPONENTS, payload).startswith("passed")


@installed
def test_it_answers_a_hand_computed_input_as_the_contract_does():
    """ "abcdef" against "abcdxf", orders 1-3, beta 1: matches 5 of 6, 3 of 5, 2 of 4 on both sides, so
    chrP = chrR = (5/6 + 3/5 + 2/4)/3 = 29/45 and F1 = 29/45 (64.444444)."""
    payload = {"hypotheses": ["abcdef"], "references": ["abcdxf"], "char_order": 3, "beta": 1}
    assert tool(COMPONENTS, V).execute(payload)["score"] == "64.444444"
    assert answer(COMPONENTS, payload)["score"].value == pytest.approx(29 / 45, rel=1e-14)
    assert judged(COMPONENTS, payload).startswith("passed")


@installed
def test_its_f1_averages_over_every_order():
    found = answer(CHRF, CAT)
    assert found["score"].value == pytest.approx(EVERY_ORDER_CAT / 100, rel=1e-14)
    assert found["segment_scores"][0].value == pytest.approx(EVERY_ORDER_CAT / 100, rel=1e-14)


@installed
def test_it_divides_by_zero_without_a_match():
    with pytest.raises(ZeroDivisionError):
        answer(CHRF, EMPTY)
    assert judged(CHRF, EMPTY).startswith("errored: raised ZeroDivisionError")


@installed
def test_its_spaces_option_strips_the_ends():
    assert answer(COMPONENTS, SPACED)["score"].value == 1.0


@installed
@pytest.mark.parametrize(
    "tool_id, change, cause",
    [
        (CHRF, {"lowercase": True}, "no lowercasing"),
        (COMPONENTS, {"word_order": 2}, "no word n-grams"),
    ],
)
def test_what_it_cannot_express_is_not_applicable(tool_id, change, cause):
    with pytest.raises(NotApplicable, match=cause):
        answer(tool_id, {**CAT, **change})


@installed
@pytest.mark.parametrize("tool_id, payload", [(CHRF, CAT), (COMPONENTS, SPACED)])
def test_the_call_a_user_would_write_prints_the_adapters_answer(tool_id, payload):
    call = library(NAME).call(tool_id, payload)
    assert call is not None
    completed = subprocess.run([sys.executable, "-c", call["code"]], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    printed = json.loads(completed.stdout)
    found = answer(tool_id, payload)
    assert printed["score"] == found["score"].value
    key = "segment_scores" if tool_id == CHRF else "segments"
    values = [s.value if tool_id == CHRF else s["score"].value for s in found[key]]
    assert [s if tool_id == CHRF else s["score"] for s in printed[key]] == values

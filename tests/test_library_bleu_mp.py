"""bleu-mp's row of the matrix (conformance/implementations/bleu_mp.py): bleu_mp.compute_bleu on the contracts'
examples and hand-computed inputs, skipped with the reason where it is absent (pip install -e '.[matrix]'); and
the models of the mechanisms it shows (shortest-reference-length, length-ratio-division-by-zero), checked by hand
without the library, with how a crash is named.
"""

from __future__ import annotations

import math

import pytest

import oracle
from conformance import compare
from conformance.compare.signature import explain
from conformance.divergences import Raises, name_crash, name_failure, variant
from conformance.implementations import NotApplicable, library
from conformance.matrix.audit import audit_group
from conformance.model import Case, CaseResult, Expectation, TargetResponse
from conformance.targets import make_target
from oracle.contracts import contract
from oracle.registry import tool

V = "1.0.0"
SENTENCE, CORPUS, LENGTHS = "bleu-sentence-compute", "bleu-corpus-compute", "bleu-brevity-penalty"
NAME = "bleu-mp"
MISSING = library(NAME).missing()
installed = pytest.mark.skipif(bool(MISSING), reason=f"{NAME}: {MISSING} (pip install -e '.[matrix]')")
SHORTEST, CRASH = "shortest-reference-length", "length-ratio-division-by-zero"

# The contract's second corpus example: three segments, hypotheses of 6, 4 and 7 tokens against references of
# (6, 7), (5, 5) and (6, 7) tokens. Closest (ties to the shorter): r = 6 + 5 + 7 = 18 (the contract's); shortest:
# r = 6 + 5 + 6 = 17 = c, so the brevity penalty is 1 and bleu is the geometric mean of 14/17, 7/14, 5/11, 3/8:
# (14 * 7 * 5 * 3 / (17 * 14 * 11 * 8))^(1/4) = (1470 / 20944)^(1/4) = 0.514712... (the contract's 0.485308).
DOG = contract(CORPUS, V).document()["examples"][1]["input"]
SHORTEST_DOG_BLEU = (1470 / 20944) ** 0.25
EMPTY_HYPOTHESIS = {"hypotheses": [[]], "references": [[["the", "cat"]]]}  # c = 0, r = 2: the contract's bleu 0
# c = 1, max_order 1; references of 1 and 0 tokens: the closest is 1 (the contract's r, bleu 1), the shortest 0
EMPTY_SHORTEST = {"hypotheses": [["a"]], "references": [[["a"], []]], "max_order": 1}


# --- the models (no library needed) --------------------------------------------------------------------------


def test_the_shortest_reference_model_gives_the_hand_computed_score():
    assert SHORTEST_DOG_BLEU == pytest.approx(0.514712, abs=5e-7)
    assert oracle.execute(CORPUS, V, DOG)["reference_length"] == 18
    model = variant(tool(CORPUS, V), DOG, frozenset({SHORTEST}))
    assert model["reference_length"] == 17 and model["brevity_penalty"] == 1
    assert model["bleu"] == pytest.approx(0.514712, abs=5e-7)  # the example's decimals 6
    answer = {"bleu": 0.514712, "brevity_penalty": 1.0, "candidate_length": 17, "reference_length": 17}
    found = name_failure(tool(CORPUS, V), DOG, answer, "bleu")
    assert found is not None and found.id == SHORTEST
    assert set(found.fields) == {"bleu", "brevity_penalty", "reference_length"}


def test_the_shortest_reference_model_of_the_lengths_tool():
    """c = 5 against references of 2 and 6: the closest is 6 (bp exp(1 - 6/5)), the shortest 2 (bp 1)."""
    payload = {"candidate_lengths": [5], "reference_lengths": [[2, 6]]}
    assert oracle.execute(LENGTHS, V, payload)["brevity_penalty"] == pytest.approx(math.exp(-0.2), rel=1e-15)
    model = variant(tool(LENGTHS, V), payload, frozenset({SHORTEST}))
    assert model["closest_reference_lengths"] == [2] and model["reference_length"] == 2
    assert model["brevity_penalty"] == 1


def test_the_crash_model_raises_where_c_or_r_is_zero():
    with pytest.raises(Raises, match="ZeroDivisionError"):
        variant(tool(CORPUS, V), EMPTY_HYPOTHESIS, frozenset({CRASH}))
    # c = 1, closest r = 1: no division by zero until r is the shortest, 0
    assert variant(tool(CORPUS, V), EMPTY_SHORTEST, frozenset({CRASH}))["bleu"] == 1
    with pytest.raises(Raises, match="ZeroDivisionError"):
        variant(tool(CORPUS, V), EMPTY_SHORTEST, frozenset({CRASH, SHORTEST}))
    # a tool whose output has no brevity penalty computes no ratio
    counts = {"hypotheses": [[]], "references": [[["a"]]]}
    assert variant(tool("bleu-ngrams-count", V), counts, frozenset({CRASH}))["totals"] == [0, 0, 0, 0]


def test_a_crash_is_named_by_the_mechanisms_whose_model_raises_it():
    corpus = tool(CORPUS, V)
    found = name_crash(corpus, EMPTY_HYPOTHESIS, "raised ZeroDivisionError", NAME)
    assert found is not None and found.id == CRASH and found.fields == ()
    found = name_crash(corpus, EMPTY_SHORTEST, "raised ZeroDivisionError", NAME)
    assert found is not None and found.id == f"{CRASH} + {SHORTEST}"
    only_reference_empty = {"hypotheses": [["a"]], "references": [[[]]]}  # c = 1, r = 0
    found = name_crash(corpus, only_reference_empty, "raised ZeroDivisionError", NAME)
    assert found is not None and found.id == CRASH
    assert name_crash(corpus, EMPTY_HYPOTHESIS, "raised KeyError", NAME) is None  # another exception
    assert name_crash(corpus, DOG, "raised ZeroDivisionError", NAME) is None  # no model raises on it


def test_a_failure_report_names_the_crash_of_a_valid_input():
    """The in-process exception comes back as a server error (engine/health.py); its cause names the crash."""
    case = Case(CORPUS, V, "x", "fixture", "valid", EMPTY_HYPOTHESIS, Expectation("output"))
    response = TargetResponse("server_error", detail="raised ZeroDivisionError: float division by zero")
    response.fault = "raised ZeroDivisionError"
    cause = explain(CaseResult(case, "failed", response=response), implementation=NAME)
    assert cause.kind == "server error on a valid input"
    assert cause.divergence is not None and cause.divergence.id == CRASH
    response.fault = "raised ValueError"
    assert explain(CaseResult(case, "failed", response=response), implementation=NAME).divergence is None


def crash_group(code: str) -> dict:
    """A failure group reporting a crash, as a matrix document gives it, with its call."""
    return {
        "title": "a crash",
        "smallest": EMPTY_HYPOTHESIS,
        "difference": {"pointer": "", "actual": {"server_error": "raised ZeroDivisionError", "said": "..."}},
        "call": {"language": "python", "code": code},
    }


def test_the_audit_holds_a_crash_group_to_its_call_raising_the_same_exception():
    assert audit_group({"tool": f"{CORPUS}@{V}"}, crash_group("print(1 / 0)\n")) == ""
    assert "reports ZeroDivisionError raised" in audit_group({"tool": f"{CORPUS}@{V}"}, crash_group("{}[1]\n"))
    answering = audit_group({"tool": f"{CORPUS}@{V}"}, crash_group("print('{}')\n"))
    assert answering.startswith("the cell reports ZeroDivisionError raised, the call answers")


# --- the library ---------------------------------------------------------------------------------------------


def answer(tool_id: str, payload: dict) -> dict:
    return library(NAME).execute(tool_id, V, payload).output


def judged(tool_id: str, payload: dict) -> str:
    case = Case(tool_id, V, "x", "fixture", "valid", payload, Expectation("output"))
    verdict = compare.judge(case, compare.expect(case), make_target(f"implementation:{NAME}").call(tool_id, V, payload))
    return f"{verdict.outcome}: {verdict.message}"


@installed
@pytest.mark.parametrize("tool_id, number", [(CORPUS, 0), (SENTENCE, 0)])
def test_bleu_mp_answers_a_contract_example_as_the_contract_does(tool_id, number):
    found = contract(tool_id, V).document()["examples"][number]
    assert judged(tool_id, found["input"]).startswith("passed"), found["input"]


@installed
def test_bleu_mp_takes_the_shortest_reference():
    assert answer(CORPUS, DOG) == {
        "bleu": 0.514712,
        "brevity_penalty": 1.0,
        "candidate_length": 17,
        "reference_length": 17,
    }


@installed
@pytest.mark.parametrize("payload", [EMPTY_HYPOTHESIS, EMPTY_SHORTEST], ids=["empty-hypothesis", "empty-shortest"])
def test_bleu_mp_raises_zero_division_where_c_or_the_shortest_r_is_zero(payload):
    with pytest.raises(ZeroDivisionError):
        library(NAME).execute(CORPUS, V, payload)
    response = make_target(f"implementation:{NAME}").call(CORPUS, V, payload)
    assert response.kind == "transport_error" and response.fault == "raised ZeroDivisionError"
    # the call a user would write raises it too: the audit holds the crash group to it
    group = crash_group(library(NAME).call(CORPUS, payload)["code"])
    assert audit_group({"tool": f"{CORPUS}@{V}"}, group) == ""


@installed
def test_bleu_mp_takes_tokens_as_they_are():
    """Tokens holding a space or punctuation are compared whole: "a b" matches "a b", not "a"."""
    payload = {"hypotheses": [["a b", "c,"]], "references": [[["a b", "c,"]]], "max_order": 2}
    assert answer(CORPUS, payload) == {
        "bleu": 1.0,
        "brevity_penalty": 1.0,
        "candidate_length": 2,
        "reference_length": 2,
    }


@installed
def test_bleu_mp_smoothing_and_effective_order_are_not_applicable():
    payload = {"hypothesis": ["a"], "references": [["a"]], "smoothing": "chen-cherry-2"}
    with pytest.raises(NotApplicable, match="smoothing other than none"):
        library(NAME).execute(SENTENCE, V, payload)
    with pytest.raises(NotApplicable, match="effective_order"):
        library(NAME).execute(SENTENCE, V, {**payload, "smoothing": "none", "effective_order": True})

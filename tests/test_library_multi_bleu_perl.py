"""multi-bleu.perl's row of the matrix (conformance/implementations/multi_bleu_perl.py): the Moses script inside
nmtpytorch run with perl on hand-computed inputs, skipped with the reason where perl or the script is absent
(pip install --no-deps nmtpytorch==4.0.0); and the models of the mechanisms it shows, checked by hand without it.
"""

from __future__ import annotations

import math

import pytest

import oracle
from conformance import compare
from conformance.divergences import Raises, name_crash, name_failure, variant
from conformance.implementations import NotApplicable, library
from conformance.model import Case, Expectation
from conformance.targets import make_target
from oracle.registry import tool

V = "1.0.0"
SENTENCE, CORPUS = "bleu-sentence-compute", "bleu-corpus-compute"
NAME = "multi-bleu.perl"
MISSING = library(NAME).missing()
installed = pytest.mark.skipif(bool(MISSING), reason=f"{NAME}: {MISSING}")

# "a b c d e" against "a b c d e f": every n-gram matches, c = 5 < r = 6, so bleu = bp = exp(1 - 6/5) = 0.818730...,
# which the script prints as 81.87 (BLEU, percent, two decimals) and 0.819 (BP, three decimals)
SHORT = {"hypotheses": [["a", "b", "c", "d", "e"]], "references": [[["a", "b", "c", "d", "e", "f"]]]}
# a one-token hypothesis against an empty reference: c = 1, r = 0, the contract's brevity penalty 1 and bleu 0
EMPTY_REFERENCE = {"hypotheses": [["a"]], "references": [[[]]]}
# four tokens, a reference of 0 and one of 8 holding them (both 4 away: the tie goes to the shorter, r = 0): the
# contract's bleu is 1 (every order matched, c > r)
TIED_TO_EMPTY = {"hypotheses": [["a", "b", "c", "d"]], "references": [[[], ["a", "b", "c", "d", "e", "f", "g", "h"]]]}
# the hypothesis empty, the reference not: c = 0 < r = 2
EMPTY_CANDIDATE = {"hypotheses": [[]], "references": [[["a", "b"]]]}
# one token against a reference of 10,001: more than 9999 away
FAR = {"hypotheses": [["a"]], "references": [[["a"] * 10_001]]}


def answer(tool_id: str, payload: dict) -> dict:
    return library(NAME).execute(tool_id, V, payload).output


def judged(tool_id: str, payload: dict):
    case = Case(tool_id, V, "x", "fixture", "valid", payload, Expectation("output"))
    return compare.judge(case, compare.expect(case), make_target(f"implementation:{NAME}").call(tool_id, V, payload))


# --- the models (no library needed) --------------------------------------------------------------------------


def test_the_zeros_model_answers_zeros_for_a_reference_length_zero():
    expected = oracle.execute(CORPUS, V, TIED_TO_EMPTY)
    assert (expected["bleu"], expected["brevity_penalty"], expected["reference_length"]) == (1, 1, 0)
    model = variant(tool(CORPUS, V), TIED_TO_EMPTY, frozenset({"zero-reference-length-answers-zeros"}))
    assert (model["bleu"], model["brevity_penalty"], model["candidate_length"], model["reference_length"]) == (
        0,
        0,
        0,
        0,
    )
    found = name_failure(
        tool(CORPUS, V), EMPTY_REFERENCE, {"candidate_length": 0, "reference_length": 0}, "candidate_length"
    )
    assert found is not None and found.id == "zero-reference-length-answers-zeros"
    # c = r = 0 is the contract's answer already: nothing changes
    both_empty = {"hypotheses": [[]], "references": [[[]]]}
    model = variant(tool(CORPUS, V), both_empty, frozenset({"zero-reference-length-answers-zeros"}))
    assert model == oracle.execute(CORPUS, V, both_empty)


def test_the_division_model_raises_for_an_empty_candidate_only_against_some_reference_length():
    division = frozenset({"empty-candidate-division-by-zero"})
    with pytest.raises(Raises, match="ZeroDivisionError"):
        variant(tool(CORPUS, V), EMPTY_CANDIDATE, division)
    both_empty = {"hypotheses": [[]], "references": [[[]]]}
    assert variant(tool(CORPUS, V), both_empty, division) == oracle.execute(CORPUS, V, both_empty)
    found = name_crash(tool(CORPUS, V), EMPTY_CANDIDATE, "raised ZeroDivisionError", NAME)
    assert found is not None and found.id == "empty-candidate-division-by-zero"


def test_the_seeded_search_model_counts_9999_for_a_reference_more_than_9999_away():
    seeded = frozenset({"closest-reference-search-seeded-at-9999"})
    assert oracle.execute(CORPUS, V, FAR)["reference_length"] == 10_001
    assert variant(tool(CORPUS, V), FAR, seeded)["reference_length"] == 9999
    # exactly 9999 away and shorter than 9999: that reference is taken, as the contract does
    near = {"hypotheses": [["a"] * 10_000], "references": [[["a"]]]}
    assert variant(tool(CORPUS, V), near, seeded)["reference_length"] == 1
    found = name_failure(tool(CORPUS, V), FAR, {"reference_length": 9999}, "reference_length")
    assert found is not None and found.id == "closest-reference-search-seeded-at-9999"


# --- the library ---------------------------------------------------------------------------------------------


@installed
def test_the_script_gives_the_lengths_and_with_decimals_4_its_score():
    assert answer(CORPUS, SHORT) == {"candidate_length": 5, "reference_length": 6}
    assert answer(CORPUS, {**SHORT, "decimals": 4}) == {"candidate_length": 5, "reference_length": 6, "bleu": 0.8187}
    assert math.exp(1 - 6 / 5) == pytest.approx(0.8187307531, abs=1e-10)
    with_bp = answer(CORPUS, {**SHORT, "decimals": 3})
    assert with_bp == {"candidate_length": 5, "reference_length": 6, "brevity_penalty": 0.819}
    for decimals in (None, 3, 4):
        payload = SHORT if decimals is None else {**SHORT, "decimals": decimals}
        assert judged(CORPUS, payload).outcome == "passed"


@installed
def test_the_script_breaks_a_tie_of_reference_lengths_towards_the_shorter():
    """ "a b c d" against 5 and 3 tokens (both 1 away), either order: r = 3."""
    for references in ([["a", "b", "c", "d", "e"], ["a", "b", "c"]], [["a", "b", "c"], ["a", "b", "c", "d", "e"]]):
        payload = {"hypothesis": ["a", "b", "c", "d"], "references": references, "smoothing": "none", "decimals": 4}
        assert answer(SENTENCE, payload) == {"candidate_length": 4, "reference_length": 3, "bleu": 1.0}
        assert judged(SENTENCE, payload).outcome == "passed"


@installed
def test_the_script_splits_on_ascii_whitespace_only():
    """A no-break space (U+00A0, bytes C2 A0) or U+001C inside a token leaves it one token."""
    for token in ("a\u00a0b", "a\u001cb"):
        payload = {"hypotheses": [[token]], "references": [[[token]]]}
        assert answer(CORPUS, payload) == {"candidate_length": 1, "reference_length": 1}


@installed
def test_the_script_answers_zeros_for_a_reference_length_zero():
    assert answer(CORPUS, {**TIED_TO_EMPTY, "decimals": 4}) == {"candidate_length": 0, "reference_length": 0, "bleu": 0}
    verdict = judged(CORPUS, EMPTY_REFERENCE)
    assert verdict.outcome == "failed"
    found = name_failure(tool(CORPUS, V), EMPTY_REFERENCE, answer(CORPUS, EMPTY_REFERENCE), "candidate_length")
    assert found is not None and found.id == "zero-reference-length-answers-zeros"


@installed
def test_the_script_dies_dividing_by_zero_on_an_empty_candidate_and_the_run_shows_it():
    with pytest.raises(ZeroDivisionError, match="Illegal division by zero"):
        answer(CORPUS, EMPTY_CANDIDATE)
    response = make_target(f"implementation:{NAME}").call(CORPUS, V, EMPTY_CANDIDATE)
    assert response.kind == "transport_error" and response.fault == "raised ZeroDivisionError"
    assert judged(CORPUS, EMPTY_CANDIDATE).outcome != "passed"
    # the call says so as the adapter raises it: its last line names the exception (conformance matrix audit)
    from conformance.matrix.audit import run_call

    printed, problem = run_call(library(NAME).call(CORPUS, EMPTY_CANDIDATE))
    assert printed is None and problem.splitlines()[-1].split(":")[0] == "ZeroDivisionError"


@installed
def test_the_script_counts_9999_for_a_reference_more_than_9999_away():
    assert answer(CORPUS, FAR) == {"candidate_length": 1, "reference_length": 9999}


@installed
@pytest.mark.parametrize(
    "payload, cause",
    [
        ({**SHORT, "max_order": 3}, "max_order"),
        ({"hypotheses": [["a\tb"]], "references": [[["a"]]]}, "whitespace"),
        ({"hypotheses": [["a"], ["b"]], "references": [[["a"]], [["b"], ["c"]]]}, "numbers of references"),
    ],
)
def test_an_input_the_script_cannot_express_is_not_applicable(payload, cause):
    with pytest.raises(NotApplicable, match=cause):
        library(NAME).execute(CORPUS, V, payload)


@installed
@pytest.mark.parametrize("payload", [{**SHORT, "decimals": 4}, {**TIED_TO_EMPTY, "decimals": 4}])
def test_the_call_prints_the_scripts_line_as_json(payload):
    call = library(NAME).call(CORPUS, payload)
    assert call is not None and call["language"] == "shell"
    from conformance.matrix.audit import run_call

    printed, problem = run_call(call)
    assert printed is not None, problem
    adapter = answer(CORPUS, payload)
    assert {key: printed[key] for key in adapter} == adapter


@installed
def test_the_call_quotes_tokens_for_the_shell():
    """Tokens a shell would expand or choke on reach the files as written: four tokens matching, bleu 1."""
    tokens = ["$HOME", "%s", "it's", "`x`"]
    payload = {"hypotheses": [tokens], "references": [[tokens]], "decimals": 4}
    call = library(NAME).call(CORPUS, payload)
    assert "'$HOME %s it'\"'\"'s `x`'" in call["code"]
    from conformance.matrix.audit import run_call

    printed, problem = run_call(call)
    assert printed is not None, problem
    assert (printed["bleu"], printed["candidate_length"], printed["reference_length"]) == (1, 4, 4)

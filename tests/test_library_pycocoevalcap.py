"""pycocoevalcap's row of the matrix (conformance/implementations/pycocoevalcap.py): Bleu(n).compute_score on
hand-computed inputs, skipped with the reason where it is absent (pip install -e '.[pycocoevalcap]'); and the
models of the mechanisms it shows (ratio-epsilons, ngram-counts-fixed-at-order-four), checked by hand without
the library.

The hand computation: pycocoevalcap's precision of order n is (m_n + 1e-15) / (l_n + 1e-9) and its length
ratio (c + 1e-15) / (r + 1e-9), the brevity penalty exp(1 - 1/ratio) where that ratio is below 1.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

import oracle
from conformance import compare
from conformance.divergences import name_crash, name_failure, variant
from conformance.implementations import NotApplicable, library
from conformance.model import Case, Expectation
from conformance.targets import make_target
from oracle.registry import tool

V = "1.0.0"
SENTENCE, CORPUS = "bleu-sentence-compute", "bleu-corpus-compute"
NAME = "pycocoevalcap"
MISSING = library(NAME).missing()
installed = pytest.mark.skipif(bool(MISSING), reason=f"{NAME}: {MISSING} (pip install -e '.[pycocoevalcap]')")
TINY, SMALL = 1e-15, 1e-9
EPSILONS = frozenset({"ratio-epsilons"})


def offset(numerator: int, denominator: int) -> float:
    return (numerator + TINY) / (denominator + SMALL)


def penalty(c: int, r: int) -> float:
    ratio = offset(c, r)
    return math.exp(1 - 1 / ratio) if ratio < 1 else 1.0


# "a b c d" against itself: c = r = 4, every order matched (4/4, 3/3, 2/2, 1/1)
PERFECT = {"hypothesis": ["a", "b", "c", "d"], "references": [["a", "b", "c", "d"]], "smoothing": "none"}
PERFECT_SCORE = penalty(4, 4) * (offset(4, 4) * offset(3, 3) * offset(2, 2) * offset(1, 1)) ** 0.25
# "a b c d" against "a b c e": m = 3, 2, 1, 0 of l = 4, 3, 2, 1; the contract's bleu is 0
UNMATCHED = {"hypothesis": ["a", "b", "c", "d"], "references": [["a", "b", "c", "e"]], "smoothing": "none"}
UNMATCHED_SCORE = penalty(4, 4) * (offset(3, 4) * offset(2, 3) * offset(1, 2) * offset(0, 1)) ** 0.25


def answer(tool_id: str, payload: dict) -> dict:
    return library(NAME).execute(tool_id, V, payload).output


# --- the models (no library needed) --------------------------------------------------------------------------


def test_the_hand_computed_scores_are_the_measured_ones():
    assert PERFECT_SCORE == pytest.approx(0.99999999923, abs=5e-12)
    assert UNMATCHED_SCORE == pytest.approx(0.25e-15**0.25, rel=1e-8)  # about 1.26e-4
    assert UNMATCHED_SCORE == pytest.approx(1.2574e-4, rel=1e-4)


def test_the_epsilon_model_gives_the_hand_computed_scores():
    assert oracle.execute(SENTENCE, V, PERFECT)["bleu"] == 1
    assert oracle.execute(SENTENCE, V, UNMATCHED)["bleu"] == 0
    assert variant(tool(SENTENCE, V), PERFECT, EPSILONS)["bleu"] == pytest.approx(PERFECT_SCORE, rel=1e-14)
    assert variant(tool(SENTENCE, V), UNMATCHED, EPSILONS)["bleu"] == pytest.approx(UNMATCHED_SCORE, rel=1e-14)


def test_the_epsilon_model_sums_the_counts_of_a_corpus_first():
    """Segments "a b" / "a b" (c = r = 2) and "c" / "d" (c = r = 1), max_order 2: m = 2 + 0, 1 + 0 of l = 2 + 1,
    1 + 0; c = r = 3; the contract's bleu is (2/3 * 1/1) ** 0.5 = 0.8165."""
    payload = {"hypotheses": [["a", "b"], ["c"]], "references": [[["a", "b"]], [["d"]]], "max_order": 2}
    assert oracle.execute(CORPUS, V, payload)["bleu"] == pytest.approx((2 / 3) ** 0.5, rel=1e-15)
    hand = penalty(3, 3) * (offset(2, 3) * offset(1, 1)) ** 0.5
    assert variant(tool(CORPUS, V), payload, EPSILONS)["bleu"] == pytest.approx(hand, rel=1e-14)


def test_the_epsilon_model_gives_zero_only_for_an_empty_candidate():
    """c = 0: the ratio 1e-15 / (r + 1e-9) is tiny and exp(1 - 1/ratio) underflows to 0 (r = 0 included)."""
    for references in ([["a"]], [[]]):
        payload = {"hypothesis": [], "references": references, "smoothing": "none"}
        assert variant(tool(SENTENCE, V), payload, EPSILONS)["bleu"] == 0


def test_a_difference_below_one_in_a_billion_is_named_by_the_epsilon_model():
    """The perfect match differs from the contract's 1 by 7.7e-10 relative, below the cross-check's 1e-9: the
    judge's float bound fails it, and the naming looks finer. A value near the model's but not it names nothing."""
    assert 1 - PERFECT_SCORE < 1e-9
    found = name_failure(tool(SENTENCE, V), PERFECT, {"bleu": PERFECT_SCORE}, "bleu")
    assert found is not None and found.id == "ratio-epsilons"
    assert name_failure(tool(SENTENCE, V), PERFECT, {"bleu": 1 - 5e-10}, "bleu") is None
    found = name_failure(tool(SENTENCE, V), UNMATCHED, {"bleu": UNMATCHED_SCORE}, "bleu")
    assert found is not None and found.id == "ratio-epsilons"


def test_the_fixed_order_model_raises_index_error_above_order_four():
    payload = {"hypotheses": [["a"]], "references": [[["a"]]], "max_order": 5}
    found = name_crash(tool(CORPUS, V), payload, "raised IndexError")
    assert found is not None and found.id == "ngram-counts-fixed-at-order-four"
    assert name_crash(tool(CORPUS, V), {**payload, "max_order": 4}, "raised IndexError") is None


# --- the library ---------------------------------------------------------------------------------------------


@installed
def test_pycocoevalcap_gives_the_hand_computed_scores():
    assert answer(SENTENCE, PERFECT)["bleu"] == pytest.approx(PERFECT_SCORE, rel=1e-14)
    assert answer(SENTENCE, UNMATCHED)["bleu"] == pytest.approx(UNMATCHED_SCORE, rel=1e-14)
    corpus = {"hypotheses": [PERFECT["hypothesis"]], "references": [PERFECT["references"]]}
    assert answer(CORPUS, corpus)["bleu"] == pytest.approx(PERFECT_SCORE, rel=1e-14)


@installed
def test_pycocoevalcap_breaks_a_tie_of_reference_lengths_towards_the_shorter():
    """ "a b c d" against "a b c d e" and "a b c" (both 1 away): the shorter gives r = 3 < c, so no penalty, and
    every n-gram matches in the longer; taking the longer (r = 5) would multiply by exp(1 - 5/4) = 0.78."""
    hand = (offset(4, 4) * offset(3, 3) * offset(2, 2) * offset(1, 1)) ** 0.25
    for references in ([["a", "b", "c", "d", "e"], ["a", "b", "c"]], [["a", "b", "c"], ["a", "b", "c", "d", "e"]]):
        payload = {"hypothesis": ["a", "b", "c", "d"], "references": references, "smoothing": "none"}
        assert answer(SENTENCE, payload)["bleu"] == pytest.approx(hand, rel=1e-14)


@installed
def test_pycocoevalcap_sums_the_counts_of_a_corpus_before_dividing():
    payload = {"hypotheses": [["a", "b"], ["c"]], "references": [[["a", "b"]], [["d"]]], "max_order": 2}
    hand = penalty(3, 3) * (offset(2, 3) * offset(1, 1)) ** 0.5
    assert answer(CORPUS, payload)["bleu"] == pytest.approx(hand, rel=1e-14)


@installed
def test_pycocoevalcap_raises_index_error_above_order_four():
    with pytest.raises(IndexError):
        library(NAME).execute(CORPUS, V, {"hypotheses": [["a"]], "references": [[["a"]]], "max_order": 5})


@installed
def test_a_failure_of_pycocoevalcap_is_judged_and_named():
    target = make_target(f"implementation:{NAME}")
    for payload in (PERFECT, UNMATCHED):
        case = Case(SENTENCE, V, "x", "fixture", "valid", payload, Expectation("output"))
        verdict = compare.judge(case, compare.expect(case), target.call(SENTENCE, V, payload))
        assert verdict.outcome == "failed", verdict.message
        found = name_failure(tool(SENTENCE, V), payload, answer(SENTENCE, payload), "bleu")
        assert found is not None and found.id == "ratio-epsilons"


@installed
@pytest.mark.parametrize(
    "key, payload, cause",
    [
        (SENTENCE, {"hypothesis": ["a b"], "references": [["a"]], "smoothing": "none"}, "whitespace"),
        (SENTENCE, {"hypothesis": ["a\u001cb"], "references": [["a"]], "smoothing": "none"}, "whitespace"),
        (SENTENCE, {"hypothesis": ["a"], "references": [["a"]], "smoothing": "chen-cherry-1"}, "smoothing"),
        (
            SENTENCE,
            {"hypothesis": ["a"], "references": [["a"]], "smoothing": "none", "effective_order": True},
            "effective_order",
        ),
    ],
)
def test_an_input_pycocoevalcap_cannot_express_is_not_applicable(key, payload, cause):
    with pytest.raises(NotApplicable, match=cause):
        library(NAME).execute(key, V, payload)


@installed
@pytest.mark.parametrize(
    "key, payload", [(SENTENCE, UNMATCHED), (CORPUS, {"hypotheses": [["a"]], "references": [[["a"]]]})]
)
def test_the_call_prints_the_adapters_answer(key, payload):
    call = library(NAME).call(key, payload)
    assert call is not None and call["language"] == "python"
    finished = subprocess.run([sys.executable, "-c", call["code"]], capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert json.loads(finished.stdout.strip().splitlines()[-1])["bleu"] == answer(key, payload)["bleu"]

"""The catalogue of mechanisms (conformance/divergences.py): each named by what it does, its model the oracle with
that one mechanism changed, a failure named by the mechanisms whose model reproduces the answer (all its differing
fields looked at), the measured cases named by their causes.

Expected values come from hand computation written out beside them, or from the library called directly."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings

import conformance.crosscheck.adapters as cross_check_inputs
import oracle
from conformance.crosscheck.catalogue import explaining_failure
from conformance.divergences import MECHANISMS, same, variant
from conformance.implementations import implementations, library
from oracle.registry import tool

V = "1.0.0"
SENTENCE, CORPUS = "bleu-sentence-compute", "bleu-corpus-compute"


def installed(*names: str):
    missing = [name for name in names if library(name).missing()]
    return pytest.mark.skipif(bool(missing), reason=f"not installed: {', '.join(missing)}")


def named(tool_id: str, payload: dict, answer: dict, pointer: str) -> str | None:
    found = explaining_failure(tool_id, payload, pointer, answer)
    return found.id if found is not None else None


# --- the measured cases -------------------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["a b", "ab"])
def test_fast_bleus_score_of_a_one_token_hypothesis_is_the_smoothed_missing_order(token):
    """One token against itself, chen-cherry-1, max_order 4: p_1 = 1/1 and orders 2-4 have no n-grams. The contract's
    bleu is 0 (effective_order false, a smoothed denominator 0); fast-bleu's 0.1^0.75 = exp((ln 1 + 3 ln 0.1) / 4):
    each missing order counted as 0/1 and floored to 0.1/1. Whether the token holds a space changes nothing."""
    payload = {"hypothesis": [token], "references": [[token]], "smoothing": "chen-cherry-1"}
    assert oracle.execute(SENTENCE, V, payload)["bleu"] == 0
    answer = {"bleu": 0.1**0.75}
    assert answer["bleu"] == pytest.approx(0.17782794, abs=5e-9)
    assert named(SENTENCE, payload, answer, "/bleu") == "missing-order-denominator-one"
    assert named(SENTENCE, payload, {"bleu": 0.1**0.75 * 1.001}, "/bleu") is None  # near it, not it


@installed("fast-bleu")
@pytest.mark.parametrize("token", ["a b", "ab"])
def test_fast_bleu_itself_gives_the_measured_score(token):
    from fast_bleu import BLEU

    score = BLEU([[token]], {4: (0.25,) * 4}, smoothing_func=1).get_score([[token]])[4][0]
    assert score == pytest.approx(0.1**0.75, rel=1e-12)
    payload = {"hypothesis": [token], "references": [[token]], "smoothing": "chen-cherry-1"}
    assert named(SENTENCE, payload, {"bleu": score}, "/bleu") == "missing-order-denominator-one"


@pytest.mark.parametrize("references", [[["a", "b", "c", "d"], []], [[], ["a", "b", "c", "d"]]])
def test_torchmetrics_zero_on_a_tie_is_the_smoothed_zero_match_not_the_first_listed_reference(references):
    """Hypothesis "a b", references of 4 and 0 tokens (a tie: both 2 away), chen-cherry-2. The contract: r = 0 (the
    shorter), bp = 1, p_1 = 2/2, p_2 = (1+1)/(1+1), p_3 = p_4 = (0+1)/(0+1): bleu 1. torchmetrics answers 0.0 with
    either order of the references (measured). Taking the first-listed reference (r = 4) would give
    exp(1 - 4/2) = 0.3679, not 0; scoring 0 on the raw m_3 = 0 gives 0."""
    payload = {"hypothesis": ["a", "b"], "references": references, "smoothing": "chen-cherry-2"}
    assert oracle.execute(SENTENCE, V, payload)["bleu"] == 1
    first_listed = variant(tool(SENTENCE, V), payload, frozenset({"first-listed-closest-reference"}))
    assert first_listed["bleu"] in (1.0, pytest.approx(math.exp(-1), rel=1e-15))
    assert named(SENTENCE, payload, {"bleu": 0.0}, "/bleu") == "smoothed-score-zero-on-a-zero-match"


@installed("torchmetrics")
def test_torchmetrics_itself_gives_zero_on_the_tie():
    from torchmetrics.functional.text import bleu_score

    for target in (["a b c d", ""], ["", "a b c d"]):
        assert bleu_score(["a b"], [target], n_gram=4, smooth=True).item() == 0.0


def test_nltks_sentence_answer_shows_its_smoothed_missing_order_beside_its_totals():
    """["a", "b"] against itself, chen-cherry-3: NLTK's totals [2, 1, 1, 1] (max(1, count)) and bleu
    (1 * 1 * 1/2 * 1/4)^(1/4) = 0.125^0.25 = 0.5946 (method3: 1/(2^k * 1)); the contract's totals [2, 1, 0, 0] and bleu
    0. Both differing fields are explained by the one mechanism, the first differing one (/totals) hiding nothing."""
    payload = {"hypothesis": ["a", "b"], "references": [["a", "b"]], "smoothing": "chen-cherry-3"}
    answer = {**oracle.execute(SENTENCE, V, payload), "totals": [2, 1, 1, 1], "bleu": 0.125**0.25}
    found = explaining_failure(SENTENCE, payload, "/totals/2", answer)
    assert found is not None and found.id == "missing-order-denominator-one"
    assert found.fields == ("bleu", "totals")


@installed("nltk")
def test_nltk_itself_gives_that_answer():
    found = library("nltk").execute(
        SENTENCE, V, {"hypothesis": ["a", "b"], "references": [["a", "b"]], "smoothing": "chen-cherry-3"}
    )
    assert found["totals"] == [2, 1, 1, 1] and found["bleu"] == pytest.approx(0.125**0.25, rel=1e-12)


def test_a_case_showing_two_mechanisms_names_both():
    """["a", "b"] against itself, unsmoothed: NLTK's totals [2, 1, 1, 1] and bleu (1 * 1 * m * m)^(1/4) = m^(1/2),
    m = 2.2250738585072014e-308 (method0's floor of each 0/1): two mechanisms, neither alone."""
    payload = {"hypothesis": ["a", "b"], "references": [["a", "b"]], "smoothing": "none"}
    tiny = 2.2250738585072014e-308
    answer = {**oracle.execute(SENTENCE, V, payload), "totals": [2, 1, 1, 1], "bleu": math.sqrt(tiny)}
    assert named(SENTENCE, payload, answer, "/totals/2") == "missing-order-denominator-one + zero-precision-floor"
    assert named(SENTENCE, payload, {**answer, "totals": [2, 1, 0, 0]}, "/bleu") is None  # needs the ones too


def test_sacrebleu_and_bleuscore_share_the_empty_brevity_penalty_entry():
    """c = r = 0: the contract's brevity penalty 0; sacreBLEU's and bleuscore's 1.0 (both measured: see
    tests/test_implementations.py). One mechanism, both libraries listed."""
    payload = {"hypotheses": [[]], "references": [[[]]]}
    answer = {**oracle.execute(CORPUS, V, payload), "brevity_penalty": 1.0}
    found = explaining_failure(CORPUS, payload, "/brevity_penalty", answer)
    assert found is not None and found.id == "brevity-penalty-one-when-both-empty"
    assert {"sacrebleu", "bleuscore"} <= set(found.libraries)


@installed("sacrebleu", "bleuscore")
def test_both_libraries_give_that_brevity_penalty():
    payload = {"hypotheses": [[]], "references": [[[]]]}
    for name in ("sacrebleu", "bleuscore"):
        answer = library(name).execute(CORPUS, V, payload)
        answer = getattr(answer, "output", answer)
        assert answer["brevity_penalty"] == 1.0
        assert named(CORPUS, payload, answer, "/brevity_penalty") == "brevity-penalty-one-when-both-empty"


# --- the catalogue --------------------------------------------------------------------------------------------


def test_no_mechanism_is_named_after_a_library():
    names = {name.lower() for name in implementations()} | {"sacre", "nltk", "torch", "fast", "npm", "bleuscore"}
    assert not [m.id for m in MECHANISMS if any(name in m.id for name in names)]


def test_every_mechanism_a_library_shows_is_catalogued_and_listed_once():
    assert len({m.id for m in MECHANISMS}) == len(MECHANISMS)
    shown = {m.id: m.libraries for m in MECHANISMS}
    for name, found in implementations().items():
        for mechanism_id in getattr(found.module, "SHOWS", ()):
            assert name in shown[mechanism_id]


@pytest.mark.parametrize("tool_key", sorted(cross_check_inputs.adapters()), ids=lambda key: key[0])
def test_the_unchanged_model_is_the_oracle(tool_key):
    """With no mechanism changed, every model computes the oracle's output (chrF scores as floats within half a
    step of the six-decimal text): a mechanism's model departs from the oracle by that mechanism alone."""
    found = tool(*tool_key)

    @settings(max_examples=40, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(cross_check_inputs.adapters()[tool_key].INPUTS)
    def unchanged(payload):
        expected, model = found.execute(payload), variant(found, payload, frozenset())
        assert all(same(model[key], expected[key]) for key in model), payload

    unchanged()


def test_each_cross_check_entry_names_a_mechanism_its_library_shows():
    """A cross-check entry (a library's check of one tool) is that library's instance of a catalogued mechanism:
    the mechanism exists, and the library's module says it shows it."""
    from conformance.crosscheck.catalogue import CATALOGUE
    from conformance.divergences import BY_ID

    named = [entry for entry in CATALOGUE if entry.shows]
    assert len(named) >= 30
    for entry in named:
        assert entry.shows in BY_ID, entry.id
        assert set(entry.libraries) <= set(BY_ID[entry.shows].libraries), entry.id


def test_single_precision_arithmetic_models_a_float32_score():
    """p = 4/5, 2/4, 1/3, bp 1, N = 3: every step in float32. By hand, the float32 values: 4/5 -> 0.800000011920929,
    ln -> -0.2231435328722, x fl32(1/3) = 0.3333333432674408 ...: the score 0.5108729600906372, which torchmetrics
    1.9 on torch 2.13 answers for this input (its float32 tensors), 1.0e-8 relative from the contract's
    (2/15)^(1/3) = 0.5108729549290354; the double-precision oracle is not it, and the model holds within 1e-6."""
    import oracle
    from conformance.divergences import name_failure, variant

    payload = {"hypotheses": [["a", "b", "c", "x", "d"]], "references": [[["a", "b", "c", "d"]]], "max_order": 3}
    corpus = oracle.tool("bleu-corpus-compute", "1.0.0")
    assert oracle.execute("bleu-corpus-compute", "1.0.0", payload)["bleu"] == pytest.approx(
        (2 / 15) ** (1 / 3), rel=1e-15
    )
    modelled = variant(corpus, payload, frozenset({"single-precision-arithmetic"}))["bleu"]
    assert modelled == 0.5108729600906372
    named = name_failure(corpus, payload, {"bleu": 0.5108729600906372}, "bleu")
    assert named is not None and named.id == "single-precision-arithmetic"
    # a value 1e-5 off is not float32 arithmetic
    assert name_failure(corpus, payload, {"bleu": 0.5108729549290354 * (1 + 1e-5)}, "bleu") is None
    # c = 2 against references of 3 and 1 (both 1 away), the longer first, in float32: bp = fl32(exp(fl32(1 - 3/2)))
    payload = {"hypotheses": [["a", "b"]], "references": [[["a", "b", "c"], ["a"]]], "max_order": 2}
    named = name_failure(corpus, payload, {"bleu": 0.6065306663513184}, "bleu")
    assert named is not None and named.id == "first-listed-closest-reference + single-precision-arithmetic"


# --- tokens split again at whitespace ------------------------------------------------------------------------


def test_tokens_split_again_at_whitespace_count_as_several():
    """One token "a b" against itself, max_order 2: the contract's c = 1, matches [1, 0], totals [1, 0] (no
    bigram), bleu 0. Joined with spaces and split again: "a", "b" against "a", "b": c = r = 2, matches [2, 1],
    totals [2, 1], bleu = sqrt(2/2 * 1/1) = 1 (skipping the unmatched order gives that bleu too, not the rest)."""
    payload = {"hypothesis": ["a b"], "references": [["a b"]], "smoothing": "none", "max_order": 2}
    contract = oracle.execute(SENTENCE, V, payload)
    assert (contract["candidate_length"], contract["matches"], contract["bleu"]) == (1, [1, 0], 0)
    model = variant(tool(SENTENCE, V), payload, frozenset({"tokens-split-at-whitespace"}))
    assert (model["candidate_length"], model["matches"], model["totals"], model["bleu"]) == (2, [2, 1], [2, 1], 1)
    answer = {
        **contract,
        "candidate_length": 2,
        "reference_length": 2,
        "matches": [2, 1],
        "totals": [2, 1],
        "bleu": 1.0,
    }
    assert named(SENTENCE, payload, answer, "/bleu") == "tokens-split-at-whitespace"


def test_a_token_of_a_line_separator_alone_splits_into_nothing():
    """str.split() splits at U+2028 and U+001F: hypothesis ["\\u2028", "a\\u001fb"] becomes "a", "b" (c = 2 for
    the contract's 2, but other unigrams), against the reference "a", "b": matches [2] for the contract's [0]
    (neither token is a reference token), max_order 1, so bleu = 2/2 = 1 for 0."""
    payload = {"hypothesis": ["\u2028", "a\u001fb"], "references": [["a", "b"]], "smoothing": "none", "max_order": 1}
    contract = oracle.execute(SENTENCE, V, payload)
    assert (contract["candidate_length"], contract["matches"], contract["bleu"]) == (2, [0], 0)
    answer = {**contract, "matches": [2], "bleu": 1.0}
    assert named(SENTENCE, payload, answer, "/matches/0") == "tokens-split-at-whitespace"


def test_of_models_rounding_alike_the_nearest_to_the_contract_names_a_rounded_answer():
    """chen-cherry-2, "a b" against "a c", max_order 2, decimals 0: the contract's p_1 = 1/2, p_2 = (0 + 1)/(1 + 1),
    bleu = 0.5, rounded half up to 1; matches [1, 0], totals [2, 1]. An answer of 0 with add-k's counts in matches
    and totals ([1, 1], [2, 2]): percent-scale arithmetic gives exp((ln 50 + ln 50) / 2) / 100 = 0.49999999999999994,
    rounded to 0; the epsilon model (no smoothing) 2.2e-8, also 0. Both explain the answer; the first departs least
    from 0.5 and is named."""
    payload = {
        "hypothesis": ["a", "b"],
        "references": [["a", "c"]],
        "smoothing": "chen-cherry-2",
        "max_order": 2,
        "decimals": 0,
    }
    contract = oracle.execute(SENTENCE, V, payload)
    assert (contract["bleu"], contract["matches"], contract["totals"]) == (1, [1, 0], [2, 1])
    answer = {**contract, "bleu": 0.0, "matches": [1, 1], "totals": [2, 2]}
    assert named(SENTENCE, payload, answer, "/bleu") == "add-k-reported-in-counts + percent-scale-rounding"

"""sacreBLEU and NLTK run as targets: one failure group per cause, each named by the divergence whose
library answer is the target's whole answer.

The targets are tests/faulty_causes/sacrebleu_like.py and nltk_like.py: honest wrappers of the libraries'
public functions for every tool. Expected values come from the libraries themselves (called here), the
contracts' semantics lines (read from the contract files) and hand computation written out; never from
the code under test.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

import oracle
from conformance.compare.clause import output_clause
from conformance.compare.signature import explain
from conformance.crosscheck.catalogue import CATALOGUE_BY_ID, explaining_failure, output_field_names
from conformance.crosscheck.checks import CHECKS_BY_ID, evaluate, installed
from conformance.crosscheck.runner import classify
from conformance.model import Case, CaseResult, Expectation, Mismatch, TargetResponse

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
V = "1.0.0"
SENTENCE = "bleu-sentence-compute"

sys.path.insert(0, str(TESTS))
from faulty_causes import nltk_like, sacrebleu_like  # noqa: E402 - the wrappers live beside the tests


def contract_line(tool_id: str, number: int) -> str:
    return json.loads((ROOT / "contracts" / tool_id / f"{V}.json").read_text(encoding="utf-8"))["semantics"][number - 1]


# ---------------------------------------------------------------- the whole answer, not its first field


def test_nltk_totals_are_not_named_as_sacrebleus_add_k():
    """Hypothesis "a" against "a b", chen-cherry-2, max_order 8 (hand computation): c = 1, l = [1, 0, ..., 0],
    m = [1, 0, ..., 0]. NLTK's max(1, l_n) totals are [1] * 8, and so are sacreBLEU's add-k totals l_n + 1;
    but add-k also reports m_n + 1 = [1, 1, ..., 1] where NLTK reports the raw matches."""
    payload = {"hypothesis": ["a"], "references": [["a", "b"]], "smoothing": "chen-cherry-2", "max_order": 8}
    nltk = nltk_like.execute(SENTENCE, V, payload)
    assert (nltk["matches"], nltk["totals"]) == ([1] + [0] * 7, [1] * 8)
    named = explaining_failure(SENTENCE, payload, "/totals/1", nltk)
    assert named is not None and named.id == "missing-order-denominator-one"
    sacrebleu = sacrebleu_like.execute(SENTENCE, V, payload)
    assert (sacrebleu["matches"], sacrebleu["totals"]) == ([1] * 8, [1] * 8)
    assert explaining_failure(SENTENCE, payload, "/matches/1", sacrebleu).id == "add-k-reported-in-counts"


def test_a_model_that_raises_is_not_modelled_and_changes_no_cause(monkeypatch):
    """The same failure with a model that raises: the same signature (clause included), no divergence, no crash."""
    from conformance import divergences

    payload = {"candidate_lengths": [0], "reference_lengths": [[0]]}
    output = {**oracle.execute("bleu-brevity-penalty", V, payload), "brevity_penalty": 1.0}
    result = judged_result("bleu-brevity-penalty", payload, output, "/brevity_penalty", 0.0, 1.0)
    before = explain(result)
    assert before.divergence.id == "brevity-penalty-one-when-both-empty"

    def raising(*_arguments):
        raise ValueError("Unknown format code 'd' for object of type 'float'")

    monkeypatch.setattr(divergences, "_lengths_variant", raising)
    after = explain(result)
    assert after.signature == before.signature and after.divergence is None


def judged_result(tool_id: str, payload: dict, output: dict, pointer: str, expected, actual) -> dict:
    case = Case(tool_id, V, f"generated/{tool_id}/valid/x/1", "generated", "valid", payload, Expectation("output"))
    mismatch = Mismatch(pointer, expected, actual, f"expected {expected}, got {actual}")
    result = CaseResult(case, "failed", "wrong", mismatch, TargetResponse("result", result=output))
    return json.loads(json.dumps(result.to_dict()))


@pytest.mark.parametrize("length", [0, 0.0])
def test_a_zero_length_written_either_way_is_one_cause(length):
    """candidate_lengths [0] or [0.0] (the integer 0 both, semantics 7): sacreBLEU keeps bp 1.0 for c = r = 0."""
    payload = {"candidate_lengths": [length], "reference_lengths": [[0]]}
    output = sacrebleu_like.execute("bleu-brevity-penalty", V, payload)
    assert output["brevity_penalty"] == 1.0
    assert (
        explaining_failure("bleu-brevity-penalty", payload, "/brevity_penalty", output).id
        == "brevity-penalty-one-when-both-empty"
    )


def test_add_k_is_named_where_its_model_gives_the_counts_and_not_on_tokens_split_apart():
    """sacreBLEU's add-k counts are the oracle's with one added to the orders n >= 2; tokens "a b" are joined and
    split again by sacreBLEU, so its counts there are another tokenization's, which add-k alone does not give: the
    two mechanisms together do."""
    plain = {"hypothesis": ["a", "c"], "references": [["a", "c", "d"]], "smoothing": "chen-cherry-2"}
    output = sacrebleu_like.execute(SENTENCE, V, plain)
    assert (output["matches"], output["totals"]) == ([2, 2, 1, 1], [2, 2, 1, 1])  # raw [2, 1, 0, 0], [2, 1, 0, 0]
    assert explaining_failure(SENTENCE, plain, "/matches/1", output).id == "add-k-reported-in-counts"
    spaced = {"hypothesis": ["a b", "c"], "references": [["a b", "c", "d"]], "smoothing": "chen-cherry-2"}
    output = sacrebleu_like.execute(SENTENCE, V, spaced)
    assert output["totals"][0] == 3  # three tokens after str.split(), where the input has two
    named = explaining_failure(SENTENCE, spaced, "/matches/1", output)
    assert named is not None and named.id == "add-k-reported-in-counts + tokens-split-at-whitespace"


@pytest.mark.parametrize(
    "divergence_id", sorted(d.id for d in CATALOGUE_BY_ID.values() if all(map(installed, d.libraries)))
)
def test_every_divergence_models_every_field_it_lists(divergence_id):
    """On its committed minimal reproducer, the model answers every output field the entry can change that
    the tool's output holds there (the oracle's output says which)."""
    from test_crosscheck import committed_reproducers

    divergence = CATALOGUE_BY_ID[divergence_id]
    check_id, payload = committed_reproducers()[divergence_id]
    tool_id = CHECKS_BY_ID[check_id].tool_id
    answer = divergence.answer(payload)
    assert answer is not None, "not modelled on its own reproducer"
    held = set(oracle.execute(tool_id, V, payload)) & divergence.output_fields & output_field_names(tool_id)
    held &= expressed_by(divergence.libraries, tool_id, payload)
    assert held and held <= set(answer), (held, set(answer))


def expressed_by(libraries: tuple[str, ...], tool_id: str, payload: dict) -> set[str]:
    """The output fields the library's implementation adapter answers for the input (fastchrf gives no corpus
    score of several segments: its model cannot either); every field for a library without one."""
    from conformance.implementations import Partial, implementations

    found = implementations().get(libraries[0])
    answer = found.execute(tool_id, V, payload) if found is not None and found.adapter(tool_id) else None
    return set(answer.output) if isinstance(answer, Partial) else set(output_field_names(tool_id))


# ---------------------------------------------------------------- the clause from the answer


def test_nltks_sentence_totals_cite_the_line_defining_l_n_and_add_k_the_never_smoothed_line():
    payload = {"hypothesis": ["a"], "references": [["a", "b"]], "smoothing": "chen-cherry-2", "max_order": 8}
    tool = oracle.tool(SENTENCE, V)
    nltk = output_clause(tool, payload, "/totals/1", actual=nltk_like.execute(SENTENCE, V, payload))
    assert (nltk.number, nltk.text) == (2, contract_line(SENTENCE, 2))
    add_k = output_clause(tool, payload, "/matches/1", actual=sacrebleu_like.execute(SENTENCE, V, payload))
    assert (add_k.number, add_k.text) == (12, contract_line(SENTENCE, 12))


def test_a_chrf_score_off_the_targets_own_rows_cites_the_line_applying_the_rule_to_them():
    """chrf-components, "ab" against "abc", char_order 2, word_order 0: the target's rows are the contract's;
    NLTK's F averaged per order is not the rule on those rows (semantics 6 applies it to them)."""
    tool_id = "chrf-components"
    payload = {"hypotheses": ["ab"], "references": ["abc"], "char_order": 2, "word_order": 0}
    output = nltk_like.execute(tool_id, V, payload)
    assert output["statistics"] == oracle.execute(tool_id, V, payload)["statistics"]
    clause = output_clause(oracle.tool(tool_id, V), payload, "/score", actual=output)
    assert (clause.number, clause.text) == (6, contract_line(tool_id, 6))


def test_a_chrf_score_rounded_wrong_from_the_right_value_cites_the_rounding_line():
    """chrf-compute, hypothesis "ab" against "abc" (hand computation): char1 P 2/2 R 2/3, char2 P 1/1 R 1/2,
    orders 3-6 not effective (the hypothesis has no trigram); P = 1, R = 7/12, F2 = 5 * 7/12 / (4 + 7/12) =
    35/55 = 7/11: score 63.636363... A target with the exact 700/11 but a score truncated the wrong way
    (63.636364 is right, 63.636363 one step off) broke the rounding; a score far off, with no rows to judge
    from, is unattributed."""
    tool_id = "chrf-compute"
    payload = {"hypotheses": ["ab"], "references": ["abc"]}
    output = oracle.execute(tool_id, V, payload)
    assert (output["score"], output["score_fraction"]) == ("63.636364", "700/11")
    tool = oracle.tool(tool_id, V)
    rounding = output_clause(tool, payload, "/score", actual={**output, "score": "63.636363"})
    assert (rounding.number, rounding.text) == (6, contract_line(tool_id, 6))
    far = output_clause(tool, payload, "/score", actual={**output, "score": "60.000000", "score_fraction": "60/1"})
    assert far.kind == "unattributed"
    inexact = output_clause(tool, payload, "/score", actual={**output, "score": "63.636363", "score_fraction": "60/1"})
    assert inexact.kind == "unattributed"  # a step off a value the target does not have: formula or rounding


# ---------------------------------------------------------------- the cross-check holds the library to the schema


def test_the_crosscheck_catalogues_sacrebleus_sentence_bleu_above_one():
    """A copy of its reference: every precision 1, bp 1, bleu 1 by contract; sacreBLEU's 100.00000000000004 / 100
    is above the output_schema's maximum 1."""
    from sacrebleu.metrics import BLEU

    payload = {"hypothesis": ["a", "b", "c", "d"], "references": [["a", "b", "c", "d"]], "smoothing": "none"}
    library = BLEU(tokenize="none", smooth_method="none").sentence_score("a b c d", ["a b c d"]).score / 100
    assert library > 1
    check = CHECKS_BY_ID["sacrebleu/sentence_score:smoothed"]
    comparison = evaluate(check, payload)
    assert comparison.differences == ["bleu within output_schema"]
    assert classify(check, payload, comparison) == ("explained", ["sacrebleu-sentence-bleu-above-one"])
    output = sacrebleu_like.execute(SENTENCE, V, payload)
    assert output["bleu"] == library
    named = explaining_failure(SENTENCE, payload, "/bleu", output, out_of_bounds=True)
    assert named.id == "percent-scale-rounding"
    assert explaining_failure(SENTENCE, payload, "/bleu", output) is None  # a bound, not a differing value


def test_the_committed_catalogue_has_the_schema_bound_entries():
    text = (ROOT / "reports" / "divergences.md").read_text(encoding="utf-8")
    assert "sacrebleu-sentence-bleu-above-one" in text and "sacrebleu-bleu-above-one" in text


# ---------------------------------------------------------------- each library x tool, as a user runs it


def run_groups(tmp_path: Path, library: str, tool_id: str) -> list[tuple]:
    """``conformance run --profile quick --seed 1`` against the wrapper: (pointer class, kind, clause, divergence)
    of each failure group; and every failing result is in exactly one group."""
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance",
            "run",
            "--target",
            f"python:faulty_causes.{library}",
            "--tools",
            tool_id,
            "--profile",
            "quick",
            "--seed",
            "1",
            "--report-dir",
            "out",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": f"{TESTS}{os.pathsep}{ROOT}"},
    )
    assert completed.returncode == 1, completed.stdout[-3000:] + completed.stderr[-3000:]
    document = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    failing = sorted(r["case"]["case_id"] for r in document["results"] if r["outcome"] == "failed")
    assert sorted(m for g in document["failure_groups"] for m in g["members"]) == failing
    return sorted(
        (
            (g["pointer_class"], g["kind"], clause_key(g["clause"]), g["divergence"]["id"] if g["divergence"] else None)
            for g in document["failure_groups"]
        ),
        key=str,
    )


def clause_key(clause: dict) -> str:
    return f"semantics {clause['number']}" if clause["kind"] == "semantics" and clause["number"] else clause["kind"]


WRONG, SCHEMA = "wrong value", "violates the output_schema"
MAXIMUM = "schema"

# Each library x tool: its causes, one group each (and where the first difference of one mechanism lies in
# another field, one group each). A "None" divergence is a cause nothing catalogued names: a float where the
# contract wants the exact fraction (score_fraction), word n-grams a wrapper does not count.
EXPECTED = {
    ("sacrebleu_like", "bleu-brevity-penalty"): [
        # c = r = 0, written 0 or 0.0: compute_bleu keeps bp 1.0
        ("/brevity_penalty", WRONG, "semantics 3", "brevity-penalty-one-when-both-empty")
    ],
}
# whole quick runs of a tool with many shrunk failures: minutes on a busy machine
SLOW_EXPECTED = {
    ("nltk_like", "bleu-sentence-components"): [
        # modified_precision's max(1, l_n)
        ("/totals/*", WRONG, "semantics 3", "missing-order-denominator-one")
    ],
    ("sacrebleu_like", "bleu-sentence-compute"): [
        ("/bleu", SCHEMA, MAXIMUM, "percent-scale-rounding"),  # 1 + 2^-51 on a perfect match
        ("/brevity_penalty", WRONG, "semantics 3", "brevity-penalty-one-when-both-empty"),  # c = r = 0
        ("/candidate_length", WRONG, "semantics 2", "tokens-split-at-whitespace"),  # joined, then str.split()
        ("/matches/*", WRONG, "semantics 2", "tokens-split-at-whitespace"),  # as many tokens, other n-grams
        ("/matches/*", WRONG, "semantics 12", "add-k-reported-in-counts"),
        # a case showing two or three of its mechanisms names them all, a group of its own
        ("/bleu", SCHEMA, MAXIMUM, "add-k-reported-in-counts + percent-scale-rounding"),
        ("/bleu", SCHEMA, MAXIMUM, "percent-scale-rounding + tokens-split-at-whitespace"),
        ("/bleu", SCHEMA, MAXIMUM, "add-k-reported-in-counts + percent-scale-rounding + tokens-split-at-whitespace"),
        ("/bleu", WRONG, "semantics 9", "add-k-reported-in-counts + tokens-split-at-whitespace"),
        # 0.49999999999999994 rounded to 0 decimals: 0 for the contract's 1
        ("/matches/*", WRONG, "semantics 12", "add-k-reported-in-counts + percent-scale-rounding"),
    ],
    ("nltk_like", "bleu-sentence-compute"): [
        ("/bleu", WRONG, "semantics 9", "zero-precision-floor"),  # 2.2e-308 for a zero precision
        # a missing order (l_n = 0) scored with max(1, l_n) and its zero precision floored: both shown, one cause
        ("/bleu", WRONG, "semantics 9", "missing-order-denominator-one + zero-precision-floor"),
        ("/totals/*", WRONG, "semantics 2", "missing-order-denominator-one"),  # max(1, l_n)
    ],
    ("nltk_like", "chrf-components"): [
        ("/score", WRONG, "semantics 6", "f-per-order-averaged"),  # F per order averaged, epsilon
        # word_order > 0: the wrapper scores characters only (NLTK has no word n-grams), a cause nothing
        # catalogued names
        ("/score", WRONG, "semantics 6", None),
        ("/score_fraction", WRONG, "semantics 8", None),  # a float is not the exact fraction
    ],
    ("sacrebleu_like", "chrf-components"): [
        ("/score_fraction", WRONG, "semantics 8", None),
        ("/statistics/*/hypothesis_ngrams", WRONG, "semantics 6", "hypothesis-count-dropped-without-reference-order"),
    ],
    ("nltk_like", "bleu-corpus-compute"): [
        ("/bleu", WRONG, "semantics 5", "zero-precision-floor"),
        ("/bleu", WRONG, "semantics 5", "missing-order-denominator-one + zero-precision-floor"),
        ("/totals/*", WRONG, "semantics 2", "missing-order-denominator-one"),
    ],
}


@pytest.mark.parametrize("library, tool_id", sorted(EXPECTED))
def test_a_library_as_a_target_shows_one_group_per_cause(tmp_path, library, tool_id):
    assert run_groups(tmp_path, library, tool_id) == sorted(EXPECTED[(library, tool_id)], key=str)


@pytest.mark.slow
@pytest.mark.parametrize("library, tool_id", sorted(SLOW_EXPECTED))
def test_a_library_as_a_target_shows_one_group_per_cause_slow(tmp_path, library, tool_id):
    assert run_groups(tmp_path, library, tool_id) == sorted(SLOW_EXPECTED[(library, tool_id)], key=str)


# ---------------------------------------------------------------- the matrix's libraries as implementation: targets


def requires(*libraries: str):
    return pytest.mark.skipif(not all(map(installed, libraries)), reason=f"{', '.join(libraries)} not installed")


def implementation_result(name: str, tool_id: str, payload: dict, pointer: str) -> dict:
    """The implementation's answer to the input as report.json records a failure at ``pointer`` (its partial
    answer's declaration included)."""
    from conformance.targets import make_target

    response = make_target(f"implementation:{name}").call(tool_id, V, payload)
    assert response.kind == "result", response
    case = Case(tool_id, V, f"generated/{tool_id}/valid/x/1", "generated", "valid", payload, Expectation("output"))
    result = CaseResult(case, "failed", "wrong", Mismatch(pointer, None, None, "expected x, got y"), response)
    return json.loads(json.dumps(result.to_dict()))


def named(result: dict, implementation: str = "") -> str | None:
    divergence = explain(result, implementation=implementation).divergence
    return divergence.id if divergence is not None else None


@requires("nltk")
def test_a_library_float_on_the_unit_scale_is_named_by_the_model_on_the_percent_scale():
    """NLTK's chrF of an empty pair is its epsilon 1e-16 (on 0..1), where the contract has 0; the model gives
    100 * NLTK's value (1e-14): the same float once the target's is read on the 0..100 scale."""
    payload = {"hypotheses": [""], "references": [""]}
    for tool_id, entry in (
        ("chrf-compute", "f-per-order-averaged"),
        ("chrf-components", "f-per-order-averaged"),
    ):
        result = implementation_result("nltk", tool_id, payload, "/score")
        assert result["response"]["result"]["score"] == pytest.approx(1e-16, rel=1e-12)
        assert result["response"]["expressed"]["library_floats"]["/score"] == 1
        assert named(result, "nltk") == entry
        # a value near it but not it names nothing
        result["response"]["result"]["score"] = 2e-16
        assert named(result, "nltk") is None


def test_on_percent_scale_scales_only_the_library_floats_on_another_scale():
    from conformance.compare.library_floats import on_percent_scale

    output = {"score": 0.5, "segments": [{"segment": 0, "score": 0.25}], "segment_count": 1}
    assert on_percent_scale(output, {"/score": 1, "/segments/*/score": 1}) == {
        "score": 50.0,
        "segments": [{"segment": 0, "score": 25.0}],
        "segment_count": 1,
    }
    assert on_percent_scale(output, {"/score": 100}) == output


@requires("fastchrf")
def test_fastchrf_keeps_exactly_the_information_separators_of_the_contracts_whitespace():
    """ "ab" against "a" X "b": 100 where X is removed, less where it is kept. Of the contract's list and its
    near misses, fastchrf keeps U+001C-U+001F only (Rust's char::is_whitespace is Unicode White_Space)."""
    from conformance.implementations.fastchrf import sentence_floats as fastchrf_sentence_scores
    from oracle.chrf import WHITESPACE_CODE_POINTS

    near_misses = [0x0008, 0x000E, 0x001B, 0x007F, 0x00AD, 0x180E, 0x200B, 0x200C, 0x2060, 0xFEFF]
    kept = {
        cp
        for cp in [*WHITESPACE_CODE_POINTS, *near_misses]
        if fastchrf_sentence_scores({"hypotheses": ["ab"], "references": [f"a{chr(cp)}b"]}, 6)[0] != 100
    }
    assert kept == {0x1C, 0x1D, 0x1E, 0x1F, *near_misses}


@requires("fastchrf", "nltk")
def test_fastchrf_is_named_by_its_own_whitespace_entry_before_nltks_with_the_same_answer():
    """ "the" against "the" U+001C: orders 1..3 effective, P = 1, R = (3/4 + 2/3 + 1/2) / 3 = 23/36,
    F_2 = 5R / (4 + R) = 115/167 = 68.862275...; NLTK keeps U+001C too, so its model gives the same score."""
    payload = {"hypotheses": ["the"], "references": ["the\u001c"]}
    result = implementation_result("fastchrf", "chrf-compute", payload, "/score")
    assert result["response"]["result"]["score"] == pytest.approx(100 * 115 / 167, rel=1e-14)
    assert named(result, "fastchrf") == "whitespace-set-without-information-separators"
    assert (
        named(result) == "whitespace-set-without-information-separators"
    )  # another target: the catalogue's first entry
    two = {"hypotheses": ["the\tthe", "the"], "references": ["the\tthe", "the\u001c"]}
    assert (
        named(implementation_result("fastchrf", "chrf-components", two, "/segments/1/score"), "fastchrf")
        == "whitespace-set-without-information-separators"
    )


@requires("fast-bleu")
def test_fast_bleus_single_precision_weights_are_named():
    """ "a b c x d" against "a b c d", max_order 3: p = 4/5, 2/4, 1/3, bp 1 (c = 5 > r = 4); the contract's
    (2/15)^(1/3) = 0.5108729549290354, fast-bleu's (2/15)^fl32(1/3), fl32(1/3) = 0.3333333432674408."""
    payload = {
        "hypothesis": ["a", "b", "c", "x", "d"],
        "references": [["a", "b", "c", "d"]],
        "smoothing": "none",
        "max_order": 3,
    }
    assert oracle.execute(SENTENCE, V, payload)["bleu"] == pytest.approx((2 / 15) ** (1 / 3), rel=1e-15)
    result = implementation_result("fast-bleu", SENTENCE, payload, "/bleu")
    assert result["response"]["result"]["bleu"] == pytest.approx((2 / 15) ** 0.3333333432674408, rel=1e-15)
    assert CATALOGUE_BY_ID["fast-bleu-single-precision-weights"].answer(payload)["bleu"] == pytest.approx(
        (2 / 15) ** 0.3333333432674408, rel=1e-15
    )
    assert named(result, "fast-bleu") == "single-precision-weights"
    # near the model's value, not it (within 1e-6 of the contract's it would be float32 arithmetic)
    result["response"]["result"]["bleu"] = 0.51087
    assert named(result, "fast-bleu") is None


@requires("fast-bleu", "nltk")
def test_fast_bleus_nltk_like_method1_is_named_by_its_own_entry():
    """ "a b" against "a b", chen-cherry-1, max_order 4: p = 1, 1, 0.1/1, 0.1/1 (fast-bleu, like NLTK, divides by
    max(1, 0)): (0.01)^(1/4) = 0.31622776601683794, where the contract has 0."""
    payload = {"hypothesis": ["a", "b"], "references": [["a", "b"]], "smoothing": "chen-cherry-1"}
    result = implementation_result("fast-bleu", SENTENCE, payload, "/bleu")
    assert result["response"]["result"]["bleu"] == pytest.approx(0.01**0.25, rel=1e-12)
    assert named(result, "fast-bleu") == "missing-order-denominator-one"
    assert named(result) == "missing-order-denominator-one"


CORPUS_BLEU = "bleu-corpus-compute"


@requires("torchmetrics")
@pytest.mark.parametrize(
    "tool_id, payload, pointer, value, entry",
    [
        # p = 4/5, 2/4, 1/3, bp 1: (2/15)^(1/3) in float32
        (
            CORPUS_BLEU,
            {"hypotheses": [["a", "b", "c", "x", "d"]], "references": [[["a", "b", "c", "d"]]], "max_order": 3},
            "/bleu",
            (2 / 15) ** (1 / 3),
            "single-precision-arithmetic",
        ),
        # c = 2, references of 3 and 1 tokens, both 1 away: the contract's r = 1 (bp 1, bleu 1), torchmetrics'
        # r = 3: bp = exp(1 - 3/2)
        (
            CORPUS_BLEU,
            {"hypotheses": [["a", "b"]], "references": [[["a", "b", "c"], ["a"]]], "max_order": 2},
            "/bleu",
            math.exp(-0.5),
            "first-listed-closest-reference + single-precision-arithmetic",
        ),
        # chen-cherry-2, m = [2, 1, 0]: the contract's (2/3 * 2/3 * 1/2)^(1/3), torchmetrics' early return 0
        (
            SENTENCE,
            {
                "hypothesis": ["a", "b", "x"],
                "references": [["a", "b", "c"]],
                "smoothing": "chen-cherry-2",
                "max_order": 3,
            },
            "/bleu",
            0.0,
            "smoothed-score-zero-on-a-zero-match",
        ),
        # a tab between "a" and "b": kept by torchmetrics, so the reference has 3 characters
        (
            "chrf-compute",
            {"hypotheses": ["ab"], "references": ["a\tb"]},
            "/score",
            None,
            "only-spaces-removed-inside + single-precision-chrf-arithmetic + f-per-order-averaged",
        ),
    ],
)
def test_torchmetrics_mechanisms_are_named(tool_id, payload, pointer, value, entry):
    result = implementation_result("torchmetrics", tool_id, payload, pointer)
    if value is not None:
        assert result["response"]["result"]["bleu"] == pytest.approx(value, rel=1e-6)  # float32
        assert result["response"]["result"]["bleu"] != oracle.execute(tool_id, V, payload)["bleu"]
    assert named(result, "torchmetrics") == entry


@requires("fast-bleu")
def test_fast_bleus_space_joined_ngram_keys_are_named():
    """Hypothesis "a", "a a", "b" against "a a", "a", "b", max_order 2: every unigram matches (3/3); the
    bigrams (a, "a a"), ("a a", b) and ("a a", a), (a, b) share none as token pairs (m_2 = 0, contract bleu 0),
    but joined with spaces (a, "a a") and ("a a", a) are both "a a a": fast-bleu's p_2 = 1/2, bleu
    sqrt(1 * 1/2) = 0.7071067811865476 (bp 1: c = r = 3)."""
    payload = {"hypothesis": ["a", "a a", "b"], "references": [["a a", "a", "b"]], "smoothing": "none", "max_order": 2}
    assert oracle.execute(SENTENCE, V, payload)["bleu"] == 0
    result = implementation_result("fast-bleu", SENTENCE, payload, "/bleu")
    assert result["response"]["result"]["bleu"] == pytest.approx(0.5**0.5, rel=1e-15)
    assert named(result, "fast-bleu") == "space-joined-ngram-keys"

"""sacreBLEU and NLTK run as targets: one failure group per cause, each named by the divergence whose
library answer is the target's whole answer.

The targets are tests/faulty_causes/sacrebleu_like.py and nltk_like.py: honest wrappers of the libraries'
public functions for every tool. Expected values come from the libraries themselves (called here), the
contracts' semantics lines (read from the contract files) and hand computation written out; never from
the code under test.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import oracle
from conformance.compare.clause import output_clause
from conformance.compare.signature import explain
from conformance.crosscheck import catalogue
from conformance.crosscheck.catalogue import CATALOGUE_BY_ID, explaining_failure, output_field_names
from conformance.crosscheck.checks import CHECKS_BY_ID, evaluate
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
    assert named is not None and named.id == "nltk-sentence-short-hypothesis-denominator"
    sacrebleu = sacrebleu_like.execute(SENTENCE, V, payload)
    assert (sacrebleu["matches"], sacrebleu["totals"]) == ([1] * 8, [1] * 8)
    assert explaining_failure(SENTENCE, payload, "/matches/1", sacrebleu).id == "sacrebleu-add-k-smoothed-counts"


def test_a_model_that_raises_is_not_modelled_and_changes_no_cause(monkeypatch):
    """The same failure with a model that raises: the same signature (clause included), no divergence, no crash."""
    payload = {"candidate_lengths": [0], "reference_lengths": [[0]]}
    output = {**oracle.execute("bleu-brevity-penalty", V, payload), "brevity_penalty": 1.0}
    result = judged_result("bleu-brevity-penalty", payload, output, "/brevity_penalty", 0.0, 1.0)
    before = explain(result)
    assert before.divergence.id == "sacrebleu-bp-zero-lengths"

    def raising(_payload):
        raise ValueError("Unknown format code 'd' for object of type 'float'")

    entry = dataclasses.replace(CATALOGUE_BY_ID["sacrebleu-bp-zero-lengths"], library_output=raising)
    assert entry.answer(payload) is None
    monkeypatch.setattr(catalogue, "CATALOGUE", [entry if d.id == entry.id else d for d in catalogue.CATALOGUE])
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
    assert explaining_failure("bleu-brevity-penalty", payload, "/brevity_penalty", output).id == \
        "sacrebleu-bp-zero-lengths"


def test_add_k_is_named_on_tokens_holding_spaces_too():
    """Tokens "a b" are joined and split again by sacreBLEU: its add-k counts are still its add-k counts."""
    payload = {"hypothesis": ["a b", "c"], "references": [["a b", "c", "d"]], "smoothing": "chen-cherry-2"}
    output = sacrebleu_like.execute(SENTENCE, V, payload)
    assert explaining_failure(SENTENCE, payload, "/matches/1", output).id == "sacrebleu-add-k-smoothed-counts"


@pytest.mark.parametrize("divergence_id", sorted(CATALOGUE_BY_ID))
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
    assert held and held <= set(answer), (held, set(answer))


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
    assert named.id == "sacrebleu-sentence-bleu-above-one"
    assert explaining_failure(SENTENCE, payload, "/bleu", output) is None  # a bound, not a differing value


def test_the_committed_catalogue_has_the_schema_bound_entries():
    text = (ROOT / "reports" / "divergences.md").read_text(encoding="utf-8")
    assert "sacrebleu-sentence-bleu-above-one" in text and "sacrebleu-bleu-above-one" in text


# ---------------------------------------------------------------- each library x tool, as a user runs it


def run_groups(tmp_path: Path, library: str, tool_id: str) -> list[tuple]:
    """``conformance run --profile quick --seed 1`` against the wrapper: (pointer class, kind, clause, divergence)
    of each failure group; and every failing result is in exactly one group."""
    completed = subprocess.run(
        [sys.executable, "-m", "conformance", "run", "--target", f"python:faulty_causes.{library}", "--tools",
         tool_id, "--profile", "quick", "--seed", "1", "--report-dir", "out"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": f"{TESTS}{os.pathsep}{ROOT}"})
    assert completed.returncode == 1, completed.stdout[-3000:] + completed.stderr[-3000:]
    document = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    failing = sorted(r["case"]["case_id"] for r in document["results"] if r["outcome"] == "failed")
    assert sorted(m for g in document["failure_groups"] for m in g["members"]) == failing
    return sorted(((g["pointer_class"], g["kind"], clause_key(g["clause"]),
                    g["divergence"]["id"] if g["divergence"] else None) for g in document["failure_groups"]), key=str)


def clause_key(clause: dict) -> str:
    return f"semantics {clause['number']}" if clause["kind"] == "semantics" and clause["number"] else clause["kind"]


WRONG, SCHEMA = "wrong value", "violates the output_schema"
MAXIMUM = "schema"

# Each library x tool: its causes, one group each. A "None" divergence is a cause nothing catalogued names:
# sacreBLEU splitting a token that holds whitespace (it takes strings), or a float where the contract wants the
# exact fraction (score_fraction).
EXPECTED = {
    ("sacrebleu_like", "bleu-brevity-penalty"): [
        # c = r = 0, written 0 or 0.0: compute_bleu keeps bp 1.0
        ("/brevity_penalty", WRONG, "semantics 3", "sacrebleu-bp-zero-lengths")],
    ("nltk_like", "bleu-sentence-components"): [
        # modified_precision's max(1, l_n)
        ("/totals/*", WRONG, "semantics 3", "nltk-sentence-short-hypothesis-denominator")],
}
SLOW_EXPECTED = {
    ("sacrebleu_like", "bleu-sentence-compute"): [
        ("/bleu", SCHEMA, MAXIMUM, "sacrebleu-sentence-bleu-above-one"),  # 1 + 2^-51 on a perfect match
        ("/bleu", WRONG, "semantics 9", None),  # whitespace split, scored from add-k counts
        ("/brevity_penalty", WRONG, "semantics 3", "sacrebleu-sentence-bp-empty"),  # c = r = 0
        ("/candidate_length", WRONG, "semantics 2", None),  # whitespace split
        ("/matches/*", WRONG, "semantics 12", "sacrebleu-add-k-smoothed-counts")],
    ("nltk_like", "bleu-sentence-compute"): [
        ("/bleu", WRONG, "semantics 9", "nltk-method0-zero-precision"),  # 2.2e-308 for a zero precision
        ("/totals/*", WRONG, "semantics 2", "nltk-sentence-short-hypothesis-denominator")],  # max(1, l_n)
    ("nltk_like", "chrf-components"): [
        ("/score", WRONG, "semantics 6", "nltk-chrf-orders-definition"),  # F per order averaged, epsilon
        ("/score_fraction", WRONG, "semantics 8", None)],  # a float is not the exact fraction
    ("sacrebleu_like", "chrf-components"): [
        ("/score_fraction", WRONG, "semantics 8", None),
        ("/statistics/*/hypothesis_ngrams", WRONG, "semantics 6", "sacrebleu-chrf-orders-zeroes-hypothesis-ngrams")],
    ("nltk_like", "bleu-corpus-compute"): [
        ("/bleu", WRONG, "semantics 5", "nltk-bleu-zero-precision-floor"),
        ("/totals/*", WRONG, "semantics 2", "nltk-bleu-short-segment-denominator")],
}


@pytest.mark.parametrize("library, tool_id", sorted(EXPECTED))
def test_a_library_as_a_target_shows_one_group_per_cause(tmp_path, library, tool_id):
    assert run_groups(tmp_path, library, tool_id) == sorted(EXPECTED[(library, tool_id)], key=str)


@pytest.mark.slow
@pytest.mark.parametrize("library, tool_id", sorted(SLOW_EXPECTED))
def test_a_library_as_a_target_shows_one_group_per_cause_slow(tmp_path, library, tool_id):
    assert run_groups(tmp_path, library, tool_id) == sorted(SLOW_EXPECTED[(library, tool_id)], key=str)

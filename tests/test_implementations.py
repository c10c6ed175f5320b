"""The real libraries behind `conformance matrix`: each adapter on a few contract examples and
hand-computed inputs, "not applicable" as an outcome of its own, and the matrix built from runs.

A library that is not installed (pip install -e '.[matrix]') skips its tests with the reason.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import compare
from conformance.engine.properties import PropertyRun, run_property
from conformance.implementations import NotApplicable, implementations, library
from conformance.matrix.document import cell_summary, fields_text, run_cell, validate
from conformance.matrix.views import markdown, write_views
from conformance.model import Case, CaseResult, Expectation, TargetResponse
from conformance.targets import TargetSpecError, make_target
from oracle.contracts import contract
from oracle.registry import tool_keys

ROOT = Path(__file__).resolve().parent.parent
TOOLS = {tool_id.replace("-", "_"): (tool_id, version) for tool_id, version in tool_keys()}


def installed(name: str):
    found = library(name)
    return pytest.mark.skipif(bool(found.missing()), reason=f"{name}: {found.missing()} (pip install -e '.[matrix]')")


def example(key: str, number: int) -> tuple[str, str, dict, dict]:
    tool_id, version = TOOLS[key]
    found = contract(tool_id, version).document()["examples"][number]
    return tool_id, version, found["input"], found["output"]


# --- the libraries answer the contract's own examples --------------------------------------------------

# (library, tool module name, example number): contract examples without decimals, where every order
# has n-grams (so neither library's known divergences apply); the library's answer must be the example's
# output, compared by the suite's own verdict (floats within the libm bound).
AGREEING_EXAMPLES = [
    ("sacrebleu", "bleu_ngrams_count", 0),
    ("sacrebleu", "bleu_sentence_components", 0),
    ("sacrebleu", "bleu_sentence_components", 1),
    ("sacrebleu", "bleu_corpus_compute", 2),
    ("nltk", "bleu_ngrams_count", 0),
    ("nltk", "bleu_sentence_components", 0),
    ("nltk", "bleu_sentence_components", 1),
    ("nltk", "bleu_brevity_penalty", 2),
]


@pytest.mark.parametrize("name, key, number", AGREEING_EXAMPLES)
def test_a_library_answers_a_contract_example_as_the_contract_does(name, key, number):
    if library(name).missing():
        pytest.skip(library(name).missing())
    tool_id, version, payload, output = example(key, number)
    target = make_target(f"implementation:{name}")
    case = Case(tool_id, version, "x", "fixture", "valid", payload, Expectation("output"))
    verdict = compare.judge(case, compare.expect(case), target.call(tool_id, version, payload))
    assert verdict.outcome == "passed", verdict.message


@installed("nltk")
def test_nltk_reports_its_own_denominator_for_an_order_without_ngrams():
    # hand computation: hypothesis ["b", "a"] has 2 unigrams, 1 bigram, 0 trigrams; NLTK's modified_precision
    # divides by max(1, count), so its trigram denominator is 1 where the contract's total is 0
    tool_id, version, payload, output = example("bleu_sentence_components", 2)
    answer = library("nltk").execute(tool_id, version, payload)
    assert output["totals"] == [2, 1, 0]
    assert answer["totals"] == [2, 1, 1] and answer["matches"] == output["matches"]


@installed("nltk")
def test_nltk_brevity_penalty_takes_integral_floats():
    tool_id, version = TOOLS["bleu_brevity_penalty"]
    # c = 2, references 3 and 1: |3-2| = |1-2|, the tie goes to the shorter (1) in NLTK's closest_ref_length too
    answer = library("nltk").execute(tool_id, version, {"candidate_lengths": [2.0], "reference_lengths": [[3.0, 1.0]]})
    assert answer == {
        "brevity_penalty": 1,
        "candidate_length": 2,
        "reference_length": 1,
        "closest_reference_lengths": [1],
    }


# --- not applicable: what a library's API cannot express ------------------------------------------------

NOT_APPLICABLE = [
    ("sacrebleu", "bleu_sentence_components", {"hypothesis": ["a b"], "references": [["a"]]}, "whitespace"),
    (
        "sacrebleu",
        "bleu_sentence_compute",
        {"hypothesis": ["a"], "references": [["a"]], "smoothing": "none", "effective_order": True},
        "effective order",
    ),
    ("nltk", "bleu_ngrams_count", {"hypotheses": [["a"]], "references": [[["a"]]], "detail": "ngrams"}, "ngrams"),
    ("nltk", "bleu_sentence_components", {"hypothesis": [""], "references": [["a"]]}, "contract rejects"),
    ("nltk", "bleu_sentence_components", {"hypothesis": ["a"], "references": [["a"]], "extra": 1}, "contract rejects"),
]


@pytest.mark.parametrize("name, key, payload, cause", NOT_APPLICABLE)
def test_an_input_the_library_cannot_express_is_not_applicable(name, key, payload, cause):
    if library(name).missing():
        pytest.skip(library(name).missing())
    tool_id, version = TOOLS[key]
    with pytest.raises(NotApplicable, match=cause):
        library(name).execute(tool_id, version, payload)
    response = make_target(f"implementation:{name}").call(tool_id, version, payload)
    assert response.kind == "not_applicable" and cause in response.detail
    case = Case(tool_id, version, "x", "fixture", "valid", payload, Expectation("output"))
    verdict = compare.judge(case, compare.expect(case), response)
    assert verdict.outcome == "skipped" and verdict.message.startswith("not applicable: ")


def test_a_tool_without_an_adapter_is_not_found_with_the_reason():
    tool_id, version, payload, _ = example("bleu_brevity_penalty", 0)
    if library("sacrebleu").missing():
        pytest.skip(library("sacrebleu").missing())
    response = make_target("implementation:sacrebleu").call(tool_id, version, payload)
    assert response.kind == "rejection" and response.error_code == "not_found"
    assert "closest reference lengths" in response.raw


def test_every_library_declares_why_it_lacks_each_tool_it_has_no_adapter_for():
    for found in implementations().values():
        for tool_id, _ in tool_keys():
            assert bool(found.adapter(tool_id)) != bool(found.not_expressible(tool_id)), (found.name, tool_id)


def test_an_unknown_or_missing_implementation_is_a_usage_error(monkeypatch):
    with pytest.raises(TargetSpecError, match="unknown implementation 'nope'"):
        make_target("implementation:nope")
    if importlib.util.find_spec("torch") is None:
        with pytest.raises(TargetSpecError, match="not installed: .*torch"):
            make_target("implementation:torchmetrics")


@pytest.mark.parametrize(
    "name, tools",
    [
        ("bleuscore", ["bleu-corpus-compute", "bleu-sentence-compute"]),
        ("fastchrf", ["chrf-components", "chrf-compute"]),
        ("fast-bleu", ["bleu-sentence-compute"]),
    ],
)
def test_a_score_only_library_is_installed_and_reads_its_version(name, tools):
    found = library(name)
    if found.missing():
        pytest.skip(found.missing())
    assert found.version() and sorted(tool_id for tool_id, _ in found.tools()) == tools


# --- a property: its not-applicable examples -----------------------------------------------------------


def run_with(judged: list[str]) -> PropertyRun:
    """A property over len(judged) examples whose judge answers the given outcomes in turn."""
    from hypothesis import settings
    from hypothesis import strategies as st

    answers = iter(judged * 5)

    def make_case(number, drawn):
        return Case("t", "1.0.0", f"generated/t/valid/{number}", "generated", "valid", drawn, Expectation("output"))

    def judge(case):
        outcome = next(answers)
        message = "not applicable: no such option" if outcome == "na" else ""
        return CaseResult(case, "skipped" if outcome == "na" else outcome, message)

    outcome = PropertyRun()
    run_property(
        st.integers(), settings(max_examples=len(judged), database=None, derandomize=True), 0, make_case, judge, outcome
    )
    return outcome


def test_a_property_whose_examples_are_all_not_applicable_is_not_applicable_not_passed():
    outcome = run_with(["na"] * 4)
    assert outcome.all_not_applicable == "not applicable: no such option"
    assert outcome.stats["not_applicable"] == outcome.stats["examples"] and not outcome.failures


def test_a_property_with_an_applicable_example_is_judged_on_it():
    outcome = run_with(["na", "passed", "na", "na"])
    assert outcome.all_not_applicable == "" and outcome.stats["passed"] >= 1


# --- the matrix: one run, its report.json, the cell and its views --------------------------------------


@installed("nltk")
def test_a_cell_counts_its_checks_and_groups_its_failures_and_causes(tmp_path):
    tool_id, version = TOOLS["bleu_sentence_components"]
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance.cli",
            "run",
            "--target",
            "implementation:nltk",
            "--tools",
            f"{tool_id}@{version}",
            "--fixtures-only",
            "--report-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert completed.returncode == 1, completed.stdout + completed.stderr  # NLTK's denominators fail some cases
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    cell = run_cell("nltk", f"{tool_id}@{version}", report)
    fixtures = [r for r in report["results"] if r["case"]["origin"] == "fixture"]
    assert sum(cell["counts"].values()) == len(fixtures) == sum(report["totals"].values())
    assert cell["status"] == "failing" and cell_summary(cell) == "1 failure group"
    assert cell["failure_groups"][0]["pointer_class"] == "/totals/*"
    # every invalid fixture is not applicable for one cause, counted once
    invalid = [r for r in fixtures if r["case"]["expect"]["kind"] == "error"]
    assert [na["checks"] for na in cell["not_applicable"]] == [len(invalid)]
    document = validate(
        {
            "header": {
                "suite_version": "0",
                "profile": "quick",
                "seed": 0,
                "started": "s",
                "finished": "f",
                "command": "c",
            },
            "tools": [f"{tool_id}@{version}"],
            "implementations": [
                {
                    "name": "nltk",
                    "language": "Python",
                    "distribution": "nltk",
                    "version": "3",
                    "counterpart": "f",
                    "installed": True,
                    "exit_code": 1,
                    "report": "runs/nltk/report.json",
                    "duration_s": 1.0,
                }
            ],
            "cells": [cell],
        }
    )
    text = markdown(document)
    assert "**1 failure group**" in text and "- divergence: " in text
    paths = write_views(document, tmp_path)
    assert [p.name for p in paths] == ["matrix.json", "matrix.md", "matrix.html"]
    assert "<script" not in paths[2].read_text(encoding="utf-8")


CHROMIUM = next(
    (shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome") if shutil.which(name)), None
)


@pytest.mark.slow  # a browser
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (apt-get install chromium)")
def test_matrix_html_renders_in_a_headless_browser():
    completed = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "check_matrix_html.py")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_the_browser_check_finds_markup_that_runs():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from check_matrix_html import check_dom, sample_document

    document = sample_document()
    dom = "<html><head><title>Compatibility matrix</title></head><body><script>x</script></body></html>"
    problems = check_dom(dom, document)
    assert any("load or run" in p for p in problems) and any("matrix cells" in p for p in problems)


# --- partial answers: judged on the fields the library computes ----------------------------------------


def judged(tool_key: str, payload: dict, response: TargetResponse):
    tool_id, version = TOOLS[tool_key]
    case = Case(tool_id, version, "x", "fixture", "valid", payload, Expectation("output"))
    return compare.judge(case, compare.expect(case), response)


def partial(output: dict, tool_key: str) -> TargetResponse:
    """An implementation target's answer: the Partial resolved against the tool's output_schema."""
    from conformance.implementations import Partial

    tool_id, version = TOOLS[tool_key]
    result, expressed = Partial(output).resolve(contract(tool_id, version).output_schema)
    return TargetResponse("result", result=result, expressed=expressed)


# chrf-components example 0: "a b" against "ab", char_order 2, whitespace kept: 500/11 = 45.454545...
CHRF_EXAMPLE = example("chrf_components", 0)[2]


def test_a_partial_answer_is_judged_on_its_fields_alone():
    from conformance.implementations import LibraryFloat

    answer = partial(
        {"score": LibraryFloat(500 / 11), "segments": [{"segment": 0, "score": LibraryFloat(500 / 11)}]},
        "chrf_components",
    )
    verdict = judged("chrf_components", CHRF_EXAMPLE, answer)
    assert verdict.outcome == "passed"
    assert verdict.message.startswith("on fields score, segments/*/score, segments/*/segment (")
    assert "score_fraction" in verdict.message and "segments/*/statistics" in verdict.message
    wrong = partial(
        {"score": LibraryFloat(500 / 11), "segments": [{"segment": 1, "score": LibraryFloat(500 / 11)}]},
        "chrf_components",
    )
    verdict = judged("chrf_components", CHRF_EXAMPLE, wrong)
    assert verdict.outcome == "failed" and verdict.mismatch.pointer == "/segments/0/segment"
    assert "not expressed" in verdict.message


def test_a_field_the_schema_bounds_still_fails_its_bound_in_a_partial_answer():
    payload = {"hypotheses": [["a", "b", "c", "d"]], "references": [[["a", "b", "c", "d"]]]}  # bleu exactly 1
    verdict = judged("bleu_corpus_compute", payload, partial({"bleu": 1.0000000000000002}, "bleu_corpus_compute"))
    assert verdict.outcome == "failed" and "maximum" in verdict.message and verdict.mismatch.pointer == "/bleu"
    assert judged("bleu_corpus_compute", payload, partial({"bleu": 1.0}, "bleu_corpus_compute")).outcome == "passed"


def test_an_answer_expressing_no_field_is_not_applicable():
    verdict = judged("chrf_components", CHRF_EXAMPLE, partial({}, "chrf_components"))
    assert verdict.outcome == "skipped" and verdict.message.startswith("not applicable: ")


def test_an_ordinary_target_omitting_a_field_still_fails_the_schema():
    from conformance.implementations import Partial
    from conformance.targets.inprocess import InProcessTarget

    whole_but_short = TargetResponse("result", result={"score": "45.454545"})
    verdict = judged("chrf_components", CHRF_EXAMPLE, whole_but_short)
    assert verdict.outcome == "failed" and "lacks the required key" in verdict.message
    # a python: target cannot declare its way out of a field: its Partial is not an output object
    declaring = InProcessTarget("python:x", lambda *_: Partial({"score": "45.454545"}))
    response = declaring.call(*TOOLS["chrf_components"], CHRF_EXAMPLE)
    assert response.expressed is None
    assert judged("chrf_components", CHRF_EXAMPLE, response).outcome == "failed"


# --- a library's float for an exact six-decimal score --------------------------------------------------


def test_a_library_float_passes_within_the_bound_and_fails_outside_it():
    import math
    from fractions import Fraction

    from conformance.compare.library_floats import TOLERANCE, compare_library_float

    exact = Fraction(500, 11)  # 45.4545...: no double is it
    nearest = 500 / 11
    assert compare_library_float("/score", exact, nearest, 100) is None
    assert compare_library_float("/score", exact, math.nextafter(nearest, 100), 100) is None  # one ulp off
    assert compare_library_float("/score", exact, nearest / 100, 1) is None  # on 0..1
    assert 1e-14 < TOLERANCE < 1e-13
    off = nearest * (1 + 1e-12)  # far below any count's effect (1e-9), far above rounding (216 ulps)
    assert compare_library_float("/score", exact, off, 100).pointer == "/score"
    assert compare_library_float("/score", Fraction(0), 1e-16, 100).tolerance == 0.0  # 0 is exact


def test_a_float_on_either_side_of_a_six_decimal_tie_passes():
    """12.3456785 exactly is a tie: rounding a float just below or above it would give 12.345678 or 12.345679
    (the contract's string, ties to even, is 12.345678); the judge reads neither rounding, only the value."""
    import math
    from fractions import Fraction

    from conformance.compare.library_floats import compare_library_float
    from oracle.chrf import six_decimals

    tie = Fraction(123456785, 10_000_000)
    assert six_decimals(tie) == "12.345678"
    nearest = float(tie)  # no double is the tie: the nearest lies on one side, its neighbour on the other
    below, above = (
        (nearest, math.nextafter(nearest, 100)) if Fraction(nearest) < tie else (math.nextafter(nearest, 0), nearest)
    )
    assert Fraction(below) < tie < Fraction(above)
    assert compare_library_float("/score", tie, below, 100) is None
    assert compare_library_float("/score", tie, above, 100) is None


# (library, tool module name, example number): chrF contract examples the library computes as the contract does
CHRF_AGREEING_EXAMPLES = [
    ("sacrebleu", "chrf_compute", 0),
    ("sacrebleu", "chrf_components", 0),
    ("sacrebleu", "chrf_plus_plus_compute", 0),
    ("fastchrf", "chrf_components", 0),
]


@pytest.mark.parametrize("name, key, number", CHRF_AGREEING_EXAMPLES)
def test_a_chrf_library_answers_a_contract_example_on_its_scores(name, key, number):
    if library(name).missing():
        pytest.skip(library(name).missing())
    tool_id, version, payload, _ = example(key, number)
    response = make_target(f"implementation:{name}").call(tool_id, version, payload)
    verdict = judged(key, payload, response)
    assert verdict.outcome == "passed", verdict.message
    assert "/segment_scores/*" in response.expressed.fields or "/segments/*/score" in response.expressed.fields
    assert "/score_fraction" in response.expressed.not_expressed


@installed("nltk")
def test_nltk_chrf_is_its_own_definition_failed_on_the_score():
    """NLTK averages F per order: "ab" against "abc" on character unigrams and bigrams gives F_2 of
    (P, R) = (1, 2/3) and (1, 1/2), 5/7 and 5/9, averaged: 40/63, where the contract averages P and R
    first: F_2(1, 7/12) = 5 * 7/12 / (4 + 7/12) = 35/55 = 7/11 (63.636364)."""
    payload = {"hypotheses": ["ab"], "references": ["abc"], "char_order": 2}
    response = make_target("implementation:nltk").call(*TOOLS["chrf_components"], payload)
    assert response.result["score"] == pytest.approx(40 / 63, rel=1e-12)
    verdict = judged("chrf_components", payload, response)
    assert verdict.outcome == "failed" and verdict.mismatch.pointer == "/score"


@installed("bleuscore")
def test_bleuscore_takes_only_tokens_13a_leaves_unchanged():
    payload = {"hypotheses": [["a", "b", "c", "d"]], "references": [[["a", "b", "c", "d", "e"]]], "decimals": 3}
    response = make_target("implementation:bleuscore").call(*TOOLS["bleu_corpus_compute"], payload)
    assert response.result["bleu"] == 0.779 and judged("bleu_corpus_compute", payload, response).outcome == "passed"
    with pytest.raises(NotApplicable, match="13a"):
        library("bleuscore").execute(*TOOLS["bleu_corpus_compute"], {"hypotheses": [["a,"]], "references": [[["a,"]]]})


@installed("fast-bleu")
def test_fast_bleu_answers_sentence_bleu_with_method1():
    """ "a b c x" against "a b c d", chen-cherry-1: p = 3/4, 2/3, 1/2, 0.1/1, bp 1:
    (3/4 * 2/3 * 1/2 * 1/10)^(1/4) = (1/40)^(1/4) = 0.3976353643835253."""
    payload = {"hypothesis": ["a", "b", "c", "x"], "references": [["a", "b", "c", "d"]], "smoothing": "chen-cherry-1"}
    response = make_target("implementation:fast-bleu").call(*TOOLS["bleu_sentence_compute"], payload)
    assert response.result == {"bleu": pytest.approx(0.025**0.25, rel=1e-15)}
    assert judged("bleu_sentence_compute", payload, response).outcome == "passed"


def test_a_failure_card_diffs_only_the_fields_a_partial_answer_expresses():
    """A wrong segment index in a partial chrF answer: the card's diff shows score and segments (segment,
    score), not score_fraction, statistics or the options the library does not report."""
    from conformance.implementations import LibraryFloat
    from conformance.reports.failures import result_text

    answer = partial(
        {"score": LibraryFloat(500 / 11), "segments": [{"segment": 1, "score": LibraryFloat(500 / 11)}]},
        "chrf_components",
    )
    tool_id, version = TOOLS["chrf_components"]
    case = Case(tool_id, version, "x", "fixture", "valid", CHRF_EXAMPLE, Expectation("output"))
    expected = compare.expect(case)
    verdict = compare.judge(case, expected, answer)
    result = CaseResult(
        case, verdict.outcome, verdict.message, verdict.mismatch, answer, expected=expected.readings[0].output
    )
    text = result_text(result)
    assert "the fields the library expresses" in text
    diff = text[text.index("the fields the library expresses") :]
    assert '"segment": 0' in diff and '"segment": 1' in diff
    for absent in ("score_fraction", "statistics", "char_order", "whitespace"):
        assert absent not in diff, absent


def test_a_cell_of_partial_answers_counts_its_fields_and_its_section_lists_them():
    cell = {
        "implementation": "x",
        "tool": "chrf-compute@1.0.0",
        "status": "conformant",
        "judged_fields": ["score", "segment_scores"],
        "not_expressed": ["beta", "metric", "score_fraction"],
    }
    # chrf-compute's output_schema has 9 fields (metric, char_order, word_order, beta, lowercase, segment_count,
    # score, score_fraction, segment_scores): the count is the schema's, not the cell's lists'
    assert len(contract("chrf-compute", "1.0.0").output_schema["properties"]) == 9
    assert cell_summary(cell) == "conformant on 2 of 9 fields"
    assert fields_text(cell) == "Judged on fields score, segment_scores; beta, metric, score_fraction not expressed"
    assert fields_text({**cell, "judged_fields": [], "not_expressed": []}) == ""


def test_a_nested_field_counts_as_its_top_level_field():
    """chrF++'s partial answers judged on score and segments' scores, nested pointers listed one by one: the
    summary counts the output_schema's top-level fields, 10 for chrf-plus-plus-compute."""
    schema = contract("chrf-plus-plus-compute", "1.0.0").output_schema["properties"]
    assert len(schema) == 10
    cell = {
        "implementation": "x",
        "tool": "chrf-plus-plus-compute@1.0.0",
        "status": "conformant",
        "judged_fields": ["score", "segment_scores", "word_tokens/*/hypothesis", "word_tokens/*/reference"],
        "not_expressed": [
            "beta",
            "char_order",
            "lowercase",
            "metric",
            "score_fraction",
            "segment_count",
            "word_order",
            "word_tokens/*/segment",
            "statistics/*/matches",
            "statistics/*/order",
        ],
    }
    assert cell_summary(cell) == "conformant on 3 of 10 fields"


def test_a_cell_says_nothing_of_the_machine_it_ran_on():
    """A library's traceback (a crash is its answer) names files under this interpreter's prefix, the home and
    temporary directories and the project: the published cell names what they are instead."""
    import sys
    import tempfile

    from conformance.matrix.document import portable

    site = f'{sys.prefix}/lib/python3/site-packages/lib/score.py", line 9, in score'
    said = f'Traceback:\n  File "{site}\nZeroDivisionError: division by zero'
    home = f"{Path.home()}/.cache/venvs/lib/bin/python -I -c 'x'"
    group = {"difference": {"said": said, "also": [home, f"{tempfile.gettempdir()}/x/r1.txt", f"{ROOT}/tools/a"]}}
    shown = portable(group)
    assert shown["difference"]["said"] == (
        'Traceback:\n  File "<python>/lib/python3/site-packages/lib/score.py", line 9, in score\n'
        "ZeroDivisionError: division by zero"
    )
    assert shown["difference"]["also"] == [
        "~/.cache/venvs/lib/bin/python -I -c 'x'",
        "<tmp>/x/r1.txt",
        "<project>/tools/a",
    ]
    assert portable({"count": 3, "smallest": None}) == {"count": 3, "smallest": None}


def test_the_committed_matrix_counts_only_each_tools_own_fields():
    """A cell's judged and not-expressed fields are its tool's output fields (a sequence's step sent to another
    tool judges that tool's fields, in that tool's cell): "N of M fields" never has N above M."""
    from conformance.matrix.document import output_fields, top_level

    document = json.loads((ROOT / "reports" / "compatibility" / "matrix.json").read_text(encoding="utf-8"))
    for cell in document["cells"]:
        own = set(output_fields(cell["tool"]))
        for key in ("judged_fields", "not_expressed"):
            assert set(top_level(cell.get(key, []))) <= own, (cell["implementation"], cell["tool"], key)
        assert "of" not in cell_summary(cell) or int(cell_summary(cell).split(" on ")[1].split()[0]) <= len(own)

"""The run's small parts: tool selection, the circuit breaker, progress output, exit-code mapping."""

from __future__ import annotations

import io

import pytest

from conformance import progress
from conformance.reports import console
from conformance.model import Case, CaseResult, Expectation, TargetResponse
from conformance.engine import parse_tools, property_id_of_case
from conformance.engine.health import HealthMonitor
from conformance.runner import exit_code

ALL_TOOLS = [("bleu-brevity-penalty", "1.0.0"), ("bleu-corpus-compute", "1.0.0"), ("bleu-ngrams-count", "1.0.0"),
             ("bleu-sentence-components", "1.0.0"), ("bleu-sentence-compute", "1.0.0"), ("chrf-components", "1.0.0"),
             ("chrf-compute", "1.0.0"), ("chrf-plus-plus-compute", "1.0.0")]
ANSWER = TargetResponse("result", result={})
DROPPED = TargetResponse("transport_error", detail="connection reset")


def test_tools_selection():
    assert parse_tools("") == ALL_TOOLS
    assert parse_tools("bleu-ngrams-count, chrf-plus-plus-compute@1.0.0,bleu-ngrams-count") == [ALL_TOOLS[2], ALL_TOOLS[7]]
    with pytest.raises(ValueError, match="unknown tool 'bleu-ngrams-count@9.9.9'.*known: bleu-brevity-penalty@1.0.0, bleu-corpus-compute@1.0.0"):
        parse_tools("bleu-ngrams-count@9.9.9")


def test_breaker_opens_after_five_transport_errors_in_a_row():
    health = HealthMonitor()
    for response in [ANSWER] * 30 + [DROPPED] * 4 + [ANSWER] + [DROPPED] * 4:
        health.record(response)
    assert not health.unhealthy, "errors separated by an answer are not a dead target"
    health.record(DROPPED)
    assert health.unhealthy and "5 transport errors in a row; last: connection reset" in health.reason


def test_breaker_opens_when_most_early_calls_fail():
    health = HealthMonitor()
    for response in [DROPPED, DROPPED, ANSWER] * 5 + [DROPPED]:
        health.record(response)  # 11 of the first 16 calls failed, never 5 in a row
    assert health.unhealthy and "11 of the first 16 calls" in health.reason


def test_breaker_counts_retries():
    health = HealthMonitor()
    health.record(TargetResponse("result", result={}, retries=2))
    assert health.retries == 2


@pytest.mark.parametrize("pytest_status, fixed", [(0, 0), (1, 1), (3, 3), (4, 2), (5, 2), (2, 3)])
def test_exit_codes_map_onto_the_fixed_interface(pytest_status, fixed):
    assert exit_code(pytest_status) == fixed


def test_generated_case_names_its_property():
    case = Case("t", "1.0.0", "generated/t/valid/shared-ngrams/41", "generated", "valid", {}, Expectation("output"))
    assert property_id_of_case(case) == "generated/t/valid/shared-ngrams"


def test_plain_progress_prints_one_line_per_group():
    out = io.StringIO()
    shown = progress.Progress(out.write, live=False)
    shown.case_done("bleu-ngrams-count", "passed")
    shown.group_done("bleu-ngrams-count fixtures", {"passed": 77, "failed": 1})
    shown.group_done("generated/bleu-ngrams-count/valid/clipping", {"examples": 60})
    assert out.getvalue() == ("  bleu-ngrams-count fixtures: 77 passed, 1 failed\n"
                              "  generated/bleu-ngrams-count/valid/clipping: 60 examples\n")


def test_live_progress_redraws_one_line():
    out = io.StringIO()
    shown = progress.Progress(out.write, live=True)
    shown.case_done("bleu-ngrams-count", "failed")
    shown.line("done")
    text = out.getvalue()
    assert "\r\x1b[2Kdone: bleu-ngrams-count 1 (1 failing)" in text and text.endswith("\r\x1b[2Kdone\n")


def test_summary_table_counts_cases_and_properties():
    def fixture(outcome):
        return CaseResult(Case("bleu-ngrams-count", "1.0.0", "x", "fixture", "valid", {}, Expectation("output")), outcome)

    properties = [{"tool_id": "bleu-ngrams-count", "version": "1.0.0", "family": "valid/a", "outcome": "failed",
                   "examples": 70},
                  {"tool_id": "bleu-ngrams-count", "version": "1.0.0", "family": "valid/b", "outcome": "passed",
                   "examples": 60}]
    results = [fixture("passed"), fixture("passed"), fixture("errored")]
    table = console.summary_table({"results": [result.to_dict() for result in results], "properties": properties})
    header, row = table.splitlines()[:2]
    assert header.split() == ["tool", "passed", "failed", "errored", "skipped", "xfailed", "fixed", "examples"]
    assert row.split() == ["bleu-ngrams-count", "3", "1", "1", "0", "0", "0", "130"]

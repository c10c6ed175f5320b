"""The run's small parts: tool selection, the circuit breaker, progress output, exit-code mapping."""

from __future__ import annotations

import io

import pytest

from conformance import progress
from conformance.engine import parse_tools, property_id_of_case
from conformance.engine.health import HealthMonitor
from conformance.model import Case, CaseResult, Expectation, TargetResponse
from conformance.reports import console
from conformance.runner import exit_code

ALL_TOOLS = [
    ("bleu-brevity-penalty", "1.0.0"),
    ("bleu-corpus-compute", "1.0.0"),
    ("bleu-ngrams-count", "1.0.0"),
    ("bleu-sentence-components", "1.0.0"),
    ("bleu-sentence-compute", "1.0.0"),
    ("chrf-components", "1.0.0"),
    ("chrf-compute", "1.0.0"),
    ("chrf-plus-plus-compute", "1.0.0"),
]
ANSWER = TargetResponse("result", result={})
DROPPED = TargetResponse("transport_error", detail="connection reset")
TIMED_OUT = TargetResponse("transport_error", detail="no answer within 10 s")
RETRIED = TargetResponse("result", result={}, retries=1)  # answered at its second attempt


def test_tools_selection():
    assert parse_tools("") == ALL_TOOLS
    assert parse_tools("bleu-ngrams-count, chrf-plus-plus-compute@1.0.0,bleu-ngrams-count") == [
        ALL_TOOLS[2],
        ALL_TOOLS[7],
    ]
    with pytest.raises(
        ValueError,
        match="unknown tool 'bleu-ngrams-count@9.9.9'.*known: bleu-brevity-penalty@1.0.0, bleu-corpus-compute@1.0.0",
    ):
        parse_tools("bleu-ngrams-count@9.9.9")


def test_breaker_opens_after_five_transport_errors_in_a_row():
    health = HealthMonitor()
    for response in [ANSWER] * 30 + [DROPPED] * 4 + [ANSWER] + [DROPPED] * 4:
        health.record(response)
    assert not health.unhealthy, "errors separated by an answer are not a dead target"
    health.record(DROPPED)
    assert health.unhealthy and "5 transport errors in a row; last: connection reset" in health.reason


def test_breaker_opens_when_a_quarter_of_the_window_failed():
    """Three answers, then a transport error, again and again (a command that hangs on its fourth
    request and is restarted): never 5 in a row, but 5 of the first 20 calls."""
    health = HealthMonitor()
    for response in ([ANSWER] * 3 + [DROPPED]) * 4 + [ANSWER] * 3:
        health.record(response, 0.001)
    assert not health.unhealthy, "19 calls: below the minimum the rate is judged from"
    health.record(DROPPED, 0.001)
    assert health.unhealthy and health.stopped_by == "breaker"
    assert "5 of the last 20 calls were transport errors" in health.reason
    assert "last: connection reset" in health.reason


def test_breaker_rate_is_over_the_last_40_calls_only():
    health = HealthMonitor()
    for response in [DROPPED, ANSWER, ANSWER, ANSWER] * 2 + [ANSWER] * 40:
        health.record(response, 0.001)  # the early errors have left the window
    for response in ([ANSWER] * 4 + [DROPPED]) * 8:
        health.record(response, 0.001)  # one in five: 8 of the last 40, under a quarter
    assert not health.unhealthy
    figures = health.figures()
    assert (figures["calls"], figures["transport_errors"]) == (88, 10)
    assert (figures["window_calls"], figures["window_transport_errors"]) == (40, 8)


def test_breaker_passes_one_transport_error_in_100_calls():
    health = HealthMonitor(timeout=10)
    for _ in range(80):  # 8,000 calls, a default run's size: every 100th times out after the full 10 s
        for _ in range(99):
            health.record(ANSWER, 0.005)
        health.record(TIMED_OUT, 10.0)
    assert not health.unhealthy, health.reason
    assert health.figures()["time_lost_s"] == 800.0


def test_time_out_budget_trips_on_retried_calls_without_any_transport_error():
    """An HTTP server hanging on one request in four: every fourth call is answered after one
    retry, 10 s late. Never a transport error; the time lost spends the budget: 60 s, and each
    call gives back 0.5 s, so 4 calls lose 10 - 2 = 8 s net: the 8th such call spends it."""
    health = HealthMonitor(timeout=10)
    calls = 0
    while not health.unhealthy and calls < 100:
        for response, seconds in [(ANSWER, 0.01)] * 3 + [(RETRIED, 10.0)]:
            health.record(response, seconds)
            calls += 1
    assert calls == 32 and health.transport_errors == 0
    assert "the time-out budget is spent: 80.0 s lost to time-outs and retries in 32 calls" in health.reason
    assert "budget 60 s = 6 x --timeout, each call refilling 0.5 s" in health.reason
    assert health.figures()["time_budget_left_s"] < 0


def test_time_out_budget_counts_every_attempt_of_a_call():
    """A call that times out through both retries costs 3 x 10 s and the backoffs (30.6 s). One in four
    such calls: the budget (60 s, refilled by 0.5 s a call but never above 60) holds 60 - 30.6 = 29.4 s after
    four calls, 29.4 + 4 * 0.5 - 30.6 = 0.8 s after eight, 2.3 s after eleven, and the twelfth spends it,
    91.8 s in, long before 5 of 20 calls would have failed."""
    health = HealthMonitor(timeout=10)
    for response, seconds in ([(ANSWER, 0.01)] * 3 + [(TIMED_OUT, 30.6)]) * 2 + [(ANSWER, 0.01)] * 3:
        health.record(response, seconds)
    assert not health.unhealthy and health.figures()["time_budget_left_s"] == 2.3
    health.record(TIMED_OUT, 30.6)
    assert health.unhealthy and "91.8 s lost to time-outs and retries in 12 calls" in health.reason


def test_a_server_hanging_after_three_calls_is_stopped_at_its_second_hung_call():
    """Each hung call costs 30.6 s through its retries: the second spends the budget (61.2 s lost), three
    calls before the five in a row (153 s) would."""
    health = HealthMonitor(timeout=10)
    for response, seconds in [(ANSWER, 0.01)] * 3 + [(TIMED_OUT, 30.6)] * 2:
        health.record(response, seconds)
    assert health.unhealthy and "61.2 s lost to time-outs and retries in 5 calls" in health.reason


def test_breaker_trips_once_and_calls_back_once():
    stops = []
    health = HealthMonitor(on_trip=lambda: stops.append(1))
    for _ in range(8):
        health.record(DROPPED, 0.001)
    health.trip("something else")
    assert stops == [1] and "5 transport errors in a row" in health.reason


class _Target:
    def __init__(self, health):
        self.health = health

    def call(self, tool_id, version, payload):
        if payload == "cut":  # another call tripped the breaker while this one was in flight
            self.health.trip("tripped meanwhile")
        return DROPPED


def test_a_call_failing_after_the_breaker_tripped_is_not_a_verdict():
    health = HealthMonitor()
    target = _Target(health)
    assert health.call(target, "t", "1.0.0", "first") is DROPPED
    assert health.call(target, "t", "1.0.0", "cut") is None, "cut short by the stop: the case is not run"


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


def test_listing_progress_prints_one_line_per_group():
    out = io.StringIO()
    shown = progress.Progress(out.write, live=False, listing=True)
    shown.case_done("bleu-ngrams-count", "passed")
    shown.group_done("bleu-ngrams-count fixtures", {"passed": 77, "failed": 1})
    shown.group_done("generated/bleu-ngrams-count/valid/clipping", {"examples": 60})
    assert out.getvalue() == (
        "    bleu-ngrams-count fixtures: 77 passed, 1 failed\n"
        "    generated/bleu-ngrams-count/valid/clipping: 60 examples\n"
    )


def test_plain_progress_prints_no_line_per_group():
    out = io.StringIO()
    shown = progress.Progress(out.write, live=False)
    shown.group_done("bleu-ngrams-count fixtures", {"passed": 77, "failed": 1})
    assert out.getvalue() == ""


def test_live_progress_redraws_one_line():
    out = io.StringIO()
    shown = progress.Progress(out.write, live=True)
    shown.expect({"bleu-ngrams-count": 3})
    shown.check_done("bleu-ngrams-count", failing=True)
    shown.line("done")
    text = out.getvalue()
    assert "\r\x1b[2K1/3 checks · 1 failing · " in text and "\r\x1b[2Kdone\n" in text


def test_summary_table_counts_cases_and_properties():
    def fixture(outcome):
        return CaseResult(
            Case("bleu-ngrams-count", "1.0.0", "x", "fixture", "valid", {}, Expectation("output")), outcome
        )

    properties = [
        {"tool_id": "bleu-ngrams-count", "version": "1.0.0", "family": "valid/a", "outcome": "failed", "examples": 70},
        {"tool_id": "bleu-ngrams-count", "version": "1.0.0", "family": "valid/b", "outcome": "passed", "examples": 60},
    ]
    results = [fixture("passed"), fixture("passed"), fixture("errored")]
    table = console.summary_table({"results": [result.to_dict() for result in results], "properties": properties})
    header, row = table.splitlines()[:2]
    assert header.split() == ["tool", "passed", "failed", "errored", "skipped", "xfailed", "fixed", "examples"]
    assert row.split() == ["bleu-ngrams-count", "3", "1", "1", "0", "0", "0", "130"]

"""A server error is a failure of its case, not an outage (engine/health.py).

A fault the input may cause (a 5xx, garbage, a crash, a hang: ``TargetResponse.fault``) is sent once
more; failing the same way again while the target answers other inputs, it is a ``server_error``: a
failure of the case, shrunk, grouped and tied to its clause like any other, which the breaker never
counts. A fault that does not come back, or that every input gets, stays the transport's: a server
answering 500 to everything still ends the run with exit 3, and a throttling one with exit 0.
"""

from __future__ import annotations

import pytest
from faulty_servers import CRASH_ABOVE_TOKENS, faulty_server
from runs import run_against

from conformance.engine.health import MAX_CONSECUTIVE_TRANSPORT_ERRORS, HealthMonitor
from conformance.model import TargetResponse

CORPUS, V = "bleu-corpus-compute", "1.0.0"
EXAMPLE = {"hypotheses": [["a"]], "references": [[["a"]]]}
RESULT = TargetResponse("result", result={"bleu": 1.0})


class Scripted:
    """A target answering each call from a script: payload -> list of responses, one per call."""

    def __init__(self, answers):
        self.answers, self.calls = answers, []

    def call(self, tool_id, version, payload):
        self.calls.append(payload)
        return self.answers(payload, len(self.calls))


def crash(status: int = 500) -> TargetResponse:
    return TargetResponse("transport_error", status=status, detail=f"HTTP {status}", fault=f"HTTP {status}")


def test_a_crash_that_comes_back_while_others_are_answered_is_a_server_error():
    target = Scripted(lambda payload, n: crash() if payload == EXAMPLE else RESULT)
    monitor = HealthMonitor(timeout=1)
    response = monitor.call(target, CORPUS, V, EXAMPLE)
    assert response.kind == "server_error" and response.fault == "HTTP 500"
    assert target.calls[:2] == [EXAMPLE, EXAMPLE] and len(target.calls) == 3  # sent again, then the probe
    figures = monitor.figures()
    assert figures["transport_errors"] == 0 and figures["server_errors"] == 1


def test_a_crash_that_does_not_come_back_is_the_transports():
    target = Scripted(lambda payload, n: crash() if n == 1 else RESULT)
    monitor = HealthMonitor(timeout=1)
    response = monitor.call(target, CORPUS, V, EXAMPLE)
    assert response.kind == "result" and len(target.calls) == 2
    assert monitor.figures()["transport_errors"] == 1


def test_another_fault_when_sent_again_is_the_transports():
    target = Scripted(lambda payload, n: crash(500) if n == 1 else crash(501))
    response = HealthMonitor(timeout=1).call(target, CORPUS, V, EXAMPLE)
    assert response.kind == "transport_error" and len(target.calls) == 2


def test_a_crash_every_input_gets_is_an_outage():
    target = Scripted(lambda payload, n: crash())
    monitor = HealthMonitor(timeout=1)
    for _ in range(3):
        monitor.call(target, CORPUS, V, EXAMPLE)
    assert monitor.unhealthy and "transport errors in a row" in monitor.reason
    # each call: the input, sent again, and the contract's other example asked: all failed
    assert monitor.figures()["transport_errors"] >= MAX_CONSECUTIVE_TRANSPORT_ERRORS


def test_a_failure_of_the_transport_alone_is_not_sent_again():
    refused = TargetResponse("transport_error", detail="connection failed (refused or dropped)")
    target = Scripted(lambda payload, n: refused)
    assert HealthMonitor(timeout=1).call(target, CORPUS, V, EXAMPLE).kind == "transport_error"
    assert len(target.calls) == 1


def tokens(case_input: dict) -> int:
    return sum(len(hypothesis) for hypothesis in case_input["hypotheses"])


def check_crash_above_n(code: int, report: dict) -> None:
    assert code == 1 and "stopped_by" not in report["header"]
    failed = [result for result in report["results"] if result["outcome"] == "failed"]
    assert failed and all(result["response"]["kind"] == "server_error" for result in failed)
    assert report["header"]["breaker"]["transport_errors"] == 0
    valid = [result for result in failed if result["case"]["expect"]["kind"] == "output"]
    assert min(tokens(result["case"]["input"]) for result in valid) == CRASH_ABOVE_TOKENS + 1
    assert all(tokens(result["case"]["input"]) > CRASH_ABOVE_TOKENS for result in failed)
    assert all('"internal_error"' in result["message"] for result in failed), "the server's body is quoted"
    groups = {group["kind"] for group in report["failure_groups"]}
    assert "server error on a valid input" in groups


@pytest.mark.slow  # a whole run (the quick tests above classify each kind of crash; the next test is a whole run too)
def test_a_server_crashing_on_valid_inputs_above_n_tokens_is_not_conformant(tmp_path):
    with faulty_server("crash_above_n_tokens", lifetime=600) as server:
        code, report = run_against(
            server.url, tmp_path, "--tools", CORPUS, "--profile", "quick", "--generated-only", "--seed", "1", "-x"
        )
    check_crash_above_n(code, report)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_crashing_above_n_tokens_is_shrunk_to_n_plus_one_at_the_default_profile(tmp_path, seed):
    with faulty_server("crash_above_n_tokens", lifetime=900) as server:
        code, report = run_against(server.url, tmp_path, "--tools", CORPUS, "--seed", str(seed))
    check_crash_above_n(code, report)


def test_a_server_crashing_on_one_invalid_input_form_fails_those_cases(tmp_path):
    with faulty_server("crash_on_string_max_order", lifetime=600) as server:
        code, report = run_against(
            server.url, tmp_path, "--tools", CORPUS, "--profile", "quick", "--seed", "1", "--fixtures-only"
        )
    failed = [result for result in report["results"] if result["outcome"] == "failed"]
    assert code == 1 and failed
    assert all(isinstance(result["case"]["input"]["max_order"], str) for result in failed)
    assert all(result["response"]["kind"] == "server_error" for result in failed)
    kinds = {(group["kind"], group["clause"]["name"]) for group in report["failure_groups"]}
    assert all(kind == "server error on an invalid input" and "max_order" in label for kind, label in kinds), kinds


def test_a_server_answering_500_to_everything_still_cannot_be_judged(tmp_path):
    with faulty_server("always_500") as server:
        code, report = run_against(server.url, tmp_path, "--tools", CORPUS, "--profile", "quick")
    assert code == 3 and report["header"]["stopped_by"] == "preflight"


@pytest.mark.slow  # whole runs (test_retries_after_throttling_are_jittered below checks the waiting, quick)
@pytest.mark.parametrize("workers", ["1", "4"])
def test_a_throttling_server_is_conformant_at_every_workers(tmp_path, workers):
    """503 with Retry-After: 0 to every third request: bursts and sequences retry like any call, and a
    check the transport alone kept from being judged never makes the run exit 1."""
    with faulty_server("every_third_503", retry_after="0") as server:
        code, report = run_against(
            server.url,
            tmp_path,
            "--tools",
            CORPUS,
            "--profile",
            "quick",
            "--families",
            "valid/burst,valid/sequence,valid/shared-ngrams",
            "--workers",
            workers,
        )
    assert code == 0, report["totals"]
    assert report["totals"]["failed"] == 0 and report["header"]["retries_made"] > 0


def test_an_in_process_exception_is_the_implementations_own_even_once():
    """No transport stands between an in-process target and the suite: an exception that would not come
    back when sent again (a race between the threads of a burst) is still a failure, judged at once."""
    raised = TargetResponse(
        "transport_error", detail="raised IndexError: list index out of range", fault="raised IndexError"
    )
    target = Scripted(lambda payload, n: raised if n == 1 else RESULT)
    target.in_process = True
    monitor = HealthMonitor(timeout=1)
    response = monitor.call(target, CORPUS, V, EXAMPLE)
    assert response.kind == "server_error" and response.fault == "raised IndexError"
    assert len(target.calls) == 2 and target.calls[1] != EXAMPLE  # not sent again; the contract's example asked
    assert monitor.figures()["transport_errors"] == 0


def test_an_in_process_target_raising_on_everything_is_an_outage():
    raised = TargetResponse("transport_error", detail="raised RuntimeError", fault="raised RuntimeError")
    target = Scripted(lambda payload, n: raised)
    target.in_process = True
    monitor = HealthMonitor(timeout=1)
    for _ in range(3):
        monitor.call(target, CORPUS, V, EXAMPLE)
    assert monitor.unhealthy and monitor.figures()["server_errors"] == 0


def test_retries_after_throttling_are_jittered():
    """After a 429 or 503 the wait gets a random extra, so a burst's refused calls come back spread out."""
    from conformance.targets.retry_policy import JITTER_SECONDS, jitter

    waits = {round(jitter(503), 6) for _ in range(50)} | {round(jitter(429), 6) for _ in range(50)}
    assert len(waits) > 10 and all(0 <= wait <= JITTER_SECONDS for wait in waits)
    assert jitter(502) == jitter(None) == 0.0  # a gateway error or no answer: urllib3's backoff alone

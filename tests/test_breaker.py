"""The circuit breaker against real targets of every kind that can hang (jsonl:, cmd:, http:, mcp+http:).

A target that hangs on every fourth request must end the run with exit 3 and the breaker's reason
(the failure rate over the window where the hung calls fail; the time-out budget where the retries
of HTTP and MCP get them answered, late), and one that hangs on one request in 100 must run to its
verdict. Runs use a 0.3 s --timeout: the bounds are checked in terms of it and of the budget (the
breaker's own figures in the report header), with a generous wall-clock bound besides. Closing a
target while a call is in flight (what the breaker does when it trips) ends that call at once.

The default run has the failure rate (jsonl:) and the time-out budget (http:) end to end, and the
closing of every kind; the other kinds' runs, and the targets failing one call in 100 (which the
unit tests in test_runner_units.py check over 8,000 calls), are marked slow.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest
from faulty_commands import FaultyCommands, still_running
from faulty_mcp_servers import mcp_server
from faulty_servers import faulty_server

from conformance.cli import main
from conformance.engine import health, properties
from conformance.engine.session import fixture_cases
from conformance.targets import make_target

BP = "bleu-brevity-penalty"
# its fixture cases, counted where the run reads them: with the preflight's call, a run's calls are one more
BP_CASES = sum(case.tool_id == BP for case in fixture_cases())
TIMEOUT = 0.3  # the hung calls cost it each: small, yet far above an answer's milliseconds
EXAMPLE = {"candidate_lengths": [4], "reference_lengths": [[4]]}
GENEROUS_SECONDS = 60  # wall clock, on two busy cores; the real bounds are the breaker's figures


@pytest.fixture
def commands(tmp_path) -> FaultyCommands:
    return FaultyCommands(tmp_path)


def run_arguments(target: str, report_dir: str, *options: str) -> list[str]:
    """`conformance run` over the fixture cases of one tool, with the breaker tests' time-out."""
    return [
        "run",
        "--target",
        target,
        "--tools",
        BP,
        "--fixtures-only",
        "--timeout",
        str(TIMEOUT),
        "--seed",
        "1",
        "--report-dir",
        report_dir,
        *options,
    ]


@pytest.fixture
def run(tmp_path, monkeypatch, capfd):
    """``conformance run ARGS`` in this process, fixture cases of one tool: (exit code, output, report.json, s)."""
    monkeypatch.chdir(tmp_path)

    def run_(target: str, *options: str) -> tuple[int, str, dict, float]:
        started = time.monotonic()
        code = main(run_arguments(target, "out", *options))
        elapsed = time.monotonic() - started
        out, err = capfd.readouterr()
        return code, out + err, json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8")), elapsed

    return run_


def assert_stopped_by_the_breaker(
    code: int, output: str, report: dict, elapsed: float, rule: str, per_call: float
) -> None:
    """Exit 3 with the breaker's reason, said in the console, and within its bounds: the calls a rule
    needs at most, the time lost at most the budget and one call's worst cost (``per_call``)."""
    assert code == 3, output[-3000:]
    reason, figures = report["unhealthy_reason"], report["header"]["breaker"]
    assert report["header"]["stopped_by"] == "breaker"
    assert rule in reason, reason
    assert f"TARGET UNHEALTHY, run stopped: {reason[:60]}" in output
    assert figures["calls"] <= health.WINDOW_CALLS
    assert figures["time_lost_s"] <= health.BUDGET_TIMEOUTS * TIMEOUT + per_call + 2 * TIMEOUT
    assert report["totals"]["skipped"] > 50, "the cases after the trip were not sent"
    assert elapsed < GENEROUS_SECONDS


def assert_completed(code: int, output: str, report: dict, hung: int, resent: int = 0) -> None:
    """``resent``: hung calls no retry answered, each sent once more (engine/health.py) and answered then."""
    assert code in (0, 1), output[-3000:]
    assert report["unhealthy_reason"] == "" and "stopped_by" not in report["header"]
    assert report["header"]["breaker"]["calls"] == BP_CASES + 1 + resent
    assert report["header"]["breaker"]["transport_errors"] == resent
    assert report["totals"]["skipped"] == 0


# ---------------------------------------------------------------- processes: the hung calls fail


def test_jsonl_target_hanging_on_every_fourth_request_is_stopped_by_the_failure_rate(run, commands):
    code, output, report, elapsed = run(commands.jsonl("after", 3))
    rate = f"5 of the last 20 calls were transport errors (the breaker trips at 25% of the last {health.WINDOW_CALLS}"
    assert_stopped_by_the_breaker(code, output, report, elapsed, rate, per_call=TIMEOUT + 5)
    # a hang is sent once more before it is judged (engine/health.py): the resend may be the 21st call
    assert health.MINIMUM_CALLS <= report["header"]["breaker"]["calls"] <= health.MINIMUM_CALLS + 1
    assert_none_left(commands)


@pytest.mark.slow  # a whole run over -n (tests/test_shards.py stops every process of a dead target, quick)
def test_a_breaker_tripping_in_a_process_of_n_stops_the_whole_run(commands, tmp_path):
    """-n 2: each process's own jsonl process hangs from its fourth request; the breaker of the process that
    trips first stops the other through the shared stop file, and the merged report says the breaker stopped
    the run (exit 3, its reason), the cases after it not sent, no target process left."""
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance",
            *run_arguments(commands.jsonl("after", 3), str(tmp_path / "out"), "-n", "2"),
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    elapsed = time.monotonic() - started
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert done.returncode == 3, done.stdout[-3000:] + done.stderr[-3000:]
    assert report["header"]["stopped_by"] == "breaker" and report["header"]["processes"] == 2
    assert "of the last 20 calls were transport errors" in report["unhealthy_reason"], report["unhealthy_reason"]
    assert f"TARGET UNHEALTHY, run stopped: {report['unhealthy_reason'][:60]}" in done.stdout
    assert report["totals"]["skipped"] > 50, "the cases after the trip were not sent"
    assert elapsed < GENEROUS_SECONDS + 30  # two interpreters and their imports besides
    assert_none_left(commands)


@pytest.mark.slow  # a whole run spending time-outs
def test_a_target_hanging_on_one_kind_of_input_runs_to_its_verdict(commands, tmp_path, capfd):
    """Every request line over 2000 bytes hangs, always: a few families hit one, each once. Sent again, it
    hangs again while the target answers others: a failure of its case (a server error, engine/health.py),
    which the breaker does not count. The example is reported unshrunk and its property ends (shrinking it
    would hang again and again: exit 3 before); the run concludes non-conformant, the breaker untripped."""
    code = main(
        [
            "run",
            "--target",
            commands.jsonl("longer", 2000),
            "--tools",
            BP,
            "--generated-only",
            "--profile",
            "quick",
            "--timeout",
            "1",
            "--seed",
            "1",
            "--report-dir",
            str(tmp_path / "out"),
        ]
    )
    output = "".join(capfd.readouterr())
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert code == 1 and "stopped_by" not in report["header"], output[-3000:]
    hung = [entry for entry in report["properties"] if entry.get("stopped_by") == "time_out"]
    assert hung and report["totals"]["failed"] == len(hung) and report["totals"]["skipped"] == 0
    assert all(entry["outcome"] == "failed" for entry in hung)
    failed = [result for result in report["results"] if result["outcome"] == "failed"]
    assert all(properties.NOT_SHRUNK in result["message"] for result in failed)
    assert all(result["response"]["kind"] == "server_error" for result in failed)
    assert report["header"]["breaker"]["server_errors"] == len(hung)
    assert report["header"]["breaker"]["time_lost_s"] == 0  # reproduced: the input's, not the transport's
    assert_none_left(commands)


@pytest.mark.slow  # see the module docstring
def test_jsonl_target_hanging_on_one_request_in_100_runs_to_its_verdict(run, commands):
    code, output, report, _ = run(commands.jsonl("every", 100))
    assert_completed(code, output, report, hung=1, resent=1)
    # the hung request, sent again, was answered: the transport's failure, not the case's
    assert code == 0 and report["totals"]["errored"] == 0 and report["totals"]["passed"] == BP_CASES
    assert_none_left(commands)


@pytest.mark.slow  # see the module docstring
def test_cmd_target_hanging_on_every_fourth_call_is_stopped_by_the_failure_rate(run, commands):
    code, output, report, elapsed = run(commands.cmd(4))
    assert_stopped_by_the_breaker(
        code, output, report, elapsed, "5 of the last 20 calls were transport errors", per_call=TIMEOUT
    )
    assert_none_left(commands)


@pytest.mark.slow  # see the module docstring
def test_cmd_target_hanging_on_one_call_in_100_runs_to_its_verdict(run, commands):
    code, output, report, _ = run(commands.cmd(100))
    assert_completed(code, output, report, hung=1, resent=1)
    assert code == 1 and report["totals"]["errored"] == 0  # the hung call answered when sent again; every answer wrong
    assert_none_left(commands)


# ---------------------------------------------------------------- servers: the retries answer, late


RETRIED_CALL_SECONDS = 3 * TIMEOUT + 0.6  # three attempts and the backoffs between them


def test_http_server_hanging_on_every_fourth_request_is_stopped_by_the_time_out_budget(run):
    with faulty_server("hang_every_4th") as server:
        code, output, report, elapsed = run(server.url)
    assert_stopped_by_the_breaker(
        code, output, report, elapsed, "the time-out budget is spent", per_call=RETRIED_CALL_SECONDS
    )
    assert report["header"]["breaker"]["transport_errors"] == 0, "each hung request was answered on its retry"
    assert report["header"]["retries_made"] >= 3


@pytest.mark.slow  # see the module docstring
def test_http_server_hanging_on_one_request_in_100_runs_to_its_verdict(run):
    with faulty_server("hang_every_100th") as server:
        code, output, report, _ = run(server.url)
    assert_completed(code, output, report, hung=1)
    assert code == 0 and report["header"]["retries_made"] == 1


@pytest.mark.slow  # see the module docstring
def test_mcp_server_hanging_on_every_fourth_call_is_stopped_by_the_time_out_budget(run):
    with mcp_server("hang_every_4th") as url:
        code, output, report, elapsed = run("mcp+" + url)
    assert_stopped_by_the_breaker(
        code, output, report, elapsed, "the time-out budget is spent", per_call=RETRIED_CALL_SECONDS
    )
    assert report["header"]["retries_made"] >= 3, "each hung call was answered on its retry"


@pytest.mark.slow  # see the module docstring
def test_mcp_server_hanging_on_one_call_in_100_runs_to_its_verdict(run):
    with mcp_server("hang_every_100th") as url:
        code, output, report, _ = run("mcp+" + url)
    assert_completed(code, output, report, hung=1)
    assert code == 0 and report["header"]["retries_made"] == 1


# ---------------------------------------------------------------- closing ends the calls in flight


def call_closed_meanwhile(target, ready=lambda: True) -> tuple[object, float]:
    """Call ``target`` in a thread and close it from here once ``ready()`` says the call hangs (and 0.3 s
    more): (the call's response, the seconds it went on after close())."""
    answers: list = []

    def call() -> None:
        answers.append((target.call(BP, "1.0.0", EXAMPLE), time.monotonic()))

    thread = threading.Thread(target=call)
    thread.start()
    deadline = time.monotonic() + 20
    while not ready() and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.3)
    closed = time.monotonic()
    target.close()
    thread.join(30)
    assert answers, "the call did not end after close()"
    response, ended = answers[0]
    return response, ended - closed


def assert_cut_short(response, seconds: float) -> None:
    assert response.kind == "transport_error"
    assert seconds < 5, f"the call went on {seconds:.1f} s after close() (its timeout: 30 s)"


def test_closing_a_jsonl_target_ends_its_call_in_flight_and_its_processes(commands):
    target = make_target(commands.jsonl("after", 0), timeout=30)
    assert_cut_short(*call_closed_meanwhile(target, lambda: commands.hung))
    assert target.call(BP, "1.0.0", EXAMPLE).detail.startswith("not sent: the target was closed")
    assert_none_left(commands)


def test_closing_a_cmd_target_ends_its_call_in_flight_and_its_processes(commands):
    target = make_target(commands.cmd(1), timeout=30)
    assert_cut_short(*call_closed_meanwhile(target, lambda: commands.hung))
    assert target.call(BP, "1.0.0", EXAMPLE).detail.startswith("not sent: the target was closed")
    assert_none_left(commands)


def test_closing_an_http_target_ends_its_call_in_flight_and_its_retries():
    with faulty_server("slow") as server:
        target = make_target(server.url, timeout=30)
        assert_cut_short(*call_closed_meanwhile(target))
        assert target.call(BP, "1.0.0", EXAMPLE).detail.startswith("not sent: the target was closed")


def test_closing_an_http_target_wakes_a_wait_between_retries():
    with faulty_server("always_503", retry_after="30") as server:
        target = make_target(server.url, timeout=30)
        assert_cut_short(*call_closed_meanwhile(target))


def test_closing_an_mcp_target_ends_its_call_in_flight():
    with mcp_server("hang_after_3") as url:
        target = make_target("mcp+" + url, timeout=30)
        for _ in range(3):
            assert target.call(BP, "1.0.0", EXAMPLE).kind == "result"
        assert_cut_short(*call_closed_meanwhile(target))
        assert target.call(BP, "1.0.0", EXAMPLE).detail.startswith("not sent: the target was closed")


def assert_none_left(commands: FaultyCommands) -> None:
    pids = commands.pids()
    assert pids, "the target recorded no process"
    assert not still_running(pids)

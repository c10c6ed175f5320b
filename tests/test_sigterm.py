"""SIGTERM stops a real `conformance run` as Ctrl-C does, and leaves nothing running.

Each run is a subprocess against a target that answers three requests and hangs on the fourth (with a
--timeout of 60 s, so a call is in flight): once the target is hung, the run gets the signal. It must
exit within a few seconds, 143 for SIGTERM (3 for Ctrl-C's SIGINT, as before), with all four reports
written and marked interrupted, and every process the target started ended (each writes its pid to a
file). The runs go two at a time (two cores): the waiting is mostly on the hung targets. The runs under -n 2
(three processes each) are the slow step's: a group of runs starts only when a test asks for one of them.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from faulty_commands import FaultyCommands, still_running
from faulty_servers import faulty_server

BP = "bleu-brevity-penalty"
TESTS = Path(__file__).parent
ROOT = TESTS.parent
STOP_SECONDS = 10  # from the signal to the exit, on two busy cores ("a few seconds"; ~1-2 s measured)
START_SECONDS = 60  # for the run to start and reach the hung call


@dataclass
class Stopped:
    returncode: int
    seconds: float  # from the signal to the exit
    stdout: str
    stderr: str
    report_dir: Path
    commands: FaultyCommands


def run_until_hung(target: str, commands: FaultyCommands, hung, sig: int, *options: str) -> Stopped:
    """Start `conformance run OPTIONS`, wait until ``hung()`` says the target hangs on a call, send ``sig``."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "conformance",
            "run",
            "--target",
            target,
            "--tools",
            BP,
            "--fixtures-only",
            "--timeout",
            "60",
            "--seed",
            "1",
            "--report-dir",
            str(commands.directory / "out"),
            *options,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        deadline = time.monotonic() + START_SECONDS
        while not hung() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # well inside the hung call
        process.send_signal(sig)
        signalled = time.monotonic()
        stdout, stderr = process.communicate(timeout=60)
        return Stopped(
            process.returncode, time.monotonic() - signalled, stdout, stderr, commands.directory / "out", commands
        )
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def scenario(name: str, base: Path) -> Stopped:
    """Each target answers three requests (the preflight's and two cases') and hangs on the fourth."""
    commands = FaultyCommands(base)
    hung = lambda: commands.hung  # noqa: E731
    if name == "jsonl-sigterm":
        return run_until_hung(commands.jsonl("after", 3), commands, hung, signal.SIGTERM)
    if name == "jsonl-sigterm-processes":  # -n 2: each process's jsonl process hangs on its fourth request
        both_hung = lambda: len(commands.pids()) >= 4  # noqa: E731 (two jsonl processes, a sleep child each)
        return run_until_hung(commands.jsonl("after", 3), commands, both_hung, signal.SIGTERM, "-n", "2")
    if name == "jsonl-sigint":
        return run_until_hung(commands.jsonl("after", 3), commands, hung, signal.SIGINT)
    if name == "jsonl-sigint-processes":  # -n 2, SIGINT to the controller alone (not a terminal's Ctrl-C)
        both_hung = lambda: len(commands.pids()) >= 4  # noqa: E731
        return run_until_hung(commands.jsonl("after", 3), commands, both_hung, signal.SIGINT, "-n", "2")
    if name == "cmd-sigterm":
        return run_until_hung(commands.cmd(4, answer="oracle"), commands, hung, signal.SIGTERM)
    with faulty_server("hang_every_4th") as server:  # http-sigterm: the server is this process's thread
        return run_until_hung(server.url, commands, lambda: server.requests_seen >= 4, signal.SIGTERM)


ONE_PROCESS = ("jsonl-sigterm", "cmd-sigterm", "http-sigterm", "jsonl-sigint")
PROCESSES = ("jsonl-sigterm-processes", "jsonl-sigint-processes")  # -n 2: the slow step's
N = pytest.mark.slow  # the runs under -n 2: two runs of three processes each, about 5 s of CPU


class Runs(dict):
    """The scenarios' runs, each group's started together (two at a time) when a test first asks for one."""

    def __init__(self, base: Path) -> None:
        super().__init__()
        self.base = base

    def __missing__(self, name: str) -> Stopped:
        group = ONE_PROCESS if name in ONE_PROCESS else PROCESSES
        with ThreadPoolExecutor(2) as pool:
            futures = {each: pool.submit(scenario, each, self.base / each) for each in group}
            self.update({each: future.result() for each, future in futures.items()})
        return self[name]


@pytest.fixture(scope="module")
def stopped(tmp_path_factory) -> Runs:
    return Runs(tmp_path_factory.mktemp("sigterm"))


def reports(run: Stopped) -> dict[str, str]:
    names = {"json": "report.json", "junit": "junit.xml", "markdown": "report.md", "html": "report.html"}
    return {kind: (run.report_dir / name).read_text(encoding="utf-8") for kind, name in names.items()}


@pytest.mark.parametrize(
    "name", ["jsonl-sigterm", "cmd-sigterm", "http-sigterm", pytest.param("jsonl-sigterm-processes", marks=N)]
)
def test_sigterm_stops_the_run_at_once_with_a_partial_report_marked_interrupted(stopped, name):
    run = stopped[name]
    assert run.returncode == 143, (run.stdout[-2000:], run.stderr[-2000:])
    assert run.seconds < STOP_SECONDS
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    written = reports(run)
    report = json.loads(written["json"])
    assert report["exit_code"] == 143 and report["header"]["interrupted"] == "SIGTERM"
    # each process's preflight and two cases, the checks done before the signal, are kept (merged, under -n)
    assert report["totals"]["passed"] == (4 if name.endswith("processes") else 2), report["totals"]
    assert '<property name="interrupted" value="SIGTERM" />' in written["junit"]
    assert "INTERRUPTED BY SIGTERM: the run did not finish" in written["markdown"]
    assert "INTERRUPTED BY SIGTERM: the run did not finish" in written["html"]
    assert "INTERRUPTED by SIGTERM: the run did not finish" in run.stdout
    assert "stopped by SIGTERM" in run.stdout
    assert_banner_names_no_file_of_the_suite(run)


@pytest.mark.parametrize(
    "name", ["jsonl-sigterm", "cmd-sigterm", "jsonl-sigint", *(pytest.param(name, marks=N) for name in PROCESSES)]
)
def test_no_process_of_the_target_outlives_the_run(stopped, name):
    pids = stopped[name].commands.pids()
    assert len(pids) >= 2, "the target and its child recorded themselves"
    assert not still_running(pids)


def test_ctrl_c_still_gives_its_code_and_now_says_so(stopped):
    run = stopped["jsonl-sigint"]
    assert run.returncode == 3 and run.seconds < STOP_SECONDS, (run.stdout[-2000:], run.stderr[-2000:])
    written = reports(run)
    assert json.loads(written["json"])["header"]["interrupted"] == "SIGINT"
    assert "INTERRUPTED BY SIGINT" in written["markdown"]
    assert '<property name="interrupted" value="SIGINT" />' in written["junit"]
    assert "INTERRUPTED by SIGINT: the run did not finish" in run.stdout
    assert_banner_names_no_file_of_the_suite(run)


def assert_banner_names_no_file_of_the_suite(run: Stopped) -> None:
    """The console says what happened and where the partial report is: no source file and line of the suite,
    no KeyboardInterrupt of pytest's."""
    said = run.stdout + run.stderr
    assert not re.search(r"\.py:\d+", said) and "KeyboardInterrupt" not in said, said[-2000:]
    assert f"json: {run.report_dir / 'report.json'}" in run.stdout, run.stdout[-2000:]


@N
def test_sigint_to_the_controller_alone_under_n_keeps_every_processs_checks(stopped):
    """`kill -INT` to the controller of -n 2 (a terminal's Ctrl-C reaches every process itself): it is
    relayed to the processes, which hand back their documents, so the partial report holds their checks."""
    run = stopped["jsonl-sigint-processes"]
    assert run.returncode == 3 and run.seconds < STOP_SECONDS, (run.stdout[-2000:], run.stderr[-2000:])
    report = json.loads(reports(run)["json"])
    assert report["header"]["interrupted"] == "SIGINT"
    assert report["totals"]["passed"] == 4, report["totals"]


@pytest.mark.slow  # a quick run with many failures, then the signal: half a minute
def test_a_signal_while_the_reports_are_written_cuts_the_naming_short_and_marks_them_interrupted(tmp_path):
    """A signal once every check is done, while the reports of many failures are written (naming each one's
    divergence: half a second each here, minutes for a run with many failures): the reports are written at once,
    without the names not yet found, marked interrupted, and the run exits 143 (termination.CUT)."""
    mark = tmp_path / "naming"
    command = [
        *[sys.executable, "-m", "conformance", "run", "--target", "python:slow_naming"],
        *["--tools", "bleu-brevity-penalty", "--profile", "quick", "--report-dir", str(tmp_path / "out")],
    ]
    env = {**os.environ, "CONFORMANCE_NAMING_MARK": str(mark), "PYTHONPATH": os.pathsep.join(map(str, (TESTS, ROOT)))}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 240
        while not mark.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mark.exists(), "the run never named a failure"
        time.sleep(1)  # two failures named: the rest would take their half second each
        process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        stdout, stderr = process.communicate(timeout=60)
        seconds = time.monotonic() - signalled
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 143, (stdout[-2000:], stderr[-2000:])
    assert seconds < STOP_SECONDS
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["exit_code"] == 143 and report["header"]["interrupted"] == "SIGTERM"
    failing = sorted(result["case"]["case_id"] for result in report["results"] if result["outcome"] == "failed")
    assert len(failing) > 2 * STOP_SECONDS, report["totals"]  # more than the time left would have named
    assert sorted(m for group in report["failure_groups"] for m in group["members"]) == failing  # each in a group


def catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler for ``signum`` (Linux: the SigCgt mask of /proc/PID/status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    mask = next(int(line.split()[1], 16) for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(mask >> (signum - 1) & 1)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the process's signal mask in /proc")
def test_a_sigterm_at_the_first_moment_a_run_catches_it_gives_the_report_marked_interrupted(tmp_path):
    """From its first moments, while pytest and Hypothesis import, `conformance run` records SIGTERM
    (termination.record_early): sent as soon as the process catches it, the run stops at its start, with
    its report marked, not killed on the spot with none."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # no re-execution of itself (conformance/cli.py, fix_hash_seed)
    process = subprocess.Popen(
        [sys.executable, "-m", "conformance", "run", "--target", "oracle", "--tools", BP, "--fixtures-only"]
        + ["--report-dir", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + START_SECONDS
        while not catches(process.pid, signal.SIGTERM) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.0005)
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 143, (stdout[-2000:], stderr[-2000:])
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["header"]["interrupted"] == "SIGTERM" and report["exit_code"] == 143
    assert report["totals"]["passed"] == 0, report["totals"]  # stopped before its first check

"""SIGTERM stops a real `conformance run` as Ctrl-C does, and leaves nothing running.

Each run is a subprocess against a target that answers three requests and hangs on the fourth (with a
--timeout of 60 s, so a call is in flight): once the target is hung, the run gets the signal. It must
exit within a few seconds, 143 for SIGTERM (3 for Ctrl-C's SIGINT, as before), with all four reports
written and marked interrupted, and every process the target started ended (each writes its pid to a
file). The runs go two at a time (two cores): the waiting is mostly on the hung targets.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from faulty_servers import faulty_server

BP = "bleu-brevity-penalty"
STOP_SECONDS = 10  # from the signal to the exit, on two busy cores ("a few seconds"; ~1-2 s measured)
START_SECONDS = 60  # for the run to start and reach the hung call

# jsonl: answers three requests with the oracle, then hangs, with a child that would outlive the run.
JSONL_TARGET = """
    import json, os, subprocess, sys, time
    from conformance.jsonl_oracle import answer

    state = sys.argv[1]
    open(os.path.join(state, f"pid-{os.getpid()}"), "w").close()
    for seen, line in enumerate(sys.stdin.buffer, 1):
        if seen > 3:
            child = subprocess.Popen(["sleep", "300"])
            open(os.path.join(state, f"pid-{child.pid}"), "w").close()
            open(os.path.join(state, "hung"), "w").close()
            time.sleep(300)
        sys.stdout.write(json.dumps(answer(line)) + "\\n")
        sys.stdout.flush()
"""

# cmd: one process per call; the fourth call hangs in a child (sh waits for it).
CMD_TARGET = """
    n=$(( $(cat "$STATE/count" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$STATE/count"
    echo $$ > "$STATE/pid-$$"
    if [ "$n" -ge 4 ]; then
        sleep 300 & echo $! > "$STATE/pid-$!"; touch "$STATE/hung"; wait
    fi
    exec "$PYTHON" -m conformance exec "$1@$2"
"""


@dataclass
class Stopped:
    returncode: int
    seconds: float  # from the signal to the exit
    stdout: str
    stderr: str
    report_dir: Path
    state: Path


def run_until_hung(target: str, report_dir: Path, hung, sig: int, env: dict | None = None) -> Stopped:
    """Start `conformance run`, wait until ``hung()`` says the target hangs on a call, send ``sig``."""
    process = subprocess.Popen(
        [sys.executable, "-m", "conformance", "run", "--target", target, "--tools", BP, "--fixtures-only",
         "--timeout", "60", "--seed", "1", "--report-dir", str(report_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
        env={**os.environ, **(env or {})})
    try:
        deadline = time.monotonic() + START_SECONDS
        while not hung() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # well inside the hung call
        process.send_signal(sig)
        signalled = time.monotonic()
        stdout, stderr = process.communicate(timeout=60)
        return Stopped(process.returncode, time.monotonic() - signalled, stdout, stderr, report_dir,
                       report_dir.parent / "state")
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def scenario(name: str, base: Path) -> Stopped:
    state = base / "state"
    state.mkdir(parents=True)
    (base / "target.py").write_text(textwrap.dedent(JSONL_TARGET), encoding="utf-8")
    (base / "target.sh").write_text(textwrap.dedent(CMD_TARGET), encoding="utf-8")
    jsonl = f"jsonl:{shlex.quote(sys.executable)} {shlex.quote(str(base / 'target.py'))} {shlex.quote(str(state))}"
    hung = (state / "hung").exists
    if name == "jsonl-sigterm":
        return run_until_hung(jsonl, base / "out", hung, signal.SIGTERM)
    if name == "jsonl-sigint":
        return run_until_hung(jsonl, base / "out", hung, signal.SIGINT)
    if name == "cmd-sigterm":
        return run_until_hung(f"cmd:sh {shlex.quote(str(base / 'target.sh'))} {{tool}} {{version}}", base / "out", hung, signal.SIGTERM,
                              env={"STATE": str(state), "PYTHON": sys.executable})
    with faulty_server("hang_every_4th") as server:  # http-sigterm: the server is this process's thread
        return run_until_hung(server.url, base / "out", lambda: server.requests_seen >= 4, signal.SIGTERM)


SCENARIOS = ("jsonl-sigterm", "cmd-sigterm", "http-sigterm", "jsonl-sigint")


@pytest.fixture(scope="module")
def stopped(tmp_path_factory) -> dict[str, Stopped]:
    base = tmp_path_factory.mktemp("sigterm")
    with ThreadPoolExecutor(2) as pool:
        futures = {name: pool.submit(scenario, name, base / name) for name in SCENARIOS}
        return {name: future.result() for name, future in futures.items()}


def reports(run: Stopped) -> dict[str, str]:
    names = {"json": "report.json", "junit": "junit.xml", "markdown": "report.md", "html": "report.html"}
    return {kind: (run.report_dir / name).read_text(encoding="utf-8") for kind, name in names.items()}


@pytest.mark.parametrize("name", ["jsonl-sigterm", "cmd-sigterm", "http-sigterm"])
def test_sigterm_stops_the_run_at_once_with_a_partial_report_marked_interrupted(stopped, name):
    run = stopped[name]
    assert run.returncode == 143, (run.stdout[-2000:], run.stderr[-2000:])
    assert run.seconds < STOP_SECONDS
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    written = reports(run)
    report = json.loads(written["json"])
    assert report["exit_code"] == 143 and report["header"]["interrupted"] == "SIGTERM"
    assert report["totals"]["passed"] == 2, "the checks done before the signal are kept"  # preflight, 2 cases
    assert '<property name="interrupted" value="SIGTERM" />' in written["junit"]
    assert "INTERRUPTED BY SIGTERM: the run did not finish" in written["markdown"]
    assert "INTERRUPTED BY SIGTERM: the run did not finish" in written["html"]
    assert "INTERRUPTED by SIGTERM: the run did not finish" in run.stdout
    assert "stopped by SIGTERM" in run.stdout


@pytest.mark.parametrize("name", ["jsonl-sigterm", "cmd-sigterm", "jsonl-sigint"])
def test_no_process_of_the_target_outlives_the_run(stopped, name):
    pids = [int(path.name.removeprefix("pid-")) for path in stopped[name].state.glob("pid-*")]
    assert len(pids) >= 2, "the target and its child recorded themselves"
    deadline = time.monotonic() + 5  # a child orphaned by the kill is reaped by init: give it a moment
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in pids if running(pid)]


def test_ctrl_c_still_gives_its_code_and_now_says_so(stopped):
    run = stopped["jsonl-sigint"]
    assert run.returncode == 3 and run.seconds < STOP_SECONDS, (run.stdout[-2000:], run.stderr[-2000:])
    written = reports(run)
    assert json.loads(written["json"])["header"]["interrupted"] == "SIGINT"
    assert "INTERRUPTED BY SIGINT" in written["markdown"]
    assert '<property name="interrupted" value="SIGINT" />' in written["junit"]


def running(pid: int) -> bool:
    """The process exists and is not a zombie (a zombie has ended: it only awaits its reaper)."""
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return False

"""A run against a flaky server against the same run against a correct one, side by side.

Run on demand (never in the test suite)::

    python benchmarks/bench_flaky_server.py [--profile default] [--seed 1] [--tools ID,...] [--source DIR]

Two servers of tests/faulty_servers.py on loopback, the same stack for both: ``correct``
answers every request with the oracle; ``every_third_503`` answers every third request
``503`` with ``Retry-After: 0`` and the others with the oracle. The same
``python -m conformance run`` (same seed, profile and tools) goes against each, both at once
(``--one-at-a-time``: one after the other), and the script prints each run's wall time, the
CPU time of its process, exit code, retries made (the report's ``retries_made``) and
requests the server saw, then the ratios. The goal: the
flaky run takes at most 1.5x the correct one, with every 503 retried once and answered.

``--source DIR`` runs the ``conformance`` package of another checkout (put first on
PYTHONPATH), e.g. an export of an earlier commit, to measure the before of a change with
the same servers and the same script.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from faulty_servers import faulty_server  # noqa: E402  (the test helpers are the servers)

SERVERS = (("correct", "correct", None), ("every third 503", "every_third_503", "0"))
RUN_TIMEOUT = 1800  # seconds; a hung run is a result too, not a hung benchmark


def run_environment(args: argparse.Namespace) -> dict:
    environment = dict(os.environ)
    if args.source:
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [args.source, environment.get("PYTHONPATH")]))
    return environment


def package_used(args: argparse.Namespace, cwd: str) -> str:
    """Where the runs import ``conformance`` from (what --source is meant to change)."""
    return subprocess.run(
        [sys.executable, "-c", "import conformance; print(conformance.__file__)"],
        cwd=cwd,
        env=run_environment(args),
        capture_output=True,
        text=True,
    ).stdout.strip()


def timed_run(url: str, args: argparse.Namespace, report_dir: Path) -> dict:
    """One ``conformance run`` to its end: wall and CPU seconds (of the run's process), exit, retries."""
    command = [
        sys.executable,
        "-m",
        "conformance",
        "run",
        "--target",
        url,
        "--profile",
        args.profile,
        "--seed",
        str(args.seed),
        "--report-dir",
        str(report_dir.resolve()),
    ]
    if args.tools:
        command += ["--tools", args.tools]
    environment = run_environment(args)
    report_dir.mkdir(parents=True, exist_ok=True)
    with open(report_dir / "output.txt", "w+") as output:
        started = time.monotonic()
        # cwd: ``python -m`` puts its working directory first on sys.path, before PYTHONPATH (--source)
        process = subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=environment, cwd=report_dir
        )
        killer = threading.Timer(RUN_TIMEOUT, process.kill)
        killer.start()
        _, status, usage = os.wait4(process.pid, 0)  # the run's own CPU time, whatever else the machine runs
        seconds = time.monotonic() - started
        killer.cancel()
        output.seek(0)
        tail = output.read()[-1200:]
    report_file = report_dir / "report.json"
    report = json.loads(report_file.read_text()) if report_file.is_file() else {"header": {}, "totals": {}}
    return {
        "seconds": seconds,
        "cpu": usage.ru_utime + usage.ru_stime,
        "exit": os.waitstatus_to_exitcode(status),
        "retries": report["header"].get("retries_made", "?"),
        "totals": report.get("totals", {}),
        "tail": tail,
    }


def run_against(label: str, behaviour: str, retry_after: str | None, args: argparse.Namespace, scratch: Path):
    with faulty_server(behaviour, lifetime=RUN_TIMEOUT, retry_after=retry_after) as server:
        run = timed_run(server.url, args, scratch / behaviour)
        return label, run, server.requests_seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="default", choices=("quick", "default", "thorough"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tools", default="", help="ID[@V],... (default: every tool)")
    parser.add_argument("--source", default="", metavar="DIR", help="run the conformance package of this checkout")
    parser.add_argument(
        "--one-at-a-time",
        action="store_true",
        help="run the two one after the other (default: at the same time, so that the load of a "
        "shared machine weighs on both alike)",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-flaky-") as scratch:
        used = package_used(args, scratch)
        jobs = [(label, behaviour, retry_after, args, Path(scratch)) for label, behaviour, retry_after in SERVERS]
        if args.one_at_a_time:
            rows = [run_against(*job) for job in jobs]
        else:
            with ThreadPoolExecutor(len(jobs)) as pool:
                rows = list(pool.map(lambda job: run_against(*job), jobs))
    print(
        f"profile {args.profile}, seed {args.seed}, tools {args.tools or 'all'}, "
        f"{'one after the other' if args.one_at_a_time else 'both at once'}, conformance from {used}"
    )
    print(f"{'server':18} {'wall s':>7} {'cpu s':>6} {'exit':>4} {'retries':>8} {'requests':>9}  totals")
    for label, run, requests_seen in rows:
        totals = " ".join(f"{k}={v}" for k, v in run["totals"].items() if v)
        print(
            f"{label:18} {run['seconds']:7.1f} {run['cpu']:6.1f} {run['exit']:>4} {run['retries']!s:>8} "
            f"{requests_seen:>9}  {totals}"
        )
    correct, flaky = rows[0][1], rows[1][1]
    print(
        f"ratio flaky / correct: wall {flaky['seconds'] / correct['seconds']:.2f}x (goal: at most 1.5x), "
        f"cpu {flaky['cpu'] / correct['cpu']:.2f}x"
    )
    for label, run, _ in rows:
        if run["exit"] != 0:
            print(f"\n{label}: exit {run['exit']}; the run's last words:\n{run['tail']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

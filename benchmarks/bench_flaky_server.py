"""A run against a flaky server against the same run against a correct one, side by side.

Run on demand (never in the test suite)::

    python benchmarks/bench_flaky_server.py [--profile default] [--seed 1] [--tools ID,...] [--source DIR]

Two servers of tests/faulty_servers.py on loopback, the same stack for both: ``correct``
answers every request with the oracle; ``every_third_503`` answers every third request
``503`` with ``Retry-After: 0`` and the others with the oracle. The same
``python -m conformance run`` (same seed, profile and tools) goes against each, one after
the other, and the script prints each run's wall time, exit code, retries made (the report's
``retries_made``) and requests the server saw, then the ratio of the times. The goal: the
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from faulty_servers import faulty_server  # noqa: E402  (the test helpers are the servers)

SERVERS = (("correct", "correct", None), ("every third 503", "every_third_503", "0"))
RUN_TIMEOUT = 1800  # seconds; a hung run is a result too, not a hung benchmark


def timed_run(url: str, args: argparse.Namespace, report_dir: Path) -> dict:
    command = [sys.executable, "-m", "conformance", "run", "--target", url, "--profile", args.profile,
               "--seed", str(args.seed), "--report-dir", str(report_dir)]
    if args.tools:
        command += ["--tools", args.tools]
    environment = dict(os.environ)
    if args.source:
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [args.source, environment.get("PYTHONPATH")]))
    started = time.monotonic()
    process = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT, env=environment,
                             stdin=subprocess.DEVNULL)
    seconds = time.monotonic() - started
    report_file = report_dir / "report.json"
    report = json.loads(report_file.read_text()) if report_file.is_file() else {"header": {}, "totals": {}}
    return {"seconds": seconds, "exit": process.returncode, "retries": report["header"].get("retries_made", "?"),
            "totals": report.get("totals", {}), "tail": process.stdout[-600:] + process.stderr[-600:]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="default", choices=("quick", "default", "thorough"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tools", default="", help="ID[@V],... (default: every tool)")
    parser.add_argument("--source", default="", metavar="DIR", help="run the conformance package of this checkout")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-flaky-") as scratch:
        for label, behaviour, retry_after in SERVERS:
            with faulty_server(behaviour, lifetime=RUN_TIMEOUT, retry_after=retry_after) as server:
                run = timed_run(server.url, args, Path(scratch) / behaviour)
                rows.append((label, run, server.requests_seen))
    print(f"profile {args.profile}, seed {args.seed}, tools {args.tools or 'all'}, "
          f"conformance from {args.source or ROOT}")
    print(f"{'server':18} {'seconds':>8} {'exit':>4} {'retries':>8} {'requests':>9}  totals")
    for label, run, requests_seen in rows:
        totals = " ".join(f"{k}={v}" for k, v in run["totals"].items() if v)
        print(f"{label:18} {run['seconds']:8.1f} {run['exit']:>4} {run['retries']!s:>8} {requests_seen:>9}  {totals}")
    correct, flaky = rows[0][1], rows[1][1]
    print(f"ratio flaky / correct: {flaky['seconds'] / correct['seconds']:.2f}x (goal: at most 1.5x)")
    for label, run, _ in rows:
        if run["exit"] != 0:
            print(f"\n{label}: exit {run['exit']}; the run's last words:\n{run['tail']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

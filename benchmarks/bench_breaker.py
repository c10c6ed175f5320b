"""How fast the circuit breaker ends a default run against a target that hangs now and then, per kind.

Run on demand (never in the test suite)::

    python benchmarks/bench_breaker.py [--timeout 10] [--workers 1] [--kinds jsonl,cmd,http,mcp]
                                       [--profile default] [--rare]

For each kind of target that can hang, a target that answers three requests and hangs on the
fourth (tests/faulty_commands.py: a jsonl: command that does so again when restarted, a cmd:
command whose every fourth call hangs; tests/faulty_servers.py and faulty_mcp_servers.py: a
server whose every fourth request hangs, so the retry answers it late) gets a full
``python -m conformance run`` (every tool, the profile's generated cases, --seed 1). The script
prints, per kind: the wall time to the exit, the exit code, who stopped the run and the breaker's
figures from report.json (calls, transport errors, time lost), then the reason's first words.
The goal: exit 3 within 120 s at the default --timeout, for every kind and any --workers.

``--rare`` also runs each kind against a target hanging on one request in 100 (the jsonl: and
cmd: ones with ``--profile quick`` unless --profile says otherwise: a cmd: call starts a Python
process): the run must end with a verdict (exit 0 or 1), never 3.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from faulty_commands import FaultyCommands  # noqa: E402  (the test helpers are the targets)
from faulty_mcp_servers import mcp_server  # noqa: E402
from faulty_servers import faulty_server  # noqa: E402

RUN_TIMEOUT = 3600  # seconds; a run that does not stop is a result too, not a hung benchmark
KINDS = ("jsonl", "cmd", "http", "mcp")


@contextlib.contextmanager
def target(kind: str, every: int, directory: Path):
    """The --target value of a target of ``kind`` hanging on every ``every``-th request."""
    commands = FaultyCommands(directory)
    if kind == "jsonl":
        yield commands.jsonl("after", 3) if every == 4 else commands.jsonl("every", every)
    elif kind == "cmd":
        yield commands.cmd(every, answer="oracle")
    elif kind == "http":
        with faulty_server(f"hang_every_{every}th", lifetime=RUN_TIMEOUT) as server:
            yield server.url
    else:
        with mcp_server(f"hang_every_{every}th") as url:
            yield "mcp+" + url


def timed_run(spec: str, args: argparse.Namespace, profile: str, report_dir: Path) -> dict:
    command = [
        sys.executable,
        "-m",
        "conformance",
        "run",
        "--target",
        spec,
        "--profile",
        profile,
        "--seed",
        "1",
        "--timeout",
        str(args.timeout),
        "--workers",
        str(args.workers),
        "--report-dir",
        str(report_dir),
    ]
    started = time.monotonic()
    try:
        process = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL)
        code = process.returncode
    except subprocess.TimeoutExpired:
        code = None
    seconds = time.monotonic() - started
    report_file = report_dir / "report.json"
    report = json.loads(report_file.read_text(encoding="utf-8")) if report_file.is_file() else {}
    return {"seconds": seconds, "exit": code, "report": report}


def row(kind: str, every: int, run: dict) -> str:
    report = run["report"]
    header = report.get("header", {})
    figures = header.get("breaker", {})
    return (
        f"{kind:6} 1 in {every:<4} {run['seconds']:8.1f} s  exit {run['exit']!s:4} "
        f"{header.get('stopped_by', '-'):10} {figures.get('calls', '?'):>6} calls "
        f"{figures.get('transport_errors', '?'):>5} errors {figures.get('time_lost_s', '?'):>7} s lost  "
        f"{report.get('unhealthy_reason', '')[:90]}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--profile", default=None, help="default: default (and quick for the --rare jsonl/cmd runs)")
    parser.add_argument("--rare", action="store_true", help="also the targets hanging on one request in 100")
    args = parser.parse_args()
    kinds = [kind.strip() for kind in args.kinds.split(",") if kind.strip()]
    print(
        f"--timeout {args.timeout:g} s, --workers {args.workers}: a target hanging on every 4th request"
        + (" and on every 100th" if args.rare else "")
    )
    print(f"{'kind':6} {'hangs':9} {'to exit':>10}  {'':9} {'stopped by':10} breaker figures, reason")
    failures = 0
    with tempfile.TemporaryDirectory(prefix="bench-breaker-") as scratch:
        for every in (4, 100) if args.rare else (4,):
            for kind in kinds:
                directory = Path(scratch) / f"{kind}-{every}"
                profile = args.profile or ("quick" if every == 100 and kind in ("jsonl", "cmd") else "default")
                with target(kind, every, directory) as spec:
                    run = timed_run(spec, args, profile, directory / "out")
                print(row(kind, every, run), flush=True)
                failures += (run["exit"] != 3) if every == 4 else (run["exit"] not in (0, 1))
    print(
        "goal: every 4th -> exit 3 within 120 s; every 100th -> a verdict (0 or 1)"
        f" — {'met' if not failures else f'{failures} run(s) off'}"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

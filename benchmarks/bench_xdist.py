"""A default run against the oracle in one process and spread over two (`-n 0` and `-n 2`), side by side.

    python benchmarks/bench_xdist.py [--repeats N] [--profile default] [--processes 2]

Each repeat runs, alternately, ``conformance run --target oracle -n 0`` and the same with
``-n 2`` (same seed, reports in temporary directories) as whole processes; the fastest wall
time of each, their ratio (goal on 2 cores: at most 0.6) and both runs' counts are printed.
The machine may be shared, so the fastest of each is the fair figure. Run on demand; nothing
here is asserted in the test suite.
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


def timed_run(processes: str, profile: str, seed: int, report_dir: Path) -> tuple[float, int, dict]:
    argv = [
        sys.executable,
        "-m",
        "conformance",
        "run",
        "--target",
        "oracle",
        "--profile",
        profile,
        "--seed",
        str(seed),
        "--report-dir",
        str(report_dir),
        "-n",
        processes,
    ]
    started = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - started
    totals = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))["totals"]
    return elapsed, done.returncode, totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", default="default")
    parser.add_argument("--processes", default="2")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the start")
    variants = ("0", args.processes)
    times: dict[str, list[float]] = {variant: [] for variant in variants}
    with tempfile.TemporaryDirectory() as directory:
        for repeat in range(args.repeats):
            for variant in variants:
                elapsed, code, totals = timed_run(variant, args.profile, args.seed, Path(directory) / variant)
                times[variant].append(elapsed)
                counts = ", ".join(f"{n} {outcome}" for outcome, n in totals.items() if n)
                print(f"repeat {repeat + 1}  -n {variant:4s} {elapsed:6.1f} s  exit {code}  {counts}")
    best = {variant: min(values) for variant, values in times.items()}
    print(
        f"fastest: -n 0 {best['0']:.1f} s, -n {args.processes} {best[args.processes]:.1f} s; "
        f"ratio {best[args.processes] / best['0']:.2f} (goal <= 0.6 on 2 cores)"
    )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()

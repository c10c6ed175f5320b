"""The compatibility matrix run one row at a time and two at a time (`-n 1` and `-n 2`), side by side.

    python benchmarks/bench_matrix.py [--profile quick] [--implementations NAME,...] [--processes 2]

Runs ``conformance matrix -n 1`` and then ``conformance matrix -n 2`` (same profile and seed, reports in
temporary directories) as whole processes, and prints each one's wall time, the sum of its rows' run
times (each row's ``duration_s``), and the ratio of the two wall times (goal on 2 cores: at most 0.6),
with the bound the longest row sets (it cannot be split: wall >= longest row). It also checks that
both matrices are the same apart from timings. The machine may be shared: run it on demand; nothing
here is asserted in the test suite.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed_matrix(processes: str, profile: str, seed: int, implementations: str, report_dir: Path) -> tuple[float, dict]:
    """Wall seconds and the matrix.json of one ``conformance matrix``."""
    argv = [sys.executable, "-m", "conformance", "matrix", "--profile", profile, "--seed", str(seed)]
    argv += ["--report-dir", str(report_dir), "-n", processes]
    if implementations:
        argv += ["--implementations", implementations]
    started = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 3):
        sys.exit(f"conformance matrix -n {processes} exited {done.returncode}")
    return elapsed, json.loads((report_dir / "matrix.json").read_text(encoding="utf-8"))


def without_timings(document: dict) -> dict:
    header = {key: value for key, value in document["header"].items() if key not in ("started", "finished")}
    rows = [{key: value for key, value in row.items() if key != "duration_s"} for row in document["implementations"]]
    return {**document, "header": header, "implementations": rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="quick")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--implementations", default="", metavar="NAME,...", help="default: every one")
    parser.add_argument("--processes", default="2", help="the parallel run's -n (default 2)")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-matrix-") as scratch:
        for processes in ("1", args.processes):
            results[processes] = timed_matrix(
                processes, args.profile, args.seed, args.implementations, Path(scratch) / f"n{processes}"
            )
    for processes, (wall, document) in results.items():
        rows = {row["name"]: row["duration_s"] for row in document["implementations"]}
        longest = max(rows, key=lambda name: rows[name]) if rows else "-"
        print(
            f"-n {processes}: {wall:6.1f} s wall; rows {sum(rows.values()):6.1f} s in all, "
            f"longest {longest} {rows.get(longest, 0):.1f} s"
        )
    (serial, one), (parallel, other) = results["1"], results[args.processes]
    rows_sum = sum(row["duration_s"] for row in one["implementations"])
    longest = max((row["duration_s"] for row in one["implementations"]), default=0.0)
    print(f"ratio -n {args.processes} / -n 1: {parallel / serial:.2f} (goal <= 0.6)")
    print(f"-n {args.processes} wall / sum of the rows' times (-n 1): {parallel / rows_sum:.2f}")
    print(f"bound from the longest row: {longest / serial:.2f}")
    same = without_timings(one) == without_timings(other)
    print("matrices: the same apart from timings" if same else "matrices DIFFER beyond timings")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

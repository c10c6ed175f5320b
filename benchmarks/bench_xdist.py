"""A default run against the oracle in one process and spread over two (`-n 0` and `-n 2`), side by side.

    python benchmarks/bench_xdist.py [--repeats N] [--profile default] [--processes 2]
    python benchmarks/bench_xdist.py --shards 4     # the unsharded run against 4 shards, merged

Each repeat runs, alternately, ``conformance run --target oracle -n 0`` and the same with
``-n 2`` (same seed, reports in temporary directories) as whole processes; the fastest wall
time of each, their ratio (goal on 2 cores: at most 0.6) and both runs' counts are printed, with
where each run's time went: the generated properties of each process (the deal recomputed) and
the rest (interpreters, collection, fixture cases, merging, reports), which bounds the ratio.
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


def timed_run(
    processes: str, profile: str, seed: int, report_dir: Path, extra: tuple[str, ...] = ()
) -> tuple[float, int, dict]:
    """Wall seconds, exit code and report.json document of one run."""
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
        *extra,
    ]
    started = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - started
    return elapsed, done.returncode, json.loads((report_dir / "report.json").read_text(encoding="utf-8"))


def share_seconds(document: dict, processes: int, profile: str) -> list[float]:
    """Seconds of generated properties each process of ``-n processes`` ran: the deal of
    conformance/engine/shards.py recomputed from the run's checks (fixture cases take no recorded time)."""
    from conformance.engine.shards import assign, check_costs

    fixture_ids = (result["case"]["case_id"] for result in document["results"] if result["case"]["origin"] == "fixture")
    properties = ((entry["id"], entry["category"]) for entry in document["properties"])
    shares = assign(check_costs(fixture_ids, properties, profile), processes)
    seconds = [0.0] * processes
    for entry in document["properties"]:
        seconds[shares[entry["id"]] - 1] += entry["duration_ms"] / 1000
    return seconds


def breakdown(variant: str, elapsed: float, document: dict, profile: str) -> str:
    """Where a run's wall time went: its properties (per process under -n) and everything else
    (interpreters, collection, fixture cases, merging, reports)."""
    processes = max(1, int(variant))
    seconds = share_seconds(document, processes, profile)
    shown = " + ".join(f"{value:.1f}" for value in seconds)
    return f"properties {shown} s, the rest {elapsed - max(seconds):.1f} s"


def content(document: dict) -> dict:
    """What a run found, timings aside: totals, each check's outcome and examples, the failure groups."""
    return {
        "totals": document["totals"],
        "results": sorted((r["case"]["case_id"], r["outcome"]) for r in document["results"]),
        "properties": sorted((p["id"], p["outcome"], p["examples"]) for p in document["properties"]),
        "failure_groups": len(document.get("failure_groups") or []),
    }


def shards(total: int, profile: str, seed: int, directory: Path) -> None:
    """The unsharded run, then its ``total`` shards one after another and their merge: wall times, and
    whether the merged report's content is the unsharded one's."""
    whole, code, unsharded = timed_run("0", profile, seed, directory / "whole")
    print(f"unsharded      {whole:6.1f} s  exit {code}")
    walls = []
    for index in range(1, total + 1):
        elapsed, code, _ = timed_run("0", profile, seed, directory / f"shard-{index}", ("--shard", f"{index}/{total}"))
        walls.append(elapsed)
        print(f"shard {index}/{total}    {elapsed:6.1f} s  exit {code}")
    argv = [sys.executable, "-m", "conformance", "merge-reports"]
    argv += [str(directory / f"shard-{index}") for index in range(1, total + 1)]
    started = time.perf_counter()
    subprocess.run([*argv, "--report-dir", str(directory / "merged")], stdout=subprocess.DEVNULL, check=False)
    merging = time.perf_counter() - started
    merged = json.loads((directory / "merged" / "report.json").read_text(encoding="utf-8"))
    print(
        f"shards: slowest {max(walls):.1f} s ({max(walls) / whole:.2f}x of unsharded: the wall time on {total} "
        f"machines), all {sum(walls):.1f} s ({sum(walls) / whole:.2f}x), merge {merging:.1f} s; "
        f"merged content {'equal to' if content(merged) == content(unsharded) else 'DIFFERENT from'} the unsharded run's"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", default="default")
    parser.add_argument("--processes", default="2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shards", type=int, default=0, help="instead: the unsharded run against N shards merged")
    args = parser.parse_args()
    if args.shards:
        with tempfile.TemporaryDirectory() as directory:
            shards(args.shards, args.profile, args.seed, Path(directory))
        return
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the start")
    variants = ("0", args.processes)
    times: dict[str, list[float]] = {variant: [] for variant in variants}
    with tempfile.TemporaryDirectory() as directory:
        for repeat in range(args.repeats):
            for variant in variants:
                elapsed, code, document = timed_run(variant, args.profile, args.seed, Path(directory) / variant)
                times[variant].append(elapsed)
                counts = ", ".join(f"{n} {outcome}" for outcome, n in document["totals"].items() if n)
                where = breakdown(variant, elapsed, document, args.profile)
                print(f"repeat {repeat + 1}  -n {variant:4s} {elapsed:6.1f} s  exit {code}  {counts}  ({where})")
            print(f"repeat {repeat + 1}  ratio {times[args.processes][-1] / times['0'][-1]:.2f}")
    best = {variant: min(values) for variant, values in times.items()}
    print(
        f"fastest: -n 0 {best['0']:.1f} s, -n {args.processes} {best[args.processes]:.1f} s; "
        f"ratio {best[args.processes] / best['0']:.2f} (goal <= 0.6 on 2 cores)"
    )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()

"""One Python implementation (the oracle) through three kinds of target, side by side.

    python benchmarks/bench_targets.py [--seed N] [--cmd-sample N] [--repeats N] [--whole-runs]

The oracle in process (``python:oracle``), behind the line protocol (``jsonl:python -m
conformance.jsonl_oracle``, one process kept) and behind ``conformance exec`` (``cmd:``, one
process per case). The cases are the quick profile's: every input a ``conformance run
--profile quick --seed N`` sends (fixture cases, generated examples, the preflight), recorded
once by running it against an in-process recorder. Each target is timed on ``Target.call``
alone (what the target costs, not what the harness spends generating and judging), the
targets taking turns chunk by chunk so that the shared machine's drifting load falls on each alike:

  * python: and jsonl: on every recorded input, ``--repeats`` times (each chunk's fastest pass kept);
  * all three on a fixed sample of ``--cmd-sample`` inputs spread evenly over the recording (a
    whole quick profile through cmd: takes the better part of an hour on a small machine), from
    which the cmd: time of the whole profile is extrapolated.

Goals: jsonl at least 10x faster than cmd, and within 2x of python:. ``--whole-runs`` also
times whole ``conformance run --profile quick`` runs through python: and jsonl: (everything the
harness does included). Run on demand; nothing here is asserted in the test suite.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shlex
import sys
import tempfile
import time
import types
from typing import Any

import oracle
from conformance.cli import main as conformance_main
from conformance.targets import make_target

PYTHON = shlex.quote(sys.executable)
TARGETS = {
    "python:": "python:oracle",
    "jsonl:": f"jsonl:{PYTHON} -m conformance.jsonl_oracle",
    "cmd:": f"cmd:{PYTHON} -m conformance exec {{tool}}@{{version}}",
}
RECORDER = "_bench_targets_recorder"  # the module name the recording run's python: target imports


def record_quick_profile(seed: int) -> list[tuple[str, str, Any]]:
    """Every (tool, version, input) a quick-profile run sends, in the order it sends them."""
    calls: list[tuple[str, str, Any]] = []

    def execute(tool_id: str, version: str, payload: Any) -> Any:
        calls.append((tool_id, version, payload))
        return oracle.execute(tool_id, version, payload)

    sys.modules[RECORDER] = types.SimpleNamespace(execute=execute)  # what python:MODULE imports
    with tempfile.TemporaryDirectory() as report_dir, contextlib.redirect_stdout(io.StringIO()):
        code = conformance_main(
            [
                "run",
                "--target",
                f"python:{RECORDER}",
                "--profile",
                "quick",
                "--seed",
                str(seed),
                "--report-dir",
                report_dir,
            ]
        )
    if code != 0:
        raise SystemExit(f"the recording run did not pass (exit {code})")
    return calls


def time_interleaved(
    specs: dict[str, str], calls: list[tuple[str, str, Any]], repeats: int, chunks: int = 20
) -> dict[str, float]:
    """Seconds each target takes to answer every call, the targets taking turns chunk by chunk.

    The machine is shared, so its load drifts: the calls are cut into chunks, every target answers
    a chunk in turn, ``repeats`` times, and each target's time is the sum over chunks of its
    fastest pass. Each target answers one call first (a process start, imports), untimed."""
    targets = {name: make_target(spec, timeout=60) for name, spec in specs.items()}
    size = max(1, -(-len(calls) // chunks))
    pieces = [calls[start : start + size] for start in range(0, len(calls), size)]
    try:
        for target in targets.values():
            target.call(*calls[0])
        best = {name: [float("inf")] * len(pieces) for name in targets}
        for _ in range(repeats):
            for index, piece in enumerate(pieces):
                for name, target in targets.items():
                    best[name][index] = min(best[name][index], _answer_all(target, piece))
        return {name: sum(times) for name, times in best.items()}
    finally:
        for target in targets.values():
            target.close()


def _answer_all(target, calls: list[tuple[str, str, Any]]) -> float:
    started = time.perf_counter()
    for tool_id, version, payload in calls:
        response = target.call(tool_id, version, payload)
        if response.kind == "transport_error":
            raise SystemExit(f"{target.spec}: transport error: {response.detail}")
    return time.perf_counter() - started


def whole_run(spec: str, seed: int) -> float:
    with tempfile.TemporaryDirectory() as report_dir, contextlib.redirect_stdout(io.StringIO()):
        started = time.perf_counter()
        code = conformance_main(
            ["run", "--target", spec, "--profile", "quick", "--seed", str(seed), "--report-dir", report_dir]
        )
        elapsed = time.perf_counter() - started
    if code != 0:
        raise SystemExit(f"{spec}: the run did not pass (exit {code})")
    return elapsed


def evenly(calls: list, size: int) -> list:
    step = max(1, len(calls) // size)
    return calls[::step][:size]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cmd-sample", type=int, default=150, help="inputs sent through cmd: (default 150)")
    parser.add_argument("--repeats", type=int, default=3, help="passes over every input (default 3; fastest kept)")
    parser.add_argument("--whole-runs", action="store_true", help="also time whole quick-profile runs")
    args = parser.parse_args()

    calls = record_quick_profile(args.seed)
    sample = evenly(calls, args.cmd_sample)
    sizes = sorted(len(repr(payload)) for _, _, payload in calls)
    print(
        f"quick profile, seed {args.seed}: {len(calls)} inputs (median {sizes[len(sizes) // 2]} chars, "
        f"largest {sizes[-1]:,}); cmd: sample {len(sample)} inputs spread evenly\n"
    )

    full = time_interleaved({name: TARGETS[name] for name in ("python:", "jsonl:")}, calls, args.repeats)
    on_sample = time_interleaved(TARGETS, sample, 1)
    full["cmd:"] = on_sample["cmd:"] / len(sample) * len(calls)  # extrapolated

    print(f"{'target':8s} {'all inputs':>12s} {'per input':>11s} {'sample':>9s}   ratio to python:   ratio to jsonl:")
    for name in TARGETS:
        note = " (extrapolated)" if name == "cmd:" else ""
        print(
            f"{name:8s} {full[name]:10.2f} s {full[name] / len(calls) * 1000:8.2f} ms {on_sample[name]:7.2f} s   "
            f"{full[name] / full['python:']:9.2f}x {full[name] / full['jsonl:']:15.2f}x{note}"
        )
    print(f"\njsonl: vs cmd: on the same sample: {on_sample['cmd:'] / on_sample['jsonl:']:.1f}x faster (goal >= 10x)")
    print(f"jsonl: vs python: on every input: {full['jsonl:'] / full['python:']:.2f}x the time (goal <= 2x)")

    if args.whole_runs:
        runs = {name: whole_run(TARGETS[name], args.seed) for name in ("python:", "jsonl:")}
        print(f"\nwhole `conformance run --profile quick --seed {args.seed}` (generation, judging, reports included):")
        for name, seconds in runs.items():
            print(f"{name:8s} {seconds:8.2f} s   ratio to python: {seconds / runs['python:']:.2f}x")


if __name__ == "__main__":
    main()

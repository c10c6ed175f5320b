"""Start-up of `conformance exec` against the oracle alone, as whole processes, side by side.

    python benchmarks/bench_startup.py [--repeats N]

A ``cmd:`` target starts ``conformance exec`` once per case, so its start-up is paid per
case. Each repeat runs, alternately, ``python -c "import oracle"`` and ``python -m
conformance exec bleu-corpus-compute@1.0.0`` on a small input; the medians and their ratio
are printed (goal: exec within 1.5x of the oracle import). Run on demand; nothing here is
asserted in the test suite.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

INPUT = json.dumps({"hypotheses": [["the", "cat"]], "references": [[["the", "cat"]]]}).encode()
COMMANDS = {
    "python -c 'import oracle'": ([sys.executable, "-c", "import oracle"], b""),
    "conformance exec": ([sys.executable, "-m", "conformance", "exec", "bleu-corpus-compute@1.0.0"], INPUT),
}


def wall_time(argv: list[str], stdin: bytes) -> float:
    started = time.perf_counter()
    subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for name, (argv, stdin) in COMMANDS.items():  # warm the file cache once
        wall_time(argv, stdin)
    for _ in range(args.repeats):
        for name, (argv, stdin) in COMMANDS.items():
            times[name].append(wall_time(argv, stdin))
    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians["python -c 'import oracle'"]
    for name, median in medians.items():
        print(f"{name:28s} median {median * 1000:7.1f} ms   ratio {median / base:4.2f}")


if __name__ == "__main__":
    main()

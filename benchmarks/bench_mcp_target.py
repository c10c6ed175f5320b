"""The MCP target beside the HTTP target, against one `conformance serve`: the same run, twice.

Run on demand (never in the test suite)::

    python benchmarks/bench_mcp_target.py [--tools bleu-corpus-compute] [--profile quick] [--workers 1]

It starts ``python -m conformance serve --port 0`` on loopback, then runs ``conformance
run`` with the same seed, tools, profile and workers against ``http://HOST:PORT`` and
against ``mcp+http://HOST:PORT/mcp``, each as a fresh process (start-up included, as a
user sees it), and prints the wall time of each, their ratio, and the cases run.
It also sends the largest answer of the MCP tests (115 segments of bleu-ngrams-count
with detail "ngrams") through both targets and prints the answer sizes and times.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from faulty_servers import oracle_server  # noqa: E402  (the tests' own start-up of `conformance serve`)


def timed_run(target: str, options: list[str]) -> tuple[float, int, dict]:
    with tempfile.TemporaryDirectory() as report_dir:
        started = time.monotonic()
        process = subprocess.run(
            [sys.executable, "-m", "conformance", "run", "--target", target, "--report-dir", report_dir, *options],
            capture_output=True,
            text=True,
        )
        elapsed = time.monotonic() - started
        report = json.loads((Path(report_dir) / "report.json").read_text())
    return elapsed, process.returncode, report["totals"]


def big_answer(target_spec: str) -> tuple[float, int]:
    from conformance.targets import make_target

    hypothesis = [f"w{i}" for i in range(12)]
    payload = {"hypotheses": [hypothesis] * 115, "references": [[hypothesis]] * 115, "detail": "ngrams"}
    target = make_target(target_spec, timeout=60)
    try:
        target.call("bleu-ngrams-count", "1.0.0", {"hypotheses": [["a"]], "references": [[["a"]]]})  # connect
        started = time.monotonic()
        response = target.call("bleu-ngrams-count", "1.0.0", payload)
        elapsed = time.monotonic() - started
    finally:
        target.close()
    assert response.kind == "result", response.detail
    return elapsed, len(json.dumps(response.result, separators=(",", ":")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", default="bleu-corpus-compute")
    parser.add_argument("--profile", default="quick")
    parser.add_argument("--workers", default="1")
    parser.add_argument("--seed", default="1")
    args = parser.parse_args()
    options = ["--tools", args.tools, "--profile", args.profile, "--workers", args.workers, "--seed", args.seed]
    with oracle_server() as (url, _process, _log):
        rows = [(name, *timed_run(spec, options)) for name, spec in (("http", url), ("mcp", f"mcp+{url}/mcp"))]
        answers = [(name, *big_answer(spec)) for name, spec in (("http", url), ("mcp", f"mcp+{url}/mcp"))]
    print(f"conformance run {' '.join(options)} against one conformance serve")
    print(f"{'target':8}{'seconds':>10}{'exit':>6}  totals")
    for name, seconds, exit_code, totals in rows:
        print(f"{name:8}{seconds:10.1f}{exit_code:6}  {totals}")
    print(f"mcp / http: {rows[1][1] / rows[0][1]:.2f}x")
    print("one bleu-ngrams-count answer of 115 segments, detail ngrams (after a first call has connected):")
    for name, seconds, size in answers:
        print(f"{name:8}{seconds:10.3f} s  {size} bytes of output")
    print(f"mcp / http: {answers[1][1] / answers[0][1]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

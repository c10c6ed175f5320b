"""Load on `conformance serve`: concurrent clients sending maximum-size inputs.

Run on demand (never in the test suite)::

    python benchmarks/load_server.py [--clients 4] [--requests 200] [--max-seconds 120]

It starts ``python -m conformance serve --port 0`` on loopback, warms it up, then
``--clients`` threads (one keep-alive connection each) send ``--requests`` inputs in
all, round-robin over the three tools at their largest legal size:

    bleu-corpus-compute, bleu-ngrams-count   1000 segments x (1 hypothesis + 4 references)
                                             x 10 tokens = 50,000 tokens (max_total_tokens,
                                             counting references too: A1-safe)
    chrf-plus-plus-compute                   256 segments, hypothesis + reference texts of
                                             128 bytes = 65,536 bytes (max_text_bytes)

A prober hits /healthz every 0.2 s meanwhile. It prints requests/s, p50/p99 latency
per tool, the slowest health check, every error, and the resident memory of the
server and its worker processes together (after warm-up, the sum of per-process
peaks, at the end: "flat" means the end is close to after-warm-up).
Loopback only; bounded by --requests and --max-seconds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

TOOL_PATH = "/v1/tools/{}/versions/1.0.0/execute"


def bleu_input(rng: random.Random) -> dict:
    vocabulary = [f"w{i}" for i in range(300)]
    tokens = lambda: [rng.choice(vocabulary) for _ in range(10)]  # noqa: E731
    return {
        "hypotheses": [tokens() for _ in range(1000)],
        "references": [[tokens() for _ in range(4)] for _ in range(1000)],
    }


def chrf_input(rng: random.Random) -> dict:
    words = ["the", "cat", "sat", "on", "a", "mat", "(hi)", "naïve", "dog!", "..."]

    def text() -> str:  # words while they fit, padded with "x" to exactly 128 UTF-8 bytes
        out = rng.choice(words)
        while len((candidate := out + " " + rng.choice(words)).encode()) <= 120:
            out = candidate
        return out + " " + "x" * (127 - len(out.encode()))

    return {"hypotheses": [text() for _ in range(256)], "references": [text() for _ in range(256)], "lowercase": True}


def memory_kib(pid: int) -> dict[str, int]:
    """Resident memory (now, and peak per process) of the server and its worker processes, summed."""
    total = {"VmRSS": 0, "VmHWM": 0}
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    for process in [pid, *map(int, children)]:
        try:
            status = Path(f"/proc/{process}/status").read_text()
        except FileNotFoundError:  # a worker that just ended
            continue
        for key in total:
            total[key] += int(re.search(rf"{key}:\s+(\d+)", status).group(1))
    return total


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--max-seconds", type=float, default=120.0)
    parser.add_argument("--workers", type=int, default=None, help="the server's --workers (default: its own)")
    args = parser.parse_args()

    rng = random.Random(2017)
    bodies = {
        "bleu-corpus-compute": json.dumps(bleu_input(rng)).encode(),
        "bleu-ngrams-count": json.dumps({**bleu_input(rng), "detail": "segments"}).encode(),
        "chrf-plus-plus-compute": json.dumps(chrf_input(rng), ensure_ascii=False).encode(),
    }
    workers = ["--workers", str(args.workers)] if args.workers else []
    server = subprocess.Popen(
        [sys.executable, "-m", "conformance", "serve", "--port", "0", "--log-level", "warning", *workers],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        server_line = server.stdout.readline()
        base = re.search(r"(http://\S+)", server_line).group(1)
        with requests.Session() as warm:
            for tool, body in bodies.items():  # warm-up: imports, caches, first allocations
                assert (
                    warm.post(
                        base + TOOL_PATH.format(tool), data=body, headers={"Content-Type": "application/json"}
                    ).status_code
                    == 200
                ), tool
        memory_after_warmup = memory_kib(server.pid)

        schedule = itertools.islice(itertools.cycle(bodies), args.requests)
        lock = threading.Lock()
        latencies: dict[str, list[float]] = {tool: [] for tool in bodies}
        errors: list[str] = []
        health: list[float] = []
        rss_samples: list[int] = []
        deadline = time.monotonic() + args.max_seconds
        done = threading.Event()

        def client() -> None:
            with requests.Session() as http:
                while time.monotonic() < deadline:
                    with lock:
                        tool = next(schedule, None)
                    if tool is None:
                        return
                    started = time.monotonic()
                    try:
                        response = http.post(
                            base + TOOL_PATH.format(tool),
                            data=bodies[tool],
                            timeout=60,
                            headers={"Content-Type": "application/json"},
                        )
                        ok = response.status_code == 200 and "result" in response.json()
                        problem = "" if ok else f"{tool}: HTTP {response.status_code} {response.text[:200]}"
                    except (requests.RequestException, ValueError) as exc:
                        problem = f"{tool}: {type(exc).__name__}: {str(exc)[:200]}"
                    with lock:
                        latencies[tool].append(time.monotonic() - started)
                        if problem:
                            errors.append(problem)

        def prober() -> None:
            with requests.Session() as http:
                while not done.wait(0.2):
                    started = time.monotonic()
                    try:
                        http.get(base + "/healthz", timeout=30).raise_for_status()
                        health.append(time.monotonic() - started)
                    except requests.RequestException as exc:
                        errors.append(f"healthz: {exc}")
                    rss_samples.append(memory_kib(server.pid)["VmRSS"])

        started = time.monotonic()
        workers = [threading.Thread(target=client) for _ in range(args.clients)]
        probe = threading.Thread(target=prober)
        probe.start()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        elapsed = time.monotonic() - started
        done.set()
        probe.join()
        memory_end = memory_kib(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)

    total = sum(len(values) for values in latencies.values())
    print(
        f"conformance serve under load ({server_line.split('listening on ')[-1].strip()}): {args.clients} clients, {total} requests in {elapsed:.1f} s "
        f"= {total / elapsed:.2f} requests/s"
    )
    print("request bodies: " + ", ".join(f"{tool} {len(body) / 1024:.0f} KiB" for tool, body in bodies.items()))
    for tool, values in latencies.items():
        if values:
            print(
                f"  {tool:24s} n={len(values):4d}  p50 {statistics.median(values) * 1000:7.0f} ms  "
                f"p99 {percentile(values, 0.99) * 1000:7.0f} ms  max {max(values) * 1000:7.0f} ms"
            )
    everything = [value for values in latencies.values() for value in values]
    print(
        f"  {'all':24s} n={len(everything):4d}  p50 {statistics.median(everything) * 1000:7.0f} ms  "
        f"p99 {percentile(everything, 0.99) * 1000:7.0f} ms"
    )
    if health:
        print(
            f"/healthz during the load: {len(health)} probes, p50 {statistics.median(health) * 1000:.0f} ms, "
            f"slowest {max(health) * 1000:.0f} ms"
        )
    print(
        f"server + workers memory (RSS): after warm-up {memory_after_warmup['VmRSS'] / 1024:.0f} MiB, "
        f"peak {memory_end['VmHWM'] / 1024:.0f} MiB, at the end {memory_end['VmRSS'] / 1024:.0f} MiB"
        + (
            f"; sampled over the run: min {min(rss_samples) / 1024:.0f}, max {max(rss_samples) / 1024:.0f} MiB"
            if rss_samples
            else ""
        )
    )
    print(f"errors: {len(errors)}")
    for problem in errors[:20]:
        print("  " + problem)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

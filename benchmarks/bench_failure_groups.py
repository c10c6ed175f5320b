"""What grouping failures by cause costs a report, side by side with building the rest of it.

    python benchmarks/bench_failure_groups.py [--failures N] [--repeats R]

Judges N failing cases of tests/faulty_causes/nltk_like.py (NLTK's own corpus_bleu and max(1, l_n)
totals: every failure names a catalogued divergence, so each one calls NLTK again),
half small inputs and half of 200 segments, then times, per repeat: the report.json document
without its groups (json_safe of the record), the failure groups alone (explain: clause,
divergence models), and the markdown and HTML renderings. Prints the medians and the ratio
groups / document. Run on demand; nothing here is asserted in the test suite.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the project, and its faulty implementations

from faulty_causes.nltk_like import execute as nltk_like  # noqa: E402

import oracle  # noqa: E402
from conformance.compare import check  # noqa: E402
from conformance.model import Case, CaseResult, Expectation, RunRecord, TargetResponse  # noqa: E402
from conformance.reports import build_header, render_html, render_markdown, utc_timestamp  # noqa: E402
from conformance.reports.document import json_safe, problem_results, totals  # noqa: E402
from conformance.reports.groups import failure_groups  # noqa: E402

TOOL, VERSION = "bleu-corpus-compute", "1.0.0"
WORDS = ["a", "b", "c", "d"]


def failing_input(rng: random.Random, segments: int) -> dict:
    """Short hypotheses (some empty) against longer references: NLTK's floors show."""
    hypotheses = [[rng.choice(WORDS) for _ in range(rng.randint(0, 3))] for _ in range(segments)]
    references = [[[rng.choice(WORDS) for _ in range(rng.randint(2, 6))]] for _ in range(segments)]
    return {"hypotheses": hypotheses, "references": references}


def record(failures: int, seed: int) -> RunRecord:
    rng = random.Random(seed)
    results = []
    while len(results) < failures:
        payload = failing_input(rng, 1 if len(results) % 2 else 200)
        case = Case(
            TOOL,
            VERSION,
            f"generated/{TOOL}/valid/bench/{len(results)}",
            "generated",
            "valid",
            payload,
            Expectation("output"),
        )
        response = TargetResponse("result", result=nltk_like(TOOL, VERSION, payload))
        verdict = check(case, response)
        if verdict.outcome == "failed":
            results.append(
                CaseResult(
                    case,
                    "failed",
                    verdict.message,
                    verdict.mismatch,
                    response,
                    expected=oracle.execute(TOOL, VERSION, payload),
                )
            )
    header = build_header(
        target="python:nltk_like",
        contracts=[f"{TOOL}@{VERSION}"],
        seed=seed,
        profile="quick",
        started=utc_timestamp(),
        finished=utc_timestamp(),
        command="bench",
    )
    return RunRecord(header, results, exit_code=1)


def timed(function, repeats: int) -> tuple[float, object]:
    times, value = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--failures", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    run = record(args.failures, seed=1)

    def document_without_groups() -> dict:
        data = run.to_dict()
        return json_safe({"header": data.pop("header"), "totals": totals(data), **data})

    document_s, document = timed(document_without_groups, args.repeats)
    groups_s, groups = timed(lambda: failure_groups(problem_results(document)), args.repeats)
    document["failure_groups"] = json_safe(groups)
    markdown_s, _ = timed(lambda: render_markdown(document), args.repeats)
    html_s, _ = timed(lambda: render_html(document), args.repeats)
    print(
        f"{args.failures} failures of an NLTK-like target, {len(groups)} groups "
        f"({', '.join(str(g['count']) for g in groups)} members), median of {args.repeats}:"
    )
    print(f"  report.json document without groups  {document_s * 1000:9.1f} ms")
    print(
        f"  failure groups                        {groups_s * 1000:9.1f} ms   "
        f"({groups_s / document_s:.2f}x the document, {groups_s / args.failures * 1000:.2f} ms a failure)"
    )
    print(f"  report.md / report.html               {markdown_s * 1000:9.1f} ms / {html_s * 1000:.1f} ms")


if __name__ == "__main__":
    main()

"""Render matrix.html in a real headless browser and check what a reader gets.

    python benchmarks/check_matrix_html.py                          # a small hand-built matrix
    python benchmarks/check_matrix_html.py --report-dir reports/compatibility

Loads matrix.html in headless Chromium (Debian: ``apt-get install chromium``) and checks the DOM the
browser built against the matrix.json beside it: one table cell per implementation x tool, each
with its summary ("conformant", "N failure groups", "not applicable", "not run"), every failure
group's title and every not-applicable cause on the page, a hostile cause shown as text, and no
element that loads or runs anything. Exit 0 when all checks hold, 1 otherwise, 2 when no browser
is installed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from check_report_html import HOSTILE, NO_BROWSER, DomSummary, find_browser, rendered_dom  # noqa: E402

from conformance.matrix.document import cell_summary, validate  # noqa: E402
from conformance.matrix.views import write_views  # noqa: E402

LOADING = {"script", "img", "iframe", "link", "object", "embed", "video", "audio", "source"}


def sample_document() -> dict:
    """Two implementations x two tools: one cell of each status, a failure group, a hostile cause."""
    group = {
        "title": "bleu-x@1.0.0 · /totals/* · wrong value",
        "kind": "wrong value",
        "pointer_class": "/totals/*",
        "clause": {
            "tool": "bleu-x@1.0.0",
            "kind": "semantics",
            "number": 3,
            "name": None,
            "text": "totals[n-1] sums max(0, len - n + 1)",
        },
        "divergence": {"id": "lib-denominator", "explanation": "looks like lib: 1 instead of 0"},
        "count": 4,
        "smallest": {"hypotheses": [["a\u00a0b"]]},
        "smallest_case": "x",
        "difference": {"pointer": "/totals/0", "expected": 0, "actual": 1},
    }

    def cell(implementation, tool, status, passed=0, failed=0, na=0, groups=(), causes=(), judged=(), absent=()):
        return {
            "implementation": implementation,
            "tool": tool,
            "status": status,
            "counts": {"passed": passed, "failed": failed, "not_applicable": na},
            "not_applicable": [{"cause": c, "checks": 1, "examples": 2} for c in causes],
            "failure_groups": list(groups),
            "judged_fields": list(judged),
            "not_expressed": list(absent),
        }

    row = {
        "language": "Python",
        "distribution": "d",
        "version": "1.0",
        "counterpart": "f()",
        "installed": True,
        "exit_code": 1,
        "report": "runs/a/report.json",
        "duration_s": 1.0,
    }
    return validate(
        {
            "header": {
                "suite_version": "0.1.0",
                "profile": "quick",
                "seed": 0,
                "started": "s",
                "finished": "f",
                "command": "conformance matrix",
            },
            "tools": ["bleu-x@1.0.0", "chrf-y@1.0.0"],
            "implementations": [
                {"name": "a", **row},
                {"name": "b", **row, "installed": False, "exit_code": None, "report": "", "version": ""},
            ],
            "cells": [
                cell("a", "bleu-x@1.0.0", "failing", 3, 4, 1, [group], ["decimals: none"]),
                cell("a", "chrf-y@1.0.0", "not_applicable", causes=[HOSTILE]),
                cell("b", "bleu-x@1.0.0", "not_run", causes=["not installed: b"]),
                cell(
                    "b", "chrf-y@1.0.0", "conformant", 5, judged=["score", "segment_scores"], absent=["score_fraction"]
                ),
            ],
        }
    )


def check_dom(dom: str, document: dict) -> list[str]:
    summary = DomSummary()
    summary.feed(dom)
    text = "".join(summary.text)
    problems = []
    cells = [
        attrs
        for tag, attrs in summary.tags
        if tag == "td" and attrs.get("class") in ("conformant", "failing", "not_applicable", "not_run")
    ]
    wanted = len(document["implementations"]) * len(document["tools"])
    if len(cells) != wanted:
        problems.append(f"{len(cells)} matrix cells on the page, {wanted} in matrix.json")
    needles = [cell_summary(cell) for cell in document["cells"]]
    needles += [group["title"] for cell in document["cells"] for group in cell["failure_groups"]]
    needles += [na["cause"] for cell in document["cells"] for na in cell["not_applicable"]]
    problems += [f"missing on the page: {needle!r}" for needle in needles if needle not in text]
    loading = sorted({tag for tag, _ in summary.tags} & LOADING)
    if loading:
        problems.append(f"elements that load or run something: {loading}")
    if summary.title != "Compatibility matrix":
        problems.append(f"page title {summary.title!r}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report-dir", type=Path, help="check this matrix's matrix.html against its matrix.json")
    args = parser.parse_args(argv)
    browser = find_browser()
    if browser is None:
        print(NO_BROWSER, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        if args.report_dir:
            page = args.report_dir / "matrix.html"
            document = json.loads((args.report_dir / "matrix.json").read_text(encoding="utf-8"))
        else:
            document = sample_document()
            write_views(document, Path(scratch))
            page = Path(scratch) / "matrix.html"
        dom = rendered_dom(browser, page)
    if dom is None:
        return 1
    problems = check_dom(dom, document)
    for problem in problems:
        print(f"PROBLEM: {problem}")
    print(
        f"{page}: {len(document['cells'])} cells, "
        + ("all checks hold" if not problems else f"{len(problems)} problem(s)")
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

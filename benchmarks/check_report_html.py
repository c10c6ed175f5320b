"""Render a sample report.html in a real headless browser and check what a reader gets.

    python benchmarks/check_report_html.py [--screenshot report.png] [--keep DIR]
    python benchmarks/check_report_html.py --report-dir reports/latest

Writes the four reports of a small hand-built run (failures with a float delta, a
no-break space, hostile markup from the target, a transport error), loads report.html
in headless Chromium (Debian: ``apt-get install chromium``) and checks the DOM the
browser built: every failure is there in its own <details>, the target's markup is
text rather than elements, no element loads anything, and the numbers and code points
a person needs are on the page. Exit 0 when all checks hold, 1 otherwise, 2 when no
browser is installed. ``--screenshot`` also saves a PNG to look at. ``--report-dir``
checks the report of a real run instead: each failure's case id is on the page, in
its own <details>, and nothing on the page loads or runs anything.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from conformance.model import Case, CaseResult, Expectation, Mismatch, RunRecord, TargetResponse  # noqa: E402
from conformance.reports import write_reports  # noqa: E402
from conformance.reports.text import MAX_DETAILED_FAILURES, visible  # noqa: E402

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
# Run as root in a container: no sandbox, no GPU, no network chatter, /tmp instead of a small /dev/shm.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--hide-scrollbars",
]
HOSTILE = "<script>document.title='pwned'</script><img src=x onerror=alert(1)>"


def sample_record() -> RunRecord:
    def case(tool, case_id, origin="fixture", category="valid", input=None, expect=None):
        return Case(
            tool,
            "1.0.0",
            case_id,
            origin,
            category,
            input or {"hypotheses": [["a"]], "references": [[["a"]]]},
            expect or Expectation("output"),
            seed=7 if origin == "generated" else None,
        )

    # bleu = (1/24) ** 0.25 = 0.4518010018049224 for matches 4,1,1,1 of totals 4,2,3,4; the target drops digits.
    expected_bleu = {
        "bleu": 0.4518010018049224,
        "brevity_penalty": 1,
        "candidate_length": 4,
        "reference_length": 4,
        "max_order": 4,
        "matches": [4, 1, 1, 1],
        "totals": [4, 2, 3, 4],
    }
    results = [
        CaseResult(case("bleu-corpus-compute", "bleu-corpus-compute/1.0.0/basics#identity"), "passed"),
        CaseResult(
            case("bleu-corpus-compute", "generated/bleu-corpus-compute/valid/4", "generated"),
            "failed",
            "bleu differs beyond the tolerance",
            Mismatch(
                "/bleu", 0.4518010018049224, 0.4518010018, "bleu differs beyond the tolerance", 1.8049224e-11, 4.4e-16
            ),
            TargetResponse("result", dict(expected_bleu, bleu=0.4518010018), 200),
            expected_bleu,
            replay="conformance replay reports/latest/cases/bleu-4.json",
            curl="curl -sS -X POST http://127.0.0.1:8000/v1/tools/bleu-corpus-compute/versions/1.0.0/execute -d @reports/latest/cases/bleu-4.json",
            reproducer_file="reports/latest/cases/bleu-4.json",
        ),
        CaseResult(
            case(
                "chrf-plus-plus-compute",
                "chrf-plus-plus-compute/1.0.0/whitespace#nbsp",
                input={"hypotheses": ["a\u00a0b"], "references": ["a b"]},
            ),
            "failed",
            "word_tokens differ",
            Mismatch("/word_tokens/0/hypothesis", ["a\u00a0b"], ["a", "b"], "word_tokens differ"),
            TargetResponse("result", {"word_tokens": [{"hypothesis": ["a", "b"], "reference": ["a", "b"]}]}, 200),
            {"word_tokens": [{"hypothesis": ["a\u00a0b"], "reference": ["a", "b"]}]},
        ),
        CaseResult(
            case("chrf-plus-plus-compute", "generated/chrf-plus-plus-compute/valid/9", "generated"),
            "failed",
            "metric differs",
            Mismatch("/metric", "chrF++", HOSTILE, "metric differs"),
            TargetResponse("result", {"metric": HOSTILE}, 200, raw=HOSTILE),
            {"metric": "chrF++"},
        ),
        CaseResult(
            case("bleu-ngrams-count", "bleu-ngrams-count/1.0.0/limits#segments", category="boundary"),
            "errored",
            "timed out after 10 s",
            response=TargetResponse("transport_error", detail="timed out after 10 s", raw=HOSTILE),
        ),
        CaseResult(
            case(
                "bleu-ngrams-count",
                "bleu-ngrams-count/1.0.0/basics#one",
                category="invalid",
                expect=Expectation("error", "any"),
            ),
            "xfailed",
            known_failure_reason="issue 4",
        ),
    ]
    header = {
        "suite_version": "0.1.0",
        "contracts": ["bleu-corpus-compute@1.0.0", "bleu-ngrams-count@1.0.0", "chrf-plus-plus-compute@1.0.0"],
        "target": "http://127.0.0.1:8000",
        "seed": 7,
        "profile": "quick",
        "started": "2026-11-30T09:00:00.000Z",
        "finished": "2026-11-30T09:00:03.000Z",
        "python": "3.11",
        "platform": "Linux",
        "command": "conformance run --target http://127.0.0.1:8000",
        "strict": False,
        "retries": 0,
    }
    properties = [
        {"tool_id": "bleu-corpus-compute", "version": "1.0.0", "family": "valid", "examples": 50, "outcome": "failed"}
    ]
    return RunRecord(header, results, properties, exit_code=1)


# What the page must show: each failure's case id, the numbers and the code points.
EXPECTED_TEXT = [
    "NOT CONFORMANT",
    "generated/bleu-corpus-compute/valid/4",
    "chrf-plus-plus-compute/1.0.0/whitespace#nbsp",
    "generated/chrf-plus-plus-compute/valid/9",
    "bleu-ngrams-count/1.0.0/limits#segments",
    "|expected − actual| = 1.8e-11, tolerance 4.4e-16 (41,021× the tolerance)",
    '"a⟨U+00A0⟩b"',
    "conformance replay reports/latest/cases/bleu-4.json",
    HOSTILE.replace(" ", "␣"),  # the target's markup, shown as text
]
FAILURES = 4


class DomSummary(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        self.text.append(data)
        if self._in_title:
            self.title += data


def find_browser() -> str | None:
    return next((shutil.which(name) for name in BROWSERS if shutil.which(name)), None)


def run_browser(browser: str, page: Path, *extra: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [browser, *FLAGS, f"--user-data-dir={profile}", *extra, page.as_uri()],
            capture_output=True,
            text=True,
            timeout=90,
        )


NO_BROWSER = "no chromium on PATH (apt-get install chromium)"


def rendered_dom(browser: str, page: Path) -> str | None:
    """The page's DOM as headless Chromium renders it, or None (why printed on stderr): both checks' one call."""
    dumped = run_browser(browser, page.resolve(), "--dump-dom")
    if dumped.returncode != 0 or "<html" not in dumped.stdout:
        print(f"{browser} failed (exit {dumped.returncode}): {dumped.stderr[-2000:]}", file=sys.stderr)
        return None
    return dumped.stdout


def check_dom(dom: str, expected_text: list[str], failures: int) -> list[str]:
    """Problems with the DOM the browser built; empty when the page is right."""
    summary = DomSummary()
    summary.feed(dom)
    text = "".join(summary.text)
    problems = [f"missing on the page: {needle!r}" for needle in expected_text if needle not in text]
    tags = [tag for tag, _ in summary.tags]
    if tags.count("details") != failures:
        problems.append(f"expected {failures} <details>, found {tags.count('details')}")
    for forbidden in ("script", "img", "link", "iframe", "object", "embed"):
        if forbidden in tags:
            problems.append(f"the page has a <{forbidden}> element: target markup was not escaped")
    loaders = [
        (tag, key) for tag, attrs in summary.tags for key in attrs if key in ("src", "href") or key.startswith("on")
    ]
    if loaders:
        problems.append(f"elements that load or run something: {loaders}")
    if "pwned" in summary.title:
        problems.append("the target's script ran (it changed the title)")
    if "h1" not in tags:
        problems.append("no heading: the page did not render")
    return problems


def expectations_of(report_dir: Path) -> tuple[list[str], int]:
    """For a report written by a real run: every detailed failure's case id, and how many there are."""
    document = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    strict = bool(document["header"].get("strict"))
    problems = [
        result["case"]["case_id"]
        for result in document["results"]
        if result["outcome"] in ("failed", "errored") or (strict and result["outcome"] == "fixed")
    ][:MAX_DETAILED_FAILURES]
    return [visible(case_id, spaces=False) for case_id in problems], len(problems)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--screenshot", type=Path, help="also save a PNG of the page")
    parser.add_argument("--keep", type=Path, help="write the sample reports here instead of a temporary directory")
    parser.add_argument("--report-dir", type=Path, help="check this run's report.html against its report.json instead")
    args = parser.parse_args(argv)
    browser = find_browser()
    if browser is None:
        print(NO_BROWSER, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        if args.report_dir:
            page = args.report_dir / "report.html"
            expected_text, failures = expectations_of(args.report_dir)
        else:
            page = write_reports(sample_record(), args.keep or Path(scratch))["html"]
            expected_text, failures = EXPECTED_TEXT, FAILURES
        dom = rendered_dom(browser, page)
        if dom is None:
            return 1
        problems = check_dom(dom, expected_text, failures)
        if args.screenshot:
            shot = run_browser(
                browser, page.resolve(), "--window-size=1280,3000", f"--screenshot={args.screenshot.resolve()}"
            )
            if shot.returncode != 0 or not args.screenshot.exists():
                problems.append(f"no screenshot (exit {shot.returncode}): {shot.stderr[-500:]}")
    for problem in problems:
        print("FAIL", problem)
    if not problems:
        print(
            f"{page.name} renders in {Path(browser).name}: {failures} failures shown, "
            f"{len(expected_text)} expected texts found, no active content"
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

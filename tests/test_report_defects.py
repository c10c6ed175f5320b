"""Defects a new user found in the reports, each checked on report.md and report.html.

Records are built by hand (as in test_reports.py) or by a small run in this process; every
expected text is written out here from what a person should read, never copied from the code.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from conformance import reports
from conformance.model import Case, Expectation, RunRecord, TargetResponse

BLEU = "bleu-corpus-compute"
NGRAMS = "bleu-ngrams-count"


def header(**changes) -> dict:
    """A header with every key a run writes (engine/session.py), values chosen here."""
    base = {
        "suite_version": "0.1.0",
        "contracts": [f"{BLEU}@1.0.0"],
        "contract_digests": {f"{BLEU}@1.0.0": "sha256:" + "0" * 64},
        "target": "http://127.0.0.1:8000",
        "seed": 7,
        "profile": "quick",
        "started": "2026-11-30T09:00:00.000Z",
        "finished": "2026-11-30T09:00:10.000Z",
        "python": "3.11.7",
        "platform": "Linux-x86_64",
        "command": "conformance run --target http://127.0.0.1:8000",
        "strict": False,
        "retries": 2,
        "retries_made": 5,
        "breaker": {
            "calls": 10,
            "transport_errors": 0,
            "server_errors": 0,
            "window_calls": 10,
            "window_transport_errors": 0,
            "time_lost_s": 0.0,
            "time_budget_s": 60.0,
            "time_budget_left_s": 60.0,
        },
        "largest_bodies": {f"{BLEU}@1.0.0": {"sent": 100, "bound": 1000}},
        "examples_per_family": {"valid": 8, "boundary": 3, "invalid": 6},
        "timeout_s": 10.0,
        "workers": 1,
        "not_served": [],
        "max_failures_per_property": 3,
        "hypothesis": "6.0.0",
        "pytest": "9.0.0",
    }
    base.update(changes)
    return base


def case(case_id: str, *, tool: str = BLEU, input=None, origin: str = "fixture") -> Case:
    return Case(
        tool_id=tool,
        version="1.0.0",
        case_id=case_id,
        origin=origin,
        category="valid",
        input=input if input is not None else {"hypotheses": [["a"]], "references": [[["a"]]]},
        expect=Expectation("output"),
    )


def answered(result) -> TargetResponse:
    return TargetResponse(kind="result", result=result, status=200, raw=json.dumps(result))


def written(tmp_path: Path, record: RunRecord) -> tuple[str, str]:
    """(report.md, report.html) of a record."""
    paths = reports.write_reports(record, tmp_path)
    return paths["markdown"].read_text(encoding="utf-8"), paths["html"].read_text(encoding="utf-8")


class RunTable(HTMLParser):
    """The rows of report.html's run table, as (label, value) text."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.inside = False
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        if tag == "table" and ("class", "run") in attrs:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag == "td":
            self.rows[-1].append("")

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False

    def handle_data(self, data):
        if self.inside and self.rows and self.rows[-1]:
            self.rows[-1][-1] += data


def markdown_run_rows(markdown: str) -> list[tuple[str, str]]:
    section = markdown.split("## Run\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        match = re.fullmatch(r"\| (.*?) \| `(.*)` \|", line)
        if match:
            rows.append((match.group(1), match.group(2)))
    return rows


# ---------------------------------------------------------------- the header in words


def test_the_run_header_is_in_words_without_empty_rows_and_one_row_on_retries(tmp_path):
    markdown, html = written(tmp_path, RunRecord(header=header(), exit_code=0))
    parser = RunTable()
    parser.feed(html)
    html_rows = [tuple(row) for row in parser.rows]
    md_rows = markdown_run_rows(markdown)
    assert md_rows and html_rows
    for rows in (md_rows, html_rows):
        labels = [label for label, _ in rows]
        # no key names: words only (a key name is lower_case with an underscore)
        assert not [label for label in labels if re.search(r"[a-z]_[a-z]", label)], labels
        # no tool is not served: no row saying so, and no row without a value
        assert not [label for label in labels if "not served" in label]
        assert not [label for label, value in rows if not value.strip()]
        # one notion of retries, in one row, explained: how many a call may have, and how many were made
        retries = [(label, value) for label, value in rows if "retr" in label]
        assert len(retries) == 1, retries
        assert "up to 2 per call" in retries[0][1] and "5 made" in retries[0][1]
        assert dict(rows)["generated examples per family"] == "valid 8, boundary 3, invalid 6"
        assert dict(rows)["time-out per request"] == "10 s"


def test_a_tool_not_served_is_listed(tmp_path):
    markdown, _ = written(tmp_path, RunRecord(header=header(not_served=["bleu-sentence-compute@1.0.0"])))
    rows = dict(markdown_run_rows(markdown))
    assert rows["not served (draft tools the target answers 'not found' for)"] == "bleu-sentence-compute@1.0.0"


def test_the_json_header_keeps_its_keys(tmp_path):
    paths = reports.write_reports(RunRecord(header=header(), exit_code=0), tmp_path)
    kept = json.loads(paths["json"].read_text(encoding="utf-8"))["header"]
    assert kept["retries"] == 2 and kept["retries_made"] == 5 and kept["timeout_s"] == 10.0
    assert kept["examples_per_family"] == {"valid": 8, "boundary": 3, "invalid": 6} and kept["not_served"] == []


# ---------------------------------------------------------------- examples sent, not generated


def test_a_run_stopped_at_the_preflight_counts_no_example_sent(tmp_path, monkeypatch, capfd):
    """`false` answers nothing: the preflight stops the run, so no generated example is ever sent."""
    from conformance.cli import main

    monkeypatch.chdir(tmp_path)
    code = main(["run", "--target", "cmd:false", "--profile", "quick", "--tools", BLEU, "--generated-only"])
    capfd.readouterr()
    assert code == 3
    report_dir = tmp_path / "reports" / "latest"
    document = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    assert document["header"]["breaker"]["calls"] == 0  # nothing was sent after the preflight
    properties = document["properties"]
    assert properties and {entry["outcome"] for entry in properties} == {"skipped"}
    assert [entry["examples"] for entry in properties] == [0] * len(properties)
    assert [sum(entry["aimed_features"].values()) for entry in properties] == [0] * len(properties)
    markdown = (report_dir / "report.md").read_text(encoding="utf-8")
    table = markdown.split("## Generated properties\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `generated/")]
    assert len(rows) == len(properties)
    assert all(row.split(" | ")[1] == "0" for row in rows), rows

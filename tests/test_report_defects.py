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
from conformance.model import Case, CaseResult, Expectation, RunRecord, TargetResponse

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


def test_a_tool_not_served_is_listed_and_not_among_the_largest_bodies_sent(tmp_path):
    figures = {"sent": 0, "bound": 6441591}
    bodies = {"bleu-brevity-penalty@1.0.0": {"sent": 74018, "bound": 74059}, "bleu-sentence-compute@1.0.0": figures}
    markdown, _ = written(
        tmp_path, RunRecord(header=header(not_served=["bleu-sentence-compute@1.0.0"], largest_bodies=bodies))
    )
    rows = dict(markdown_run_rows(markdown))
    assert rows["not served (tools the target answers 'not found' for)"] == "bleu-sentence-compute@1.0.0"
    # 74018 / 74059 = 99.94 %; the tool not served was sent nothing, and saying "0 of 6,441,591 bytes" is noise
    largest = rows["largest valid body sent (compact JSON), of the largest a valid input can produce"]
    assert largest == "bleu-brevity-penalty@1.0.0 74,018 of 74,059 bytes (99.9 %)"


def test_the_tables_leave_out_the_tools_not_served_and_say_how_many_checks_that_is(tmp_path):
    """A one-tool implementation's report: its own tool's rows, not seven tools of skipped ones. Here one served
    tool (a fixture case passed, a property passed) and one not served (two fixture cases and a property skipped):
    3 checks left out of the tables, all 5 still in the totals line and in report.json."""
    not_served = f"{NGRAMS}@1.0.0"
    skip = "not served: the target answers 'not found' for " + not_served
    results = [
        CaseResult(case("bleu-corpus-compute/1.0.0/examples#one"), "passed", response=answered({})),
        CaseResult(case("bleu-ngrams-count/1.0.0/examples#one", tool=NGRAMS), "skipped", skip),
        CaseResult(case("bleu-ngrams-count/1.0.0/limits#two", tool=NGRAMS), "skipped", skip),
    ]
    properties = [
        {"tool_id": BLEU, "version": "1.0.0", "family": "valid/lengths", "examples": 8, "outcome": "passed"},
        {"tool_id": NGRAMS, "version": "1.0.0", "family": "valid/lengths", "examples": 0, "outcome": "skipped"},
    ]
    record = RunRecord(header=header(not_served=[not_served]), results=results, properties=properties, exit_code=0)
    paths = reports.write_reports(record, tmp_path)
    markdown, html = paths["markdown"].read_text(encoding="utf-8"), paths["html"].read_text(encoding="utf-8")
    note = (
        "The 3 checks of the 1 tool not served (skipped: the target answered 'not found' for them) are left out of "
        "the tables below; report.json lists each."
    )
    # the totals count every check
    assert "2 passed · 0 failed · 0 errored · 3 skipped" in markdown and "<b>3</b>skipped" in html
    for text in (markdown, html.replace("&#x27;", "'")):
        assert note in text
        tables = text.split(note, 1)[1]
        assert NGRAMS not in tables and "bleu-corpus-compute/valid/lengths" in tables
        assert "Skipped" not in tables  # the only skips were the tool not served
    assert json.loads(paths["json"].read_text(encoding="utf-8"))["totals"]["skipped"] == 3


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


# ---------------------------------------------------------------- a missing or extra item is not a null

NGRAMS_EXPECTED = {"max_order": 4, "matches": [1, 0, 0, 0], "totals": [1, 0, 0, 0]}


def length_failure(actual_matches: list[int]) -> CaseResult:
    """The target's matches have another length than the oracle's: the comparator's own first difference."""
    from conformance.compare.diff import first_difference

    actual = dict(NGRAMS_EXPECTED, matches=actual_matches)
    mismatch = first_difference(NGRAMS_EXPECTED, actual)
    assert mismatch is not None and mismatch.pointer == f"/matches/{min(len(actual_matches), 4)}"
    return CaseResult(
        case=case("bleu-ngrams-count/1.0.0/basics#one-token", tool=NGRAMS),
        outcome="failed",
        message=mismatch.message,
        mismatch=mismatch,
        response=answered(actual),
        expected=NGRAMS_EXPECTED,
    )


def failure_facts(markdown: str) -> dict[str, str]:
    """The facts of report.md's first failure section, by label."""
    section = markdown.split("\n### 1. ", 1)[1].split("\n### ", 1)[0]
    return dict(re.findall(r"^- \*\*(.+?):\*\* (.*)$", section, re.MULTILINE))


def group_facts(markdown: str) -> dict[str, str]:
    section = markdown.split("\n### G1. ", 1)[1].split("\n### ", 1)[0]
    return dict(re.findall(r"^- \*\*(.+?):\*\* (.*)$", section, re.MULTILINE))


def test_a_missing_item_is_shown_as_missing_never_as_null(tmp_path):
    record = RunRecord(header=header(), results=[length_failure([1, 0, 0])], exit_code=1)
    markdown, html = written(tmp_path, record)
    for facts in (failure_facts(markdown), group_facts(markdown)):
        assert facts["expected"] == "`0`"
        assert facts["actual"].startswith("missing: the answer has no item 3"), facts["actual"]
        assert "null" not in facts["actual"]
    assert "missing: the answer has no item 3" in html
    assert "<dd><code>null</code></dd>" not in html


def test_an_extra_item_is_shown_as_extra_never_as_null(tmp_path):
    record = RunRecord(header=header(), results=[length_failure([1, 0, 0, 0, 0])], exit_code=1)
    markdown, html = written(tmp_path, record)
    for facts in (failure_facts(markdown), group_facts(markdown)):
        assert facts["expected"].startswith("extra: the expected output has no item 4"), facts["expected"]
        assert "null" not in facts["expected"]
        assert facts["actual"] == "`0`"
    assert "extra: the expected output has no item 4" in html
    assert "<dd><code>null</code></dd>" not in html


def test_a_null_the_target_answered_is_still_a_null(tmp_path):
    """Only a place the answer lacks is "missing": an answered null is shown as the null it is."""
    from conformance.compare.diff import first_difference

    actual = dict(NGRAMS_EXPECTED, matches=[1, 0, 0, None])
    mismatch = first_difference(NGRAMS_EXPECTED, actual)
    result = CaseResult(
        case=case("bleu-ngrams-count/1.0.0/basics#one-token", tool=NGRAMS),
        outcome="failed",
        message="matches differ",
        mismatch=mismatch,
        response=answered(actual),
        expected=NGRAMS_EXPECTED,
    )
    markdown, _ = written(tmp_path, RunRecord(header=header(), results=[result], exit_code=1))
    assert failure_facts(markdown)["actual"] == "`null`"


# ---------------------------------------------------------------- inputs that look alike, told apart

CHRF = "chrf-plus-plus-compute"


def token_failure(hypothesis: str, reference: str, expected_token: str, actual_token: str) -> CaseResult:
    """chrF++'s word tokens differ at one string: the input and both values hold look-alike characters."""
    from conformance.compare.diff import first_difference

    expected = {"word_tokens": [{"hypothesis": [expected_token], "reference": [reference]}]}
    actual = {"word_tokens": [{"hypothesis": [actual_token], "reference": [reference]}]}
    mismatch = first_difference(expected, actual)
    assert mismatch is not None
    return CaseResult(
        case=case(
            "generated/chrf-plus-plus-compute/valid/tokens/3",
            tool=CHRF,
            origin="generated",
            input={"hypotheses": [hypothesis], "references": [reference]},
        ),
        outcome="failed",
        message=mismatch.message,
        mismatch=mismatch,
        response=answered(actual),
        expected=expected,
    )


def test_two_faces_are_told_apart_by_their_code_points(tmp_path):
    """U+1F600 against U+1F601: two faces that read alike are written \\u{1F600} and \\u{1F601}."""
    record = RunRecord(header=header(), results=[token_failure("😀", "😁", "😀", "😁")], exit_code=1)
    markdown, html = written(tmp_path, record)
    escaped_input = '{"hypotheses":["\\u{1F600}"],"references":["\\u{1F601}"]}'
    for text in (markdown, html.replace("&quot;", '"')):
        assert escaped_input in text  # the failure's input and the group's smallest input
        assert text.count(escaped_input) == 2, text.count(escaped_input)
    facts = failure_facts(markdown)
    assert facts["expected, escaped"] == '`"\\u{1F600}"`' and facts["actual, escaped"] == '`"\\u{1F601}"`'
    group = group_facts(markdown)
    assert group["expected, escaped"] == '`"\\u{1F600}"`' and group["actual, escaped"] == '`"\\u{1F601}"`'


def test_invisible_and_combining_characters_are_escaped_bmp_as_four_digits(tmp_path):
    """A NUL, a zero-width space, a right-to-left override, a combining acute and a no-break space."""
    token = "a\u0000b\u200b\u202ee\u0301\u00a0"
    record = RunRecord(header=header(), results=[token_failure(token, "x", token, "ab")], exit_code=1)
    markdown, html = written(tmp_path, record)
    escaped = '"a\\u0000b\\u200B\\u202Ee\\u0301\\u00A0"'
    assert f'{{"hypotheses":[{escaped}],"references":["x"]}}' in markdown
    assert failure_facts(markdown)["expected, escaped"] == f"`{escaped}`"
    assert "actual, escaped" not in failure_facts(markdown)  # "ab" is printable ASCII: nothing to tell apart
    assert escaped.replace('"', "&quot;") in html


def test_a_printable_ascii_input_gets_no_escaped_copy(tmp_path):
    record = RunRecord(header=header(), results=[token_failure("a b", "a b", "a", "b")], exit_code=1)
    markdown, html = written(tmp_path, record)
    for text in (markdown, html):
        assert "input, escaped" not in text and "expected, escaped" not in text and "actual, escaped" not in text


# ---------------------------------------------------------------- "fixed": one meaning


def page_text(html: str) -> str:
    """What report.html shows a person: its text, without the tags, their attributes or the style sheet."""

    class Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.parts: list[str] = []
            self.skipping = False

        def handle_starttag(self, tag, attrs):
            self.skipping = tag in ("style", "title")

        def handle_endtag(self, tag):
            self.skipping = False

        def handle_data(self, data):
            if not self.skipping:
                self.parts.append(data)

    parser = Text()
    parser.feed(html)
    return " ".join(parser.parts)


def test_fixed_since_the_baseline_and_a_known_failure_now_passing_have_two_words(tmp_path):
    """A baseline's failure group that no longer fails is "fixed since the baseline"; a listed known
    failure that passes now is a "known failure now passing": "fixed" never stands alone for it."""
    from conformance.reports.baseline import Baseline

    old = RunRecord(header=header(), results=[length_failure([1, 0, 0])], exit_code=1)
    old_document = reports.report_document(old)
    assert old_document["failure_groups"]
    now_passing = CaseResult(
        case=case("bleu-corpus-compute/1.0.0/brevity#tie"),
        outcome="fixed",
        response=answered({"bleu": 1}),
        known_failure_reason="issue 12: ties go to the longer reference",
    )
    passing = CaseResult(
        case=case("bleu-ngrams-count/1.0.0/basics#one-token", tool=NGRAMS),
        outcome="passed",
        response=answered(NGRAMS_EXPECTED),
    )
    new = RunRecord(header=header(), results=[passing, now_passing], exit_code=0)
    paths = reports.write_reports(new, tmp_path, baseline=Baseline(old_document, "old/report.json"))
    markdown = paths["markdown"].read_text(encoding="utf-8")
    shown = page_text(paths["html"].read_text(encoding="utf-8"))
    for text in (markdown, shown):
        assert "1 fixed since the baseline" in text and "Fixed since the baseline (1)" in text
        assert "1 known failure now passing" in text  # the totals
        assert "Known failures now passing (1)" in text
        # every other "fixed" is the baseline's
        alone = [m.start() for m in re.finditer(r"\bfixed\b", text, re.IGNORECASE)]
        assert all(text[at:].lower().startswith("fixed since the baseline") for at in alone), [
            text[at - 40 : at + 40] for at in alone
        ]

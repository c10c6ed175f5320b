"""The four reports of a run, from hand-built run records.

Every expected string below is written out by hand from the record the test builds
(or, for the browser check, from what a person should see), never copied from the
code under test.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest

from conformance import model, reports
from conformance.model import Case, CaseResult, Expectation, Mismatch, RunRecord, TargetResponse
from conformance.reports.document import ReportSchemaError, build_header, property_of_case, utc_timestamp
from conformance.reports.failures import numeric_difference
from conformance.reports.markdown import md_code, md_text
from conformance.reports.text import command_text, visible

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "conformance" / "report.schema.json").read_text(encoding="utf-8"))
BLEU = "bleu-corpus-compute"
CHRF = "chrf-plus-plus-compute"
NGRAMS = "bleu-ngrams-count"
SCRIPT = "<script>alert('pwned')</script>"


def header(**changes) -> dict:
    base = {
        "suite_version": "0.1.0",
        "contracts": [f"{BLEU}@1.0.0", f"{CHRF}@1.0.0", f"{NGRAMS}@1.0.0"],
        "target": "http://127.0.0.1:8000",
        "seed": 1234,
        "profile": "default",
        "started": "2026-11-30T09:00:00.000Z",
        "finished": "2026-11-30T09:00:42.500Z",
        "python": "3.11.7",
        "platform": "Linux-x86_64",
        "command": "conformance run --target http://127.0.0.1:8000 --seed 1234",
        "strict": False,
        "retries": 1,
    }
    base.update(changes)
    return base


def case(
    tool, case_id, *, origin="fixture", category="valid", input=None, expect=None, seed=None, description=""
) -> Case:
    return Case(
        tool_id=tool,
        version="1.0.0",
        case_id=case_id,
        origin=origin,
        category=category,
        input=input if input is not None else {"hypotheses": [["a"]], "references": [[["a"]]]},
        expect=expect or Expectation("output"),
        description=description,
        seed=seed,
    )


def answer(result, ms=12.5) -> TargetResponse:
    return TargetResponse(
        kind="result", result=result, status=200, raw=json.dumps({"result": result})[:200], duration_ms=ms
    )


# bleu = exp(1/4 * (ln 1 + ln 1/2 + ln 1/3 + ln 1/4)) = (1/24) ** 0.25 = 0.4518010018049224 (brevity penalty 1);
# the "target" answered 0.4518010018 (decimals dropped): delta 1.8049224e-11, tolerance 4.4e-16.
BLEU_EXPECTED = {
    "bleu": 0.4518010018049224,
    "brevity_penalty": 1,
    "candidate_length": 4,
    "reference_length": 4,
    "max_order": 4,
    "matches": [4, 1, 1, 1],
    "totals": [4, 2, 3, 4],
}
BLEU_ACTUAL = dict(BLEU_EXPECTED, bleu=0.4518010018)


def float_failure() -> CaseResult:
    return CaseResult(
        case=case(BLEU, "generated/bleu-corpus-compute/valid/7", origin="generated", seed=1234),
        outcome="failed",
        message="bleu differs beyond the tolerance",
        mismatch=Mismatch(
            "/bleu", 0.4518010018049224, 0.4518010018, "bleu differs beyond the tolerance", 1.8049224e-11, 4.4e-16
        ),
        response=answer(BLEU_ACTUAL),
        expected=BLEU_EXPECTED,
        replay="conformance replay reports/latest/cases/bleu-7.json",
        curl="curl -sS -X POST http://127.0.0.1:8000/v1/tools/bleu-corpus-compute/versions/1.0.0/execute -d @reports/latest/cases/bleu-7.json",
        reproducer_file="reports/latest/cases/bleu-7.json",
    )


def whitespace_failure() -> CaseResult:
    """The target dropped a no-break space from a word token: visible as ⟨U+00A0⟩."""
    expected = {"word_tokens": [{"hypothesis": ["a\u00a0b", "c"], "reference": ["a\u00a0b"]}]}
    actual = {"word_tokens": [{"hypothesis": ["a", "b", "c"], "reference": ["a\u00a0b"]}]}
    return CaseResult(
        case=case(
            CHRF,
            "chrf-plus-plus-compute/1.0.0/whitespace#nbsp-is-whitespace",
            input={"hypotheses": ["a\u00a0b c"], "references": ["a\u00a0b"]},
        ),
        outcome="failed",
        message="word_tokens differ",
        mismatch=Mismatch("/word_tokens/0/hypothesis/0", "a\u00a0b", "a", "word token differs"),
        response=answer(actual),
        expected=expected,
        replay="conformance replay cases/chrf-nbsp.json",
    )


def hostile_failure() -> CaseResult:
    """Untrusted strings: markup, control characters, a lone surrogate, backticks and pipes."""
    nasty = f"{SCRIPT}\x01\x1b[31m\ud800 `x` | y"
    return CaseResult(
        case=case(
            CHRF,
            "generated/chrf-plus-plus-compute/valid/3",
            origin="generated",
            seed=99,
            input={"hypotheses": [nasty], "references": ["x"]},
        ),
        outcome="failed",
        message="metric differs: got <b>bold</b> | *not emphasis*",
        mismatch=Mismatch("/metric", "chrF++", nasty, "metric differs"),
        response=TargetResponse(kind="result", result={"metric": nasty}, status=200, raw=nasty),
        expected={"metric": "chrF++"},
        replay="conformance replay cases/chrf-3.json",
    )


def huge_failure() -> CaseResult:
    """A 30,000-item answer: shown truncated, kept whole in report.json."""
    big = list(range(30_000))
    return CaseResult(
        case=case(
            NGRAMS,
            "generated/bleu-ngrams-count/boundary/2",
            origin="generated",
            category="boundary",
            input={"hypotheses": [["w"] * 50_000], "references": [[["w"]]]},
        ),
        outcome="failed",
        message="matches differ",
        mismatch=Mismatch("/matches", [1], big, "matches has the wrong length"),
        response=answer({"max_order": 4, "matches": big, "totals": [1]}),
        expected={"max_order": 4, "matches": [1], "totals": [1]},
        reproducer_file="reports/latest/cases/ngrams-2.json",
        replay="conformance replay reports/latest/cases/ngrams-2.json",
    )


def errored() -> CaseResult:
    return CaseResult(
        case=case(BLEU, "bleu-corpus-compute/1.0.0/limits#max-segments", category="boundary"),
        outcome="errored",
        message="the target answered HTTP 503",
        response=TargetResponse(
            kind="transport_error",
            status=503,
            raw="<html>Service Unavailable\n</html>",
            detail="HTTP 503",
            duration_ms=30.0,
            retries=1,
        ),
        expected=BLEU_EXPECTED,
    )


def over_rejection() -> CaseResult:
    """A valid input rejected: failed, with the target's error code shown."""
    return CaseResult(
        case=case(NGRAMS, "bleu-ngrams-count/1.0.0/basics#empty-hypothesis"),
        outcome="failed",
        message="a valid input was rejected",
        response=TargetResponse(
            kind="rejection",
            status=400,
            error_code="invalid_input",
            raw='{"error":{"code":"invalid_input"}}',
            detail="HTTP 400",
        ),
        expected={"max_order": 4, "matches": [0, 0, 0, 0], "totals": [0, 0, 0, 0]},
    )


def under_rejection() -> CaseResult:
    """An invalid input answered: failed, expected a rejection."""
    return CaseResult(
        case=case(
            BLEU,
            "generated/bleu-corpus-compute/invalid/1",
            origin="generated",
            category="invalid",
            input={"hypotheses": []},
            expect=Expectation("error", "invalid_input"),
        ),
        outcome="failed",
        message="an invalid input was answered instead of rejected",
        response=answer({"bleu": 0}),
        expected={"error": "invalid_input"},
    )


def simple(outcome, case_id, tool=BLEU, category="valid", **extra) -> CaseResult:
    return CaseResult(
        case=case(tool, case_id, category=category), outcome=outcome, response=answer({"ok": 1}, ms=4.0), **extra
    )


def full_record(**header_changes) -> RunRecord:
    results = [
        simple("passed", "bleu-corpus-compute/1.0.0/basics#identity"),
        simple("passed", "bleu-corpus-compute/1.0.0/basics#one-token", category="boundary"),
        float_failure(),
        errored(),
        simple("skipped", "bleu-corpus-compute/1.0.0/basics#needs-http", message="needs an HTTP target"),
        simple(
            "xfailed",
            "bleu-corpus-compute/1.0.0/brevity#tie",
            known_failure_reason="issue 12: ties go to the longer reference",
        ),
        simple("fixed", "bleu-corpus-compute/1.0.0/brevity#zero", known_failure_reason="issue 9: c = 0"),
        whitespace_failure(),
        hostile_failure(),
        huge_failure(),
        over_rejection(),
        under_rejection(),
    ]
    properties = [
        {
            "tool_id": BLEU,
            "version": "1.0.0",
            "family": "valid",
            "examples": 100,
            "outcome": "failed",
            "duration_ms": 2500.0,
        },
        {
            "tool_id": BLEU,
            "version": "1.0.0",
            "family": "boundary",
            "examples": 40,
            "outcome": "passed",
            "duration_ms": 800.0,
        },
        {"tool_id": BLEU, "version": "1.0.0", "family": "invalid", "examples": 60, "outcome": "failed"},
        {"tool_id": CHRF, "version": "1.0.0", "family": "valid", "examples": 100, "outcome": "failed"},
        {"tool_id": NGRAMS, "version": "1.0.0", "family": "boundary", "examples": 40, "outcome": "failed"},
    ]
    return RunRecord(header=header(**header_changes), results=results, properties=properties, exit_code=1)


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, Path]:
    return reports.write_reports(full_record(), tmp_path_factory.mktemp("report"))


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")  # strict: every report is valid UTF-8


# ---------------------------------------------------------------- report.json and its schema


def test_schema_is_valid_json_schema_2020_12():
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$defs"]["outcome"]["enum"] == ["passed", "failed", "errored", "skipped", "xfailed", "fixed"]


@pytest.mark.parametrize(
    "definition, dataclass",
    [
        ("case", Case),
        ("expectation", Expectation),
        ("response", TargetResponse),
        ("mismatch", Mismatch),
        ("case_result", CaseResult),
    ],
)
def test_schema_describes_every_field_of_the_model(definition, dataclass):
    """If model.py gains a field, the schema must describe it (else report.json is rejected)."""
    fields = {f.name for f in dataclasses.fields(dataclass)}
    described = SCHEMA["$defs"][definition]
    assert set(described["properties"]) == fields
    assert set(described["required"]) == fields


def test_schema_describes_the_record_keys():
    assert set(SCHEMA["required"]) == set(RunRecord(header=header()).to_dict()) | {"totals"}
    assert tuple(SCHEMA["$defs"]["outcome"]["enum"]) == model.OUTCOMES


def test_report_json_is_the_record_and_matches_the_schema(written):
    document = json.loads(read(written["json"]))
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    # The lone surrogate is escaped in the file, and reads back as the same string.
    derived = ("totals", "failure_groups")  # computed from the record
    assert json.loads(json.dumps(full_record().to_dict())) == {k: v for k, v in document.items() if k not in derived}
    # one per check: 8 fixture cases and 5 properties (the boundary property of bleu-corpus-compute passed)
    assert document["totals"] == {"passed": 3, "failed": 6, "errored": 1, "skipped": 1, "xfailed": 1, "fixed": 1}
    assert "\\ud800" in read(written["json"])
    assert len(document["results"][9]["response"]["result"]["matches"]) == 30_000  # nothing truncated


def test_all_four_files_are_written_and_junit_can_go_elsewhere(tmp_path):
    junit = tmp_path / "ci" / "results.xml"
    paths = reports.write_reports(full_record(), tmp_path / "out", junit)
    assert paths == {
        "json": tmp_path / "out" / "report.json",
        "junit": junit,
        "markdown": tmp_path / "out" / "report.md",
        "html": tmp_path / "out" / "report.html",
    }
    assert all(path.is_file() for path in paths.values())


@pytest.mark.parametrize(
    "breakage",
    [
        lambda record: record.header.pop("seed"),
        lambda record: record.header.update(started="30/11/2026 09:00"),  # not ISO 8601 UTC
        lambda record: setattr(record.results[0], "outcome", "crashed"),
        lambda record: setattr(
            record.results[0].case, "case_id", "basics#identity"
        ),  # fixture id without tool/version/topic
        lambda record: setattr(record.results[2].mismatch, "delta", -1.0),
        lambda record: record.properties.append({"tool_id": BLEU, "family": "valid"}),
    ],
)
def test_a_record_off_the_schema_is_refused_before_anything_is_written(tmp_path, breakage):
    record = full_record()
    breakage(record)
    with pytest.raises(ReportSchemaError):
        reports.write_reports(record, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_non_finite_and_non_json_values_from_a_module_target_are_written_safely(tmp_path):
    result = float_failure()
    result.mismatch.actual = float("nan")
    result.mismatch.delta = float("inf")
    result.response.result = {"bleu": float("-inf"), "tuple": (1, 2), 3: "int key", "obj": object}
    reports.write_reports(RunRecord(header=header(), results=[result], exit_code=1), tmp_path)
    document = json.loads(read(tmp_path / "report.json"))
    assert document["results"][0]["mismatch"]["actual"] == "NaN"
    assert document["results"][0]["mismatch"]["delta"] == "Infinity"
    assert document["results"][0]["response"]["result"] == {
        "bleu": "-Infinity",
        "tuple": [1, 2],
        "3": "int key",
        "obj": "<class 'object'>",
    }
    assert "|expected − actual| = Infinity" in read(tmp_path / "report.md")


# ---------------------------------------------------------------- junit.xml


def junit_cases(path: Path) -> dict[str, ElementTree.Element]:
    root = ElementTree.fromstring(path.read_bytes())
    return {case.get("name"): case for case in root.iter("testcase")}


def test_junit_has_one_testcase_per_fixture_case_and_per_property(written):
    cases = junit_cases(written["junit"])
    assert sorted(cases) == sorted(
        [
            "bleu-corpus-compute/1.0.0/basics#identity",
            "bleu-corpus-compute/1.0.0/basics#one-token",
            "bleu-corpus-compute/1.0.0/limits#max-segments",
            "bleu-corpus-compute/1.0.0/basics#needs-http",
            "bleu-corpus-compute/1.0.0/brevity#tie",
            "bleu-corpus-compute/1.0.0/brevity#zero",
            "chrf-plus-plus-compute/1.0.0/whitespace#nbsp-is-whitespace",
            "bleu-ngrams-count/1.0.0/basics#empty-hypothesis",
            "generated/bleu-corpus-compute/valid",
            "generated/bleu-corpus-compute/boundary",
            "generated/bleu-corpus-compute/invalid",
            "generated/chrf-plus-plus-compute/valid",
            "generated/bleu-ngrams-count/boundary",
        ]
    )
    assert cases["generated/bleu-ngrams-count/boundary"].get("classname") == "bleu-ngrams-count@1.0.0"
    assert cases["bleu-corpus-compute/1.0.0/basics#identity"].get("classname") == "bleu-corpus-compute@1.0.0"
    assert cases["bleu-corpus-compute/1.0.0/limits#max-segments"].get("time") == "0.030"


def test_junit_outcomes(written):
    cases = junit_cases(written["junit"])

    def children(name):
        return [child.tag for child in cases[name] if child.tag != "system-out"]

    assert children("bleu-corpus-compute/1.0.0/basics#identity") == []
    assert children("generated/bleu-corpus-compute/boundary") == []
    assert children("bleu-corpus-compute/1.0.0/limits#max-segments") == ["error"]
    assert children("bleu-corpus-compute/1.0.0/basics#needs-http") == ["skipped"]
    assert children("bleu-corpus-compute/1.0.0/brevity#zero") == []  # fixed passes when not strict
    tie = cases["bleu-corpus-compute/1.0.0/brevity#tie"].find("skipped")
    assert tie.get("message") == "known failure: issue 12: ties go to the longer reference"
    failure = cases["generated/bleu-corpus-compute/valid"].find("failure")
    assert failure.get("message") == "bleu differs beyond the tolerance"
    # the readable diff in the body: pointer, both values, delta against the tolerance, seed, replay
    for text in (
        '"/bleu"',
        "0.4518010018049224",
        "0.4518010018",
        "= 1.8e-11",
        "tolerance 4.4e-16",
        "seed: 1234",
        '-  "bleu": 0.4518010018049224,',
        '+  "bleu": 0.4518010018,',
        "conformance replay reports/latest/cases/bleu-7.json",
    ):
        assert text in failure.text


def test_junit_totals_and_timestamps(written):
    root = ElementTree.fromstring(written["junit"].read_bytes())
    # 13 testcases: failures = the 4 failing properties + whitespace + over-rejection fixtures; errors 1; skipped 2.
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("13", "6", "1", "2")
    assert root.get("time") == "42.500"
    assert root.get("timestamp") == "2026-11-30T09:00:00.000Z"
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert set(suites) == {f"{BLEU}@1.0.0", f"{CHRF}@1.0.0", f"{NGRAMS}@1.0.0"}
    bleu = suites[f"{BLEU}@1.0.0"]
    assert (bleu.get("tests"), bleu.get("failures"), bleu.get("errors"), bleu.get("skipped")) == ("9", "2", "1", "2")
    assert {p.get("name"): p.get("value") for p in bleu.iter("property")}["seed"] == "1234"


def test_junit_fixed_is_a_failure_under_strict(tmp_path):
    paths = reports.write_reports(full_record(strict=True), tmp_path)
    fixed = junit_cases(paths["junit"])["bleu-corpus-compute/1.0.0/brevity#zero"]
    assert [child.tag for child in fixed] == ["failure"]
    assert "now passes" in fixed.find("failure").get("message")
    assert "Known failures now passing" not in read(paths["markdown"])  # it is a failure instead
    assert "known failure now passing · bleu-corpus-compute@1.0.0 · bleu-corpus-compute/1.0.0/brevity#zero" in read(
        paths["markdown"]
    )


def test_junit_is_well_formed_despite_control_characters_and_surrogates(written):
    cases = junit_cases(written["junit"])  # parsing fails on a raw U+0001, ESC or surrogate
    body = cases["generated/chrf-plus-plus-compute/valid"].find("failure").text
    assert "⟨U+0001⟩⟨U+001B⟩[31m⟨U+D800⟩" in body


# ---------------------------------------------------------------- visible strings


@pytest.mark.parametrize(
    "text, shown",
    [
        ("a b", "a␣b"),
        ("a\tb\nc", "a⇥b↵c"),
        ("a\u00a0b", "a⟨U+00A0⟩b"),
        ("zero\u200bwidth\ufeff", "zero⟨U+200B⟩width⟨U+FEFF⟩"),
        ("mongolian\u180evowel", "mongolian⟨U+180E⟩vowel"),
        ("\x00\x7f\x85", "⟨U+0000⟩⟨U+007F⟩⟨U+0085⟩"),
        ("lone\ud83d", "lone⟨U+D83D⟩"),
        ("\u3000\u2028", "⟨U+3000⟩⟨U+2028⟩"),
        ("caf\u00e9", "café"),  # NFC: shown as is
        ("cafe\u0301", "cafe⟨U+0301⟩"),  # NFD: the mark is shown, so it differs visibly from the NFC form
        ("\u0301", "⟨U+0301⟩"),  # a mark with no base
        ("नमस्ते", "नमस्ते"),  # NFC Devanagari stays readable
        ("❤\ufe0f", "❤⟨U+FE0F⟩"),  # variation selector
        ("😀", "😀"),
        ("␣⇥↵⟨", "⟨U+2423⟩⟨U+21E5⟩⟨U+21B5⟩⟨U+27E8⟩"),  # literal glyphs cannot pass for escapes
    ],
)
def test_visible(text, shown):
    assert visible(text) == shown


def test_visible_prose_keeps_spaces():
    assert visible("two words\u00a0here", spaces=False) == "two words⟨U+00A0⟩here"


# ---------------------------------------------------------------- report.md


def test_markdown_summary_matrix(written):
    text = read(written["markdown"])
    assert "**NOT CONFORMANT** (exit code 1)" in text
    assert "3 passed · 6 failed · 1 errored · 1 skipped · 1 xfailed · 1 known failure now passing" in text
    # One check per fixture case and per generated property. bleu-corpus-compute, valid: identity passed,
    # needs-http skipped, tie xfailed, zero fixed, property valid failed = 5; boundary: one-token passed,
    # max-segments errored, property boundary passed = 3; invalid: property invalid failed = 1.
    assert "| tool | valid | boundary | invalid |" in text
    assert (
        "| bleu-corpus-compute@1.0.0 | 1/5 passed · 1 failed · 1 skipped · 1 xfailed · 1 known failure now passing ✗ "
        "| 2/3 passed · 1 errored ✗ | 0/1 passed · 1 failed ✗ |"
    ) in text
    # bleu-ngrams-count: the empty-hypothesis fixture and the boundary property; chrF++: whitespace fixture + valid property
    assert "| bleu-ngrams-count@1.0.0 | 0/1 passed · 1 failed ✗ | 0/1 passed · 1 failed ✗ | – |" in text
    assert "| chrf-plus-plus-compute@1.0.0 | 0/2 passed · 2 failed ✗ | – | – |" in text
    assert "| basics | 2/3 passed · 1 skipped | 0/1 passed · 1 failed ✗ | – |" in text  # topic x (bleu, ngrams, chrf)


def test_markdown_failure_sections(written):
    text = read(written["markdown"])
    assert "## Failures (7)" in text
    failures = text.split("\n## Failures", 1)[1]  # the failure groups before it name the same cases
    section = failures.split("bleu-corpus-compute/valid/7", 1)[1].split("\n### ", 1)[0]
    for line in (
        "- **tool:** `bleu-corpus-compute@1.0.0`",
        "- **case:** `generated (generated/bleu-corpus-compute/valid/7)`",
        "- **seed:** `1234`",
        '- **first difference at:** `JSON pointer "/bleu"`',
        "- **expected:** `0.4518010018049224`",
        "- **actual:** `0.4518010018`",
        "- **numeric difference:** `|expected − actual| = 1.8e-11, tolerance 4.4e-16 (41,021× the tolerance)`",
        '-  "bleu": 0.4518010018049224,',
        '+  "bleu": 0.4518010018,',
        "conformance replay reports/latest/cases/bleu-7.json",
        "curl -sS -X POST http://127.0.0.1:8000/v1/tools/bleu-corpus-compute/versions/1.0.0/execute -d @reports/latest/cases/bleu-7.json",
    ):
        assert line in section, line


def test_markdown_shows_invisible_characters(written):
    text = read(written["markdown"])
    assert '- **expected:** `"a⟨U+00A0⟩b"`' in text
    assert '- **actual:** `"a"`' in text
    assert '{"hypotheses":["a⟨U+00A0⟩b␣c"],"references":["a⟨U+00A0⟩b"]}' in text


def test_markdown_rejections_and_errors(written):
    text = read(written["markdown"])
    assert "- **target said:** transport error, status 503, HTTP 503" in text
    assert "<html>Service␣Unavailable" not in text and "<html>Service Unavailable↵" not in text
    assert '- **target said:** rejection, status 400, error code "invalid_input", HTTP 400' in text
    assert "- **expected answer:** `a rejection with the code invalid_input`" in text
    assert '- **expected answer:** `an output: {"max_order":4,"matches":[0,0,0,0],"totals":[0,0,0,0]}`' in text
    assert "**actual answer (should have been a rejection)**" in text


def test_markdown_lists_known_failures_and_skips(written):
    text = read(written["markdown"])
    assert (
        "## Known failures (still failing) (1)\n\n- `bleu-corpus-compute/1.0.0/brevity#tie`: issue 12: ties go to the longer reference"
        in text
    )
    assert "## Known failures now passing (1)" in text
    assert "## Skipped (1)\n\n- `bleu-corpus-compute/1.0.0/basics#needs-http`: needs an HTTP target" in text


def test_markdown_keeps_untrusted_markup_inside_code(written):
    text = read(written["markdown"])
    outside_code = re.sub(r"^(`{3,}).*?^\1$", "", text, flags=re.S | re.M)  # fenced blocks
    outside_code = re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", outside_code)  # code spans
    assert "<" not in outside_code.replace("\\<", "")
    assert "'pwned'" in text


def test_large_input_is_referred_to_its_reproducer_file(written):
    text = read(written["markdown"])
    assert "- **input:** `too large to show here; saved in reports/latest/cases/ngrams-2.json`" in text
    assert "outputs too large for a whole-output diff" in text
    assert written["markdown"].stat().st_size < 100_000  # the 30,000-item answer is truncated


# ---------------------------------------------------------------- report.html


class Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def parse_html(text: str) -> Tags:
    parser = Tags()
    parser.feed(text)
    parser.close()
    return parser


def test_html_is_self_contained_and_escapes_the_target(written):
    text = read(written["html"])
    page = parse_html(text)
    tag_names = [tag for tag, _ in page.tags]
    assert "script" not in tag_names and "link" not in tag_names and "img" not in tag_names
    assert not any(key in ("src", "href", "action") or key.startswith("on") for _, attrs in page.tags for key in attrs)
    assert "url(" not in text and "@import" not in text
    assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;" in text
    assert SCRIPT.replace(" ", "") in "".join(page.text)  # shown to the reader as text


def test_html_has_a_matrix_and_one_details_per_failure(written):
    page = parse_html(read(written["html"]))
    assert [tag for tag, _ in page.tags].count("details") == 7
    words = " ".join(page.text)
    assert "NOT CONFORMANT" in words
    assert "Checks by tool and category" in words and "2/3 passed · 1 errored" in words
    assert "|expected − actual| = 1.8e-11, tolerance 4.4e-16 (41,021× the tolerance)" in words
    assert "truncated; the full value is in report.json" in words


def test_html_size_stays_bounded_with_a_huge_answer(written):
    assert written["html"].stat().st_size < 150_000


# ---------------------------------------------------------------- edge runs


def test_empty_run(tmp_path):
    record = RunRecord(header=header(target="oracle", seed=None, profile="quick"))
    paths = reports.write_reports(record, tmp_path)
    document = json.loads(read(paths["json"]))
    assert document["results"] == [] and document["totals"]["passed"] == 0
    root = ElementTree.fromstring(paths["junit"].read_bytes())
    assert root.get("tests") == "0" and list(root.iter("testcase")) == []
    markdown = read(paths["markdown"])
    assert "**CONFORMANT** (exit code 0)" in markdown and "## Failures (0)\n\nNone." in markdown
    assert "<p>None.</p>" in read(paths["html"])


def test_unhealthy_target_is_said_first(tmp_path):
    record = RunRecord(header=header(), exit_code=3, unhealthy_reason="3 requests in a row timed out after 10 s")
    paths = reports.write_reports(record, tmp_path)
    assert "**COULD NOT CONCLUDE: 3 requests in a row timed out after 10 s** (exit code 3)" in read(paths["markdown"])
    assert "COULD NOT CONCLUDE: 3 requests in a row timed out after 10 s" in read(paths["html"])


BREAKER = {
    "calls": 20,
    "transport_errors": 5,
    "window_calls": 20,
    "window_transport_errors": 5,
    "time_lost_s": 50.2,
    "time_budget_s": 60.0,
    "time_budget_left_s": 19.8,
}


def test_what_stopped_a_run_heads_its_reason_in_every_report(tmp_path):
    reason = "5 of the last 20 calls were transport errors (the breaker trips at 25% of the last 40 calls)"
    record = RunRecord(header=header(stopped_by="breaker", breaker=BREAKER), exit_code=3, unhealthy_reason=reason)
    paths = reports.write_reports(record, tmp_path)
    assert f"**COULD NOT CONCLUDE: target unhealthy: {reason}** (exit code 3)" in read(paths["markdown"])
    assert f"COULD NOT CONCLUDE: target unhealthy: {reason}" in read(paths["html"])
    assert f"TARGET UNHEALTHY, run stopped: {reason}" in reports.summary(reports.build_document(record))
    assert (
        "| circuit breaker | `20 calls, 5 transport errors (5 of the last 20); 50.2 s lost to time-outs and "
        "retries (budget 60 s, 19.8 s left)` |"
    ) in read(paths["markdown"])
    properties = {p.get("name"): p.get("value") for p in ElementTree.parse(paths["junit"]).iter("property")}
    assert properties["stopped"] == f"target unhealthy: {reason}"


def test_a_contract_drift_stop_is_not_called_unhealthy(tmp_path):
    reason = "t@1.0.0 breaking (breaking /limits/max_segments: limit max_segments lowered 1000 -> 500)"
    record = RunRecord(header=header(stopped_by="contract_drift"), exit_code=3, unhealthy_reason=reason)
    summary = reports.summary(reports.build_document(record))
    assert f"CONTRACT DRIFT, run stopped: {reason}" in summary and "UNHEALTHY" not in summary
    paths = reports.write_reports(record, tmp_path)
    assert "**COULD NOT CONCLUDE: contract drift: t@1.0.0 breaking (breaking /limits/" in read(paths["markdown"])


@pytest.mark.parametrize("signal, exit_code", [("SIGTERM", 143), ("SIGINT", 3)])
def test_an_interrupted_run_says_so_in_every_report_even_with_nothing_checked(tmp_path, signal, exit_code):
    record = RunRecord(header=header(interrupted=signal), exit_code=exit_code)
    paths = reports.write_reports(record, tmp_path)
    said = f"INTERRUPTED BY {signal}: the run did not finish; this partial report holds the checks done before it"
    assert f"**{said}** (exit code {exit_code})" in read(paths["markdown"])
    assert said in read(paths["html"])
    assert f"INTERRUPTED by {signal}: the run did not finish" in reports.summary(reports.build_document(record))
    suites = ElementTree.parse(paths["junit"]).getroot().findall("testsuite")
    assert [suite.get("tests") for suite in suites] == ["0"]
    assert {p.get("name"): p.get("value") for p in suites[0].iter("property")}["interrupted"] == signal


def test_generated_results_without_a_property_entry_still_get_a_testcase(tmp_path):
    record = RunRecord(header=header(), results=[float_failure()], exit_code=1)
    cases = junit_cases(reports.write_reports(record, tmp_path)["junit"])
    assert list(cases) == ["generated/bleu-corpus-compute/valid"]
    assert cases["generated/bleu-corpus-compute/valid"].find("failure") is not None


def test_build_header_matches_the_schema():
    built = build_header(
        target="oracle",
        contracts=[f"{BLEU}@1.0.0"],
        seed=1,
        profile="quick",
        started=utc_timestamp(),
        finished=utc_timestamp(),
        timeout=10.0,
    )
    jsonschema.Draft202012Validator(SCHEMA["$defs"]["header"] | {"$defs": SCHEMA["$defs"]}).validate(built)
    assert built["timeout"] == 10.0 and built["strict"] is False and built["retries"] == 0


# ---------------------------------------------------------------- a real browser


CHROMIUM = next(
    (shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome") if shutil.which(name)), None
)


@pytest.mark.slow  # a browser
@pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium on PATH (apt-get install chromium): the HTML is checked in a real browser only where one exists",
)
def test_html_renders_in_a_headless_browser():
    completed = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "check_report_html.py")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


ALL_TOOLS = (
    "bleu-brevity-penalty",
    "bleu-corpus-compute",
    "bleu-ngrams-count",
    "bleu-sentence-components",
    "bleu-sentence-compute",
    "chrf-components",
    "chrf-compute",
    "chrf-plus-plus-compute",
)
# Measured inside the page: every element that reaches past the right edge of the window, unless a box
# that scrolls sideways holds it; and each box that scrolls, whether it has to. The page forbids scripts
# (its Content-Security-Policy), so the probe runs on a copy without that one meta tag, in a frame of the
# width wanted (a headless window cannot be made narrower than 500 px): neither changes the layout.
WIDTH_PROBE = """<script>
const width = document.documentElement.clientWidth, past = [], scrolling = [];
for (const element of document.querySelectorAll("body *")) {
  const box = element.getBoundingClientRect();
  let held = false;
  for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
    if (["auto", "scroll", "hidden"].includes(getComputedStyle(up).overflowX)) { held = true; break; }
  }
  if (box.right > width + 0.5 && !held) past.push(element.tagName + " " + element.textContent.slice(0, 80));
  if (element.scrollWidth > element.clientWidth + 0.5 && getComputedStyle(element).overflowX === "auto")
    scrolling.push(element.className + " " + element.textContent.slice(0, 80));
}
parent.document.body.dataset.probe = JSON.stringify(
  {width, page: document.documentElement.scrollWidth, past: past.slice(0, 10), scrolling: scrolling.slice(0, 10)});
</script></body>"""


def laid_out(page: str, width: int, directory: Path) -> dict:
    """What the probe measured on ``page`` laid out ``width`` CSS pixels wide in headless Chromium."""
    import html as html_module

    page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page, count=1).replace(
        "</body>", WIDTH_PROBE
    )
    frame = (
        '<!DOCTYPE html><html><body style="margin:0">'
        f'<iframe style="border:0" width="{width}" height="900" srcdoc="{html_module.escape(page, quote=True)}">'
        "</iframe></body></html>"
    )
    framed = directory / f"framed-{width}.html"
    framed.write_text(frame, encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run"]
    dumped = subprocess.run(
        [CHROMIUM, *flags, "--hide-scrollbars", "--window-size=1600,1000", "--dump-dom", framed.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r'<body[^>]*data-probe="([^"]*)"', dumped.stdout)
    assert found, dumped.stderr[-2000:]
    return json.loads(html_module.unescape(found.group(1)))


@pytest.mark.slow  # a browser
@pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium on PATH (apt-get install chromium): the layout is measured only where a browser exists",
)
def test_html_never_scrolls_sideways_at_1400_and_at_390_pixels(tmp_path):
    """Every tool in the fixture table (eight columns), a 300-character command and target, long case ids:
    at 1400 px the page and every table fit; at 390 px (a phone) the page still does not scroll sideways,
    long tokens wrap, and a table too wide for the phone scrolls inside its own box only."""
    long_url = "http://127.0.0.1:8000/" + "x" * 300
    record = full_record(target=long_url, command=f"conformance run --target {long_url}")
    topics = ("javascript-property-names", "brevity-penalty", "whitespace")
    record.results += [
        simple("passed", f"{tool}/1.0.0/{topic}#case-with-a-rather-long-name", tool=tool)
        for tool in ALL_TOOLS
        for topic in topics
    ]
    page = read(reports.write_reports(record, tmp_path)["html"])
    assert "chrf-plus-plus-compute@1.0.0</th>" in page and "bleu-brevity-penalty@1.0.0</th>" in page
    wide = laid_out(page, 1400, tmp_path)
    assert wide["width"] == 1400 and wide["page"] <= 1400 and wide["past"] == [], wide
    assert wide["scrolling"] == [], wide  # at 1400 px no table needs to scroll
    phone = laid_out(page, 390, tmp_path)
    assert phone["width"] == 390 and phone["page"] <= 390 and phone["past"] == [], phone


# ---------------------------------------------------------------- records as the runner builds them


@pytest.mark.parametrize(
    "delta, tolerance, shown",
    [
        (1.8049224e-11, 4.4e-16, "|expected − actual| = 1.8e-11, tolerance 4.4e-16 (41,021× the tolerance)"),
        (3e-16, 2e-16, "|expected − actual| = 3e-16, tolerance 2e-16 (1.5× the tolerance)"),
        # 2.4536e-14 / 2.4535e-14 = 1.00004: three digits would print the same number twice
        (2.4536e-14, 2.4535e-14, "|expected − actual| = 2.4536e-14, tolerance 2.4535e-14 (1.00004× the tolerance)"),
        (1, None, "|expected − actual| = 1 (compared exactly)"),
    ],
)
def test_numeric_difference(delta, tolerance, shown):
    assert numeric_difference(delta, tolerance) == shown


@pytest.mark.parametrize(
    "case_id, known, prop",
    [
        ("generated/bleu-corpus-compute/valid/12", (), "generated/bleu-corpus-compute/valid"),
        (
            "generated/bleu-corpus-compute/valid/shared-ngrams/283",
            (),
            "generated/bleu-corpus-compute/valid/shared-ngrams",
        ),
        (
            "generated/bleu-corpus-compute/valid/shared-ngrams",
            {"generated/bleu-corpus-compute/valid/shared-ngrams"},
            "generated/bleu-corpus-compute/valid/shared-ngrams",
        ),
        (
            "generated/chrf-plus-plus-compute/boundary/beta/2",
            {"generated/chrf-plus-plus-compute/boundary/beta"},
            "generated/chrf-plus-plus-compute/boundary/beta",
        ),
    ],
)
def test_property_of_case(case_id, known, prop):
    assert property_of_case(case_id, known) == prop


def test_family_names_with_slashes_and_a_property_level_result(tmp_path):
    """Property entries carry their id; a listed property that now passes is one result whose
    case id is the property id (input None)."""
    shrunk = float_failure()
    shrunk.case.case_id = "generated/bleu-corpus-compute/valid/shared-ngrams/283"
    now_passing = CaseResult(
        case=Case(
            BLEU,
            "1.0.0",
            "generated/bleu-corpus-compute/boundary/decimals",
            "generated",
            "boundary",
            None,
            Expectation("output"),
        ),
        outcome="fixed",
        message="37 examples passed",
        known_failure_reason="issue 3",
    )
    properties = [
        {
            "id": "generated/bleu-corpus-compute/valid/shared-ngrams",
            "tool_id": BLEU,
            "version": "1.0.0",
            "family": "valid/shared-ngrams",
            "category": "valid",
            "outcome": "failed",
            "message": "bleu differs",
            "seed": 5,
            "examples": 284,
            "passed": 283,
            "failed": 1,
            "errored": 0,
        },
        {
            "id": "generated/bleu-corpus-compute/boundary/decimals",
            "tool_id": BLEU,
            "version": "1.0.0",
            "family": "boundary/decimals",
            "category": "boundary",
            "outcome": "fixed",
            "message": "",
            "seed": 5,
            "examples": 37,
            "known_failure_reason": "issue 3",
        },
    ]
    record = RunRecord(header=header(strict=True), results=[shrunk, now_passing], properties=properties, exit_code=1)
    paths = reports.write_reports(record, tmp_path)
    cases = junit_cases(paths["junit"])
    assert sorted(cases) == [
        "generated/bleu-corpus-compute/boundary/decimals",
        "generated/bleu-corpus-compute/valid/shared-ngrams",
    ]
    assert "284 examples run" in cases["generated/bleu-corpus-compute/valid/shared-ngrams"].find("failure").text
    assert cases["generated/bleu-corpus-compute/boundary/decimals"].find("failure") is not None  # fixed, strict
    markdown = read(paths["markdown"])
    assert "| `generated/bleu-corpus-compute/valid/shared-ngrams` | 284 | failed | 1 |" in markdown
    assert (
        "| bleu-corpus-compute@1.0.0 | 0/1 passed · 1 failed ✗ | 0/1 passed · 1 known failure now passing ✗ |"
    ) in markdown


def test_markdown_escaping():
    # CommonMark: a backslash before ASCII punctuation makes it literal; "_" inside a word is already literal.
    assert (
        md_text("retries_made _x_ <b> | * [l](u) `c` & ~ $")
        == "retries_made \\_x\\_ \\<b\\> \\| \\* \\[l\\](u) \\`c\\` \\& \\~ \\$"
    )
    assert md_code("a `b` c") == "``a `b` c``"
    assert md_code("`x`") == "`` `x` ``"


def test_a_known_failing_property_is_skipped_with_its_reason(tmp_path):
    shrunk = float_failure()
    shrunk.outcome, shrunk.known_failure_reason = "xfailed", "issue 7: bleu rounded to 10 digits"
    properties = [
        {
            "id": "generated/bleu-corpus-compute/valid",
            "tool_id": BLEU,
            "version": "1.0.0",
            "family": "valid",
            "outcome": "xfailed",
            "message": "bleu differs beyond the tolerance",
            "examples": 12,
        }
    ]
    record = RunRecord(header=header(), results=[shrunk], properties=properties, exit_code=0)
    skipped = junit_cases(reports.write_reports(record, tmp_path)["junit"])["generated/bleu-corpus-compute/valid"].find(
        "skipped"
    )
    assert skipped.get("message") == "known failure: issue 7: bleu rounded to 10 digits"


def test_untrusted_header_strings(tmp_path):
    """The command line can hold undecodable bytes (surrogate-escaped) and the target spec anything."""
    record = RunRecord(
        header=header(command="conformance run --target \udcff\x1b", target=f"cmd:{SCRIPT}"),
        results=[simple("passed", "bleu-corpus-compute/1.0.0/basics#identity")],
    )
    paths = reports.write_reports(record, tmp_path)
    page = read(paths["html"])
    assert "<title>Conformance report: cmd:&lt;script&gt;" in page and "<script>" not in page
    assert "`conformance run --target ⟨U+DCFF⟩⟨U+001B⟩`" in read(paths["markdown"])
    assert json.loads(read(paths["json"]))["header"]["command"] == "conformance run --target \udcff\x1b"
    # the JUnit suite properties carry the header: still well-formed XML
    properties = {
        p.get("name"): p.get("value") for p in ElementTree.fromstring(paths["junit"].read_bytes()).iter("property")
    }
    assert properties["command"] == "conformance run --target ⟨U+DCFF⟩⟨U+001B⟩"


def test_harness_errors_explain_an_inconclusive_run(tmp_path):
    record = RunRecord(
        header=header(harness_errors=["conformance/suite.py::test_fixture (call): KeyError: 'expect'"]), exit_code=3
    )
    paths = reports.write_reports(record, tmp_path)
    markdown = read(paths["markdown"])
    assert (
        "## Harness errors (1)" in markdown
        and "- `conformance/suite.py::test_fixture (call): KeyError: 'expect'`" in markdown
    )
    assert "harness_errors" not in markdown  # not repeated in the run table
    assert "<li><code>conformance/suite.py::test_fixture (call): KeyError: &#x27;expect&#x27;</code></li>" in read(
        paths["html"]
    )


def test_run_table(written):
    text = read(written["markdown"])
    # started 09:00:00.000, finished 09:00:42.500
    assert "| finished (UTC) | `2026-11-30T09:00:42.500Z` |\n| duration | `42.5 s` |" in text
    assert "| strict | `no` |" in text


def test_an_over_rejection_shows_the_targets_own_words(written):
    text = read(written["markdown"])
    section = text.split("\n## Failures", 1)[1].split("basics#empty-hypothesis", 1)[1].split("\n### ", 1)[0]
    assert '**raw response**\n```text\n{"error":{"code":"invalid_input"}}\n```' in section


def test_markdown_renders_as_meant(written):
    """Rendered by a real CommonMark renderer with GitHub-style tables: every table row keeps its
    columns (no "|" from a value splits a cell) and no markup from the target becomes HTML."""
    markdown_it = pytest.importorskip("markdown_it")
    rendered = markdown_it.MarkdownIt("commonmark", {"html": True}).enable("table").render(read(written["markdown"]))
    page = parse_html(rendered)
    tags = [tag for tag, _ in page.tags]
    assert "script" not in tags and "b" not in tags and "em" not in tags
    assert "<script>alert('pwned')</script>" in "".join(page.text)  # shown, as text
    assert "metric differs: got <b>bold</b> | *not emphasis*" in "".join(page.text)
    for table in re.findall(r"<table>.*?</table>", rendered, flags=re.S):
        widths = {len(re.findall(r"<t[hd][ >]", row)) for row in re.findall(r"<tr>.*?</tr>", table, flags=re.S)}
        assert len(widths) == 1, table[:300]


def test_a_pipe_in_a_table_value_stays_in_its_cell(tmp_path):
    markdown_it = pytest.importorskip("markdown_it")
    record = RunRecord(header=header(command="conformance run --target 'cmd:impl | tee log'"))
    rendered = (
        markdown_it.MarkdownIt("commonmark")
        .enable("table")
        .render(read(reports.write_reports(record, tmp_path)["markdown"]))
    )
    assert "<td><code>conformance run --target 'cmd:impl | tee log'</code></td>" in rendered


def test_commands_stay_pasteable():
    # a chrF input with a no-break space and U+0085 (NEL, one of the contract's whitespace code points)
    curl = 'curl -sS --data-binary \'{"hypotheses":["a\u00a0b"],"references":["a\u0085b"]}\' http://h/x'
    shown, note = command_text(curl)
    assert shown == 'curl -sS --data-binary \'{"hypotheses":["a\u00a0b"],"references":["a⟨U+0085⟩b"]}\' http://h/x'
    assert "use the replay command instead" in note
    assert command_text("curl --data-binary '[\"a\u00a0b\u200b\"]'") == (
        "curl --data-binary '[\"a\u00a0b\u200b\"]'",
        "holds invisible or combining characters (U+00A0, U+200B) that copying may change: replay is exact",
    )
    assert command_text("conformance replay 'reports/latest/a b.json'") == (
        "conformance replay 'reports/latest/a b.json'",
        "",
    )


# ---------------------------------------------------------------- one run, the same counts everywhere


def test_every_output_counts_the_same_checks(tmp_path):
    """Each fixture case and each generated property is one check, whatever the output. This run:
    bleu fixtures identity passed, one-token passed, limits errored; chrF++ fixtures nbsp failed and
    basics passed; properties bleu valid passed (50 examples), bleu invalid skipped (unhealthy, no
    example), chrF++ valid failed (30 examples, one shrunk example recorded), chrF++ boundary passed
    (10 examples). Checks: passed 3 + 2 = 5, failed 1 + 1 = 2, errored 1, skipped 1: 9 in all, while
    report.json holds 6 results (5 fixture cases and the shrunk example)."""
    from conformance.reports import console

    shrunk = hostile_failure()
    results = [
        simple("passed", "bleu-corpus-compute/1.0.0/basics#identity"),
        simple("passed", "bleu-corpus-compute/1.0.0/basics#one-token", category="boundary"),
        errored(),
        whitespace_failure(),
        simple("passed", "chrf-plus-plus-compute/1.0.0/basics#empty", tool=CHRF),
        shrunk,
    ]
    properties = [
        {"tool_id": BLEU, "version": "1.0.0", "family": "valid", "examples": 50, "outcome": "passed"},
        {
            "tool_id": BLEU,
            "version": "1.0.0",
            "family": "invalid",
            "examples": 0,
            "outcome": "skipped",
            "message": "not finished: the target is unhealthy",
        },
        {"tool_id": CHRF, "version": "1.0.0", "family": "valid", "examples": 30, "outcome": "failed"},
        {"tool_id": CHRF, "version": "1.0.0", "family": "boundary", "examples": 10, "outcome": "passed"},
    ]
    record = RunRecord(header=header(), results=results, properties=properties, exit_code=1)
    paths = reports.write_reports(record, tmp_path)
    expected = {"passed": 5, "failed": 2, "errored": 1, "skipped": 1, "xfailed": 0, "fixed": 0}

    document = json.loads(read(paths["json"]))
    assert len(document["results"]) == 6
    assert document["totals"] == expected

    line = "5 passed · 2 failed · 1 errored · 1 skipped · 0 xfailed · 0 known failures now passing"
    assert line in read(paths["markdown"])

    page = read(paths["html"])
    totals_list = re.search(r'<ul class="totals">(.*?)</ul>', page).group(1)
    shown_totals = dict((o, int(n)) for n, o in re.findall(r"<li><b>(\d+)</b>([^<]+)</li>", totals_list))
    # in words: a known failure that passes now is never called "fixed" (that is a baseline's word)
    assert shown_totals == {"passed": 5, "failed": 2, "errored": 1, "skipped": 1, "xfailed": 0} | {
        "known failures now passing": 0
    }

    root = ElementTree.fromstring(paths["junit"].read_bytes())
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("9", "2", "1", "1")
    assert len(list(root.iter("testcase"))) == 9

    shown = console.summary(document, paths)
    assert line in shown
    rows = [row.split() for row in shown.splitlines() if row.startswith((BLEU, CHRF))]
    # tool, passed, failed, errored, skipped, xfailed, fixed, examples
    assert sorted(rows) == [
        [BLEU, "3", "0", "1", "1", "0", "0", "50"],
        [CHRF, "2", "2", "0", "0", "0", "0", "40"],
    ]
    assert shown.count("\nfailed · ") == 2  # the nbsp fixture and the shrunk chrF++ example, in full

"""Known failures: the file format, and xfailed / fixed / --strict in a real run."""

from __future__ import annotations

import json
import textwrap

import pytest

from conformance import known_failures
from conformance.known_failures import KnownFailure, KnownFailuresError
from conformance.model import Case, CaseResult, Expectation

BLEU = "bleu-corpus-compute"
# The contract's second worked example: c = 17 < r = 18, the one fixture of the "examples"
# topic whose brevity penalty is below 1 (0.942873), so the only one an inverted ratio breaks.
EXAMPLE_2 = "bleu-corpus-compute/1.0.0/examples#contract-example-2-three-segments"
# brevity penalty exp(1 - c/r) instead of exp(1 - r/c), as in tests/test_runner.py
INVERTED_BREVITY_PENALTY = """
    import math
    import oracle

    def execute(tool_id, version, payload):
        output = oracle.execute(tool_id, version, payload)
        c, r = output.get("candidate_length"), output.get("reference_length")
        if 0 < c < r:
            output["brevity_penalty"] = round(math.exp(1 - c / r), payload.get("decimals", 15))
        return output
"""


@pytest.mark.parametrize(
    "data, message",
    [
        ([], "expected an object"),
        ({"known_failures": {}}, "expected an object"),
        ({"known_failures": [], "extra": 1}, "unknown key"),
        ({"known_failures": [{"id": "x"}]}, "needs a reason"),
        ({"known_failures": [{"id": "x", "reason": "  "}]}, "needs a reason"),
        ({"known_failures": [{"reason": "r"}]}, "id is required"),
        ({"known_failures": [{"id": "x", "reason": "r", "why": 1}]}, "unknown key"),
        ({"known_failures": [{"id": "x", "reason": "r", "target": 5}]}, "target"),
        ({"known_failures": [{"id": "x", "reason": "r"}, {"id": "x", "reason": "s"}]}, "listed twice"),
    ],
)
def test_malformed_files_are_rejected_with_the_place(data, message):
    with pytest.raises(KnownFailuresError, match=message):
        known_failures.parse(data)


def test_entries_apply_to_their_target_only():
    entries = known_failures.parse(
        {
            "known_failures": [
                {"id": "a", "reason": "everywhere"},
                {"id": "b", "reason": "only there", "target": "http://there"},
            ]
        }
    )
    assert set(known_failures.for_target(entries, "http://there")) == {"a", "b"}
    assert set(known_failures.for_target(entries, "oracle")) == {"a"}


def test_unmatched_ids_are_named():
    entries = [KnownFailure("a", "r"), KnownFailure("typo", "r")]
    assert known_failures.unmatched(entries, {"a", "b"}) == ["typo"]


def test_entries_from_run_use_the_failure_message_and_property_ids():
    def result(case_id, origin, outcome, message, reason=""):
        case = Case(BLEU, "1.0.0", case_id, origin, "valid", {}, Expectation("output"))
        return CaseResult(case, outcome, message=message, known_failure_reason=reason)

    results = [
        result("t/1.0.0/x#a", "fixture", "failed", "at /bleu: expected 1, got 2\nmore detail"),
        result("t/1.0.0/x#b", "fixture", "passed", ""),
        result("generated/t/valid/fam/7", "generated", "errored", "timed out"),
        result("t/1.0.0/x#c", "fixture", "xfailed", "still wrong", reason="issue 12"),
    ]
    entries = known_failures.entries_from_run(results, lambda case: case.case_id.rsplit("/", 1)[0])
    assert entries == [
        {"id": "generated/t/valid/fam", "reason": "timed out"},
        {"id": "t/1.0.0/x#a", "reason": "at /bleu: expected 1, got 2"},
        {"id": "t/1.0.0/x#c", "reason": "issue 12"},
    ]


@pytest.fixture
def run_suite(tmp_path, monkeypatch, capfd):
    """`conformance run` in this process (the suite is pytest-native) on a 4-test slice."""
    from conformance.cli import main

    (tmp_path / "inverted_bp_kf.py").write_text(textwrap.dedent(INVERTED_BREVITY_PENALTY), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)

    def run(target: str, *extra: str) -> tuple[int, dict | None, str]:
        code = main(
            [
                "run",
                "--target",
                target,
                "--tools",
                BLEU,
                "--profile",
                "quick",
                "--seed",
                "1",
                "-k",
                "examples or short-and-empty",
                "--report-dir",
                "out",
                *extra,
            ]
        )
        out, err = capfd.readouterr()
        report_path = tmp_path / "out" / "report.json"
        record = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else None
        if report_path.exists():
            report_path.unlink()
        return code, record, out + err

    return run


def outcome_of(record: dict, case_id: str) -> str:
    return next(result["outcome"] for result in record["results"] if result["case"]["case_id"] == case_id)


@pytest.mark.slow  # four whole runs in a row (the file's other tests check each step alone)
def test_write_then_expect_then_fixed_then_strict(run_suite, tmp_path):
    code, record, output = run_suite("python:inverted_bp_kf", "--write-known-failures", "known.json")
    assert code == 1, output
    written = json.loads((tmp_path / "known.json").read_text(encoding="utf-8"))["known_failures"]
    ids = {entry["id"] for entry in written}
    assert EXAMPLE_2 in ids and "generated/bleu-corpus-compute/valid/short-and-empty" in ids
    assert all(entry["reason"] and "TODO" not in entry["reason"] for entry in written)

    code, record, output = run_suite("python:inverted_bp_kf", "--known-failures", "known.json")
    assert code == 0, output
    assert outcome_of(record, EXAMPLE_2) == "xfailed"
    assert record["totals"]["failed"] == 0 and record["totals"]["xfailed"] == len(written)

    code, record, output = run_suite("oracle", "--known-failures", "known.json")
    assert code == 0, output
    assert not list((tmp_path / "out" / "reproducers").glob("*.json")), "the failing runs' reproducers are gone"
    assert outcome_of(record, EXAMPLE_2) == "fixed"
    assert outcome_of(record, "generated/bleu-corpus-compute/valid/short-and-empty") == "fixed"

    code, record, output = run_suite("oracle", "--known-failures", "known.json", "--strict")
    assert code == 1, output
    assert "now passes" in output or "fixed" in output


def test_an_id_matching_nothing_is_a_usage_error(run_suite, tmp_path):
    (tmp_path / "typo.json").write_text(
        json.dumps(
            {
                "known_failures": [
                    {"id": EXAMPLE_2, "reason": "bp inverted"},
                    {"id": "bleu-corpus-compute/1.0.0/examples#no-such-case", "reason": "a typo"},
                ]
            }
        ),
        encoding="utf-8",
    )
    code, record, output = run_suite("oracle", "--known-failures", "typo.json")
    assert code == 2
    assert "examples#no-such-case" in output and record is None

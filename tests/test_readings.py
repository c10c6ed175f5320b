"""Readings in the report: the cases that passed only under another reading of an open point.

The independent implementation (tests/independent/) takes the other reading of A4 (the
chrF++ corpus sums drop a segment's hypothesis n-grams of an order its reference lacks, as
sacreBLEU does); a run against it must list those cases under A4, with that reading, in
report.json, report.md, report.html and the console; a run against the oracle lists none.
"""

from __future__ import annotations

import json
from pathlib import Path

import oracle
from conformance import compare
from conformance.compare.readings import readings_taken
from conformance.model import Case, Expectation, TargetResponse

TESTS_DIR = Path(__file__).resolve().parent
CHRF = "chrf-plus-plus-compute"
A4_READING = "A4: corpus sums drop hypothesis n-grams of orders the reference lacks"
# Segment 2's reference "b" has no character bigram while its hypothesis "bc" has one ("bc"):
# the contract's text sums it into the corpus bigram totals, sacreBLEU's reading drops it.
TOUCHES_A4 = {"hypotheses": ["ab", "bc"], "references": ["ab", "b"]}


def judged(output: dict) -> list[tuple[str, str]]:
    case = Case(CHRF, "1.0.0", "t#a4", "fixture", "valid", TOUCHES_A4, Expectation("output"))
    expected = compare.expect(case)
    response = TargetResponse("result", result=output)
    return readings_taken(case, expected, response, compare.judge(case, expected, response))


def test_an_answer_under_the_other_reading_of_a4_is_named_by_point():
    import sys

    sys.path.insert(0, str(TESTS_DIR))
    try:
        import independent
    finally:
        sys.path.remove(str(TESTS_DIR))
    other = independent.execute(CHRF, "1.0.0", TOUCHES_A4)
    assert other != oracle.execute(CHRF, "1.0.0", TOUCHES_A4), "the input must tell the readings apart"
    assert judged(other) == [("A4", A4_READING)]


def test_the_oracles_own_reading_and_a_wrong_answer_name_no_reading():
    own = oracle.execute(CHRF, "1.0.0", TOUCHES_A4)
    assert judged(own) == []
    assert judged({**own, "score": "0.00"}) == [], "a failing answer took no reading"


def run(tmp_path: Path, monkeypatch, capfd, target: str, report_dir: str) -> tuple[int, str]:
    from conformance.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(TESTS_DIR))
    code = main(
        [
            "run",
            "--target",
            target,
            "--tools",
            CHRF,
            "--generated-only",
            "--families",
            "valid/missing-orders",
            "--profile",
            "quick",
            "--seed",
            "2",
            "--report-dir",
            report_dir,
        ]
    )
    out, err = capfd.readouterr()
    return code, out + err


def test_a_run_lists_the_readings_the_target_took_in_every_report(tmp_path, monkeypatch, capfd):
    code, output = run(tmp_path, monkeypatch, capfd, "python:independent", "other")
    assert code == 0, output
    directory = tmp_path / "other"
    readings = json.loads((directory / "report.json").read_text(encoding="utf-8"))["readings"]
    assert list(readings) == ["A4"]
    entry = readings["A4"]
    assert entry["reading"] == A4_READING and entry["count"] >= 1
    assert all(case.startswith(f"generated/{CHRF}/valid/missing-orders/") for case in entry["cases"])
    markdown = (directory / "report.md").read_text(encoding="utf-8")
    page = (directory / "report.html").read_text(encoding="utf-8")
    for text in (markdown, page, output):
        assert "Readings of open points" in text or "readings of open points" in text
        assert A4_READING in text and entry["cases"][0] in text

    code, output = run(tmp_path, monkeypatch, capfd, "oracle", "own")
    assert code == 0, output
    assert json.loads((tmp_path / "own" / "report.json").read_text(encoding="utf-8"))["readings"] == {}
    assert "Readings of open points" not in (tmp_path / "own" / "report.md").read_text(encoding="utf-8")
    assert "readings of open points" not in output

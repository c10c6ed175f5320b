"""Values nested deeper than anything the contracts allow: reported, never a crash.

A ``python:`` target can answer a list nested 100,000 deep (or a cycle), a wire target can send
``[[[[...]]]]`` within the size cap, and a case can hold one. The record keeps every value to
the depth the strict JSON parser accepts (conformance.jsonio.MAX_NESTING levels) and cuts the
rest with a note, so report.json, the other views, reproducers and replay walk no deeper.
"""

from __future__ import annotations

import json
import textwrap

import pytest

import oracle
from conformance.jsonio import MAX_NESTING, parse_json
from conformance.model import CUT_NOTE, Case, CaseResult, Expectation, Mismatch, RunRecord, TargetResponse
from conformance.targets.base import read_envelope

DEPTHS = (500, 5_000, 100_000)
BP, V = "bleu-brevity-penalty", "1.0.0"
CORPUS = "bleu-corpus-compute"


def nested(levels: int, inner=None) -> list:
    """``levels`` arrays, one inside the other, around ``inner`` (nothing when None): ``nested(2)`` is ``[[]]``."""
    value: list = [] if inner is None else [inner]
    for _ in range(levels - 1):
        value = [value]
    return value


def deep_result(depth: int) -> CaseResult:
    case = Case(
        CORPUS,
        V,
        f"generated/{CORPUS}/invalid/deep/1",
        "generated",
        "invalid",
        {"hypotheses": nested(depth), "references": [[["a"]]]},
        Expectation("error", "invalid_input"),
    )
    response = TargetResponse("result", result={"bleu": nested(depth)})
    mismatch = Mismatch("", None, nested(depth), "answered an input the contract rejects")
    return CaseResult(
        case, "failed", "answered an input the contract rejects", mismatch, response, expected=nested(depth)
    )


def test_the_record_keeps_whole_what_the_parser_accepts_and_cuts_one_level_more():
    accepted = parse_json("[" * MAX_NESTING + "]" * MAX_NESTING)
    with pytest.raises(oracle.ContractError):
        parse_json("[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1))
    kept = TargetResponse("result", result=accepted).to_dict()["result"]
    assert kept == nested(MAX_NESTING)
    cut = TargetResponse("result", result=nested(MAX_NESTING + 1)).to_dict()["result"]
    assert cut == nested(MAX_NESTING, CUT_NOTE)  # the 65th array replaced by the note


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_deep_input_answer_and_difference_are_cut_in_the_record(depth):
    record = deep_result(depth).to_dict()
    json.dumps(record)  # plain JSON now, as report.json and the reproducer need
    # {"hypotheses": [...]}: the object is the first level, so 63 arrays are kept around the note
    assert record["case"]["input"]["hypotheses"] == nested(MAX_NESTING - 1, CUT_NOTE)
    assert record["response"]["result"]["bleu"] == nested(MAX_NESTING - 1, CUT_NOTE)
    assert record["mismatch"]["actual"] == record["expected"] == nested(MAX_NESTING, CUT_NOTE)
    assert record["case"]["input"]["references"] == [[["a"]]]


def test_a_cycle_is_cut_too():
    loop: list = []
    loop.append(loop)
    assert TargetResponse("result", result={"bleu": loop}).to_dict()["result"] == {
        "bleu": nested(MAX_NESTING - 1, CUT_NOTE)
    }


@pytest.mark.parametrize("depth", DEPTHS)
def test_every_report_of_a_deep_case_is_written(depth, tmp_path):
    from conformance.reports import summary, write_reports
    from conformance.reports.document import report_document

    record = RunRecord(
        header={
            "target": "python:deep",
            "seed": 1,
            "profile": "quick",
            "contracts": [f"{CORPUS}@{V}"],
            "started": "2026-01-01T00:00:00.000Z",
            "finished": "2026-01-01T00:00:01.000Z",
            "suite_version": "0",
            "python": "3",
            "platform": "x",
            "command": "c",
            "strict": False,
            "retries": 0,
        },
        results=[deep_result(depth)],
        exit_code=1,
    )
    paths = write_reports(record, tmp_path)
    document = json.loads(paths["json"].read_text(encoding="utf-8"))
    assert document["results"][0]["case"]["input"]["hypotheses"] == nested(MAX_NESTING - 1, CUT_NOTE)
    for kind in ("markdown", "html", "junit"):
        assert "generated/bleu-corpus-compute/invalid/deep/1" in paths[kind].read_text(encoding="utf-8")
    assert "NOT CONFORMANT" in summary(report_document(record)).upper()


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_reproducer_of_a_deep_case_is_written_and_replays(depth, tmp_path):
    from conformance.replay import read_reproducer, write_reproducer

    path = write_reproducer(tmp_path, deep_result(depth), "oracle", 1)
    case, data = read_reproducer(path)
    assert case.input["hypotheses"] == nested(MAX_NESTING - 1, CUT_NOTE)
    assert data["actual"]["result"]["bleu"] == nested(MAX_NESTING - 1, CUT_NOTE)


@pytest.mark.parametrize("depth", DEPTHS)
def test_replaying_a_file_nested_past_the_limit_is_a_usage_error(depth, tmp_path, capsys):
    from conformance.cli import main

    text = json.dumps(
        {
            "format": "conformance-reproducer/1",
            "target": "oracle",
            "case": {
                "tool_id": CORPUS,
                "version": V,
                "case_id": "x",
                "origin": "generated",
                "category": "invalid",
                "input": {"hypotheses": "HERE", "references": [[["a"]]]},
                "expect": {"kind": "error"},
            },
        }
    )
    (tmp_path / "deep.json").write_text(text.replace('"HERE"', "[" * depth + "]" * depth), encoding="utf-8")
    assert main(["replay", str(tmp_path / "deep.json")]) == 2
    err = capsys.readouterr().err
    assert "deep.json" in err and "nested" in err and "Traceback" not in err


@pytest.mark.parametrize("depth", DEPTHS)
def test_the_oracle_rejects_a_deep_input(depth):
    with pytest.raises(oracle.ContractError) as caught:
        oracle.execute(CORPUS, V, {"hypotheses": nested(depth), "references": [[["a"]]]})
    assert caught.value.code == "invalid_input" and caught.value.message.startswith("hypotheses")


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_deep_answer_on_the_wire_is_garbage_named_as_such(depth):
    envelope = read_envelope(b'{"result": {"bleu": ' + b"[" * depth + b"]" * depth + b"}}")
    assert envelope.kind == "garbage" and f"deeper than {MAX_NESTING} levels" in envelope.not_json


DEEP_ANSWER = """
    import os
    import oracle

    def execute(tool_id, version, payload):
        output = oracle.execute(tool_id, version, payload)
        value = []
        for _ in range(int(os.environ["DEPTH"])):
            value = [value]
        return {**output, "closest_reference_lengths": value}
"""


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_run_against_a_target_answering_deep_values_reports_them(depth, tmp_path, monkeypatch, capfd):
    """The whole run: judged (exit 1, not a harness error), every report and reproducer written, replayed."""
    from conformance.cli import main

    (tmp_path / "deep_answer.py").write_text(textwrap.dedent(DEEP_ANSWER), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("DEPTH", str(depth))
    code = main(
        [
            "run",
            "--target",
            "python:deep_answer",
            "--tools",
            BP,
            "--fixtures-only",
            "-k",
            "closest-not-first",
            "--report-dir",
            "out",
        ]
    )
    output = "".join(capfd.readouterr())
    assert code == 1, output
    assert "HARNESS ERROR" not in output and "NOT conformant" in output
    document = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    [failed] = [result for result in document["results"] if result["outcome"] == "failed"]
    assert failed["response"]["result"]["closest_reference_lengths"] == nested(MAX_NESTING - 1, CUT_NOTE)
    assert all((tmp_path / "out" / name).is_file() for name in ("report.md", "report.html", "junit.xml"))
    assert main(["replay", failed["reproducer_file"]]) == 1
    assert "still fails" in "".join(capfd.readouterr())

"""Reproducer files: written by a run, re-sent by `conformance replay`, promotable into fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import oracle
from conformance.cli import main
from conformance.model import Case, CaseResult, Expectation, Mismatch, TargetResponse
from conformance.replay import read_reproducer, safe_name, write_reproducer

TOOL, VERSION = "bleu-corpus-compute", "1.0.0"
EXAMPLE = oracle.load_contract(TOOL, VERSION)["examples"][1]  # c = 17 < r = 18, decimals 6


def saved_failure(directory: Path, target: str = "oracle", case_input=None) -> Path:
    """A reproducer as `conformance run` writes it for a wrong brevity penalty on the contract's example."""
    case = Case(
        TOOL,
        VERSION,
        "generated/bleu-corpus-compute/valid/shared-ngrams/17",
        "generated",
        "valid",
        case_input if case_input is not None else EXAMPLE["input"],
        Expectation("output"),
        "the contract's worked example",
        seed=99,
    )
    wrong = {**EXAMPLE["output"], "brevity_penalty": 1.057128}
    result = CaseResult(
        case,
        "failed",
        message="at /brevity_penalty: expected 0.942873, got 1.057128",
        mismatch=Mismatch("/brevity_penalty", 0.942873, 1.057128, "differs"),
        response=TargetResponse("result", result=wrong),
        expected=EXAMPLE["output"],
    )
    return write_reproducer(directory, result, target, 99)


def test_reproducer_round_trips(tmp_path):
    path = saved_failure(tmp_path)
    assert path.name == "generated_bleu-corpus-compute_valid_shared-ngrams_17.json"
    case, data = read_reproducer(path)
    assert case.input == EXAMPLE["input"] and case.expect == Expectation("output") and case.seed == 99
    assert data["actual"]["result"]["brevity_penalty"] == 1.057128 and data["target"] == "oracle"


def test_lone_surrogates_survive_the_file(tmp_path):
    payload = {"hypotheses": ["a\ud800"], "references": ["a"]}
    case, _ = read_reproducer(saved_failure(tmp_path, case_input=payload))
    assert case.input == payload


def test_safe_names_stay_in_the_directory():
    assert safe_name("../../etc/passwd#x y") == "etc_passwd_x_y"
    assert safe_name("bleu-corpus-compute/1.0.0/examples#a") == "bleu-corpus-compute_1.0.0_examples_a"


def test_replay_exit_codes(tmp_path, capsys):
    path = saved_failure(tmp_path, target="oracle")
    assert main(["replay", str(path)]) == 0, "the oracle passes its own example"
    assert "passes now" in capsys.readouterr().out

    wrong_target = tmp_path / "wrong_bp_replay.py"
    wrong_target.write_text(
        "import oracle\n"
        "def execute(tool_id, version, payload):\n"
        "    output = oracle.execute(tool_id, version, payload)\n"
        "    output['brevity_penalty'] = 1.057128  # exp(1 - 17/18), the inverted ratio\n"
        "    return output\n",
        encoding="utf-8",
    )
    import sys

    sys.path.insert(0, str(tmp_path))
    try:
        assert main(["replay", str(path), "--target", "python:wrong_bp_replay"]) == 1
    finally:
        sys.path.remove(str(tmp_path))
    out = capsys.readouterr().out
    assert "still fails" in out and "/brevity_penalty" in out and "0.942873" in out


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json", "not JSON"),
        ('{"format": "something-else"}', "not a reproducer"),
        ('{"format": "conformance-reproducer/1", "case": {"tool_id": 1}}', "malformed case"),
    ],
)
def test_unreadable_reproducers_are_usage_errors(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_a_reproducer_without_a_target_needs_the_target_option(tmp_path, capsys):
    """The schema requires only format and case: such a file replays with --target, and without it
    is a usage error naming the option (it was a KeyError traceback)."""
    data = json.loads(saved_failure(tmp_path).read_text(encoding="utf-8"))
    del data["target"]
    path = tmp_path / "no_target.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "--target" in err and "no_target.json" in err and "Traceback" not in err
    assert main(["replay", str(path), "--target", "oracle"]) == 0


def test_missing_file_is_a_usage_error(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_promote_adds_a_valid_fixture_case(tmp_path, capsys):
    from conformance.fixtures import schema

    path = saved_failure(tmp_path)
    fixture = tmp_path / "fixtures" / TOOL / VERSION / "regressions.json"
    published = tmp_path / "fixtures" / "published-ids.txt"
    published.parent.mkdir(parents=True)
    published.write_text("# ids\n", encoding="utf-8")
    assert main(["replay", str(path), "--promote", str(fixture), "--id", "contract-example-two"]) == 0
    assert (
        published.read_text(encoding="utf-8").splitlines()[-1] == f"{TOOL}/{VERSION}/regressions#contract-example-two"
    )
    data = json.loads(fixture.read_text(encoding="utf-8"))
    jsonschema.validate(data, schema())
    (promoted,) = data["cases"]
    assert promoted["id"] == "contract-example-two" and promoted["input"] == EXAMPLE["input"]
    assert promoted["expect"] == {"output": EXAMPLE["output"]}, "the expectation is the contract's own output"

    assert main(["replay", str(path), "--promote", str(fixture), "--id", "contract-example-two"]) == 2
    assert "already has" in capsys.readouterr().err
    assert main(["replay", str(path), "--promote", str(tmp_path / "elsewhere.json"), "--id", "x"]) == 2
    assert main(["replay", str(path), "--promote", str(fixture), "--id", "Not Kebab"]) == 2

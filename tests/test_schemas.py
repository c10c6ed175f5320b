"""The JSON Schemas of the project's own file formats (conformance/schemas/).

Each is valid Draft 2020-12 and ships inside the package; what the project writes
validates against them: reproducers of a run, known-failures files of
``--write-known-failures``, and ``conformance exec`` output (the command protocol).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap
from pathlib import Path

import jsonschema
import pytest

import conformance
from conformance import known_failures, schemas
from conformance.model import Case, CaseResult, Expectation, Mismatch, TargetResponse
from conformance.replay import read_reproducer, write_reproducer

PYTHON = sys.executable
BLEU, VERSION = "bleu-corpus-compute", "1.0.0"
PACKAGE_DIR = Path(conformance.__file__).resolve().parent


def validate(name: str, document) -> None:
    """Raise with the offending pointer when ``document`` does not match schema ``name``."""
    error = schemas.first_error(name, document)
    assert error is None, f"{name}: {schemas.explain(error)}"


@pytest.mark.parametrize("name", schemas.NAMES)
def test_each_schema_is_valid_draft_2020_12_and_ships_in_the_package(name):
    path = schemas.schema_path(name)
    assert path.parent == PACKAGE_DIR / "schemas" and path.is_file()
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"].endswith(f"/{name}.schema.json")


# ---------------------------------------------------------------- the command protocol


def exec_output(tool: str, stdin: str) -> tuple[int, object]:
    completed = subprocess.run(
        [PYTHON, "-m", "conformance", "exec", tool], input=stdin.encode("utf-8"), capture_output=True, timeout=120
    )
    return completed.returncode, json.loads(completed.stdout)


@pytest.mark.parametrize(
    "tool, stdin, exit_code, kind",
    [
        (
            f"{BLEU}@{VERSION}",
            json.dumps({"hypotheses": [["the", "cat"]], "references": [[["the", "cat"]]]}),
            0,
            "result",
        ),
        (
            "bleu-ngrams-count@1.0.0",
            json.dumps({"hypotheses": [["a", "b"]], "references": [[["a", "b", "a"]]], "max_order": 2}),
            0,
            "result",
        ),
        (
            "chrf-plus-plus-compute@1.0.0",
            json.dumps({"hypotheses": ["the cat"], "references": ["the cat"]}),
            0,
            "result",
        ),
        (f"{BLEU}@{VERSION}", json.dumps({"hypotheses": [["the"]], "references": []}), 1, "error"),  # invalid input
        (f"{BLEU}@{VERSION}", json.dumps({"hypotheses": [["the"]]}), 1, "error"),  # a required field missing
        (f"{BLEU}@{VERSION}", "not json", 1, "error"),
        (f"{BLEU}@{VERSION}", '{"a": 1, "a": 2}', 1, "error"),  # duplicate keys
        ("no-such-tool@1.0.0", "{}", 1, "error"),
    ],
)
def test_exec_output_follows_the_command_protocol(tool, stdin, exit_code, kind):
    code, body = exec_output(tool, stdin)
    assert code == exit_code
    validate("command-protocol", body)
    assert set(body) == {kind}
    if kind == "error":
        assert body["error"]["code"] in ("invalid_input", "limit_exceeded", "not_found")


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"result": {"bleu": 1.0}, "error": {"code": "invalid_input", "message": "m"}},
        {"result": [1, 2]},
        {"error": "invalid_input"},
        {"error": {"code": "invalid_input"}},
        {"error": {"code": "", "message": "m"}},
        [],
        "result",
    ],
)
def test_the_command_protocol_schema_rejects_other_shapes(body):
    assert schemas.first_error("command-protocol", body) is not None


# ---------------------------------------------------------------- reproducers


def case(**changes) -> Case:
    fields = dict(
        tool_id=BLEU,
        version=VERSION,
        case_id="generated/bleu-corpus-compute/valid/shared-ngrams/3",
        origin="generated",
        category="valid",
        input={"hypotheses": [["a"]], "references": [[["a"]]]},
        expect=Expectation("output"),
        description="a generated example",
        seed=7,
    )
    return Case(**{**fields, **changes})


RESULTS = {
    "wrong output": CaseResult(
        case(),
        "failed",
        message="at /bleu: expected 1.0, got 0.5",
        mismatch=Mismatch("/bleu", 1.0, 0.5, "differs", delta=0.5, tolerance=1e-12),
        response=TargetResponse("result", result={"bleu": 0.5}, status=None, duration_ms=1.5),
        expected={"bleu": 1.0},
    ),
    "infinite delta": CaseResult(
        case(),
        "failed",
        message="overflow",
        mismatch=Mismatch("/bleu", 1.0, 1e308, "differs", delta=math.inf, tolerance=0.0),
        response=TargetResponse("result", result={"bleu": 1e308}),
        expected={"bleu": 1.0},
    ),
    "answered an invalid input": CaseResult(
        case(
            category="invalid",
            expect=Expectation("error", error_code="limit_exceeded"),
            input={"hypotheses": ["a\ud800"]},
        ),
        "failed",
        message="answered an invalid input",
        response=TargetResponse("result", result={"bleu": 0.0}),
        expected={"error": "limit_exceeded"},
    ),
    "transport error": CaseResult(
        case(),
        "errored",
        message="timed out",
        response=TargetResponse("transport_error", status=-9, raw="", detail="timed out after 10 s", retries=1),
    ),
    "no response": CaseResult(case(), "errored", message="harness gave up"),
    "fixture case": CaseResult(
        case(
            case_id=f"{BLEU}/{VERSION}/examples#contract-example-2",
            origin="fixture",
            seed=None,
            tags=["example"],
            expect=Expectation("output", output={"bleu": 0.5}),
        ),
        "failed",
        message="differs",
        mismatch=Mismatch("", {"bleu": 0.5}, None, "no output"),
        response=TargetResponse("rejection", status=400, error_code="invalid_input", raw='{"error": "x"}'),
        expected={"bleu": 0.5},
    ),
}


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_written_reproducers_validate_and_read_back(name, tmp_path):
    path = write_reproducer(tmp_path, RESULTS[name], "cmd:my-tool {tool} {version}", 11)
    document = json.loads(path.read_text(encoding="utf-8"))
    validate("reproducer", document)
    # the run writes every key the schema describes
    assert set(document) == set(schemas.load_schema("reproducer")["properties"])
    assert set(document["case"]) == set(schemas.load_schema("reproducer")["$defs"]["case"]["properties"])
    read_case, data = read_reproducer(path)
    assert read_case == RESULTS[name].case and data == document


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


def test_reproducers_and_known_failures_of_a_real_run_validate(tmp_path, monkeypatch, capfd):
    from conformance.cli import main

    (tmp_path / "inverted_bp_schemas.py").write_text(textwrap.dedent(INVERTED_BREVITY_PENALTY), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    code = main(
        [
            "run",
            "--target",
            "python:inverted_bp_schemas",
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
            "--write-known-failures",
            "known.json",
        ]
    )
    output = "".join(capfd.readouterr())
    assert code == 1, output
    files = sorted((tmp_path / "out" / "reproducers").glob("*.json"))
    assert files, output
    origins = set()
    for path in files:
        document = json.loads(path.read_text(encoding="utf-8"))
        validate("reproducer", document)
        origins.add(document["case"]["origin"])
    assert origins == {"fixture", "generated"}
    validate("known-failures", json.loads((tmp_path / "known.json").read_text(encoding="utf-8")))


# ---------------------------------------------------------------- known failures


def test_written_known_failures_validate_and_parse_back(tmp_path):
    entries = [{"id": "generated/t/valid/fam", "reason": "timed out"}, {"id": "t/1.0.0/x#a", "reason": "issue 12"}]
    path = known_failures.write(tmp_path / "known.json", entries)
    validate("known-failures", json.loads(path.read_text(encoding="utf-8")))
    assert [entry.id for entry in known_failures.load(path)] == ["generated/t/valid/fam", "t/1.0.0/x#a"]


@pytest.mark.parametrize(
    "data, pointer",
    [
        ({"known_failures": [{"id": "x", "reason": "r"}, {"id": "y"}]}, "/known_failures/1/reason"),
        ({"known_failures": [{"id": "x", "reason": "r", "target": ["a"]}]}, "/known_failures/0/target"),
        ({"known_failures": [{"id": "x", "reason": "r"}, "y"]}, "/known_failures/1"),
    ],
)
def test_known_failure_messages_name_the_file_and_the_field(data, pointer, tmp_path):
    path = tmp_path / "kf.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(known_failures.KnownFailuresError) as error:
        known_failures.load(path)
    message = str(error.value)
    assert message.startswith(f"{path}: {pointer}: ")


def test_a_null_target_means_every_target_as_before():
    (entry,) = known_failures.parse({"known_failures": [{"id": "x", "reason": " r ", "target": None}]})
    assert entry == known_failures.KnownFailure("x", "r", None)


def test_reproducer_messages_name_the_file_and_the_field(tmp_path):
    path = write_reproducer(tmp_path, RESULTS["wrong output"], "oracle", 1)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["case"]["expect"]["kind"] = "answer"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ValueError) as error:
        read_reproducer(path)
    assert str(error.value).startswith(f"{path}: malformed case: /case/expect/kind: expected one of ")

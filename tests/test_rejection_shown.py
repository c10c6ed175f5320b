"""A target's rejection of a valid input is shown as the target sent it: its own error body.

(Issue: a ``cmd:`` rejection showed ``{"message": "error body"}``, the transport's label, as
the actual answer, instead of the code and message the target wrote.)
"""

from __future__ import annotations

import json
import shlex
import sys

from conformance import compare
from conformance.cli import main
from conformance.model import Case, Expectation, TargetResponse

PYTHON = shlex.quote(sys.executable)
BLEU, VERSION = "bleu-corpus-compute", "1.0.0"
# The contract's first example: a perfect match, bleu 1.
EXAMPLE = {"hypotheses": [["this", "is", "a", "test"]], "references": [[["this", "is", "a", "test"]]]}
OWN_BODY = {"error": {"code": "invalid_input", "message": "hypotheses[0][2]: tokens of one letter are not supported"}}


def judged(response: TargetResponse):
    case = Case(BLEU, VERSION, "test/rejection-shown", "fixture", "valid", EXAMPLE, Expectation("output"))
    return compare.judge(case, compare.expect(case), response)


def test_a_command_s_error_body_is_the_actual_answer(tmp_path, monkeypatch, capfd):
    reject_all = f"cmd:printf '%s' {shlex.quote(json.dumps(OWN_BODY))}"
    monkeypatch.chdir(tmp_path)
    code = main(
        [
            "run",
            "--target",
            reject_all,
            "--tools",
            BLEU,
            "--fixtures-only",
            "-k",
            "contract-example-1",
            "--report-dir",
            "out",
        ]
    )
    out, err = capfd.readouterr()
    assert code == 1, out + err
    record = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    failure = next(result for result in record["results"] if result["outcome"] == "failed")
    assert failure["mismatch"]["actual"] == OWN_BODY
    assert "tokens of one letter are not supported" in failure["message"]
    markdown = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "tokens of one letter are not supported" in markdown
    assert '"message":"error body"' not in markdown.replace(" ", "")


def test_an_http_error_body_is_the_actual_answer():
    body = json.dumps(OWN_BODY)
    verdict = judged(
        TargetResponse("rejection", status=400, error_code="invalid_input", raw=body, detail="HTTP 400 invalid_input")
    )
    assert verdict.outcome == "failed" and verdict.mismatch.actual == OWN_BODY


def test_a_rejection_without_a_json_body_shows_its_code_and_the_target_s_words():
    # an in-process implementation raising an exception with a code: its text is all it said
    verdict = judged(
        TargetResponse("rejection", error_code="limit_exceeded", raw="too many tokens for me", detail="TooBig")
    )
    assert verdict.mismatch.actual == {"error": {"code": "limit_exceeded", "message": "too many tokens for me"}}
    assert verdict.message.endswith("too many tokens for me")


def test_an_http_rejection_without_an_error_body_is_told_as_the_transport_saw_it():
    verdict = judged(
        TargetResponse(
            "rejection", status=404, raw="<html>Not Found</html>", detail="HTTP 404 (no recognised error body)"
        )
    )
    assert verdict.message.endswith("HTTP 404 (no recognised error body)")
    assert verdict.mismatch.actual == {"error": {"code": None, "message": "<html>Not Found</html>"}}

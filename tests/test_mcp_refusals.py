"""An MCP server's own refusals (open point A17) and the one retry policy of the network targets.

The TypeScript SDK checks a tool's arguments against the schema it declares before the tool runs
and answers a violation with ``isError: true`` and plain text, not the contract's error body:

* to arguments that break the declared schema, that is a rejection refused by the server's MCP
  layer (no code: satisfies a case expecting a rejection; fails a valid-input case);
* to arguments that satisfy it, or with no usable schema declared, a malformed rejection: a
  failure whatever the case expects, never a transport error (so never the breaker's business);
* the declared schema is read from tools/list; one this suite cannot use is no schema.

Retries: a 503 with Retry-After is retried after that wait, as the HTTP target does (urllib3).
"""

from __future__ import annotations

import json
import time

import pytest
from faulty_mcp_servers import OBJECT_INPUT_SCHEMA, SDK_REFUSAL, mcp_server
from test_target_mcp import BLEU, INVALID, V, example, sse, tool_result
from urllib3.util.retry import RequestHistory, Retry

from conformance import compare
from conformance.cli import main
from conformance.compare.signature import failure_kind
from conformance.engine.health import MAX_CONSECUTIVE_TRANSPORT_ERRORS, HealthMonitor
from conformance.model import Case, CaseResult, Expectation, TargetResponse
from conformance.targets import make_target, mcp_schema
from conformance.targets.mcp import CallRecord, Exchange, classify_call
from conformance.targets.mcp_schema import declared_schema, no_schema
from conformance.targets.retry_policy import BACKOFF_SECONDS, wait_before_retry

BREVITY = "bleu-brevity-penalty"
REFUSED_BY = "the server's MCP input schema"
SDK_TEXT = SDK_REFUSAL + "array at input"
SDK_ANSWER = {"isError": True, "content": [{"type": "text", "text": SDK_TEXT}]}
OBJECT_SCHEMA = declared_schema(OBJECT_INPUT_SCHEMA)


def arguments(payload) -> dict:
    return {"id": BLEU, "version": V, "input": payload}


def answered(result: dict, schema, payload) -> TargetResponse:
    exchange = Exchange("tools/call", 7, 200, "text/event-stream", bytearray(sse(tool_result(result))))
    response, retryable = classify_call(CallRecord([exchange]), "", 1.0, 5.0, 100_000, schema, arguments(payload))
    assert not retryable  # an answer, whatever it says
    return response


# --- the declared schema ------------------------------------------------------------------------

DRAFT_2020 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {"input": {"type": "object"}},
    "required": ["input"],
}


WITHOUT_DIALECT = {key: value for key, value in DRAFT_2020.items() if key != "$schema"}


@pytest.mark.parametrize(
    "schema",
    [OBJECT_INPUT_SCHEMA, DRAFT_2020, WITHOUT_DIALECT],
    ids=["draft-07 (zod-to-json-schema)", "2020-12", "no $schema (MCP: 2020-12)"],
)
def test_a_declared_schema_tells_which_arguments_break_it(schema):
    declared = declared_schema(schema)
    assert declared.validator is not None, declared.absent
    assert declared.violation(arguments({"hypotheses": []})) is None
    for payload in ([1], "x", None):
        assert "input" in declared.violation(arguments(payload))
    assert declared.violation({"id": BLEU, "version": V}) is not None  # input missing


@pytest.mark.parametrize(
    "schema, says",
    [
        ({"$schema": "https://example.invalid/my-dialect", "type": "object"}, "is not one this suite knows"),
        ({"type": 3}, "not a valid JSON Schema"),
        (["type", "object"], "not an object"),
    ],
    ids=["unknown-$schema", "invalid", "not-an-object"],
)
def test_a_schema_the_suite_cannot_use_is_no_schema(schema, says):
    declared = declared_schema(schema)
    assert declared.validator is None and says in declared.absent
    assert declared.violation(arguments([1])) is None


def test_a_schema_that_cannot_be_evaluated_decides_nothing():
    declared = declared_schema({"type": "object", "properties": {"input": {"$ref": "https://example.invalid/s"}}})
    assert declared.violation(arguments([1])) is None  # the $ref is not fetched, and nothing raises


# A server's regular expression: (a+)+$ backtracks exponentially on a run of a's ending in another
# character (32 of them: minutes in Python's re, doubling with each a).
CATASTROPHIC = {"type": "object", "properties": {"id": {"type": "string", "pattern": "^(a+)+$"}}}
DIGITS_ONLY = {"type": "object", "properties": {"version": {"type": "string", "pattern": "^[0-9.]+$"}}}


def test_a_declared_pattern_is_evaluated_in_a_child_killed_in_time(monkeypatch):
    monkeypatch.setattr(mcp_schema, "EVALUATION_SECONDS", 1)
    declared = declared_schema(CATASTROPHIC)
    assert declared.isolated and not declared_schema(OBJECT_INPUT_SCHEMA).isolated
    started = time.monotonic()
    assert declared.violation({"id": "a" * 32 + "!", "version": V, "input": {}}) is None  # decides nothing
    assert time.monotonic() - started < 30, "a hang guard: the child is killed after 1 s"


def test_a_pattern_evaluated_in_the_child_still_tells_a_violation():
    declared = declared_schema({**DIGITS_ONLY, "patternProperties": {"^x-": {"type": "string"}}})
    assert declared.isolated
    assert declared.violation({"version": "v1", "x-a": "b"}) == 'at version, "pattern": "^[0-9.]+$"'
    assert declared.violation({"version": "1.0.0", "x-a": 1}) == 'at x-a, "type": "string"'
    assert declared.violation({"version": "1.0.0", "x-a": "b"}) is None
    response = answered(SDK_ANSWER, declared, [1])  # the arguments satisfy it: not a refusal of the schema
    assert response.kind == "malformed_rejection"


# --- reading the answer -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "result",
    [
        SDK_ANSWER,
        {"isError": True, "structuredContent": {"result": {"bleu": 1.0}}, "content": []},
        {"isError": True, "content": []},
    ],
    ids=["sdk-text", "isError-with-a-result", "no-content"],
)
def test_is_error_without_a_body_to_arguments_breaking_the_schema_is_a_refusal(result):
    response = answered(result, OBJECT_SCHEMA, [1])
    assert (response.kind, response.error_code, response.refused_by) == ("rejection", None, REFUSED_BY)
    assert response.detail.startswith(f'refused by {REFUSED_BY} (at input, "type": "object")'), response.detail
    assert response.raw


def test_a_refusal_quotes_the_text_the_server_sent():
    assert SDK_TEXT in answered(SDK_ANSWER, OBJECT_SCHEMA, [1]).detail


@pytest.mark.parametrize(
    "schema, payload, says",
    [
        (OBJECT_SCHEMA, {"hypotheses": [["a"]]}, "satisfy the input schema the server declares"),
        (
            no_schema("tools/list failed: HTTP 500"),
            [1],
            "no usable input schema for execute (tools/list failed: HTTP 500)",
        ),
        (declared_schema({"$schema": "urn:unknown", "type": "object"}), [1], "is not one this suite knows"),
    ],
    ids=["schema-satisfied", "not-listed", "unusable-schema"],
)
def test_is_error_without_a_body_otherwise_is_a_malformed_rejection(schema, payload, says):
    response = answered(
        {"isError": True, "content": [{"type": "text", "text": "something went wrong"}]}, schema, payload
    )
    assert response.kind == "malformed_rejection" and not response.refused_by
    assert says in response.detail and "'something went wrong'" in response.detail, response.detail


def test_an_error_body_is_still_a_rejection_with_its_code_whatever_the_schema():
    body = {"error": {"code": "invalid_input", "message": "not an object"}}
    response = answered({"isError": True, "structuredContent": body}, OBJECT_SCHEMA, [1])
    assert (response.kind, response.error_code, response.refused_by) == ("rejection", "invalid_input", "")


# --- judging it ----------------------------------------------------------------------------------


def case(payload, expect: Expectation) -> Case:
    return Case(
        BLEU, V, "test/mcp-refusal", "fixture", expect.kind == "error" and "invalid" or "valid", payload, expect
    )


def judged(payload, expect: Expectation, response: TargetResponse):
    found = case(payload, expect)
    return compare.judge(found, compare.expect(found), response)


REFUSAL = answered(SDK_ANSWER, OBJECT_SCHEMA, [1])
MALFORMED = answered(
    {"isError": True, "content": [{"type": "text", "text": "something went wrong"}]},
    OBJECT_SCHEMA,
    {"hypotheses": [["a"]]},
)


@pytest.mark.parametrize("code", ["invalid_input", "limit_exceeded", "any"])
def test_a_refusal_satisfies_a_case_expecting_a_rejection_and_says_who_refused(code):
    # no code to compare: a refusal before the tool ran names none (as a JSON-RPC error does, A16)
    verdict = judged([1], Expectation("error", error_code=code), REFUSAL)
    assert verdict.outcome == "passed"
    assert f"refused by {REFUSED_BY}" in verdict.message and SDK_TEXT in verdict.message


def test_a_refusal_of_a_valid_input_is_a_failure_showing_the_text():
    verdict = judged(example()["input"], Expectation("output"), REFUSAL)
    assert verdict.outcome == "failed"
    assert "refused an input the contract accepts" in verdict.message and SDK_TEXT in verdict.message
    assert verdict.mismatch.expected == example()["output"]


@pytest.mark.parametrize(
    "expect",
    [Expectation("error", error_code="invalid_input"), Expectation("output")],
    ids=["invalid-input", "valid-input"],
)
def test_a_malformed_rejection_fails_whatever_the_case_expects(expect):
    payload = INVALID if expect.kind == "error" else example()["input"]
    verdict = judged(payload, expect, MALFORMED)
    assert verdict.outcome == "failed" and "without the contract's error body" in verdict.message
    assert "something went wrong" in verdict.message


def test_the_failure_groups_name_the_refusal_and_the_malformed_rejection():
    def kind(payload, expect, response):
        found = case(payload, expect)
        verdict = judged(payload, expect, response)
        return failure_kind(CaseResult(found, verdict.outcome, verdict.message, verdict.mismatch, response))

    assert kind(example()["input"], Expectation("output"), REFUSAL) == f"refused by {REFUSED_BY}"
    assert (
        kind(INVALID, Expectation("error", error_code="invalid_input"), MALFORMED) == "rejection without an error body"
    )


def test_a_malformed_rejection_does_not_count_towards_the_breaker():
    health = HealthMonitor()
    for _ in range(MAX_CONSECUTIVE_TRANSPORT_ERRORS * 2):
        health.record(MALFORMED)
    assert not health.unhealthy and health.transport_errors == 0


# --- against servers -----------------------------------------------------------------------------


@pytest.mark.slow  # the default run judges the TypeScript SDK's own server (test_target_mcp_node_server.py)
def test_a_server_refusing_like_the_typescript_sdk_is_conformant(tmp_path, capfd):
    # the Python stand-in of tools/mcp_node_server: input declared an object, anything else refused as text
    with mcp_server("sdk_refusal") as url:
        code = main(
            [
                "run",
                "--target",
                "mcp+" + url,
                "--tools",
                BREVITY,
                "--fixtures-only",
                "-k",
                "validation",
                "--report-dir",
                str(tmp_path),
            ]
        )
    out, err = capfd.readouterr()
    assert code == 0, out[-3000:] + err[-3000:]
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    refused = {
        result["case"]["case_id"].rpartition("#")[2]: result
        for result in report["results"]
        if (result["response"] or {}).get("refused_by")
    }
    assert set(refused) == {"input-an-array", "input-a-string", "input-null"}  # the fixtures not an object
    assert all(result["outcome"] == "passed" and REFUSED_BY in result["message"] for result in refused.values())


def test_a_server_that_cannot_list_its_tools_is_judged_without_a_declared_schema():
    with mcp_server("unlisted") as url:
        target = make_target("mcp+" + url, timeout=10)
        try:
            answers = [target.call(BLEU, V, payload) for payload in ([1], example()["input"])]
        finally:
            target.close()
    refused, answer = answers
    assert refused.kind == "malformed_rejection", refused.detail
    assert "no usable input schema for execute (tools/list failed: " in refused.detail
    assert "the tool list is unavailable" in refused.detail
    assert (answer.kind, answer.result) == ("result", example()["output"]), answer.detail


def test_a_listing_answered_503_once_is_retried_and_the_declared_schema_read():
    with mcp_server("list_busy_once") as url:
        target = make_target("mcp+" + url, timeout=10)
        try:
            refused = target.call(BLEU, V, [1])
        finally:
            target.close()
    assert (refused.kind, refused.refused_by) == ("rejection", REFUSED_BY), refused.detail


def test_a_valid_input_refused_by_a_narrow_schema_is_a_failure_every_report_explains(tmp_path, capfd):
    with mcp_server("narrow_schema") as url:  # input declared with two keys at most
        code = main(
            [
                "run",
                "--target",
                "mcp+" + url,
                "--tools",
                BREVITY,
                "--fixtures-only",
                "-k",
                "examples",
                "--report-dir",
                str(tmp_path),
            ]
        )
    out, err = capfd.readouterr()
    assert code == 1, out[-3000:] + err[-3000:]
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    failed = [result for result in report["results"] if result["outcome"] == "failed"]
    assert failed and all(
        len(result["case"]["input"]) > 2 and result["response"]["refused_by"] == REFUSED_BY for result in failed
    )
    assert report["totals"]["errored"] == 0
    said = "has too many properties"  # jsonschema's words for maxProperties, sent back by the server
    assert all(said in result["message"] and '"maxProperties": 2' in result["message"] for result in failed)
    for text in (
        out,
        (tmp_path / "report.md").read_text(encoding="utf-8"),
        (tmp_path / "report.html").read_text(encoding="utf-8"),
    ):
        assert f"refused by {REFUSED_BY}" in text.replace("&#x27;", "'") and said in text


def test_a_503_with_retry_after_waits_that_long_before_the_retry():
    with mcp_server("busy_once") as url:
        target = make_target("mcp+" + url, timeout=10)
        try:
            started = time.monotonic()
            answer = target.call(BLEU, V, example()["input"])
            elapsed = time.monotonic() - started
        finally:
            target.close()
    assert (answer.kind, answer.result, answer.retries) == ("result", example()["output"], 1), answer.detail
    assert elapsed >= 0.9  # Retry-After: 1, where the first retry's backoff is none


@pytest.mark.parametrize("retry_number", [1, 2, 3, 4])
def test_the_backoff_is_urllib3s(retry_number):
    # urllib3's Retry computes the wait from its history: one entry per failed attempt so far
    policy = Retry(
        total=5,
        backoff_factor=BACKOFF_SECONDS,
        backoff_max=10.0,
        history=tuple(RequestHistory("POST", "/", None, 503, None) for _ in range(retry_number)),
    )
    assert wait_before_retry(retry_number, 503, None, 10.0) == policy.get_backoff_time()
    assert wait_before_retry(retry_number, 502, "3", 10.0) == policy.get_backoff_time()  # Retry-After: 429/503 only


@pytest.mark.parametrize(
    "header, cap, wait", [("1", 10.0, 1.0), ("30", 2.0, 2.0), ("soon", 10.0, 0.0), ("0", 10.0, 0.0)]
)
def test_retry_after_is_read_as_urllib3_reads_it_and_capped_at_the_timeout(header, cap, wait):
    assert wait_before_retry(1, 503, header, cap) == wait
    assert wait_before_retry(1, 429, header, cap) == wait


def test_the_http_target_reads_retry_after_through_the_same_policy():
    from conformance.targets.http import transport_retry

    class Answer:
        headers = {"Retry-After": "30"}

    assert transport_retry(2, 2.0).get_retry_after(Answer()) == 2.0 == wait_before_retry(1, 503, "30", 2.0)

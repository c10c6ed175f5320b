"""The MCP target (``mcp+http://``) and `conformance serve` at /mcp.

* how an answer is read off the wire: hand-made exchanges, each shape and each fault;
* the SDK's own client (one we did not write) calling `conformance serve` at /mcp, in both
  protocol eras; Node's SDK client too, when it is installed (tools/mcp_node_client);
* our target against our server: the largest legal answer, sent both as text and as
  structuredContent (over the SDK client's 1 MiB default for one server-sent event), comes
  through; a quick-profile run is conformant;
* runs against the SDK-built servers of tests/faulty_mcp_servers.py: either answer shape
  passes; wrong shapes, JSON-RPC errors, hangs, 500s and oversize end as the exit codes say.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2
import pytest
from faulty_mcp_servers import mcp_server
from faulty_servers import refused_url, shared_oracle_server
from mcp import Client
from mcp.client.streamable_http import DEFAULT_MAX_SSE_EVENT_SIZE

import oracle
from conformance.model import TargetResponse
from conformance.targets import make_target
from conformance.targets.mcp import CallRecord, Exchange, classify_call

BLEU = "bleu-corpus-compute"
V = "1.0.0"
RUN_TIMEOUT = 240
ROOT = Path(__file__).resolve().parent.parent
NODE_CLIENT = ROOT / "tools" / "mcp_node_client"


def example(tool_id: str = BLEU) -> dict:
    """The contract's first worked example: its input and the output the contract states."""
    return oracle.load_contract(tool_id, V)["examples"][0]


INVALID = {"hypotheses": [["a"]]}  # references missing: invalid_input by the input schema's "required"


# --- reading the wire: hand-made exchanges ---------------------------------------------------


def sse(*messages: dict) -> bytes:
    return b"".join(b"event: message\r\ndata: " + json.dumps(m).encode() + b"\r\n\r\n" for m in messages)


def answered(body: bytes, status: int = 200, content_type: str = "text/event-stream", request_id=7) -> TargetResponse:
    exchange = Exchange("tools/call", request_id, status, content_type, bytearray(body))
    response, _retryable = classify_call(CallRecord([exchange]), "", 1.0, 5.0, 1000)
    return response


def tool_result(result: dict, request_id=7) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def text(value) -> list[dict]:
    return [{"type": "text", "text": json.dumps(value)}]


OUTPUT = {"bleu": 1.0}


@pytest.mark.parametrize(
    "result",
    [
        {"content": text({"result": OUTPUT}), "structuredContent": {"result": OUTPUT}},
        {"content": [], "structuredContent": {"result": OUTPUT}},
        {"content": text({"result": OUTPUT})},
        {"content": [{"type": "text", "text": '{"result": '}, {"type": "text", "text": '{"bleu": 1.0}}'}]},
        {"content": text({"result": OUTPUT}), "isError": False},
    ],
    ids=["both", "structured", "text", "text-in-two-blocks", "isError-false"],
)
def test_either_answer_shape_is_a_result(result):
    response = answered(sse(tool_result(result)))
    assert (response.kind, response.result) == ("result", OUTPUT)


def test_structured_content_is_read_before_the_text():
    result = {"content": [{"type": "text", "text": "a summary for people"}], "structuredContent": {"result": OUTPUT}}
    assert answered(sse(tool_result(result))).result == OUTPUT


def test_a_json_response_body_is_read_like_an_event():
    response = answered(
        json.dumps(tool_result({"content": text({"result": OUTPUT})})).encode(), content_type="application/json"
    )
    assert (response.kind, response.result) == ("result", OUTPUT)


def test_the_answer_is_the_message_with_the_call_id():
    # a progress notification and an answer to another id come first on the stream
    body = sse(
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}},
        tool_result({"structuredContent": {"result": {"bleu": 0.5}}}, request_id=8),
        tool_result({"structuredContent": {"result": OUTPUT}}, request_id=7),
    )
    assert answered(body).result == OUTPUT
    assert answered(body, request_id="7").kind == "transport_error"  # "7" is not 7 in JSON-RPC


@pytest.mark.parametrize("where", ["structuredContent", "content"])
def test_is_error_with_an_error_body_is_a_rejection_with_its_code(where):
    body = {"error": {"code": "limit_exceeded", "message": "too many segments"}}
    holding = {"structuredContent": body} if where == "structuredContent" else {"content": text(body)}
    result = {"isError": True, **holding}
    response = answered(sse(tool_result(result)))
    assert (response.kind, response.error_code) == ("rejection", "limit_exceeded")


def test_a_jsonrpc_error_is_a_rejection_without_a_code():
    response = answered(sse({"jsonrpc": "2.0", "id": 7, "error": {"code": -32602, "message": "bad input"}}))
    assert (response.kind, response.error_code) == ("rejection", None)
    assert "-32602" in response.detail and "bad input" in response.detail


@pytest.mark.parametrize(
    "result, says",
    [
        ({"structuredContent": OUTPUT}, 'not the {"result": ...} envelope'),  # the output without its envelope
        ({"content": text(OUTPUT)}, 'not the {"result": ...} envelope'),
        ({"structuredContent": {"error": {"code": "invalid_input"}}}, "isError false"),
        ({"content": [{"type": "image", "data": "", "mimeType": "image/png"}]}, "neither structuredContent nor text"),
        ({"content": [{"type": "text", "text": '{"result": {"bleu": 1.0}, "result": {"bleu": 0.0}}'}]}, "duplicate"),
    ],
    ids=["bare-structured", "bare-text", "error-body-not-isError", "image-only", "duplicate-keys"],
)
def test_any_other_tool_result_is_a_transport_error_with_an_excerpt(result, says):
    # (isError true without an error body is the server's refusal: tests/test_mcp_refusals.py)
    response = answered(sse(tool_result(result)))
    assert response.kind == "transport_error"
    assert says in response.detail, response.detail
    assert response.raw  # the report shows what came back


@pytest.mark.parametrize(
    "exchange, failure, says, retryable",
    [
        (
            Exchange(
                "tools/call",
                7,
                500,
                "application/json",
                bytearray(json.dumps({"jsonrpc": "2.0", "id": 7, "error": {"code": -1, "message": "x"}}).encode()),
            ),
            "MCPError",
            "HTTP 500",
            False,
        ),  # a 5xx is never a rejection, whatever its body
        (Exchange("tools/call", 7, 503, "text/plain", bytearray(b"busy")), "MCPError", "HTTP 503", True),
        (Exchange("tools/call", 7, 202), "MCPError", "no JSON-RPC answer", False),
        (Exchange("tools/call", 7, 200, "text/html", bytearray(b"<html>hi</html>")), "MCPError", "<html>", False),
        (Exchange("tools/call", 7, 200, "text/event-stream", bytearray(b"x" * 1000), oversize=True), "", "cap", False),
        (
            Exchange("tools/call", 7, failure="connection failed (refused or dropped): ConnectError"),
            "",
            "refused",
            True,
        ),
        (Exchange("tools/call", 7, 200, "text/event-stream"), "timeout", "within 5 s", True),
        (None, "ConnectError: All connection attempts failed", "no tools/call request was sent", True),
        (None, "timeout", "no MCP session opened within 5 s", True),
    ],
    ids=[
        "500-with-jsonrpc-error",
        "503",
        "202",
        "html",
        "oversize",
        "refused",
        "timeout",
        "no-session",
        "session-timeout",
    ],
)
def test_transport_failures_and_which_are_retried(exchange, failure, says, retryable):
    record = CallRecord([exchange] if exchange is not None else [])
    response, may_retry = classify_call(record, failure, 1.0, 5.0, 1000)
    assert response.kind == "transport_error" and says in response.detail, response.detail
    assert may_retry is retryable


def test_bad_target_values_are_usage_errors():
    from conformance.targets import TargetSpecError

    with pytest.raises(TargetSpecError):
        make_target("mcp+https://")


def test_the_environments_proxy_is_read_for_the_url(monkeypatch):
    from conformance.targets.mcp import environment_proxy

    monkeypatch.setenv("HTTP_PROXY", "http://proxy.invalid:3128")
    monkeypatch.setenv("NO_PROXY", "localhost")
    assert environment_proxy("http://service.invalid/mcp") == "http://proxy.invalid:3128"
    assert environment_proxy("http://localhost:8000/mcp") is None


# --- clients we did not write, against `conformance serve` -----------------------------------


@pytest.fixture(scope="module")
def mcp_url():
    return shared_oracle_server()[0] + "/mcp"


def sdk_calls(url: str, mode: str) -> tuple[list, object, object]:
    async def calls():
        async with Client(url, mode=mode) as client:
            tools = (await client.list_tools()).tools
            answer = await client.call_tool("execute", {"id": BLEU, "version": V, "input": example()["input"]})
            rejection = await client.call_tool("execute", {"id": BLEU, "version": V, "input": INVALID})
            return tools, answer, rejection

    return asyncio.run(calls())


@pytest.mark.parametrize("mode", ["auto", "legacy"])  # the 2026-07-28 protocol, and the initialize handshake
def test_the_sdk_client_calls_execute_on_our_server(mcp_url, mode):
    tools, answer, rejection = sdk_calls(mcp_url, mode)
    assert [tool.name for tool in tools] == ["execute"]
    assert set(tools[0].input_schema["required"]) == {"id", "version", "input"}
    expected = {"result": example()["output"]}
    assert not answer.is_error and answer.structured_content == expected
    assert json.loads(answer.content[0].text) == expected
    assert rejection.is_error and rejection.structured_content["error"]["code"] == "invalid_input"
    assert rejection.structured_content["error"]["message"]
    assert json.loads(rejection.content[0].text) == rejection.structured_content


def test_unknown_tool_and_bad_arguments_are_error_bodies(mcp_url):
    async def calls():
        async with Client(mcp_url) as client:
            return [
                await client.call_tool(name, arguments)
                for name, arguments in (
                    ("execute", {"id": "no-such-tool", "version": V, "input": {}}),
                    ("execute", {"id": 3, "version": V, "input": {}}),
                    ("run", {"id": BLEU, "version": V, "input": {}}),
                )
            ]

    codes = [answer.structured_content["error"]["code"] if answer.is_error else None for answer in asyncio.run(calls())]
    assert codes == ["not_found", "invalid_input", "not_found"]


needs_node_client = pytest.mark.skipif(
    shutil.which("node") is None or not (NODE_CLIENT / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir(),
    reason="node or its MCP SDK is not installed (npm install --prefix tools/mcp_node_client)",
)


@needs_node_client
def test_the_node_sdk_client_calls_execute_on_our_server(mcp_url):
    arguments = {"id": BLEU, "version": V, "input": example()["input"]}
    completed = subprocess.run(
        ["node", str(NODE_CLIENT / "call.mjs"), mcp_url, json.dumps(arguments)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    answer = json.loads(completed.stdout)
    assert answer["tools"] == ["execute"]
    assert answer["result"]["structuredContent"] == {"result": example()["output"]}
    assert json.loads(answer["result"]["content"][0]["text"]) == {"result": example()["output"]}


# --- our target against our server ------------------------------------------------------------


def big_ngrams_input(segments: int = 115) -> dict:
    """115 identical 12-token segments with detail "ngrams" (42 n-gram rows each): 488,722 bytes
    of compact JSON output, within the 1,000,000-byte limit (233 segments are 994,942 bytes)."""
    hypothesis = [f"w{i}" for i in range(12)]
    return {"hypotheses": [hypothesis] * segments, "references": [[hypothesis]] * segments, "detail": "ngrams"}


def refused_by_the_sdk_default(exchange: Exchange) -> str:
    """What the SDK client's event parser (httpx2's, at the SDK's default limit) says of this
    answer's events: "" when it takes them, else its error."""
    response = httpx2.Response(
        200,
        headers={"content-type": exchange.content_type},
        content=bytes(exchange.body),
        request=httpx2.Request("POST", "http://mcp.invalid"),
    )
    try:
        list(httpx2.EventSource(response, max_event_size=DEFAULT_MAX_SSE_EVENT_SIZE))
    except httpx2.SSEError as exc:
        return str(exc)
    return ""


@pytest.mark.parametrize(
    "mode, content_type",
    [
        ("legacy", "text/event-stream"),  # the initialize handshake: answers as server-sent events
        pytest.param("auto", "application/json", marks=pytest.mark.slow),  # 2026-07-28: JSON bodies
    ],
)
def test_an_answer_over_the_sdk_clients_event_limit_comes_through(mcp_url, monkeypatch, mode, content_type):
    from conformance.targets import mcp as mcp_module

    payload = big_ngrams_input()
    expected = oracle.execute("bleu-ngrams-count", V, payload)
    assert 400_000 < len(json.dumps(expected, separators=(",", ":"))) < 1_000_000
    records: list[CallRecord] = []

    def recording(record, *args):
        records.append(record)
        return classify_call(record, *args)

    monkeypatch.setattr(mcp_module, "classify_call", recording)
    monkeypatch.setattr(mcp_module.McpTarget, "connect_mode", mode)
    target = make_target("mcp+" + mcp_url, timeout=60)
    try:
        response = target.call("bleu-ngrams-count", V, payload)
    finally:
        target.close()
    assert response.kind == "result", response.detail
    assert response.result == expected
    # sent as text and as structuredContent, the answer is over the SDK client's 1 MiB event default
    call = records[-1].call_exchange()
    assert call.content_type.startswith(content_type) and len(call.body) > DEFAULT_MAX_SSE_EVENT_SIZE
    if mode == "legacy":  # one event, which the SDK's client would refuse with its defaults
        assert "exceeded the 1048576 byte limit" in refused_by_the_sdk_default(call)


@pytest.mark.parametrize(
    "tool_id, payload",
    [
        (BLEU, {"hypotheses": [["a\ud800"]], "references": [[["a"]]]}),
        ("chrf-plus-plus-compute", {"hypotheses": ["a\udc00"], "references": ["a"]}),
    ],
)
def test_a_lone_surrogate_input_goes_as_an_escape_and_is_rejected(mcp_url, tool_id, payload):
    # httpx's own JSON encoding cannot write a lone surrogate as UTF-8 (the SDK's transport died of it);
    # sent as a \ud800 escape, the oracle behind serve rejects it, as over HTTP
    target = make_target("mcp+" + mcp_url, timeout=10)
    try:
        response = target.call(tool_id, V, payload)
    finally:
        target.close()
    assert (response.kind, response.error_code) == ("rejection", "invalid_input"), response.detail


def run_conformance(target: str, report_dir: Path, *options: str) -> tuple[subprocess.CompletedProcess, dict]:
    process = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance",
            "run",
            "--target",
            target,
            "--seed",
            "1",
            "--report-dir",
            str(report_dir),
            *options,
        ],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        stdin=subprocess.DEVNULL,
    )
    report_file = report_dir / "report.json"
    return process, (json.loads(report_file.read_text()) if report_file.is_file() else {})


@pytest.mark.slow  # about 30 s on two busy cores
def test_a_quick_run_against_serve_over_mcp_is_conformant(mcp_url, tmp_path):
    process, report = run_conformance(
        "mcp+" + mcp_url, tmp_path, "--profile", "quick", "--tools", BLEU, "--workers", "2"
    )
    assert process.returncode == 0, (process.stdout[-3000:], process.stderr[-3000:])
    assert report["totals"]["passed"] > 50 and report["totals"]["errored"] == 0
    assert report["header"]["target"] == "mcp+" + mcp_url


# --- either shape passes; faulty servers end runs as they should --------------------------------


@pytest.mark.parametrize("behaviour", ["text_only", "structured_only", "json_responses"])
def test_either_answer_shape_from_a_server_passes(behaviour):
    with mcp_server(behaviour) as url:
        target = make_target("mcp+" + url, timeout=10)
        try:
            answer = target.call(BLEU, V, example()["input"])
            rejection = target.call(BLEU, V, INVALID)
        finally:
            target.close()
    assert (answer.kind, answer.result) == ("result", example()["output"]), answer.detail
    assert (rejection.kind, rejection.error_code) == ("rejection", "invalid_input"), rejection.detail


def test_a_hang_ends_the_call_at_the_timeout():
    with mcp_server("hang_after_3") as url:
        target = make_target("mcp+" + url, timeout=1, retries=0)
        try:
            answers = [target.call(BLEU, V, example()["input"]) for _ in range(5)]
        finally:
            target.close()
    assert [answer.kind for answer in answers] == ["result"] * 3 + ["transport_error"] * 2
    assert all("within 1 s" in answer.detail and answer.duration_ms < 2500 for answer in answers[3:])


def one_call(behaviour: str, **options) -> TargetResponse:
    with mcp_server(behaviour) as url:
        target = make_target("mcp+" + url, **options)
        try:
            return target.call(BLEU, V, example()["input"])
        finally:
            target.close()


@pytest.mark.parametrize("behaviour", ["oversized", "oversized_json"])  # read to the cap / refused unread
def test_an_oversized_answer_is_cut_at_the_cap_and_not_retried(behaviour):
    answer = one_call(behaviour, timeout=20, max_bytes=1_000_000)
    assert answer.kind == "transport_error" and "larger than the 1000000-byte cap" in answer.detail
    assert answer.retries == 0 and len(answer.raw) < 1000
    assert answer.duration_ms < 10_000  # failed at once, not left to time out


def test_an_http_style_answer_is_a_transport_error_and_the_console_stays_clean(capfd):
    answer = one_call("http_envelope", timeout=10)
    assert answer.kind == "transport_error" and "no JSON-RPC answer" in answer.detail, answer.detail
    assert '{"result"' in answer.detail  # the start of what came back
    assert "Traceback" not in capfd.readouterr().err  # the SDK's own log of the failure is kept quiet


SOME_FIXTURES = ("--fixtures-only", "--tools", BLEU, "-k", "examples or validation")  # 38 cases
# behaviour -> (run options, exit code, a fragment the report must hold)
FAULTS = {
    "serve": (SOME_FIXTURES, 0, ""),  # `conformance serve` at /mcp
    "text_only": (SOME_FIXTURES, 0, ""),
    "structured_only": (SOME_FIXTURES, 0, ""),
    "jsonrpc_error": (SOME_FIXTURES, 1, "JSON-RPC error -32603: the backend is unavailable"),
    "bare_result": (SOME_FIXTURES, 3, 'not the {"result": ...} envelope'),
    # isError without an error body to arguments the declared schema accepts: a failure, not a transport
    # error (open point A17), so every case fails and the run concludes
    "error_without_body": (SOME_FIXTURES, 1, "something went wrong"),
    "hang_after_3": ((*SOME_FIXTURES, "--timeout", "1"), 3, "within 1 s"),
    "http_500": (
        SOME_FIXTURES,
        3,
        "HTTP 500 server error to tools/call, no JSON-RPC answer; the body starts 'upstream crashed'",
    ),
    "oversized": (SOME_FIXTURES, 3, "cap"),
    "refused": (SOME_FIXTURES, 3, "ConnectError"),
}
QUICK_FAULTS = ("serve", "jsonrpc_error")  # the others run with -m slow (a hang costs ~20 s of timeouts)


def run_against(behaviour: str, report_dir: Path):
    with contextlib.ExitStack() as stack:
        if behaviour == "serve":
            url = shared_oracle_server()[0] + "/mcp"
        elif behaviour == "refused":
            url = refused_url() + "/mcp"
        else:
            url = stack.enter_context(mcp_server(behaviour))
        return run_conformance("mcp+" + url, report_dir, *FAULTS[behaviour][0])


@pytest.fixture(scope="module")
def quick_fault_runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("mcp-faults")
    with ThreadPoolExecutor(2) as pool:  # two cores
        futures = {name: pool.submit(run_against, name, base / name) for name in QUICK_FAULTS}
        return {name: future.result() for name, future in futures.items()}


def check_run(behaviour: str, process, report: dict) -> None:
    _options, exit_code, fragment = FAULTS[behaviour]
    assert process.returncode == exit_code, (process.stdout[-3000:], process.stderr[-3000:])
    assert report and report["exit_code"] == exit_code
    assert "Traceback" not in process.stderr
    if exit_code == 0:
        assert report["totals"]["passed"] > 30 and report["totals"]["failed"] == report["totals"]["errored"] == 0
    elif exit_code == 3:  # no verdict on a broken target, and the reason names what came back
        assert report["totals"]["failed"] == 0
        assert fragment in report["unhealthy_reason"], report["unhealthy_reason"]
        assert len(report["unhealthy_reason"]) < 2000
    else:  # answered, wrongly: the cases rejected, each failure saying how, with a curl to repeat it
        failed = [result for result in report["results"] if result["outcome"] == "failed"]
        assert failed and all(fragment in result["response"]["detail"] for result in failed)
        hints = [result["curl"] for result in failed if result["curl"]]  # (none for a huge input)
        assert hints and all(hint.startswith("curl ") and '"tools/call"' in hint for hint in hints)


@pytest.mark.parametrize("behaviour", QUICK_FAULTS)
def test_runs_against_our_and_faulty_mcp_servers(quick_fault_runs, behaviour):
    check_run(behaviour, *quick_fault_runs[behaviour])


@pytest.mark.slow
@pytest.mark.parametrize("behaviour", [name for name in FAULTS if name not in QUICK_FAULTS])
def test_runs_against_other_mcp_servers(tmp_path, behaviour):
    check_run(behaviour, *run_against(behaviour, tmp_path))


def test_a_declared_output_schema_is_not_run_by_the_client():
    """The SDK's client would check every result against the outputSchema the server declares, with
    Python's re; the suite judges by the contract's output_schema and reads the answer from the wire,
    so the server's schema is never run: a pattern backtracking for a minute costs nothing."""
    token = "a" * 30 + "!"
    payload = {"hypotheses": [[token]], "references": [[[token]]], "max_order": 1, "detail": "ngrams"}
    with mcp_server("redos_output") as url:
        target = make_target("mcp+" + url, timeout=10)
        try:
            started = time.monotonic()
            response = target.call("bleu-ngrams-count", V, payload)
            elapsed = time.monotonic() - started
        finally:
            target.close()
    assert (response.kind, response.result) == ("result", oracle.execute("bleu-ngrams-count", V, payload))
    assert elapsed < 30, f"{elapsed:.0f} s: the server's pattern was run"  # a hang guard: milliseconds expected

"""`conformance serve` at /mcp keeps the HTTP interface's hardening: the body size cap and
read time limit apply before the MCP SDK sees a byte, and no body, at the HTTP level or
inside a tool call, gets a 5xx. (What a correct MCP client sees: tests/test_target_mcp.py.)
"""

from __future__ import annotations

import json
import re
import time

import pytest
import requests
from faulty_servers import shared_oracle_server
from test_architecture import UNKNOWN_ADDRESSES  # open point A18
from test_server import EIGHT_MIB, NASTY_BODIES, call_app, raw_exchange

MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
BLEU_ID = "bleu-corpus-compute"


@pytest.fixture(scope="module")
def mcp_url():
    return shared_oracle_server()[0] + "/mcp"


def tools_call(input_json: bytes, tool_id: str = BLEU_ID, version: str = "1.0.0") -> bytes:
    """A JSON-RPC tools/call of execute whose input is the given JSON text, verbatim."""
    return (
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "execute", "arguments": '
        b'{"id": "' + tool_id.encode() + b'", "version": "' + version.encode() + b'", "input": ' + input_json + b"}}}"
    )


def jsonrpc_answer(response: requests.Response) -> dict:
    """The one JSON-RPC message of an answer (a JSON body, or the data of its one event)."""
    if response.headers["Content-Type"].startswith("text/event-stream"):
        data = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
        return json.loads(data[-1])
    return response.json()


@pytest.mark.parametrize("name", sorted(NASTY_BODIES))
def test_a_nasty_http_body_is_a_4xx(mcp_url, name):
    _path, body, _status, _code = NASTY_BODIES[name]
    response = requests.post(mcp_url, data=body, headers=MCP_HEADERS, timeout=30)
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])


@pytest.mark.parametrize(
    "name",
    sorted(
        name for name, (_path, body, _status, _code) in NASTY_BODIES.items() if body.strip() and len(body) < 100_000
    ),
)
def test_a_nasty_tool_input_is_rejected_never_answered_with_a_5xx(mcp_url, name):
    """Each nasty body as the input of a tool call: a JSON-RPC error (the message as a whole is
    not JSON-RPC) or isError with an error body — never a 5xx, never an answer."""
    _path, body, _status, _code = NASTY_BODIES[name]
    response = requests.post(mcp_url, data=tools_call(body), headers=MCP_HEADERS, timeout=30)
    assert response.status_code < 500, response.text[:300]
    if response.status_code >= 400:
        return
    message = jsonrpc_answer(response)
    if "error" in message:
        return
    assert message["result"]["isError"] is True, message
    assert message["result"]["structuredContent"]["error"]["code"] == "invalid_input"


# Inputs with a duplicate key, and the key: each valid once the SDK's parser keeps the last of the two.
DUPLICATE_KEYS = {
    "the same key twice in the input": (
        b'{"hypotheses": [["a"]], "hypotheses": [["b"]], "references": [[["a"]]]}',
        "hypotheses",
    ),
    "the same value twice": (
        b'{"hypotheses": [["a"]], "references": [[["a"]]], "max_order": 1, "max_order": 1}',
        "max_order",
    ),
    "in an object inside an array": (
        b'{"hypotheses": [["a"]], "references": [[["a"]]], "max_order": [{"n": 1, "n": 2}]}',
        "n",
    ),
}


@pytest.mark.parametrize("name", sorted(DUPLICATE_KEYS))
def test_both_routes_refuse_a_duplicate_key_in_the_input_alike(mcp_url, name):
    """/v1/.../execute answers 400 invalid_input naming the key; /mcp, where the SDK's parser would keep
    the last of the two, answers the same error body as the tool's error (open point A15)."""
    body, key = DUPLICATE_KEYS[name]
    base = mcp_url.removesuffix("/mcp")
    http = requests.post(
        base + f"/v1/tools/{BLEU_ID}/versions/1.0.0/execute",
        data=body,
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert http.status_code == 400 and http.json()["error"]["code"] == "invalid_input"
    assert http.json()["error"]["message"].startswith(f"{key}: duplicate key")
    result = jsonrpc_answer(requests.post(mcp_url, data=tools_call(body), headers=MCP_HEADERS, timeout=10))["result"]
    assert result["isError"] is True and result["structuredContent"] == http.json()
    assert json.loads(result["content"][0]["text"]) == http.json()


@pytest.mark.parametrize(
    "arguments, key",
    [
        (
            b'{"id": "chrf-compute", "id": "' + BLEU_ID.encode() + b'", "version": "1.0.0", '
            b'"input": {"hypotheses": [["a"]], "references": [[["a"]]]}}',
            "id",
        ),
        (
            b'{"id": "' + BLEU_ID.encode() + b'", "version": "1.0.0", "input": {"hypotheses": [["a"]]}, '
            b'"input": {"hypotheses": [["a"]], "references": [[["a"]]]}}',
            "input",
        ),
    ],
)
def test_a_duplicate_key_in_the_arguments_is_refused(mcp_url, arguments, key):
    body = (
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "execute", "arguments": '
        + arguments
        + b"}}"
    )
    result = jsonrpc_answer(requests.post(mcp_url, data=body, headers=MCP_HEADERS, timeout=10))["result"]
    assert result["isError"] is True, result
    assert result["structuredContent"]["error"] == {
        "code": "invalid_input",
        "message": f"{key}: duplicate key in a JSON object",
    }


def test_a_declared_oversize_body_is_refused_before_it_is_sent(mcp_url):
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nContent-Length: {EIGHT_MIB + 1}\r\n\r\n"
    ).encode()
    started = time.monotonic()
    answer = raw_exchange(mcp_url, head)
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert json.loads(answer.partition(b"\r\n\r\n")[2])["error"]["code"] == "limit_exceeded"
    assert time.monotonic() - started < 5


def test_a_chunked_oversize_body_is_cut_off_at_the_cap(mcp_url):
    def chunks():
        for _ in range(16):
            yield b" " * (1024 * 1024)

    response = requests.post(mcp_url, data=chunks(), headers=MCP_HEADERS, timeout=60)
    assert response.status_code == 413 and response.json()["error"]["code"] == "limit_exceeded"


def test_a_body_that_never_finishes_gets_408(monkeypatch):
    from conformance import server as server_module

    monkeypatch.setattr(server_module, "BODY_READ_TIMEOUT", 0.3)
    status, body = call_app(server_module.build_app(), "POST", "/mcp", tools_call(b"{}")[:20], stall=True)
    assert status == 408 and json.loads(body)["error"]["code"] == "request_timeout"


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT"])
def test_other_methods_are_4xx(mcp_url, method):
    response = requests.request(method, mcp_url, headers=MCP_HEADERS, timeout=10)
    assert 400 <= response.status_code < 500


def test_the_http_interface_is_unchanged_beside_it(mcp_url):
    base = mcp_url.removesuffix("/mcp")
    answer = requests.post(
        base + f"/v1/tools/{BLEU_ID}/versions/1.0.0/execute",
        data=b'{"hypotheses": [["a"]], "references": [[["a"]]]}',
        headers=MCP_HEADERS,
        timeout=10,
    )
    assert answer.status_code == 200 and answer.json()["result"]["matches"] == [1, 0, 0, 0]
    assert requests.get(base + "/healthz", timeout=10).json() == {"status": "ok"}


@pytest.mark.parametrize("tool_id, version", UNKNOWN_ADDRESSES)
def test_a_tool_or_version_without_a_contract_is_not_found(mcp_url, tool_id, version):
    body = tools_call(b'{"hypotheses": [["a"]], "references": [[["a"]]]}', tool_id, version)
    response = requests.post(mcp_url, data=body, headers=MCP_HEADERS, timeout=30)
    assert response.status_code == 200, response.text[:300]
    result = jsonrpc_answer(response)["result"]
    assert result["isError"] is True and result["structuredContent"]["error"]["code"] == "not_found", result


def test_no_mcp_request_got_a_5xx(mcp_url):
    # Runs after every test above.
    log = shared_oracle_server()[2].read_text()
    assert '"POST /mcp' in log
    assert "internal error" not in log and "Traceback" not in log
    assert not re.search(r'/mcp HTTP/1.1" 5\d\d ', log)

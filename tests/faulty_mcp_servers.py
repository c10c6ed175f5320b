"""MCP servers for the tests, built on the official SDK's server: correct ones that put the
answer in only one of the two places a tool result may hold it, and faulty ones.

``mcp_server(behaviour)`` serves the tool ``execute`` (Streamable HTTP, stateless) on a free
loopback port in a background thread and yields its URL. The correct behaviours compute
with the oracle; each faulty one breaks one thing:

    text_only          the envelope only as the JSON of the text content (correct)
    structured_only    the envelope only as structuredContent, no text (correct)
    json_responses     both, in JSON responses instead of server-sent events (correct)
    bare_result        structuredContent is the output itself, without {"result": ...}
    error_without_body isError true with the text "something went wrong"
    sdk_refusal        declares ``input`` an object, as a TypeScript SDK server does with zod, and
                       refuses any other input as that SDK does: isError with plain text (correct)
    narrow_schema      the same, but its schema allows ``input`` two keys at most: it refuses valid
                       inputs with three (a declared schema narrower than the contract's)
    unlisted           sdk_refusal's answers, but tools/list fails (a JSON-RPC error)
    busy_once          the first call answered HTTP 503 with Retry-After: 1, then correct
    list_busy_once     sdk_refusal's answers, but its first tools/list is answered HTTP 503 (correct)
    redos_output       correct answers, but it declares an outputSchema whose pattern backtracks for a
                       minute on an n-gram of 30 a's and a "!" (a client must not run the server's regex)
    jsonrpc_error      every call answered with a JSON-RPC error (-32603)
    hang_after_3       the fourth and later calls never answer
    hang_every_4th     the 4th, 8th, ... tools/call never answers (a retry of it is the next, answered)
    hang_every_100th   the same for the 100th, 200th, ...
    http_500           every call answered with an HTTP 500 (a crashed backend behind a proxy)
    http_envelope      every call answered with 200 {"result": ...}: the HTTP API's envelope, not JSON-RPC
    oversized          a 12 MB text answer, as a server-sent event
    oversized_json     the same in a JSON response (with its Content-Length)
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator

import anyio
import jsonschema
import mcp_types as types
import uvicorn
from mcp.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

import oracle

HANG_EVERY = {"hang_every_4th": 4, "hang_every_100th": 100}
SCHEMA = {
    "type": "object",
    "properties": {"id": {"type": "string"}, "version": {"type": "string"}, "input": {}},
    "required": ["id", "version", "input"],
}
# What the TypeScript SDK (1.x) lists for zod's {id: z.string(), version: z.string(), input: z.record(z.any())}
OBJECT_INPUT_SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "version": {"type": "string"},
        "input": {"type": "object", "additionalProperties": {}},
    },
    "required": ["id", "version", "input"],
    "additionalProperties": False,
    "$schema": "http://json-schema.org/draft-07/schema#",
}
NARROW_INPUT_SCHEMA = {
    **OBJECT_INPUT_SCHEMA,
    "properties": {**OBJECT_INPUT_SCHEMA["properties"], "input": {"type": "object", "maxProperties": 2}},
}
DECLARED = {
    "sdk_refusal": OBJECT_INPUT_SCHEMA,
    "narrow_schema": NARROW_INPUT_SCHEMA,
    "unlisted": OBJECT_INPUT_SCHEMA,
    "list_busy_once": OBJECT_INPUT_SCHEMA,
}
# the n-grams of a bleu-ngrams-count answer (detail "ngrams") as tokens of a's only
REDOS_OUTPUT_SCHEMA = {
    "type": "object",
    "properties": {
        "result": {
            "type": "object",
            "properties": {"ngrams": {"items": {"properties": {"ngram": {"items": {"pattern": "^(a+)+$"}}}}}},
        }
    },
}
SDK_REFUSAL = "MCP error -32602: Input validation error: Invalid arguments for tool execute: "


def envelope(arguments: dict) -> tuple[dict, bool]:
    """The oracle's envelope for one execute call, and whether it is a rejection."""
    try:
        return {"result": oracle.execute(arguments["id"], arguments["version"], arguments["input"])}, False
    except oracle.ContractError as exc:
        return exc.body(), True


def text(value) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=json.dumps(value))]


def answer(behaviour: str, arguments: dict, calls: int) -> types.CallToolResult:
    body, is_error = envelope(arguments)
    if behaviour == "text_only":
        return types.CallToolResult(content=text(body), is_error=is_error)
    if behaviour == "structured_only":
        return types.CallToolResult(content=[], structured_content=body, is_error=is_error)
    if behaviour == "bare_result":
        return types.CallToolResult(content=[], structured_content=body.get("result", body), is_error=is_error)
    if behaviour in DECLARED:  # the SDK's check before the tool runs (zod there, jsonschema here)
        error = jsonschema.exceptions.best_match(jsonschema.Draft7Validator(DECLARED[behaviour]).iter_errors(arguments))
        if error is not None:
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=SDK_REFUSAL + error.message)], is_error=True
            )
    if behaviour == "error_without_body":
        return types.CallToolResult(
            content=[types.TextContent(type="text", text="something went wrong")], is_error=True
        )
    if behaviour in ("oversized", "oversized_json"):
        return types.CallToolResult(content=[types.TextContent(type="text", text="x" * 12_000_000)])
    return types.CallToolResult(content=text(body), structured_content=body, is_error=is_error)


def build_app(behaviour: str) -> Starlette:
    calls = {"tools/call": 0, "busy": 0, "tools/list": 0}

    async def list_tools(ctx, params):
        if behaviour == "unlisted":
            raise MCPError(-32603, "the tool list is unavailable")
        schema = DECLARED.get(behaviour, SCHEMA)
        output = REDOS_OUTPUT_SCHEMA if behaviour == "redos_output" else None
        return types.ListToolsResult(tools=[types.Tool(name="execute", input_schema=schema, output_schema=output)])

    async def call_tool(ctx, params):
        calls["tools/call"] += 1
        if behaviour == "jsonrpc_error":
            raise MCPError(-32603, "the backend is unavailable")
        if behaviour == "hang_after_3" and calls["tools/call"] > 3:
            await anyio.sleep_forever()
        if behaviour in HANG_EVERY and calls["tools/call"] % HANG_EVERY[behaviour] == 0:
            await anyio.sleep_forever()
        return answer(behaviour, params.arguments or {}, calls["tools/call"])

    server = Server("faulty", on_list_tools=list_tools, on_call_tool=call_tool)
    manager = StreamableHTTPSessionManager(
        server, stateless=True, json_response=behaviour in ("json_responses", "oversized_json")
    )
    mcp_app = StreamableHTTPASGIApp(manager)

    async def endpoint(scope, receive, send):
        if behaviour in ("http_500", "http_envelope", "busy_once", "list_busy_once") and scope["method"] == "POST":
            body = b""
            while True:  # read the request first, to answer tools/call only
                message = await receive()
                body += message.get("body", b"")
                if not message.get("more_body"):
                    break
            if b'"tools/call"' in body and behaviour == "http_500":
                return await Response("upstream crashed", status_code=500)(scope, receive, send)
            if b'"tools/call"' in body and behaviour == "busy_once" and not calls["busy"]:
                calls["busy"] = 1
                return await Response("busy", status_code=503, headers={"Retry-After": "1"})(scope, receive, send)
            if b'"tools/list"' in body and behaviour == "list_busy_once" and not calls["tools/list"]:
                calls["tools/list"] = 1
                return await Response("busy", status_code=503)(scope, receive, send)
            if b'"tools/call"' in body and behaviour == "http_envelope":
                arguments = json.loads(body)["params"]["arguments"]
                return await Response(json.dumps(envelope(arguments)[0]), media_type="application/json")(
                    scope, receive, send
                )
            replayed = [{"type": "http.request", "body": body, "more_body": False}]
            return await mcp_app(scope, lambda: _replay(replayed, receive), send)
        return await mcp_app(scope, receive, send)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        async with manager.run():
            yield

    return Starlette(routes=[Route("/mcp", _Asgi(endpoint), methods=["GET", "POST", "DELETE"])], lifespan=lifespan)


class _Asgi:
    """A plain ASGI callable, which Starlette's Route mounts as an app (a function it would call with a Request)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        await self.app(scope, receive, send)


async def _replay(replayed: list, receive):
    return replayed.pop(0) if replayed else await receive()


@contextlib.contextmanager
def mcp_server(behaviour: str) -> Iterator[str]:
    """The server of ``behaviour`` on loopback, for the duration of the block: its /mcp URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(build_app(behaviour), log_level="error", lifespan="on", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()

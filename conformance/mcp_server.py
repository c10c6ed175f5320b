"""`conformance serve` over MCP: the tool ``execute`` at ``/mcp``, as the hosted service documents it.

The endpoint is the official MCP SDK's Streamable HTTP transport, stateless (every POST
stands alone, so ``--workers`` and restarts need no session bookkeeping), answering with
server-sent events as the SDK does by default. One tool, ``execute``, takes
``{"id": TOOL, "version": V, "input": PAYLOAD}`` and runs the oracle exactly as
``POST /v1/tools/{id}/versions/{version}/execute`` does (through the same worker pool):

  answer      ``{"result": ...}``, both as the text content (JSON) and as ``structuredContent``
  rejection   ``isError: true`` with the error body ``{"error": {"code", "message"}}``, both ways

The hosted service does not publish which of the two it sends (open point a16), so this
stand-in sends both: a client reading either one works against it.

The HTTP hardening of server.py applies before the SDK sees a byte (``BodyFirst``): the
body is read under the same size cap and time limit, checked by the HTTP route's strict parser
(conformance.jsonio), then handed over whole. The SDK's own parser keeps the last of duplicate
keys (open point A15), so a tool call in a body the strict parser refuses (a duplicate key
anywhere in it, NaN, 1e400, nesting past the limit) is answered with the contract error the HTTP
route gives (invalid_input, the same message) instead of running on what the SDK kept.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import mcp_types as types
from mcp.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager

import oracle
from conformance.jsonio import parse_json

TOOL_NAME = "execute"
INPUT_SCHEMA = {  # what the hosted service documents: {"id", "version", "input"}
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": "a tool id, as GET /v1/tools lists them"},
        "version": {"type": "string", "description": "the contract version, e.g. 1.0.0"},
        "input": {"description": "the tool's input object, as its contract's input_schema describes"},
    },
    "required": ["id", "version", "input"],
}

# (tool_id, version, input JSON bytes) -> (HTTP status, answer JSON bytes, error code or None)
RunTool = Callable[[str, str, bytes], Awaitable[tuple[int, bytes, "str | None"]]]
ReadBody = Callable[[Any], Awaitable[bytes]]  # the capped, time-limited body of a Starlette Request
STRICT_REFUSAL = "conformance.strict_refusal"  # ASGI scope key: why the strict parser refuses the body, or None


def error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode("utf-8")


def tool_result(answer: bytes, is_error: bool) -> types.CallToolResult:
    """One envelope (``{"result"}`` or the error body) as text content and as structured content."""
    text = answer.decode("utf-8")
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structured_content=json.loads(text), is_error=is_error
    )


def tool_arguments(arguments: Any) -> tuple[str, str, Any] | bytes:
    """(id, version, input) of an ``execute`` call, or the error body naming what is wrong."""
    if not isinstance(arguments, dict):
        return error_body("invalid_input", "the arguments of execute must be an object {id, version, input}")
    for name in ("id", "version"):
        if not isinstance(arguments.get(name), str):
            return error_body("invalid_input", f"arguments.{name} must be a string")
    if "input" not in arguments:
        return error_body("invalid_input", "arguments.input is required (the tool's input object)")
    return arguments["id"], arguments["version"], arguments["input"]


def strict_refusal(body: bytes) -> str | None:
    """Why the strict parser refuses the body (what the HTTP route answers 400 for), or None."""
    try:
        parse_json(body)
    except oracle.ContractError as exc:
        return exc.message
    return None


def refusal_of(ctx) -> str | None:
    """The strict parser's refusal of the body this call came in (BodyFirst put it in the scope)."""
    scope = getattr(getattr(ctx, "request", None), "scope", None)
    return scope.get(STRICT_REFUSAL) if isinstance(scope, dict) else None


def build_mcp_server(run_tool: RunTool) -> Server:
    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=TOOL_NAME,
                    input_schema=INPUT_SCHEMA,
                    description="Run one metric tool of the contracts: {id, version, input} -> {result} or an error body",
                )
            ]
        )

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name != TOOL_NAME:
            return tool_result(error_body("not_found", f"no MCP tool {params.name[:80]!r}; call {TOOL_NAME!r}"), True)
        refused = refusal_of(ctx)
        if refused:  # the arguments the SDK parsed are not what was sent (e.g. the last of two keys)
            return tool_result(error_body("invalid_input", refused), True)
        called = tool_arguments(params.arguments)
        if isinstance(called, bytes):
            return tool_result(called, True)
        tool_id, version, payload = called
        if not oracle.implemented(tool_id, version):
            return tool_result(error_body("not_found", f"no tool {tool_id[:80]}@{version[:40]} here"), True)
        _status, answer, code = await run_tool(tool_id, version, json.dumps(payload).encode("utf-8"))
        return tool_result(answer, is_error=code is not None)

    return Server("conformance-oracle", version=_suite_version(), on_list_tools=list_tools, on_call_tool=call_tool)


def _suite_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mt-metric-conformance")
    except PackageNotFoundError:
        return "0"


class BodyFirst:
    """An ASGI wrapper that reads the request body with ``read_body`` (size cap, time limit) before
    ``app`` runs, notes the strict parser's refusal of it in the scope (STRICT_REFUSAL), then hands
    it over in one piece: the SDK never waits on a slow or endless body."""

    def __init__(self, app, read_body: ReadBody):
        self.app = app
        self.read_body = read_body

    async def __call__(self, scope, receive, send) -> None:
        from starlette.requests import Request

        body = await self.read_body(Request(scope, receive))
        scope[STRICT_REFUSAL] = strict_refusal(body)  # ~30 ms for the largest legal body
        replayed = False

        async def receive_whole_body():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # later reads see the client's disconnect

        await self.app(scope, receive_whole_body, send)


def mcp_endpoint(run_tool: RunTool, read_body: ReadBody, max_body_bytes: int):
    """The ASGI app to mount at /mcp, and the lifespan that must wrap the server's life."""
    manager = StreamableHTTPSessionManager(
        build_mcp_server(run_tool), stateless=True, max_request_body_size=max_body_bytes
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app) -> AsyncIterator[None]:
        async with manager.run():
            yield

    return BodyFirst(StreamableHTTPASGIApp(manager), read_body), lifespan

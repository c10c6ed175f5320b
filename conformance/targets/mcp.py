"""The MCP target, ``mcp+http://HOST:PORT/PATH`` (or ``mcp+https://``): an MCP server over
Streamable HTTP, the hosted service's second interface (or `conformance serve` at /mcp).

Each case calls the tool ``execute`` with ``{"id": TOOL, "version": V, "input": PAYLOAD}``
through the official MCP Python SDK (``mcp.Client``: the protocol negotiation, session
and transport are the SDK's, as a user's client would have them).

What the answer means is read from the wire, not from the SDK's objects: the SDK parses
leniently (duplicate keys, 1e400) and stands in errors of its own for transport failures
(an HTTP 500, a 202, a cut stream all become JSON-RPC errors on the client side), which
must not pass for the server's rejections. So the httpx transport under the SDK records
every HTTP exchange of a call (``_WireTap``; the SDK carries the caller's context to the
request it sends), and the answer is the JSON-RPC response with the call's request id in
those bodies (a JSON body, or the data of a server-sent event), parsed strictly. The SDK's own
check of each result against the outputSchema the server declares is turned off: it would run the
server's regular expressions in the event loop with no time limit (``_not_validated``).

  result           ``{"result": {...}}`` whose tool result holds ``{"result": ...}``: in
                   ``structuredContent`` when present, else as the JSON of the text content
  rejection        a tool result with ``isError: true`` holding an error body
                   ``{"error": {"code", "message"}}`` (the code read as for HTTP, targets.base);
                   or a JSON-RPC error (a rejection without a code); or ``isError: true`` without
                   an error body to arguments that break the input schema the server declares
                   for ``execute``: refused by the server's MCP layer before the tool ran, as the
                   TypeScript SDK does (``refused_by``; no code; open point a17)
  malformed_rejection  ``isError: true`` without an error body to arguments the declared schema
                   accepts, or when none was declared: a failure (the text is quoted), not a
                   transport problem
  transport_error  everything else, with an excerpt: no answer, timeout, refused, a 5xx,
                   an answer over ``max_bytes``, a result (isError false) in neither shape

Which of the two places the hosted service puts the envelope in is not published (open
point a16): both are read, and a server using either passes.

Bounds: every call (the session's opening included) ends within ``timeout`` seconds
(``anyio.fail_after``); the bodies of a call are capped at ``max_bytes`` as they arrive,
and the SDK's own limit on one server-sent event (1 MiB by default) is raised to the same
cap, since a legal 490 KB answer sent as text and as structuredContent already crosses it.

Concurrency: the SDK is asynchronous and the harness is not. Each target runs one event
loop in a background thread; a call is a task on it, on an open session taken from a pool
(one session per concurrent call at most, so ``--workers N`` opens up to N and reuses
them). anyio ties a session's task group to the task that opened it, so each session is
held open by a task of its own until it is closed.

The declared schema: ``tools/list`` is read once, before the first call, on a session of its
own (bounded by the timeout, capped like every answer; the listing's pages are followed until
``execute`` appears, at most MAX_LIST_PAGES); a listing that got no answer is retried as a call
is (below), and a server that cannot list is judged without a declared schema, each answer that
needed one saying so (targets.mcp_schema).

Retries: the policy of every network target (targets.retry_policy): only the transport is
retried (no HTTP answer, a dropped connection, a timeout, HTTP 408/429/502/503/504), on a fresh
session, at most ``retries`` times, after the server's ``Retry-After`` on a 429 or 503 (capped at
the timeout) or urllib3's backoff. An answer, right or wrong, a 500 or an oversized answer is
never retried. A session that saw a transport error is closed, never reused.

Closing may come while calls are in flight (the breaker tripped, or SIGTERM): ``close`` cancels
them (each ends at once as a transport error), closes every session and stops the loop; no call
starts after it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import json
import logging
import shlex
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

import oracle
from conformance.jsonio import dump_json, encode_request, parse_json
from conformance.model import TargetResponse
from conformance.targets.base import (
    DEFAULT_MAX_BYTES,
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    NO_ANSWER_IN_TIME,
    OVER_THE_CAP,
    TargetSpecError,
    envelope_of,
    excerpt,
)
from conformance.targets.mcp_schema import DeclaredSchema, execute_schema, no_schema
from conformance.targets.retry_policy import RETRYABLE_STATUSES, jitter, wait_before_retry

TOOL_NAME = "execute"
PREFIXES = ("mcp+http://", "mcp+https://")
DETAIL_EXCERPT_CHARS = 80
CLOSE_SECONDS = 5.0  # for closing the sessions when the target is closed
JSONRPC_ERROR_MESSAGE_CHARS = 200
TOOL_TEXT_CHARS = 200  # of the text of an isError answer without an error body, quoted in its detail
MAX_LIST_PAGES = 10  # of tools/list, looking for execute
MCP_INPUT_SCHEMA = "the server's MCP input schema"  # who refused, in a refusal's ``refused_by``
NOT_LISTED = no_schema("tools/list was not read")


# --- what went over the wire during one call -------------------------------------------------


@dataclass
class Exchange:
    """One HTTP request of a call and what came back, capped."""

    method: str  # the JSON-RPC method the request carried ("" for a GET stream)
    request_id: Any = None
    status: int | None = None
    content_type: str = ""
    body: bytearray = field(default_factory=bytearray)
    failure: str = ""  # why no complete answer came (refused, dropped, timeout), if so
    oversize: bool = False
    retry_after: str | None = None  # the answer's Retry-After header, if any


@dataclass
class CallRecord:
    exchanges: list[Exchange] = field(default_factory=list)
    headers: dict = field(default_factory=dict)  # the MCP headers the call was sent with (protocol version, method...)
    meta: Any = None  # the ``_meta`` of its params (the protocol version and capabilities, since 2026-07-28)

    def call_exchange(self) -> Exchange | None:
        """The last ``tools/call`` request (the SDK may re-send one, e.g. after re-listing tools)."""
        return next((found for found in reversed(self.exchanges) if found.method == "tools/call"), None)


_current_call: contextvars.ContextVar[CallRecord | None] = contextvars.ContextVar("mcp_call", default=None)


class _Oversize(httpx2.StreamError):
    """Raised into the SDK's read when the cap is passed (a StreamError, which the SDK reports
    as a failed answer instead of tearing its transport down)."""


class _CappedStream(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, exchange: Exchange, max_bytes: int):
        self.inner, self.exchange, self.max_bytes = inner, exchange, max_bytes

    async def __aiter__(self):
        try:
            async for chunk in self.inner:
                self.exchange.body += chunk
                if len(self.exchange.body) > self.max_bytes:
                    self.exchange.oversize = True
                    del self.exchange.body[self.max_bytes :]
                    raise _Oversize(f"answer larger than {self.max_bytes} bytes")
                yield chunk
        except _Oversize:
            raise
        except Exception as exc:
            self.exchange.failure = f"connection dropped while reading the answer: {describe(exc)}"
            raise

    async def aclose(self) -> None:
        await self.inner.aclose()


class _WireTap(httpx2.AsyncBaseTransport):
    """httpx's transport, recording each request of a running call and capping its answer."""

    def __init__(self, inner: httpx2.AsyncBaseTransport, max_bytes: int):
        self.inner, self.max_bytes = inner, max_bytes

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        message = _jsonrpc_request(request)
        exchange = Exchange(str(message.get("method", "")), message.get("id"))
        record = _current_call.get()
        if record is not None:  # None: the session's own traffic (opening it), capped all the same
            record.exchanges.append(exchange)
            if exchange.method == "tools/call":  # what a reproducer must send alike
                record.headers = {
                    name: value
                    for name, value in request.headers.items()  # MCP-Protocol-Version, ...
                    if name.lower().startswith("mcp-") and name.lower() != "mcp-session-id"
                }
                params = message.get("params")
                record.meta = params.get("_meta") if isinstance(params, dict) else None
        try:
            response = await self.inner.handle_async_request(request)
        except Exception as exc:
            exchange.failure = f"connection failed (refused or dropped): {describe(exc)}"
            raise
        exchange.status = response.status_code
        exchange.content_type = response.headers.get("content-type", "")
        exchange.retry_after = response.headers.get("retry-after")
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            # Refused unread. The SDK is handed an empty body, which fails this call at once (an
            # exception here would tear its transport down and leave the call to time out).
            exchange.oversize = True
            await response.aclose()
            headers = [(name, value) for name, value in response.headers.items() if name.lower() != "content-length"]
            return httpx2.Response(response.status_code, headers=headers, content=b"", request=request)
        # httpx2 types a response's stream as sync or async; an async transport's is always async
        response.stream = _CappedStream(cast(httpx2.AsyncByteStream, response.stream), exchange, self.max_bytes)
        if not 200 <= response.status_code < 300:
            # The SDK reads no body of an error page; the report quotes its start, so it is read here.
            try:
                await response.aread()
            except httpx2.StreamError:
                pass  # over the cap or cut short: the start is recorded all the same
            response.stream = httpx2.ByteStream(bytes(exchange.body))
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


class _JsonClient(httpx2.AsyncClient):
    """httpx's client, sending JSON as the HTTP target does (conformance.jsonio.encode_request): a
    string with a lone surrogate (an invalid-input case) goes as a \\u escape, where httpx's own
    UTF-8 encoding would fail, and take the SDK's transport down with it."""

    def build_request(self, method, url, *, json: Any = None, content=None, headers=None, **options):
        if json is not None and content is None:
            content, json = encode_request(json), None
            headers = httpx2.Headers(headers)
            headers["Content-Type"] = "application/json"
        return super().build_request(method, url, content=content, json=json, headers=headers, **options)


def _jsonrpc_request(request: httpx2.Request) -> dict:
    try:
        message = json.loads(request.content or b"null")
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}


# --- reading the answer from the wire --------------------------------------------------------


def jsonrpc_messages(exchange: Exchange) -> list[bytes]:
    """The JSON-RPC messages in one answer body: the body itself, or each server-sent event's data."""
    media_type = exchange.content_type.partition(";")[0].strip().lower()
    if media_type != "text/event-stream":
        return [bytes(exchange.body)] if exchange.body.strip() else []
    response = httpx2.Response(
        200,
        headers={"content-type": "text/event-stream"},
        content=bytes(exchange.body),
        request=httpx2.Request("GET", "http://sse.invalid"),
    )
    try:
        return [event.data.encode("utf-8") for event in httpx2.EventSource(response, max_event_size=None) if event.data]
    except httpx2.SSEError:
        return []


def find_answer(record: CallRecord) -> tuple[Exchange | None, Any, bytes]:
    """The exchange of the call, the JSON-RPC response to it (None when there is none) and its text.

    The answer usually comes on the POST's own body, but a server may resume a broken
    stream on a later GET, so every exchange of the call is searched, the latest first.
    """
    call = record.call_exchange()
    if call is None:
        return None, None, b""
    for exchange in reversed(record.exchanges):
        for data in reversed(jsonrpc_messages(exchange)):
            try:
                message = parse_json(data)
            except oracle.ContractError:
                continue
            if (
                isinstance(message, dict)
                and "id" in message
                and message["id"] == call.request_id
                and type(message["id"]) is type(call.request_id)
                and ("result" in message or "error" in message)
            ):
                return exchange, message, data
    return call, None, b""


def tool_result_envelope(result: Any) -> tuple[str, Any]:
    """Where a tool result holds the envelope: ("structuredContent"|"text content", the body),
    or ("", why not) when it holds none."""
    if not isinstance(result, dict):
        return "", f"the tool result is {type(result).__name__}, not an object"
    if result.get("structuredContent") is not None:
        return "structuredContent", result["structuredContent"]
    content = result.get("content")
    blocks = content if isinstance(content, list) else []
    found = [block.get("text") for block in blocks if isinstance(block, dict) and block.get("type") == "text"]
    texts = [text for text in found if isinstance(text, str)]
    if not texts or len(texts) < len(found):
        return "", "the tool result has neither structuredContent nor text content"
    text = "".join(texts)  # a long JSON text may come in several blocks
    try:
        return "text content", parse_json(text)
    except oracle.ContractError as exc:
        why = exc.message.removeprefix("input: ")
        return "", f"its text content is not JSON ({why}): {excerpt(text, DETAIL_EXCERPT_CHARS)!r}"


def tool_result_text(result: Any) -> str:
    """What an isError tool result without an error body says: its text content, else its JSON."""
    content = result.get("content") if isinstance(result, dict) else None
    texts = (
        [text for block in content if isinstance(block, dict) and isinstance(text := block.get("text"), str)]
        if isinstance(content, list)
        else []
    )
    return "".join(texts) if texts else dump_json(result)


def refusal_without_body(
    result: Any, schema: DeclaredSchema, arguments: Any, status: int | None, raw: str, elapsed_ms: float
) -> TargetResponse:
    """``isError: true`` without the contract's error body: a refusal by the server's MCP layer when the
    arguments break its declared input schema, else a malformed rejection (open point a17)."""
    said = excerpt(tool_result_text(result), TOOL_TEXT_CHARS)
    violation = schema.violation(arguments)
    if violation is not None:
        return TargetResponse(
            "rejection",
            status=status,
            raw=raw,
            duration_ms=elapsed_ms,
            refused_by=MCP_INPUT_SCHEMA,
            detail=f"refused by {MCP_INPUT_SCHEMA} ({violation}), before the tool ran: {said!r}",
        )
    why = (
        "to arguments that satisfy the input schema the server declares for execute"
        if schema.validator is not None
        else f"and the server declares no usable input schema for execute ({schema.absent})"
    )
    return TargetResponse(
        "malformed_rejection",
        status=status,
        raw=raw,
        duration_ms=elapsed_ms,
        detail=f'isError without an error body {{"error": {{"code", "message"}}}}, {why}: {said!r}',
    )


def classify_answer(
    message: dict,
    data: bytes,
    exchange: Exchange,
    elapsed_ms: float,
    schema: DeclaredSchema = NOT_LISTED,
    arguments: Any = None,
) -> TargetResponse:
    """The server's JSON-RPC response to ``tools/call`` with ``arguments`` (``data``: as sent) as a
    result, a rejection, a malformed rejection or a transport error; ``schema``: what the server
    declared for ``execute``."""
    raw = excerpt(data)
    status = exchange.status
    if "error" in message:
        error = message["error"]
        if isinstance(error, dict):
            described = f"JSON-RPC error {error.get('code')}: {str(error.get('message'))[:JSONRPC_ERROR_MESSAGE_CHARS]}"
        else:
            described = f"JSON-RPC error {excerpt(dump_json(error), DETAIL_EXCERPT_CHARS)}"
        return TargetResponse(
            "rejection",
            status=status,
            raw=raw,
            duration_ms=elapsed_ms,
            detail=described + " (a JSON-RPC error names no error code)",
        )
    result = message["result"]
    where, body = tool_result_envelope(result)
    if isinstance(result, dict) and result.get("isError") is True:
        envelope = envelope_of(body, error_body_rejects=True)
        if not where or envelope.kind != "rejection":
            return refusal_without_body(result, schema, arguments, status, raw, elapsed_ms)
        code = envelope.error_code
        return TargetResponse(
            "rejection",
            status=status,
            error_code=code,
            raw=raw,
            duration_ms=elapsed_ms,
            detail=f"isError with an error body in its {where}" + (f": {code}" if code else " (no recognised code)"),
        )
    if not where:
        return TargetResponse(
            "transport_error",
            status=status,
            raw=raw,
            duration_ms=elapsed_ms,
            detail=f'the answer to tools/call is not a {{"result"}} envelope: {body}',
        )
    envelope = envelope_of(body, error_body_rejects=False)
    if envelope.kind == "result":
        return TargetResponse("result", result=envelope.result, status=status, raw=raw, duration_ms=elapsed_ms)
    shape = f"an object with keys {sorted(body)[:8]}" if isinstance(body, dict) else type(body).__name__
    return TargetResponse(
        "transport_error",
        status=status,
        raw=raw,
        duration_ms=elapsed_ms,
        detail=f'tool result with isError false but its {where} is not the {{"result": ...}} envelope: got {shape}',
    )


def classify_call(
    record: CallRecord,
    failure: str,
    elapsed_ms: float,
    timeout: float,
    max_bytes: int,
    schema: DeclaredSchema = NOT_LISTED,
    arguments: Any = None,
) -> tuple[TargetResponse, bool]:
    """What one call with ``arguments`` came to, from what went over the wire; and whether a retry may
    help. ``schema``: the input schema the server declares for ``execute``."""
    exchange, message, data = find_answer(record)
    if message is not None and exchange is not None and (exchange.status or 0) < 500 and not exchange.oversize:
        return classify_answer(message, data, exchange, elapsed_ms, schema, arguments), False

    def transport_error(detail: str, retryable: bool, fault: str = "") -> tuple[TargetResponse, bool]:
        raw = excerpt(bytes(exchange.body)) if exchange is not None else ""
        if exchange is not None and exchange.body.strip():
            detail += f"; the body starts {excerpt(bytes(exchange.body).strip(), DETAIL_EXCERPT_CHARS)!r}"
        status = exchange.status if exchange is not None else None
        return TargetResponse(
            "transport_error", status=status, raw=raw, detail=detail, duration_ms=elapsed_ms, fault=fault
        ), retryable

    if exchange is not None and exchange.oversize:
        return transport_error(f"MCP answer larger than the {max_bytes}-byte cap; stopped reading", False, OVER_THE_CAP)
    if exchange is not None and exchange.failure:
        return transport_error(exchange.failure, True)
    if exchange is not None and exchange.status is not None and not 200 <= exchange.status < 300:
        kind = " server error" if exchange.status >= 500 else ""
        return transport_error(
            f"HTTP {exchange.status}{kind} to tools/call"
            f"{', ' + exchange.content_type if exchange.content_type else ''}, no JSON-RPC answer",
            exchange.status in RETRYABLE_STATUSES,
            f"HTTP {exchange.status}" if exchange.status >= 500 and exchange.status not in RETRYABLE_STATUSES else "",
        )
    if exchange is None:  # the session could not be opened, or the call never left
        why = f"no MCP session opened within {timeout:g} s" if failure == "timeout" else failure
        return transport_error(f"no tools/call request was sent: {why}", True)
    if failure == "timeout":
        return transport_error(f"no answer to tools/call within {timeout:g} s", True, NO_ANSWER_IN_TIME)
    return transport_error(
        f"HTTP {exchange.status} {exchange.content_type or 'without Content-Type'} but no JSON-RPC "
        f"answer to tools/call (request id {exchange.request_id!r}) in it",
        False,
        f"HTTP {exchange.status} without a JSON-RPC answer",
    )


def listing_unanswered(record: CallRecord) -> bool:
    """Did a tools/list get no answer (none was sent, the connection dropped, or a status the retry
    policy retries)? A JSON-RPC answer, an error one too, is the server's answer: not retried."""
    listing = next((found for found in reversed(record.exchanges) if found.method == "tools/list"), None)
    if listing is None or listing.failure or listing.status is None:
        return True
    return listing.status in RETRYABLE_STATUSES


# --- sessions on a background event loop -------------------------------------------------------


class _Session:
    """One open SDK client. anyio binds its task group to the task that entered it, so a task of
    its own enters it, holds it open until ``close`` and exits it."""

    def __init__(self, make_client: Callable[[], Client]) -> None:
        self._make_client = make_client
        self._stop = asyncio.Event()
        self.client: Client | None = None
        self.broken = False
        self._task: asyncio.Task | None = None

    async def open(self) -> _Session:
        ready: asyncio.Future = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._hold(ready))
        try:
            self.client = await asyncio.shield(ready)
        except BaseException:
            self.close()
            raise
        return self

    async def _hold(self, ready: asyncio.Future) -> None:
        _current_call.set(None)  # this task copied the context of the call that opened it: not its record
        try:
            async with self._make_client() as client:
                # the SDK would check each result against the outputSchema the server declares, running the
                # server's regular expressions in this loop with no time limit (and listing tools again on a
                # session that did not): the answer is read from the wire and judged by the contract instead
                setattr(client.session, "validate_tool_result", _not_validated)  # noqa: B010 - an instance's method
                ready.set_result(client)
                await self._stop.wait()
        except BaseException as exc:  # the transport died, or the session could not be opened
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else ConnectionError("session cancelled"))
        finally:
            self.broken = True

    def close(self) -> None:
        self.broken = True
        self._stop.set()
        if self._task is not None and not self._task.done() and self.client is None:
            self._task.cancel()  # still opening: nobody waits for it

    @property
    def open_client(self) -> Client:
        """The client of a session ``open`` returned."""
        if self.client is None:
            raise RuntimeError("the MCP session is not open")
        return self.client

    async def closed(self) -> None:
        if self._task is not None:
            await asyncio.wait([self._task], timeout=CLOSE_SECONDS)


async def _not_validated(name: str, result: Any) -> None:
    """In place of the SDK's ``ClientSession.validate_tool_result``: no check of the server's outputSchema."""


class McpTarget:
    # How the SDK negotiates: "auto" probes the 2026-07-28 protocol (answers in JSON bodies) and
    # falls back to the initialize handshake of older servers (answers as server-sent events).
    connect_mode = "auto"
    # What to check when the preflight finds the target unusable (engine/health.py).
    preflight_hint = (
        "check the URL of the MCP endpoint (for example mcp+http://HOST:PORT/mcp), that the server is up, "
        "and that it lists a tool named execute"
    )

    def __init__(
        self,
        spec: str,
        timeout: float = DEFAULT_TIMEOUT,
        max_bytes: int = DEFAULT_MAX_BYTES,
        retries: int = DEFAULT_RETRIES,
    ):
        if not spec.startswith(PREFIXES) or len(spec) <= len("mcp+https://"):
            raise TargetSpecError(f"an MCP target is mcp+http://HOST:PORT/PATH or mcp+https://..., got {spec!r}")
        self.spec = spec
        self.url = spec[len("mcp+") :]
        self.timeout = float(timeout)
        self.max_bytes = int(max_bytes)
        self.retries = max(0, int(retries))
        # Every failure is reported with what came back; the SDK's own log lines of the same failures
        # (tracebacks on stderr for a garbage answer) would only bury the console.
        logging.getLogger("mcp.client").setLevel(logging.CRITICAL)
        self._proxy = environment_proxy(self.url)  # read once: the environment may change under a run
        self._idle: list[_Session] = []
        self._sessions: set[_Session] = set()
        self._last_call: tuple[dict, Any] = ({}, None)  # the MCP headers and _meta of the last call sent
        self._schema: DeclaredSchema | None = None  # execute's declared input schema, once tools/list was read
        self._listing = asyncio.Lock()  # one reading of tools/list, whatever the number of workers
        self._in_flight: set[concurrent.futures.Future] = set()  # the calls close() cancels
        self._closed = False
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-target", daemon=True)
        self._thread.start()

    # -- the synchronous face -----------------------------------------------------------------

    def call(self, tool_id: str, version: str, payload: Any) -> TargetResponse:
        arguments = {"id": tool_id, "version": version, "input": payload}
        with self._lock:
            if self._closed:
                return TargetResponse("transport_error", detail="not sent: the target was closed (the run is stopping)")
            future = asyncio.run_coroutine_threadsafe(self._call(arguments), self._loop)
            self._in_flight.add(future)
        # Each attempt, the listing and each wait end themselves within the timeout; this bound only
        # guards against a stuck loop.
        bound = (2 * self.timeout + 1) * (self.retries + 2) + CLOSE_SECONDS
        try:
            return future.result(bound)
        except Exception as exc:
            future.cancel()
            return TargetResponse("transport_error", detail=f"the MCP client did not finish: {describe(exc)}")
        finally:
            with self._lock:
                self._in_flight.discard(future)

    def reproduce_hint(self, tool_id: str, version: str, payload: Any) -> str:
        """A curl of the JSON-RPC request, with the MCP headers and ``_meta`` the SDK sent: enough
        for a server of the 2026-07-28 protocol or a stateless one (as `conformance serve` is); a
        server with sessions wants an ``initialize`` first, as an MCP client does."""
        headers, meta = self._last_call
        params: dict = {"name": TOOL_NAME, "arguments": {"id": tool_id, "version": version, "input": payload}}
        if meta is not None:
            params["_meta"] = meta
        request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
        mcp_headers = "".join(f"-H {shlex.quote(f'{name}: {value}')} " for name, value in headers.items())
        return (
            "curl -sS -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' "
            f"{mcp_headers}--data-binary {shlex.quote(dump_json(request))} {shlex.quote(self.url)}"
        )

    def close(self) -> None:
        with self._lock:
            self._closed = True
            in_flight = list(self._in_flight)
        for future in in_flight:
            future.cancel()  # the call's task is cancelled on the loop; its caller gets a transport error
        if self._loop.is_closed():
            return
        try:
            asyncio.run_coroutine_threadsafe(self._close_sessions(), self._loop).result(CLOSE_SECONDS + 1)
        except Exception:
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(CLOSE_SECONDS)
        if not self._thread.is_alive():
            self._loop.close()

    # -- on the loop ----------------------------------------------------------------------------

    def _make_client(self) -> Client:
        http = _JsonClient(
            # trust_env off: httpx would route proxied requests around the wire tap; the proxy goes under it
            transport=_WireTap(httpx2.AsyncHTTPTransport(proxy=self._proxy, trust_env=False), self.max_bytes),
            trust_env=False,
            timeout=httpx2.Timeout(self.timeout),
            headers={"Accept-Encoding": "identity"},  # what is capped is what was sent: no decompression bombs
        )
        transport = _owning(http, streamable_http_client(self.url, http_client=http, max_sse_event_size=self.max_bytes))
        return Client(transport, cache=None, read_timeout_seconds=self.timeout, mode=self.connect_mode)

    async def _call(self, arguments: dict) -> TargetResponse:
        if self._schema is None:
            await self._read_declared_schema()
        retries = 0
        while True:
            response, retryable, answer = await self._attempt(arguments)
            if not retryable or retries >= self.retries:
                response.retries = retries
                return response
            retries += 1
            status, retry_after = (answer.status, answer.retry_after) if answer is not None else (None, None)
            await asyncio.sleep(wait_before_retry(retries, status, retry_after, self.timeout) + jitter(status))

    async def _read_declared_schema(self) -> None:
        """``execute``'s declared input schema, from tools/list on a session of its own, once. A listing
        that got no answer is tried again as a call is (targets.retry_policy): a server busy for a
        moment must not be judged for the whole run without the schema it declares."""
        async with self._listing:
            attempt = 0
            while self._schema is None:
                schema, may_help = await self._list_once()
                if may_help and attempt < self.retries:
                    attempt += 1
                    await asyncio.sleep(wait_before_retry(attempt, None, None, self.timeout))
                else:
                    self._schema = schema

    async def _list_once(self) -> tuple[DeclaredSchema, bool]:
        """One reading of tools/list: the schema (or why there is none), and whether a retry may help."""
        record = CallRecord()
        token = _current_call.set(record)
        session: _Session | None = None
        tools: list = []
        failed, may_help = True, False
        try:
            with anyio.fail_after(self.timeout):
                session = await self._checkout()
                cursor = None
                for _ in range(MAX_LIST_PAGES):
                    page = await session.open_client.list_tools(cursor=cursor)
                    tools += page.tools
                    cursor = page.next_cursor
                    if not cursor or any(tool.name == TOOL_NAME for tool in page.tools):
                        break
        except TimeoutError:
            schema, may_help = no_schema(f"tools/list did not answer within {self.timeout:g} s"), True
        except Exception as exc:
            schema, may_help = no_schema(f"tools/list failed: {describe(exc)}"), listing_unanswered(record)
        else:
            schema, failed = execute_schema(tools, TOOL_NAME), False
        finally:
            _current_call.reset(token)
        if session is not None:
            if failed or session.broken:
                self._discard(session)
            else:
                self._idle.append(session)
        return schema, may_help

    async def _attempt(self, arguments: dict) -> tuple[TargetResponse, bool, Exchange | None]:
        """One call: what it came to, whether a retry may help, and the exchange of the call."""
        record = CallRecord()
        token = _current_call.set(record)
        started = time.monotonic()
        session: _Session | None = None
        failure = ""
        try:
            with anyio.fail_after(self.timeout):
                session = await self._checkout()
                await session.open_client.call_tool(TOOL_NAME, arguments)  # its answer is read from the wire
        except TimeoutError:
            failure = "timeout"
        except Exception as exc:  # the SDK's view of a failure; the wire says what it was
            failure = describe(exc)
        finally:
            _current_call.reset(token)
        if record.call_exchange() is not None:
            self._last_call = (record.headers, record.meta)
        elapsed = (time.monotonic() - started) * 1000
        response, retryable = classify_call(
            record, failure, elapsed, self.timeout, self.max_bytes, self._schema or NOT_LISTED, arguments
        )
        if session is not None:
            if response.kind == "transport_error" or session.broken:
                self._discard(session)
            else:
                self._idle.append(session)
        return response, retryable, record.call_exchange()

    async def _checkout(self) -> _Session:
        while self._idle:
            session = self._idle.pop()
            if not session.broken:
                return session
            self._discard(session)
        session = _Session(self._make_client)
        self._sessions.add(session)
        try:
            return await session.open()
        except BaseException:
            self._sessions.discard(session)
            raise

    def _discard(self, session: _Session) -> None:
        session.close()
        self._sessions.discard(session)

    async def _close_sessions(self) -> None:
        sessions = list(self._sessions)
        self._idle.clear()
        self._sessions.clear()
        for session in sessions:
            session.close()
        await asyncio.gather(*(session.closed() for session in sessions), return_exceptions=True)


class _owning:
    """The SDK's transport context, which also closes the httpx client it was given."""

    def __init__(self, http: httpx2.AsyncClient, transport):
        self.http, self.transport = http, transport

    async def __aenter__(self):
        await self.http.__aenter__()
        try:
            return await self.transport.__aenter__()
        except BaseException:
            await self.http.aclose()
            raise

    async def __aexit__(self, *exc_info):
        try:
            return await self.transport.__aexit__(*exc_info)
        finally:
            await self.http.aclose()


def mcp_target(
    spec: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    retries: int = DEFAULT_RETRIES,
    **_options: Any,
) -> McpTarget:
    """``mcp+http://HOST:PORT/PATH`` or ``mcp+https://...``."""
    return McpTarget(spec, timeout=timeout, max_bytes=max_bytes, retries=retries)


def environment_proxy(url: str) -> str | None:
    """The proxy the environment (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) names for ``url``, if any."""
    parts = urllib.parse.urlsplit(url)
    if parts.hostname and urllib.request.proxy_bypass(parts.hostname):
        return None
    return urllib.request.getproxies().get(parts.scheme)


def describe(exc: BaseException) -> str:
    """The innermost useful reason of an exception (task groups wrap them), one line, bounded."""
    while inner := getattr(exc, "exceptions", None):  # an exception group
        exc = inner[0]
    cause = exc.__cause__ or exc.__context__
    text = str(exc) or (str(cause) if cause else "")
    return f"{type(exc).__name__}: {text[:300]}"

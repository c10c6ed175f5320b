"""`conformance serve`: the oracle behind the hosted API, as a local stand-in.

    POST /v1/tools/{id}/versions/{version}/execute   body: the input object
         200 {"result": ...} | 400 invalid_input | 413 limit_exceeded | 404 not_found
    GET  /v1/tools/{id}/versions/{version}           the contract, as published
    GET  /v1/tools                                   every tool, its versions, whether served
    GET  /healthz                                    {"status": "ok"}
    POST /mcp                                        MCP (Streamable HTTP, stateless): the tool
                                                     ``execute`` with {"id", "version", "input"}
                                                     (conformance.mcp_server)

Every error, whatever its cause, has the body ``{"error": {"code", "message"}}``:
404 not_found (unknown path, tool or version), 405 method_not_allowed,
415 unsupported_media_type, 408 request_timeout (a body that trickles in slower
than BODY_READ_TIMEOUT), 413 limit_exceeded (a body over MAX_BODY_BYTES, or a
contract limit), 400 invalid_input.

Content type: ``application/json`` (a ``charset`` parameter, if any, must be
utf-8). A request with no Content-Type at all is read as JSON, as most JSON APIs
do: the body is parsed strictly either way. Any other type is 415 — notably
``application/x-www-form-urlencoded``, which ``curl -d`` sends unless told
``-H "Content-Type: application/json"``; the message says so.

Stack: uvicorn (HTTP/1.1 with keep-alive, graceful shutdown on SIGTERM/SIGINT,
flow control that never buffers more than 64 KiB of an unread body) with a small
Starlette app (routing, 404/405, request streaming). Both are widely used, small,
and pure Python with the h11 parser, so they install anywhere from PyPI.

Concurrency model: one server process with one event loop, plus ``--workers``
worker processes (default: one per CPU, at most 4). The loop only routes, streams
bodies (capped at MAX_BODY_BYTES as they arrive: Content-Length is checked
before a byte is read, a chunked body is cut off at the cap), answers /healthz
and the GET endpoints, and writes answers. Parsing, the oracle and serialisation
are CPU-bound and run in the worker processes, so they use every core and never
hold the loop's GIL: a maximum-size request (a few hundred ms) does not slow a
health check. At most 2 x workers bodies are handed to the pool at once; the
rest wait their turn, each holding at most one capped body. If a worker dies
(killed, out of memory), its request gets a logged 500 and a fresh pool serves
the next ones.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import oracle
from conformance.jsonio import dump_json, parse_json

MAX_BODY_BYTES = 8 * 1024 * 1024  # the largest valid input is 6.47 MB of compact JSON (strategies/wire_sizes.py)
BODY_READ_TIMEOUT = 60.0  # seconds for a whole body to arrive
DEFAULT_WORKERS = min(4, os.cpu_count() or 1)  # more processes than cores only add memory
GRACEFUL_SHUTDOWN_SECONDS = 10
KEEP_ALIVE_SECONDS = 30

log = logging.getLogger("conformance.server")

_workers = DEFAULT_WORKERS
_pool: ProcessPoolExecutor | None = None
_execute_limiter: anyio.CapacityLimiter | None = None

# Status -> error code of HTTP-level errors (the contract's own codes come from ContractError).
HTTP_ERROR_CODES = {
    400: "invalid_input",
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    413: "limit_exceeded",
    415: "unsupported_media_type",
}


class ApiError(Exception):
    """An HTTP-level rejection, answered with the error body."""

    def __init__(self, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


def json_response(status: int, body: Any, headers: Mapping[str, str] | None = None) -> Response:
    return Response(dump_json(body).encode("utf-8"), status_code=status, headers=headers, media_type="application/json")


def error_response(
    request: Request, status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> Response:
    request.scope["conformance.error_code"] = code
    return json_response(status, {"error": {"code": code, "message": message}}, headers)


# --- request checks, in the order they apply ---------------------------------------------


def check_tool_served(tool_id: str, version: str) -> None:
    if not oracle.implemented(tool_id, version):
        raise ApiError(404, f"no tool {tool_id}@{version} here; GET /v1/tools lists the tools served")


def check_content_type(content_type: str | None) -> None:
    if content_type is None:
        return
    media_type, _, params = content_type.partition(";")
    media_type = media_type.strip().lower()
    if media_type != "application/json":
        hint = (
            ' (curl -d sends that unless given -H "Content-Type: application/json")'
            if media_type == "application/x-www-form-urlencoded"
            else ""
        )
        raise ApiError(415, f"Content-Type must be application/json, got {content_type[:80]!r}{hint}")
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset" and value.strip().strip('"').lower() not in ("utf-8", "utf8"):
            raise ApiError(415, f"the body must be application/json in UTF-8, got charset {value.strip()[:40]!r}")


def check_declared_length(content_length: str | None) -> None:
    """Refuse an oversize body before reading any of it (the server has validated the header's syntax)."""
    if content_length is not None and content_length.strip().isdigit() and int(content_length) > MAX_BODY_BYTES:
        raise ApiError(413, f"request body of {int(content_length)} bytes is larger than {MAX_BODY_BYTES} bytes")


async def read_capped_body(request: Request) -> bytes:
    """The body, refusing it as soon as more than MAX_BODY_BYTES have arrived (chunked bodies)."""
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(BODY_READ_TIMEOUT):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    raise ApiError(413, f"request body is larger than {MAX_BODY_BYTES} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise ApiError(408, f"the request body did not arrive within {BODY_READ_TIMEOUT:.0f} s") from None
    return b"".join(chunks)


def execute_body(tool_id: str, version: str, body: bytes) -> tuple[int, bytes, str | None]:
    """Parse, run the oracle and serialise (in a worker process): status, JSON bytes, error code."""
    try:
        answer = {"result": oracle.execute(tool_id, version, parse_json(body))}
        return 200, dump_json(answer).encode("utf-8"), None
    except oracle.ContractError as exc:
        return exc.http_status, dump_json(exc.body()).encode("utf-8"), exc.code


# --- endpoints -----------------------------------------------------------------------------


async def execute(request: Request) -> Response:
    tool_id, version = request.path_params["tool_id"], request.path_params["version"]
    check_tool_served(tool_id, version)
    check_content_type(request.headers.get("content-type"))
    check_declared_length(request.headers.get("content-length"))
    body = await read_capped_body(request)
    status, content, code = await run_in_worker(tool_id, version, body)
    if code:
        request.scope["conformance.error_code"] = code
    return Response(content, status_code=status, media_type="application/json")


async def get_contract(request: Request) -> Response:
    tool_id, version = request.path_params["tool_id"], request.path_params["version"]
    try:
        contract = oracle.load_contract(tool_id, version)
    except oracle.ContractError as exc:
        raise ApiError(404, exc.message) from None
    return json_response(200, contract)


async def list_tools(request: Request) -> Response:
    versions: dict[str, list[dict]] = {}
    for tool_id, version in oracle.available():
        versions.setdefault(tool_id, []).append(
            {
                "version": version,
                "served": oracle.implemented(tool_id, version),
                "contract": f"/v1/tools/{tool_id}/versions/{version}",
            }
        )
    return json_response(
        200, {"tools": [{"id": tool_id, "versions": entries} for tool_id, entries in versions.items()]}
    )


async def healthz(request: Request) -> Response:
    return json_response(200, {"status": "ok"})


# --- errors and logging --------------------------------------------------------------------


async def on_api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_response(request, exc.status, HTTP_ERROR_CODES[exc.status], exc.message, exc.headers)


async def on_http_exception(request: Request, exc: Exception) -> Response:
    """Starlette's own 404 (no route) and 405 (route, other method), as error bodies."""
    assert isinstance(exc, HTTPException)
    status = exc.status_code if exc.status_code in HTTP_ERROR_CODES else 400
    if status == 404:
        path = request.url.path
        message = f"no such path {path[:200]}; the API is under /v1/tools"
        if len(path) > 1 and path.endswith("/"):
            message += f" (paths take no trailing slash: {path.rstrip('/')[:200]})"
    elif status == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        message = f"{request.method[:20]} is not allowed on {request.url.path[:200]}; use {allowed}"
    else:
        message = str(exc.detail)[:200]
    return error_response(request, status, HTTP_ERROR_CODES[status], message, exc.headers)


async def on_client_disconnect(request: Request, exc: Exception) -> Response:
    # The client is gone: nobody reads this answer, but the log line says what happened.
    return error_response(request, 400, "invalid_input", "the client disconnected before sending the whole body")


async def on_unexpected_error(request: Request, exc: Exception) -> Response:
    """A bug in this server, never a property of the request body: logged with its traceback."""
    log.error("internal error on %s %s\n%s", request.method, request.url.path, "".join(traceback.format_exception(exc)))
    return error_response(
        request, 500, "internal_error", "internal error in the conformance server (a bug: please report it)"
    )


class RequestLogMiddleware:
    """One log line per request: client, method, path, status, bytes sent, time, error code."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = time.perf_counter()
        sent = {"status": 0, "bytes": 0}

        async def send_and_count(message: Message) -> None:
            if message["type"] == "http.response.start":
                sent["status"] = message["status"]
            elif message["type"] == "http.response.body":
                sent["bytes"] += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, send_and_count)
        except Exception:
            # Starlette re-raises a bug after its handler answered 500 and logged it; once the
            # answer is out there is nothing left to do, and uvicorn would log it a second time.
            if not sent["status"]:
                raise
        finally:
            client = scope.get("client") or ("-", 0)
            code = scope.get("conformance.error_code") or "-"
            target = scope["path"] + (
                "?" + scope["query_string"].decode("latin-1") if scope.get("query_string") else ""
            )
            log.info(
                '%s:%s "%s %s HTTP/%s" %s %dB %.1fms %s',
                client[0],
                client[1],
                scope["method"],
                target[:200],
                scope.get("http_version", "1.1"),
                sent["status"] or "-",
                sent["bytes"],
                (time.perf_counter() - started) * 1000,
                code,
            )


# --- worker processes ------------------------------------------------------------------------


def _worker_init(server_pid: int) -> None:
    # Ctrl-C reaches the whole process group; only the server decides when workers stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A server killed outright (SIGKILL) cannot stop its pool: a worker then ends by itself.
    threading.Thread(target=_exit_when_orphaned, args=(server_pid,), daemon=True).start()


def _exit_when_orphaned(server_pid: int) -> None:
    while os.getppid() == server_pid:
        time.sleep(1.0)
    os._exit(0)


def start_worker_pool(workers: int) -> ProcessPoolExecutor:
    """A warmed-up pool: every worker has imported the oracle and loaded the contracts."""
    global _pool, _workers
    _workers = workers
    # spawn, not fork: a fresh interpreter per worker inherits no threads or event-loop state
    _pool = ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_init, initargs=(os.getpid(),)
    )
    warm_up = [_pool.submit(execute_body, tool_id, version, b"{}") for tool_id, version in oracle.tool_keys()]
    for future in warm_up:
        future.result()
    return _pool


def stop_worker_pool() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=True, cancel_futures=True)
        _pool = None


async def run_in_worker(tool_id: str, version: str, body: bytes) -> tuple[int, bytes, str | None]:
    global _pool, _execute_limiter
    if _execute_limiter is None:  # created inside the running loop
        _execute_limiter = anyio.CapacityLimiter(2 * _workers)
    async with _execute_limiter:
        pool = _pool if _pool is not None else start_worker_pool(_workers)
        try:
            return await asyncio.wrap_future(pool.submit(execute_body, tool_id, version, body))
        except BrokenProcessPool:
            if _pool is pool:  # the first request to notice replaces the pool for everyone
                _pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise


async def read_mcp_body(request: Request) -> bytes:
    """An MCP request's body under the HTTP API's own size cap and time limit."""
    check_declared_length(request.headers.get("content-length"))
    return await read_capped_body(request)


def build_app() -> ASGIApp:
    from conformance.mcp_server import mcp_endpoint  # the MCP SDK is imported only to serve

    tool_path = "/v1/tools/{tool_id}/versions/{version}"
    mcp_app, mcp_lifespan = mcp_endpoint(run_in_worker, read_mcp_body, MAX_BODY_BYTES)
    app = Starlette(
        lifespan=mcp_lifespan,
        routes=[
            # MCP, Streamable HTTP (mcp_server.py). POST only: a stateless server has no session to
            # DELETE and sends nothing unasked, so a GET stream would only hold a connection open forever.
            Route("/mcp", mcp_app, methods=["POST"]),
            Route(tool_path + "/execute", execute, methods=["POST"]),
            Route(tool_path, get_contract, methods=["GET"]),
            Route("/v1/tools", list_tools, methods=["GET"]),
            Route("/healthz", healthz, methods=["GET"]),
        ],
        exception_handlers={
            ApiError: on_api_error,
            HTTPException: on_http_exception,
            ClientDisconnect: on_client_disconnect,
            Exception: on_unexpected_error,
        },
    )
    # Starlette would answer a path with a trailing slash (/v1/tools/) with a 307 and an empty body:
    # the documented paths have none, so another path is a 404 with the error body, as any unknown path,
    # and a client that works here uses only the paths the hosted API documents.
    app.router.redirect_slashes = False
    return RequestLogMiddleware(app)


# --- the command ---------------------------------------------------------------------------


def bind_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto given explicitly: asyncio sets TCP_NODELAY only on sockets that say they are TCP, and
    # without it every keep-alive answer (headers and body are two writes) waits 40 ms for an ACK
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the oracle over HTTP with the hosted API",
        description="Serve the oracle with the hosted API: POST /v1/tools/{id}/versions/{version}/execute "
        "(Content-Type: application/json; a missing Content-Type is read as JSON), "
        "GET /v1/tools/{id}/versions/{version} (the contract), GET /v1/tools, GET /healthz, "
        "and MCP at /mcp (Streamable HTTP, the tool execute with {id, version, input}). "
        "The first line on stdout is the address; stop with SIGTERM or Ctrl-C.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="port to bind; 0 picks a free one (default 8000)")
    parser.add_argument(
        "--workers",
        type=int,
        default=DEFAULT_WORKERS,
        help=f"processes running the oracle (default {DEFAULT_WORKERS}: one per CPU, at most 4)",
    )
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    parser.set_defaults(func=run)


def run(args) -> int:
    logging.basicConfig(
        level=args.log_level.upper(), stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if args.workers < 1:
        print("conformance serve: --workers must be at least 1", file=sys.stderr)
        return 2
    try:
        sock = bind_socket(args.host, args.port)
    except (OSError, OverflowError) as exc:
        print(f"conformance serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    # uvicorn drains in-flight requests on SIGTERM/SIGINT, restores these handlers, then re-raises
    # the signal: the handlers turn it into an exit that still stops the worker pool.
    signal.signal(signal.SIGTERM, _exit_on_signal)
    signal.signal(signal.SIGINT, _exit_on_signal)
    try:
        start_worker_pool(args.workers)
        app = build_app()  # before the address is printed: importing the MCP SDK takes a moment
        host, port = sock.getsockname()[:2]
        shown_host = f"[{host}]" if ":" in host else host
        # The first line of stdout is the address, so scripts and tests can use --port 0.
        print(
            f"conformance serve: listening on http://{shown_host}:{port} "
            f"({args.workers} worker process{'es' if args.workers > 1 else ''})",
            flush=True,
        )
        config = uvicorn.Config(
            app,
            access_log=False,  # RequestLogMiddleware writes the one line per request
            log_config=None,
            log_level=args.log_level,
            timeout_keep_alive=KEEP_ALIVE_SECONDS,
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
            server_header=False,
            lifespan="on",  # the MCP session manager lives as long as the server
        )
        uvicorn.Server(config).run(sockets=[sock])
    except SystemExit as exc:
        return int(exc.code or 0)
    finally:
        stop_worker_pool()
    return 0


def _exit_on_signal(signum, frame) -> None:
    raise SystemExit(128 + signum)

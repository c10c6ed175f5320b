"""The HTTP target, ``http(s)://BASE``: the hosted API (or `conformance serve`) at a base URL.

Nothing the server sends is trusted. Each call is bounded three ways:
  * size: the answer is streamed and reading stops past ``max_bytes`` (a declared
    Content-Length over the cap is refused before reading), so a 40 MB answer costs
    at most ``max_bytes`` of memory;
  * time: a connect timeout, a read timeout, and one deadline (``timeout`` seconds)
    for the whole attempt. Socket timeouts restart with every byte, so a watchdog
    shuts the attempt's connection down at the deadline: a server trickling its
    headers or body one byte at a time cannot hold a call longer than ``timeout``;
  * shape: only a 2xx whose strict-JSON body is an object with "result" is an answer.

Classification (conformance.model.TargetResponse.kind):
  result           2xx with {"result": ...}
  rejection        4xx, with the error code read from the common body shapes when
                   present (the hosted error body is unpublished, so any 4xx counts) —
                   except 408 and 429, which say nothing about the input (timeout,
                   rate limit) and are transport errors
  transport_error  everything else: 5xx, 1xx/3xx (redirects are not followed), a 2xx
                   that is not JSON or lacks the envelope, HTML, oversize, timeout,
                   refused, dropped connection

Retries: the tools are pure functions, so re-sending is safe; but only a failure of
the transport is retried (refused, dropped, timeout, 408/429/502/503/504), at most
``retries`` times with a short backoff. A well-formed answer, right or wrong, and a
500 (a bug, not a hiccup) are never retried. ``TargetResponse.retries`` counts them.
"""

from __future__ import annotations

import shlex
import socket
import threading
import time
from typing import Any
from urllib.parse import quote

import requests
import urllib3
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from conformance.jsonio import encode_request
from conformance.model import TargetResponse
from conformance.targets.base import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT, excerpt, read_envelope

READ_CHUNK = 64 * 1024
DETAIL_EXCERPT_CHARS = 80  # of a bad answer, quoted in the one-line detail (``raw`` holds more)
MAX_CONNECT_TIMEOUT = 5.0  # a loopback or LAN connect takes milliseconds; a dead host should fail fast
POOL_CONNECTIONS = 32
BACKOFF_SECONDS = 0.2  # doubled on each retry: 0.2 s, 0.4 s, ...
RETRYABLE_STATUSES = frozenset({408, 429, 502, 503, 504})
NOT_A_VERDICT_4XX = frozenset({408, 429})  # 4xx that say nothing about the input


class _Oversize(Exception):
    def __init__(self, reason: str, head: bytes = b""):
        super().__init__(reason)
        self.head = head  # the start of what came back, for the report


class _DeadlinePassed(Exception):
    pass


_current = threading.local()  # the watchdog of the attempt running on this thread


class _Watchdog:
    """Shuts down the connection of one attempt when its deadline passes."""

    def __init__(self, seconds: float):
        self.fired = False
        self._connections: list[HTTPConnection] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def watch(self, connection: HTTPConnection) -> None:
        with self._lock:
            self._connections.append(connection)

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            for connection in self._connections:
                sock = getattr(connection, "sock", None)
                if sock is not None:
                    try:
                        sock.shutdown(socket.SHUT_RDWR)  # wakes a blocked read, unlike close()
                    except OSError:
                        pass

    def __enter__(self) -> "_Watchdog":
        _current.watchdog = self
        self._timer.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._timer.cancel()
        _current.watchdog = None


class _WatchedHTTPConnection(HTTPConnection):
    def request(self, *args, **kwargs):
        watchdog = getattr(_current, "watchdog", None)
        if watchdog is not None:
            watchdog.watch(self)
        return super().request(*args, **kwargs)


class _WatchedHTTPSConnection(_WatchedHTTPConnection, HTTPSConnection):
    pass


class _WatchedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _WatchedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


class _WatchedAdapter(HTTPAdapter):
    """requests' adapter, whose connections report to the running attempt's watchdog."""

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _WatchedHTTPPool, "https": _WatchedHTTPSPool}


def execute_url(base_url: str, tool_id: str, version: str) -> str:
    return f"{base_url}/v1/tools/{quote(tool_id, safe='')}/versions/{quote(version, safe='')}/execute"


def read_capped(response: requests.Response, max_bytes: int, deadline: float, read_timeout: float) -> bytes:
    """The body, at most ``max_bytes`` + one chunk of it in memory, all of it before ``deadline``."""
    declared = response.headers.get("Content-Length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise _Oversize(f"Content-Length {declared}")
    raw = response.raw
    body = bytearray()
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _DeadlinePassed()
        # Each read waits at most for the time left, so a trickle cannot outlast the deadline.
        connection = raw.connection
        if connection is not None and getattr(connection, "sock", None) is not None:
            connection.sock.settimeout(min(read_timeout, remaining))
        chunk = raw.read1(READ_CHUNK)
        if not chunk:
            return bytes(body)
        body += chunk
        if len(body) > max_bytes:
            raise _Oversize(f"more than {max_bytes} bytes", bytes(body[:READ_CHUNK]))


def classify(status: int, body: bytes, content_type: str, started: float) -> TargetResponse:
    """A complete HTTP answer as a result, a rejection or a transport error."""
    elapsed = (time.monotonic() - started) * 1000
    raw = excerpt(body)

    def transport_error(detail: str) -> TargetResponse:
        if body.strip():  # the report line names what came back, not only that it was wrong
            detail += f"; the body starts {excerpt(body.strip(), DETAIL_EXCERPT_CHARS)!r}"
        return TargetResponse("transport_error", status=status, raw=raw, detail=detail, duration_ms=elapsed)

    if 400 <= status < 500 and status not in NOT_A_VERDICT_4XX:
        code = read_envelope(body).error_code  # the status rejects; the body, if JSON, may name the code
        return TargetResponse("rejection", status=status, error_code=code, raw=raw, duration_ms=elapsed,
                              detail=f"HTTP {status}" + (f" {code}" if code else " (no recognised error body)"))
    if not 200 <= status < 300:
        kind = "redirect (not followed)" if 300 <= status < 400 else "server error" if status >= 500 else ""
        return transport_error(f"HTTP {status} {kind}".rstrip() + (f", {content_type}" if content_type else ""))
    envelope = read_envelope(body, error_body_rejects=False)  # a 2xx is an answer or garbage
    if envelope.empty:
        return transport_error(f"HTTP {status} with an empty body")
    if envelope.not_json is not None:
        return transport_error(f"HTTP {status} but the body is not JSON ({content_type or 'no Content-Type'}): "
                               f"{envelope.not_json}")
    if envelope.kind != "result":
        answer = envelope.body
        shape = f"an object with keys {sorted(answer)[:8]}" if isinstance(answer, dict) else type(answer).__name__
        return transport_error(f'HTTP {status} JSON without the {{"result": ...}} envelope: got {shape}')
    return TargetResponse("result", result=envelope.result, status=status, raw=raw, duration_ms=elapsed)


class HttpTarget:
    def __init__(self, base_url: str, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = DEFAULT_MAX_BYTES,
                 retries: int = 2):
        self.spec = base_url
        self.base_url = base_url.rstrip("/")
        self.timeout = float(timeout)
        self.max_bytes = int(max_bytes)
        self.retries = max(0, int(retries))
        self.session = requests.Session()
        # The environment's proxy settings are read once, here: requests would read os.environ on
        # every request, which races with a thread changing the environment (pytest does, per test).
        try:
            self.session.proxies = requests.utils.get_environ_proxies(self.base_url)
        except ValueError:  # an unusable URL: every call says so as a transport error
            pass
        self.session.trust_env = False
        for scheme in ("http://", "https://"):  # pool size: enough keep-alive connections for --workers
            self.session.mount(scheme, _WatchedAdapter(pool_maxsize=POOL_CONNECTIONS))
        self.session.headers.update({
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Accept-Encoding": "identity",  # what is capped is what was sent: no decompression bombs
        })

    def call(self, tool_id: str, version: str, payload: Any) -> TargetResponse:
        url = execute_url(self.base_url, tool_id, version)
        body = encode_request(payload)
        retries = 0
        while True:
            try:
                response, retryable = self._attempt(url, body)
            except Exception as exc:  # a client-side surprise still must not stop the run
                response, retryable = TargetResponse(
                    "transport_error", detail=f"unexpected client error: {describe(exc)}"), False
            if not retryable or retries >= self.retries:
                response.retries = retries
                return response
            time.sleep(BACKOFF_SECONDS * 2 ** retries)
            retries += 1

    def _attempt(self, url: str, body: bytes) -> tuple[TargetResponse, bool]:
        """One request: the classified response and whether a failure of it may be retried."""
        with _Watchdog(self.timeout) as watchdog:
            response, retryable = self._exchange(url, body)
        if watchdog.fired and response.kind != "result":
            # The watchdog cut the connection, so whatever arrived was cut short (a JSON object
            # that parsed whole, ending in its closing brace, was complete before the cut).
            response = TargetResponse("transport_error", status=response.status, raw=response.raw,
                                      detail=f"answer not complete within {self.timeout:g} s",
                                      duration_ms=response.duration_ms)
            retryable = True
        return response, retryable

    def _exchange(self, url: str, body: bytes) -> tuple[TargetResponse, bool]:
        started = time.monotonic()
        deadline = started + self.timeout

        def failed(detail: str, retryable: bool, status: int | None = None, raw: str = "") -> tuple[TargetResponse, bool]:
            elapsed = (time.monotonic() - started) * 1000
            return TargetResponse("transport_error", status=status, raw=raw, detail=detail, duration_ms=elapsed), retryable

        try:
            response = self.session.post(url, data=body, stream=True, allow_redirects=False,
                                         timeout=(min(MAX_CONNECT_TIMEOUT, self.timeout), self.timeout))
        except requests.exceptions.ConnectTimeout:
            return failed(f"could not connect within {min(MAX_CONNECT_TIMEOUT, self.timeout):g} s", True)
        except requests.exceptions.ReadTimeout:
            return failed(f"no answer within {self.timeout:g} s", True)
        except requests.exceptions.SSLError as exc:
            return failed(f"TLS error: {str(exc)[:300]}", False)
        except requests.exceptions.ConnectionError as exc:
            return failed(f"connection failed (refused or dropped): {describe(exc)}", True)
        except requests.exceptions.RequestException as exc:
            return failed(f"request failed: {describe(exc)}", False)
        try:
            status, content_type = response.status_code, response.headers.get("Content-Type", "")
            try:
                data = read_capped(response, self.max_bytes, deadline, self.timeout)
            except _Oversize as exc:
                return failed(f"HTTP {status} answer larger than the {self.max_bytes}-byte cap ({exc}); "
                              f"stopped reading", False, status, excerpt(exc.head))
            except (_DeadlinePassed, urllib3.exceptions.ReadTimeoutError, TimeoutError):
                return failed(f"HTTP {status} answer not complete within {self.timeout:g} s", True, status)
            except (urllib3.exceptions.HTTPError, requests.exceptions.RequestException, OSError) as exc:
                return failed(f"HTTP {status}: connection dropped while reading the answer: {describe(exc)}",
                              True, status)
            classified = classify(status, data, content_type, started)
            return classified, status in RETRYABLE_STATUSES
        finally:
            response.close()  # an unread remainder closes the connection instead of returning it to the pool

    def reproduce_hint(self, tool_id: str, version: str, payload: Any) -> str:
        return ("curl -sS -H 'Content-Type: application/json' --data-binary "
                f"{shlex.quote(encode_request(payload).decode('utf-8'))} "
                f"{shlex.quote(execute_url(self.base_url, tool_id, version))}")

    def close(self) -> None:
        self.session.close()


def http_target(spec: str, *, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = DEFAULT_MAX_BYTES,
                retries: int = 2, **_options: Any) -> HttpTarget:
    """``http://BASE`` or ``https://BASE``."""
    return HttpTarget(spec, timeout=timeout, max_bytes=max_bytes, retries=retries)


def describe(exc: BaseException) -> str:
    """The innermost useful reason of a requests/urllib3 exception, one line, bounded."""
    reason = exc
    while True:
        inner = getattr(reason, "reason", None) or (reason.args[0] if reason.args and
                                                   isinstance(reason.args[0], BaseException) else None)
        if inner is None or inner is reason:
            break
        reason = inner
    return f"{type(reason).__name__}: {str(reason)[:300]}"

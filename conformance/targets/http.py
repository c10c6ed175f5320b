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

Retries are urllib3's own (``Retry`` through requests' ``HTTPAdapter``), under the policy the MCP
target shares (targets.retry_policy), for failures of the transport only: a connection refused, reset or dropped before the answer's headers, no
headers within the timeout, and 408/429/502/503/504. Re-sending a POST is safe here
because every tool is a pure function of its input (the contracts define no state and no
side effect), so ``execute`` is idempotent by contract. A well-formed answer, right or
wrong, any other 4xx (413 included, even with a Retry-After) and a 500 are never retried:
a 500 breaks the contract ("never a 5xx"), and re-sending could hide that bug. A failure
while the body streams (cut at the deadline, dropped mid-body) is reported, not retried.
Bounds: at most ``retries`` retries; each attempt at most ``timeout`` s; each wait the
server's ``Retry-After`` (capped at ``timeout``) or an exponential backoff (0 s, 0.4 s, 0.8 s,
... capped at ``timeout``): a call ends within (2 * retries + 1) * timeout. The retries made
are counted from urllib3's own record (``Retry.history``) into ``TargetResponse.retries``.

Closing: ``close`` may come while calls are in flight (the breaker tripped, or SIGTERM): it
closes the connection pools (a retry finds its pool closed and gives up), cuts the connection of
every attempt in flight as its watchdog would, and wakes any wait between retries, so every call
ends at once; no call starts after it.

Contract drift: ``published_contract(tool_id, version)`` reads ``GET {base}/v1/tools/{id}/
versions/{v}`` with the same bounds (size-capped at MAX_CONTRACT_BYTES) for the preflight
(conformance.engine.drift).
"""

from __future__ import annotations

import shlex
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import requests
import urllib3
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.util.retry import Retry

from conformance.model import TargetResponse
from conformance.targets.base import (
    CONNECTION_DROPPED,
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    NO_ANSWER_IN_TIME,
    OVER_THE_CAP,
    excerpt,
    read_envelope,
)
from conformance.targets.published import PublishedContract, read_published
from conformance.targets.retry_policy import (
    BACKOFF_SECONDS,
    DEFAULT_RETRIES,
    RETRY_AFTER_STATUSES,
    RETRYABLE_STATUSES,
    jitter,
    retry_after,
)
from conformance.wire import ANY, COMPACT, WireForm

READ_CHUNK = 64 * 1024
DETAIL_EXCERPT_CHARS = 80  # of a bad answer, quoted in the one-line detail (``raw`` holds more)
MAX_CONNECT_TIMEOUT = 5.0  # a loopback or LAN connect takes milliseconds; a dead host should fail fast
POOL_CONNECTIONS = 32
MAX_CONTRACT_BYTES = 1024 * 1024  # a published contract is a few KB; anything far larger is not one
NOT_A_VERDICT_4XX = frozenset({408, 429})  # 4xx that say nothing about the input


class _Oversize(Exception):
    def __init__(self, reason: str, head: bytes = b""):
        super().__init__(reason)
        self.head = head  # the start of what came back, for the report


class _DeadlinePassed(Exception):
    pass


_current = threading.local()  # the watchdog of the attempt running on this thread


class _Watchdog:
    """Shuts down the connection of the running attempt when its deadline passes.

    Every attempt of a call (urllib3 re-sends the request on a retry) gets a fresh deadline of
    ``seconds`` from the moment its request is sent; ``fired`` tells whether the last one was cut.
    """

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.fired = False
        self.attempt_started = time.monotonic()
        self._attempt = 0  # a timer of an earlier attempt that fires late finds a newer attempt and does nothing
        self._timer: threading.Timer | None = None
        self._connection: HTTPConnection | None = None
        self._lock = threading.Lock()

    def watch(self, connection: HTTPConnection) -> None:
        """A new attempt is being sent on ``connection``: arm its deadline."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._attempt += 1
            self.fired = False
            self.attempt_started = time.monotonic()
            self._connection = connection
            self._timer = threading.Timer(self.seconds, self._fire, (self._attempt, connection))
            self._timer.daemon = True
            self._timer.start()

    def _fire(self, attempt: int, connection: HTTPConnection) -> None:
        with self._lock:
            if attempt != self._attempt:
                return
            self.fired = True
            _shut_down(connection)

    def cut(self) -> None:
        """End the running attempt now (the target is being closed)."""
        with self._lock:
            self.fired = True
            if self._connection is not None:
                _shut_down(self._connection)

    def __enter__(self) -> _Watchdog:
        _current.watchdog = self
        return self

    def __exit__(self, *exc_info) -> None:
        with self._lock:
            self._attempt += 1  # no timer of this call may fire any more
            if self._timer is not None:
                self._timer.cancel()
        _current.watchdog = None


def _shut_down(connection: HTTPConnection) -> None:
    sock = getattr(connection, "sock", None)
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)  # wakes a blocked read, unlike close()
        except OSError:
            pass


class _TransportRetry(Retry):
    """urllib3's Retry, with three bounds it does not have by itself.

    * A ``Retry-After`` is honoured up to ``retry_after_cap`` seconds (a huge one cannot hang
      the run); one that cannot be read falls back to the backoff instead of raising.
    * Only 429 and 503 may be retried for their ``Retry-After`` (urllib3 also retries a 413 that
      carries one, but a 413 is the contract's ``limit_exceeded`` rejection: a verdict).
    * A wait between retries ends early when ``stopped`` is set (the target is being closed).

    An exhausted Retry raises MaxRetryError; ``retries_made`` on it says how many retries came
    before (the retries of an answer are in its ``Retry.history``).
    """

    RETRY_AFTER_STATUS_CODES = RETRY_AFTER_STATUSES

    def __init__(
        self,
        *args: Any,
        retry_after_cap: float = DEFAULT_TIMEOUT,
        stopped: threading.Event | None = None,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.retry_after_cap = retry_after_cap
        self.stopped = stopped or threading.Event()

    def new(self, **kwargs: Any) -> _TransportRetry:
        kwargs.setdefault("retry_after_cap", self.retry_after_cap)
        kwargs.setdefault("stopped", self.stopped)
        return super().new(**kwargs)

    def sleep(self, response=None) -> None:
        """urllib3's wait (the Retry-After if there is one, else the backoff), cut short by ``stopped``."""
        seconds = self.get_retry_after(response) if self.respect_retry_after_header and response else None
        self.stopped.wait((seconds or self.get_backoff_time()) + jitter(response.status if response else None))

    def get_retry_after(self, response) -> float | None:
        return retry_after(response.headers.get("Retry-After"), self.retry_after_cap)

    def increment(self, *args: Any, **kwargs: Any) -> _TransportRetry:
        try:
            return super().increment(*args, **kwargs)
        except urllib3.exceptions.MaxRetryError as exhausted:
            # an attribute of our own on urllib3's exception (which declares none), read by retries_made below
            setattr(exhausted, "retries_made", len(self.history))
            raise


def transport_retry(retries: int, timeout: float, stopped: threading.Event | None = None) -> _TransportRetry:
    """The retry policy of the network targets (targets.retry_policy), as urllib3's Retry; ``stopped`` ends its waits."""
    return _TransportRetry(
        total=retries,
        other=0,  # an error that is neither a connection nor a read failure (TLS, ...) is not retried
        allowed_methods=frozenset({"GET", "POST"}),  # POST: execute is idempotent by contract (pure tools)
        status_forcelist=RETRYABLE_STATUSES,
        raise_on_status=False,  # the last 503 comes back as an answer, and is reported with its body
        backoff_factor=BACKOFF_SECONDS,
        backoff_max=timeout,
        retry_after_cap=timeout,
        stopped=stopped,
    )


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
    """requests' adapter, whose connections report each attempt to the running call's watchdog."""

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _WatchedHTTPPool, "https": _WatchedHTTPSPool}

    def close(self) -> None:
        """Close every pool, then forget them (urllib3 2 only forgets them): a retry in flight on one
        finds it closed and gives up instead of connecting again."""
        pools = self.poolmanager.pools
        for key in pools.keys():
            pool = pools.get(key)
            if pool is not None:
                pool.close()
        super().close()


def contract_url(base_url: str, tool_id: str, version: str) -> str:
    return f"{base_url}/v1/tools/{quote(tool_id, safe='')}/versions/{quote(version, safe='')}"


def execute_url(base_url: str, tool_id: str, version: str) -> str:
    return contract_url(base_url, tool_id, version) + "/execute"


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

    def transport_error(detail: str, fault: str = "") -> TargetResponse:
        if body.strip():  # the report line names what came back, not only that it was wrong
            detail += f"; the body starts {excerpt(body.strip(), DETAIL_EXCERPT_CHARS)!r}"
        return TargetResponse(
            "transport_error", status=status, raw=raw, detail=detail, duration_ms=elapsed, fault=fault
        )

    if 400 <= status < 500 and status not in NOT_A_VERDICT_4XX:
        code = read_envelope(body).error_code  # the status rejects; the body, if JSON, may name the code
        return TargetResponse(
            "rejection",
            status=status,
            error_code=code,
            raw=raw,
            duration_ms=elapsed,
            detail=f"HTTP {status}" + (f" {code}" if code else " (no recognised error body)"),
        )
    if not 200 <= status < 300:
        kind = "redirect (not followed)" if 300 <= status < 400 else "server error" if status >= 500 else ""
        # any complete answer the retry policy does not retry (500, 501, a redirect, a 399...) may be the input's
        # doing; answered to every input, the breaker still stops the run (engine/health.py)
        fault = "" if status in RETRYABLE_STATUSES else f"HTTP {status}"
        return transport_error(f"HTTP {status} {kind}".rstrip() + (f", {content_type}" if content_type else ""), fault)
    envelope = read_envelope(body, error_body_rejects=False)  # a 2xx is an answer or garbage
    if envelope.empty:
        return transport_error(f"HTTP {status} with an empty body", f"HTTP {status} empty")
    if envelope.not_json is not None:
        return transport_error(
            f"HTTP {status} but the body is not JSON ({content_type or 'no Content-Type'}): {envelope.not_json}",
            f"HTTP {status} not JSON",
        )
    if envelope.kind != "result":
        answer = envelope.body
        shape = f"an object with keys {sorted(answer)[:8]}" if isinstance(answer, dict) else type(answer).__name__
        return transport_error(
            f'HTTP {status} JSON without the {{"result": ...}} envelope: got {shape}', f"HTTP {status} no envelope"
        )
    return TargetResponse("result", result=envelope.result, status=status, raw=raw, duration_ms=elapsed)


@dataclass
class _Exchange:
    """One HTTP call, retries included: the complete last answer, or why none came."""

    started: float
    status: int | None = None
    content_type: str = ""
    data: bytes = b""
    failure: str = ""  # set when no complete answer came back
    head: bytes = b""  # with a failure: the start of what came back, for the report
    retries: int = 0
    cut: bool = False  # the watchdog cut the last attempt at its deadline
    fault: str = ""  # with a failure the input may cause (model.TargetResponse.fault): how

    def failed(self, detail: str, head: bytes = b"", fault: str = "") -> _Exchange:
        self.failure, self.head, self.fault = detail, head, fault
        return self

    def transport_error(self) -> TargetResponse:
        return TargetResponse(
            "transport_error",
            status=self.status,
            raw=excerpt(self.head),
            detail=self.failure,
            duration_ms=(time.monotonic() - self.started) * 1000,
            fault=self.fault,
        )


class HttpTarget:
    # What to check when the preflight finds the target unusable (engine/health.py), after the curl line to try.
    preflight_hint = (
        "check the base URL (the suite posts to BASE/v1/tools/TOOL/versions/V/execute) and that the service is up"
    )

    def __init__(
        self,
        base_url: str,
        timeout: float = DEFAULT_TIMEOUT,
        max_bytes: int = DEFAULT_MAX_BYTES,
        retries: int = DEFAULT_RETRIES,
    ):
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
        self._closed = threading.Event()
        self._watchdogs: set[_Watchdog] = set()  # of the calls in flight, for close()
        self._lock = threading.Lock()
        policy = transport_retry(self.retries, self.timeout, self._closed)
        for scheme in ("http://", "https://"):  # pool size: enough keep-alive connections for --workers
            self.session.mount(scheme, _WatchedAdapter(pool_maxsize=POOL_CONNECTIONS, max_retries=policy))
        self.session.headers.update(
            {
                "Content-Type": "application/json",
                "Accept": "application/json",
                "Accept-Encoding": "identity",  # what is capped is what was sent: no decompression bombs
            }
        )

    wire_forms = ANY  # the body is sent as the bytes of the drawn form (conformance/wire.py)

    def call(self, tool_id: str, version: str, payload: Any, wire: WireForm = COMPACT) -> TargetResponse:
        headers = {"Connection": "close"} if wire.fresh_connection else None
        exchange = self._exchange(
            "POST", execute_url(self.base_url, tool_id, version), wire.encode(payload), self.max_bytes, headers
        )
        response = (
            exchange.transport_error()
            if exchange.failure or exchange.status is None  # (no failure: a status came)
            else classify(exchange.status, exchange.data, exchange.content_type, exchange.started)
        )
        if exchange.cut and response.kind != "result":
            # The watchdog cut the last attempt's connection, so whatever arrived was cut short (a JSON
            # object that parsed whole, ending in its closing brace, was complete before the cut).
            response = TargetResponse(
                "transport_error",
                status=response.status,
                raw=response.raw,
                detail=f"answer not complete within {self.timeout:g} s",
                duration_ms=response.duration_ms,
                fault=NO_ANSWER_IN_TIME,
            )
        response.retries = exchange.retries
        return response

    def published_contract(self, tool_id: str, version: str) -> PublishedContract:
        """The contract the target publishes for tool@version (``GET .../versions/{v}``), read defensively."""
        exchange = self._exchange("GET", contract_url(self.base_url, tool_id, version), None, MAX_CONTRACT_BYTES)
        if exchange.cut:
            return PublishedContract(problem=f"the contract did not come within {self.timeout:g} s", unanswered=True)
        if exchange.failure:
            return PublishedContract(problem=exchange.failure, unanswered=exchange.status is None)
        return read_published(exchange.status, exchange.data, exchange.content_type)

    def _exchange(
        self, method: str, url: str, body: bytes | None, max_bytes: int, headers: dict | None = None
    ) -> _Exchange:
        """One call, urllib3's retries included, each attempt under the watchdog; never raises."""
        exchange = _Exchange(time.monotonic())
        watchdog = _Watchdog(self.timeout)
        with self._lock:
            if self._closed.is_set():
                return exchange.failed("not sent: the target was closed (the run is stopping)")
            self._watchdogs.add(watchdog)
        try:
            with watchdog:
                self._send(method, url, body, max_bytes, exchange, watchdog, headers)
        except Exception as exc:  # a client-side surprise still must not stop the run
            return exchange.failed(f"unexpected client error: {describe(exc)}")
        finally:
            with self._lock:
                self._watchdogs.discard(watchdog)
        exchange.cut = watchdog.fired
        return exchange

    def _send(
        self,
        method: str,
        url: str,
        body: bytes | None,
        max_bytes: int,
        exchange: _Exchange,
        watchdog: _Watchdog,
        headers: dict | None = None,
    ) -> None:
        connect_timeout = min(MAX_CONNECT_TIMEOUT, self.timeout)
        try:
            response = self.session.request(
                method,
                url,
                data=body,
                headers=headers,
                stream=True,
                allow_redirects=False,
                timeout=(connect_timeout, self.timeout),
            )
        except requests.exceptions.RequestException as exc:
            exchange.retries = retries_made(exc)
            exchange.failed(request_failure(exc, connect_timeout, self.timeout), fault=request_fault(exc))
            return
        try:
            exchange.retries = len(getattr(response.raw.retries, "history", ()))
            exchange.status, exchange.content_type = response.status_code, response.headers.get("Content-Type", "")
            status = exchange.status
            deadline = watchdog.attempt_started + self.timeout
            try:
                exchange.data = read_capped(response, max_bytes, deadline, self.timeout)
                if not (headers or {}).get("Connection") == "close":
                    response.raw.release_conn()  # read to its end: the connection is kept alive for the next call
            except _Oversize as exc:
                exchange.failed(
                    f"HTTP {status} answer larger than the {max_bytes}-byte cap ({exc}); stopped reading",
                    exc.head,
                    OVER_THE_CAP,
                )
            except (_DeadlinePassed, urllib3.exceptions.ReadTimeoutError, TimeoutError):
                exchange.failed(f"HTTP {status} answer not complete within {self.timeout:g} s", fault=NO_ANSWER_IN_TIME)
            except (urllib3.exceptions.HTTPError, requests.exceptions.RequestException, OSError) as exc:
                exchange.failed(
                    f"HTTP {status}: connection dropped while reading the answer: {describe(exc)}",
                    fault=CONNECTION_DROPPED,
                )
        finally:
            response.close()  # an unread remainder closes the connection instead of returning it to the pool

    def reproduce_hint(self, tool_id: str, version: str, payload: Any, wire: WireForm = COMPACT) -> str:
        """A curl line sending the exact bytes of the case's wire form."""
        return (
            "curl -sS -H 'Content-Type: application/json' --data-binary "
            f"{shlex.quote(wire.encode(payload).decode('utf-8'))} "
            f"{shlex.quote(execute_url(self.base_url, tool_id, version))}"
        )

    def close(self) -> None:
        with self._lock:
            self._closed.set()
            in_flight = list(self._watchdogs)
        self.session.close()  # first: a retry of a call cut below finds its pool closed
        for watchdog in in_flight:
            watchdog.cut()


def _causes(exc: BaseException | None) -> Iterator[BaseException]:
    """The exception, then what it wraps (requests -> urllib3's MaxRetryError -> its reason), innermost last."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        inner = getattr(exc, "reason", None)
        if not isinstance(inner, BaseException):
            inner = exc.args[0] if exc.args and isinstance(exc.args[0], BaseException) else None
        exc = inner


def retries_made(exc: BaseException) -> int:
    """How many retries came before a request failed for good (0 when it was not retried)."""
    return next((found.retries_made for found in _causes(exc) if hasattr(found, "retries_made")), 0)


def request_fault(exc: BaseException) -> str:
    """How a request that got no answer failed, when the input may be the cause (model.TargetResponse.fault):
    no answer in time, or the connection dropped; "" when no connection was made (refused, a connect
    time-out, TLS): a server that cannot be reached says nothing of an input."""
    reason = list(_causes(exc))[-1]
    if isinstance(reason, (urllib3.exceptions.NewConnectionError, urllib3.exceptions.ConnectTimeoutError)):
        return ""
    if isinstance(reason, (urllib3.exceptions.SSLError, requests.exceptions.SSLError)):
        return ""
    if isinstance(reason, (urllib3.exceptions.ReadTimeoutError, TimeoutError)):
        return NO_ANSWER_IN_TIME
    if isinstance(exc, requests.exceptions.ConnectionError) or isinstance(reason, OSError):
        return CONNECTION_DROPPED
    return ""


def request_failure(exc: BaseException, connect_timeout: float, timeout: float) -> str:
    """Why a request got no answer, in one line, from the innermost reason urllib3 gives."""
    reason = list(_causes(exc))[-1]
    if isinstance(reason, urllib3.exceptions.NewConnectionError):
        return f"connection failed (refused or dropped): {describe(exc)}"
    if isinstance(reason, urllib3.exceptions.ConnectTimeoutError):
        return f"could not connect within {connect_timeout:g} s"
    if isinstance(reason, (urllib3.exceptions.ReadTimeoutError, TimeoutError)):
        return f"no answer within {timeout:g} s"
    if isinstance(reason, (urllib3.exceptions.SSLError, requests.exceptions.SSLError)):
        return f"TLS error: {str(reason)[:300]}"
    if isinstance(exc, requests.exceptions.ConnectionError) or isinstance(reason, OSError):
        return f"connection failed (refused or dropped): {describe(exc)}"
    return f"request failed: {describe(exc)}"


def http_target(
    spec: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    retries: int = DEFAULT_RETRIES,
    **_options: Any,
) -> HttpTarget:
    """``http://BASE`` or ``https://BASE``."""
    return HttpTarget(spec, timeout=timeout, max_bytes=max_bytes, retries=retries)


def describe(exc: BaseException) -> str:
    """The innermost useful reason of a requests/urllib3 exception, one line, bounded."""
    reason = list(_causes(exc))[-1]
    return f"{type(reason).__name__}: {str(reason)[:300]}"

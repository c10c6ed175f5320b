"""Deliberately misbehaving HTTP servers, for testing the harness against bad targets.

Each listens on a free loopback port in a background thread, answers the execute
path however its behaviour says, and stops by itself after ``lifetime`` seconds
(or when its ``with`` block ends). The standard library's http.server is enough
here: these servers must misbehave in precise ways a real stack would refuse to.

    with faulty_server("always_500") as server:
        HttpTarget(server.url) ...

``retry_after`` adds that ``Retry-After`` header to each 503. ``published`` makes
``GET /v1/tools/{id}/versions/{v}`` answer from a table, ``{"id@version": body bytes or a
status}``, and 404 for anything not in it (without it every GET answers ``{"status":"ok"}``).

``oracle_server()`` runs the real thing, ``python -m conformance serve --port 0``,
as a subprocess for the end-to-end tests.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import oracle

SLOW_ANSWER_SECONDS = 20.0
HUGE_BODY_BYTES = 40 * 1024 * 1024
HTML_PAGE = (
    b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>"
    b"<p>The proxy could not reach the service.</p></body></html>"
)

TRICKLE_INTERVAL_SECONDS = 0.2
BEHAVIOURS = (
    "always_500",
    "every_third_503",
    "slow",
    "non_json_200",
    "no_envelope_200",
    "huge_body",
    "drop_connection",
    "html_page",
    "trickle",
    "trickle_headers",
    "correct",
    "always_503",
    "reset_every_other",
    "wrong_200",
    "limit_413_with_retry_after",
)
BEHAVIOURS += ("hang_every_4th", "hang_every_100th")  # the 4th (100th, ...) request hangs; others are answered
# Crashes on some inputs, answers the others right: 500 to every input with more than CRASH_ABOVE_TOKENS
# hypothesis tokens (a fixed-size buffer); 500 to an input whose max_order is a string (an unchecked cast).
BEHAVIOURS += ("crash_above_n_tokens", "crash_on_string_max_order")
CRASH_ABOVE_TOKENS = 12
CONTRACT_PATH = re.compile(r"^/v1/tools/([^/]+)/versions/([^/]+)$")


class _Handler(BaseHTTPRequestHandler):
    server: _FaultyServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are separate writes: no 40 ms delayed-ACK stall

    def log_message(self, format, *args):  # quiet: the tests say what matters
        pass

    def do_GET(self):
        published = self.server.published
        if published is None:
            self.answer(200, b'{"status":"ok"}')
            return
        match = CONTRACT_PATH.match(self.path)
        found = published.get(f"{match.group(1)}@{match.group(2)}") if match else None
        if found is None or isinstance(found, int):
            self.answer(found or 404, b'{"error":{"code":"not_found","message":"no such contract"}}')
        else:
            self.answer(200, found)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with self.server.lock:
            self.server.requests_seen += 1
            number = self.server.requests_seen
        getattr(self, "behave_" + self.server.behaviour)(body, number)

    def answer(self, status: int, body: bytes, content_type: str = "application/json", **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def oracle_answer(self, body: bytes) -> None:
        parts = self.path.strip("/").split("/")  # v1/tools/{id}/versions/{version}/execute
        try:
            result = oracle.execute(parts[2], parts[4], json.loads(body))
            self.answer(200, json.dumps({"result": result}).encode())
        except oracle.ContractError as exc:
            self.answer(exc.http_status, json.dumps(exc.body()).encode())

    def crash(self) -> None:
        self.answer(
            500, b'{"error":{"code":"internal_error","message":"Traceback: IndexError: buffer index out of range"}}'
        )

    def behave_crash_above_n_tokens(self, body, number):
        payload = json.loads(body)
        hypotheses = payload.get("hypotheses", [payload.get("hypothesis")]) if isinstance(payload, dict) else None
        tokens = sum(len(h) for h in hypotheses if isinstance(h, list)) if isinstance(hypotheses, list) else 0
        if tokens > CRASH_ABOVE_TOKENS:
            self.crash()
        else:
            self.oracle_answer(body)

    def behave_crash_on_string_max_order(self, body, number):
        payload = json.loads(body)
        if isinstance(payload, dict) and isinstance(payload.get("max_order"), str):
            self.crash()
        else:
            self.oracle_answer(body)

    def behave_always_500(self, body, number):
        self.answer(500, b'{"error":{"code":"internal","message":"boom"}}')

    def unavailable(self) -> None:
        retry_after = {} if self.server.retry_after is None else {"Retry_After": self.server.retry_after}
        self.answer(503, b"Service Unavailable", "text/plain", **retry_after)

    def behave_every_third_503(self, body, number):
        if number % 3 == 0:
            self.unavailable()
        else:
            self.oracle_answer(body)

    def behave_always_503(self, body, number):
        self.unavailable()

    def behave_correct(self, body, number):
        self.oracle_answer(body)

    def hang_every(self, every: int, body, number) -> None:
        """Request ``every``, 2 x ``every``, ... is never answered (within the server's lifetime); a retry
        of it is the next request, and answered."""
        if number % every == 0:
            self.server.stopping.wait()
            self.close_connection = True
        else:
            self.oracle_answer(body)

    def behave_hang_every_4th(self, body, number):
        self.hang_every(4, body, number)

    def behave_hang_every_100th(self, body, number):
        self.hang_every(100, body, number)

    def behave_reset_every_other(self, body, number):
        """Odd requests: the connection is reset (RST, not a clean close); even ones are answered."""
        if number % 2 == 0:
            self.oracle_answer(body)
            return
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def behave_wrong_200(self, body, number):
        """A well-formed answer with wrong numbers: a verdict for the suite, never a reason to retry."""
        self.answer(200, b'{"result": {"bleu": 0.5, "brevity_penalty": 1.0}}')

    def behave_limit_413_with_retry_after(self, body, number):
        self.answer(413, b'{"error":{"code":"limit_exceeded","message":"too big"}}', Retry_After="0")

    def behave_slow(self, body, number):
        if not self.server.stopping.wait(SLOW_ANSWER_SECONDS):
            self.oracle_answer(body)

    def behave_non_json_200(self, body, number):
        self.answer(200, b"OK, computed it: BLEU = 42", "text/plain")

    def behave_no_envelope_200(self, body, number):
        self.answer(200, b'{"bleu": 0.5, "brevity_penalty": 1.0}')

    def behave_huge_body(self, body, number):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if number % 2 == 0:  # half the time without Content-Length: the client must count for itself
            self.send_header("Connection", "close")
        else:
            self.send_header("Content-Length", str(HUGE_BODY_BYTES))
        self.end_headers()
        chunk = b'{"result":' + b" " * (1024 * 1024 - 10)
        try:
            for _ in range(HUGE_BODY_BYTES // len(chunk)):
                self.wfile.write(chunk)
                with self.server.lock:
                    self.server.bytes_sent += len(chunk)
        except OSError:  # the client stopped reading, as it should
            pass
        self.close_connection = True

    def behave_drop_connection(self, body, number):
        self.connection.shutdown(socket.SHUT_RDWR)
        self.close_connection = True

    def behave_html_page(self, body, number):
        self.answer(200, HTML_PAGE, "text/html")

    def behave_trickle_headers(self, body, number):
        """A status line, then header bytes one at a time, forever (within the server's lifetime)."""
        try:
            self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
            self.wfile.flush()
            while not self.server.stopping.wait(TRICKLE_INTERVAL_SECONDS):
                self.wfile.write(b"a")
                self.wfile.flush()
        except OSError:
            pass
        self.close_connection = True

    def behave_trickle(self, body, number):
        """Headers at once, then one byte of body at a time, never quite finishing."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "1000")
        self.end_headers()
        try:
            for byte in b'{"result":' + b" " * 989:
                if self.server.stopping.wait(TRICKLE_INTERVAL_SECONDS):
                    break
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
        except OSError:
            pass
        self.close_connection = True


class _FaultyServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, behaviour: str, retry_after: str | None = None, published: dict | None = None):
        if behaviour not in BEHAVIOURS:
            raise ValueError(f"unknown behaviour {behaviour!r}")
        super().__init__(("127.0.0.1", 0), _Handler)
        self.behaviour = behaviour
        self.retry_after = retry_after
        self.published = published
        self.lock = threading.Lock()
        self.requests_seen = 0
        self.bytes_sent = 0
        self.stopping = threading.Event()


@contextlib.contextmanager
def faulty_server(
    behaviour: str, lifetime: float = 120.0, *, retry_after: str | None = None, published: dict | None = None
) -> Iterator[_FaultyServer]:
    """A running faulty server; ``server.url`` is its base URL. Stops at exit or after ``lifetime`` s."""
    server = _FaultyServer(behaviour, retry_after, published)
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    timer = threading.Timer(lifetime, server.shutdown)
    timer.daemon = True
    timer.start()
    try:
        yield server
    finally:
        timer.cancel()
        server.stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def refused_url() -> str:
    """A loopback URL nothing listens on: a port bound, then closed without listening."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@contextlib.contextmanager
def oracle_server(*options: str, startup_timeout: float = 60.0) -> Iterator[tuple[str, subprocess.Popen, Path]]:
    """``python -m conformance serve --port 0 [options]`` on loopback: (base URL, process, its log file).

    Stopped with SIGTERM at exit (killed if it does not stop within 15 s).
    """
    log_file = tempfile.NamedTemporaryFile(prefix="serve-", suffix=".log", delete=False)
    process = subprocess.Popen(
        [sys.executable, "-m", "conformance", "serve", "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=log_file,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        url = _read_listen_line(process, startup_timeout)
        yield url, process, Path(log_file.name)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        process.stdout.close()
        log_file.close()
        os.unlink(log_file.name)


def _read_listen_line(process: subprocess.Popen, timeout: float) -> str:
    found: list[str] = []
    reader = threading.Thread(target=lambda: found.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    match = re.search(r"listening on (http://\S+)", found[0]) if found else None
    if not match:
        process.kill()
        raise RuntimeError(f"conformance serve did not start (exit status {process.poll()}, said {found!r})")
    return match.group(1)


@cache
def shared_oracle_server() -> tuple[str, subprocess.Popen, Path]:
    """One ``conformance serve`` for every test module that only sends requests (start-up costs
    seconds); stopped when the test process exits. Tests that stop a server start their own."""
    import atexit

    context = oracle_server()
    started = context.__enter__()
    atexit.register(context.__exit__, None, None, None)
    return started

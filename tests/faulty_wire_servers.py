"""HTTP servers that mishandle what real clients send: some wire forms of a body, or large bodies.

Each answers as ``conformance serve`` does (``conformance.server.execute_body``) once it has read the
body, so only the suite's wire forms (conformance/wire.py) and its largest valid bodies
(strategies/wire_sizes.py) can tell it apart from a correct server. The decoders are the hand-rolled
shortcuts found in gateways and small services:

    first_line           reads the body up to its first newline (a line-based reader): a
                         pretty-printed body is cut, and the server answers 400 to a valid input
    surrogate_escapes    decodes each \\uXXXX escape on its own, a surrogate to U+FFFD (a decoder
                         written for the BMP): an astral character sent as an escaped pair becomes
                         two replacement characters
    unknown_solidus      does not know the escape \\/ and keeps the backslash: "a\\/b" reads "a\\/b"
    option_sniffing      finds the boolean options by searching the raw body for the compact text
                         '"lowercase":true' (a fast path): spaced, pretty or escaped keys are missed
    keep_alive_stale     answers a request that reuses a kept-alive connection from a cache keyed
                         by the connection and the body's length (a "fast path" for retries): a
                         second body of the same length on that connection gets the first's answer
    recording            a correct server that keeps every body it was sent and whether it came on a
                         connection of its own ("Connection: close") or a kept-alive one
    body_limit           refuses every body over ``limit`` bytes with 413 limit_exceeded, as framework
                         defaults do (Express's json parser: "100kb"; nginx's client_max_body_size and
                         many proxies: 1 MiB), though JSON writes a control character in 6 bytes and
                         valid inputs go past such a limit; ``server.refused`` and ``server.answered``
                         keep the sizes of the bodies refused and answered

    with wire_faulty_server("first_line") as server:
        conformance run --target server.url ...
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from conformance.server import execute_body

MODES = (
    "first_line",
    "surrogate_escapes",
    "unknown_solidus",
    "option_sniffing",
    "keep_alive_stale",
    "recording",
    "body_limit",
)
EXPRESS_JSON_LIMIT = 100 * 1024  # body-parser's default "100kb" (the bytes package counts 1 kb as 1024)
ONE_MIB = 1024 * 1024  # nginx's client_max_body_size "1m", and many proxies' and frameworks' defaults
CHUNK = 64 * 1024

_SURROGATE_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


DECODING = ("first_line", "surrogate_escapes", "unknown_solidus", "option_sniffing")  # read the body their way


def decode(mode: str, body: bytes) -> object:
    text = body.decode("utf-8")
    if mode == "first_line":
        text = text.split("\n", 1)[0]
    elif mode == "surrogate_escapes":
        text = _SURROGATE_ESCAPE.sub(lambda m: m.group(1) + "\\ufffd", text)
    elif mode == "unknown_solidus":
        text = text.replace("\\/", "\\\\/")
    value = json.loads(text)
    if mode == "option_sniffing" and isinstance(value, dict) and isinstance(value.get("lowercase"), bool):
        value["lowercase"] = b'"lowercase":true' in body
    return value


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        self.answer(404, b'{"error":{"code":"not_found","message":"no published contracts"}}')

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if self.server.mode == "body_limit" and length > self.server.limit:
            self.refuse(length)
            return
        body = self.rfile.read(length)
        if self.server.mode == "recording":
            with self.server.lock:
                self.server.seen.append((body, self.headers.get("Connection", ""), self.client_address[1]))
        self.requests_here = getattr(self, "requests_here", 0) + 1
        key = (id(self.connection), len(body))
        if self.server.mode == "keep_alive_stale" and self.requests_here > 1 and key in self.server.cache:
            self.answer(*self.server.cache[key])
            return
        parts = self.path.strip("/").split("/")  # v1/tools/{id}/versions/{version}/execute
        try:  # a decoding mode reads the body its own way; execute_body then reads what it made of it
            read = json.dumps(decode(self.server.mode, body)).encode() if self.server.mode in DECODING else body
        except ValueError as exc:
            answer = (400, json.dumps({"error": {"code": "invalid_input", "message": str(exc)[:200]}}).encode())
        else:
            status, content, _ = execute_body(parts[2], parts[4], read)
            answer = (status, content)
        with self.server.lock:
            self.server.answered.append(length)
            if self.server.mode == "keep_alive_stale":
                self.server.cache[key] = answer
        self.answer(*answer)

    def refuse(self, length: int) -> None:
        """Read and drop the body, as a framework does before it answers (so the client gets the answer)."""
        with self.server.lock:
            self.server.refused.append(length)
        while length > 0:
            chunk = self.rfile.read(min(CHUNK, length))
            if not chunk:
                break
            length -= len(chunk)
        message = f"request entity too large: over {self.server.limit} bytes"
        self.answer(413, json.dumps({"error": {"code": "limit_exceeded", "message": message}}).encode())

    def answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    url = ""

    def __init__(self, mode: str, limit: int = ONE_MIB):
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        super().__init__(("127.0.0.1", 0), _Handler)
        self.mode, self.limit = mode, limit
        self.refused: list[int] = []  # body_limit: the sizes of the bodies refused
        self.answered: list[int] = []  # and of those answered
        self.cache: dict = {}
        self.seen: list[tuple[bytes, str, int]] = []  # recording: (body, Connection header, client port) of each
        self.lock = threading.Lock()


@contextlib.contextmanager
def wire_faulty_server(mode: str, limit: int = ONE_MIB) -> Iterator[_Server]:
    """A running server of that mode; ``server.url`` is its base URL."""
    server = _Server(mode, limit)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def body_limit_server(limit: int):
    """A correct server but for refusing every body over ``limit`` bytes (413 limit_exceeded)."""
    return wire_faulty_server("body_limit", limit)


if __name__ == "__main__":  # python tests/faulty_wire_servers.py MODE: serve until interrupted
    import sys
    import time

    with wire_faulty_server(sys.argv[1]) as running:
        print(running.url, flush=True)
        while True:
            time.sleep(3600)

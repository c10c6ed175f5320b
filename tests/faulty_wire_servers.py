"""HTTP servers that read some wire forms of a body wrongly, and every other form right.

Each answers like the oracle once it has decoded the body, so only the suite's wire forms
(conformance/wire.py) can tell it apart from a correct server. The decoders are the hand-rolled
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

import oracle

MODES = ("first_line", "surrogate_escapes", "unknown_solidus", "option_sniffing", "keep_alive_stale", "recording")

_SURROGATE_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


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
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.server.mode == "recording":
            with self.server.lock:
                self.server.seen.append((body, self.headers.get("Connection", ""), self.client_address[1]))
        parts = self.path.strip("/").split("/")  # v1/tools/{id}/versions/{version}/execute
        self.requests_here = getattr(self, "requests_here", 0) + 1
        key = (id(self.connection), len(body))
        if self.server.mode == "keep_alive_stale" and self.requests_here > 1 and key in self.server.cache:
            self.answer(*self.server.cache[key])
            return
        try:
            result = oracle.execute(parts[2], parts[4], decode(self.server.mode, body))
            answer = (200, json.dumps({"result": result}).encode())
        except oracle.ContractError as exc:
            answer = (exc.http_status, json.dumps(exc.body()).encode())
        except ValueError as exc:
            answer = (400, json.dumps({"error": {"code": "invalid_input", "message": str(exc)[:200]}}).encode())
        if self.server.mode == "keep_alive_stale":
            self.server.cache[key] = answer
        self.answer(*answer)

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

    def __init__(self, mode: str):
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        super().__init__(("127.0.0.1", 0), _Handler)
        self.mode = mode
        self.cache: dict = {}
        self.seen: list[tuple[bytes, str, int]] = []  # recording: (body, Connection header, client port) of each
        self.lock = threading.Lock()


@contextlib.contextmanager
def wire_faulty_server(mode: str) -> Iterator[_Server]:
    """A running server of that mode; ``server.url`` is its base URL."""
    server = _Server(mode)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


if __name__ == "__main__":  # python tests/faulty_wire_servers.py MODE: serve until interrupted
    import sys
    import time

    with wire_faulty_server(sys.argv[1]) as running:
        print(running.url, flush=True)
        while True:
            time.sleep(3600)

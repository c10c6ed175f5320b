"""A server that answers as the oracle does but refuses large request bodies, as framework defaults do.

A request-size limit is often left at its framework's default rather than sized for the contract:
Express's json parser refuses bodies over "100kb" (102,400 bytes), nginx's client_max_body_size is
1 MiB, as are many proxies' and ASGI apps' limits. The contracts bound the input in UTF-8 bytes of
its text, and JSON writes a control character in 6 bytes, so valid inputs go past such a limit
(strategies/wire_sizes.py). This server refuses every body over ``limit`` bytes with 413 and the
contract's error body ``limit_exceeded``, and answers every other request as ``conformance serve``
does (its parse, oracle and serialisation: ``conformance.server.execute_body``); GET of a
contract answers its file.

    with body_limit_server(ONE_MIB) as url:
        ... conformance run --target url ...
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from conformance.server import execute_body
from oracle.contracts import contract
from oracle.errors import ContractError

EXPRESS_JSON_LIMIT = 100 * 1024  # body-parser's default "100kb" (the bytes package counts 1 kb as 1024)
ONE_MIB = 1024 * 1024  # nginx's client_max_body_size "1m", and many proxies' and frameworks' defaults
EXECUTE_PATH = re.compile(r"^/v1/tools/([^/]+)/versions/([^/]+)/execute$")
CONTRACT_PATH = re.compile(r"^/v1/tools/([^/]+)/versions/([^/]+)$")
CHUNK = 64 * 1024


class _Handler(BaseHTTPRequestHandler):
    server: _BodyLimitServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format, *args):
        pass

    def answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def error(self, status: int, code: str, message: str) -> None:
        self.answer(status, json.dumps({"error": {"code": code, "message": message}}).encode())

    def do_GET(self):
        match = CONTRACT_PATH.match(self.path)
        try:
            text = contract(match.group(1), match.group(2)).text if match else None
        except ContractError:
            text = None
        if text is None:
            self.error(404, "not_found", "no such contract")
        else:
            self.answer(200, text.encode("utf-8"))

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        match = EXECUTE_PATH.match(self.path)
        if length > self.server.limit:
            with self.server.lock:
                self.server.refused.append(length)
            # read and drop the body, as a framework does before it answers, so the client gets the answer
            while length > 0:
                chunk = self.rfile.read(min(CHUNK, length))
                if not chunk:
                    break
                length -= len(chunk)
            self.error(413, "limit_exceeded", f"request entity too large: over {self.server.limit} bytes")
            return
        body = self.rfile.read(length)
        if match is None:
            self.error(404, "not_found", "no such path")
            return
        with self.server.lock:
            self.server.answered.append(length)
        status, content, _ = execute_body(match.group(1), match.group(2), body)
        self.answer(status, content)


class _BodyLimitServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, limit: int):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.limit = limit
        self.lock = threading.Lock()
        self.refused: list[int] = []  # the sizes of the bodies refused
        self.answered: list[int] = []  # and of those answered


@contextlib.contextmanager
def body_limit_server(limit: int) -> Iterator[_BodyLimitServer]:
    """A running server refusing bodies over ``limit`` bytes; ``server.url`` is its base URL."""
    server = _BodyLimitServer(limit)
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)

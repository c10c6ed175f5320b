"""The line-protocol target, ``jsonl:COMMAND``: a command started once, one request per line.

The command is started once and kept: each case is one request line on its stdin,
``{"id": N, "tool": ID, "version": V, "input": PAYLOAD}``, and one answer line on its
stdout, ``{"id": N, "result": ...}`` or ``{"id": N, "error": {"code", "message"}}``
(conformance/schemas/jsonl-protocol.schema.json). A process start per case is what makes
``cmd:`` slow for an implementation with a heavy runtime; here it is paid once per worker.

Each concurrent caller (``--workers N`` sends N cases at a time) gets a process of its own
from a small pool: a process serves one exchange at a time, and the pool grows to as many
processes as there are callers at once.

Nothing the command does is trusted. One exchange is bounded in time (``timeout`` for
writing the request and reading the answer, in one select loop, so a command that stops
reading cannot block the harness; a fresh process's first exchange gets STARTUP_SECONDS
more) and in size (an answer line is read in chunks and never buffered past ``max_bytes``).
A timeout, a crash, a closed pipe, a line that is not JSON, breaks the answer shape, carries
another id or is oversized fails that case as a transport error; the process group is then
killed and a fresh process serves the next case, so one bad answer cannot shift every later
answer by one. Standard error is drained all the time by a thread keeping only its last
STDERR_TAIL_BYTES (quoted in failures), so a chatty command never blocks on a full pipe. The circuit breaker (engine/health.py) ends a run
whose command keeps failing. ``close`` closes every stdin, gives the commands a moment to
exit, and kills every process group: no zombies, no orphans (a finalizer does the same for a
target that is never closed, at the latest when the interpreter exits). It may come while calls
are in flight (the breaker tripped, or SIGTERM): their exchanges end with the kill, and no call
after it starts a process.
"""

from __future__ import annotations

import fcntl
import functools
import itertools
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match

import oracle
from conformance import schemas
from conformance.jsonio import encode_request, parse_json
from conformance.model import TargetResponse
from conformance.targets.base import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    EXCERPT_CHARS,
    NO_ANSWER_IN_TIME,
    OVER_THE_CAP,
    TargetSpecError,
    excerpt,
)
from conformance.wire import COMPACT, ONE_LINE, WireForm

PROTOCOL = "jsonl-protocol"  # conformance/schemas/jsonl-protocol.schema.json
READ_CHUNK = 1024 * 1024  # bytes asked of one read of stdout (a pipe gives what it holds, up to this)
WRITE_CHUNK = 1024 * 1024  # bytes offered to one write of stdin
PIPE_BYTES = 1024 * 1024  # asked pipe capacity (Linux): a 500 KB answer in one read, not eight
STDERR_TAIL_BYTES = 4096  # of standard error, the end kept for the report
STDERR_EXCERPT_CHARS = 300  # of that tail, quoted in a failure's detail
STDERR_SETTLE_SECONDS = 0.2  # after the command stopped, how long its stderr may take to reach its end
# A fresh process's first request may also wait for the command to start (a runtime, a model to
# load): its time limit is --timeout plus this. Later requests get --timeout alone.
STARTUP_SECONDS = 5.0
CLOSE_GRACE_SECONDS = 1.0  # at close, how long the commands get to exit on end of input before the kill
EXIT_POLL_SECONDS = 0.05  # without a pidfd, how often an exchange checks whether the command exited
# Code points some line readers take for a line end (Python's str.splitlines, Unicode-aware
# readers): sent as \u escapes, which mean the same JSON, so no reader can split a request.
LINE_BREAKS_ESCAPED = ((b"\xc2\x85", b"\\u0085"), (b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"))


class _Closed(Exception):
    """The target was closed: no process is started any more."""


class _ExchangeFailed(Exception):
    """One exchange went wrong; the process is no longer trusted (it is killed and replaced)."""

    def __init__(self, detail: str, raw: bytes = b"", fault: str = ""):
        super().__init__(detail)
        self.detail, self.raw, self.fault = detail, raw, fault  # fault: model.TargetResponse.fault


def request_line(request_id: int, tool_id: str, version: str, payload: Any, wire: WireForm = COMPACT) -> bytes:
    """One request as a JSON line: no raw newline (JSON escapes it) nor any other line break inside.
    The input is written in the case's wire form (a one-line form: conformance/wire.py)."""
    head = encode_request({"id": request_id, "tool": tool_id, "version": version})
    line = head[:-1] + b',"input":' + wire.encode(payload) + b"}"
    for raw, escaped in LINE_BREAKS_ESCAPED:
        if raw in line:
            line = line.replace(raw, escaped)
    return line + b"\n"


@functools.cache
def _answer_validator(definition: str) -> jsonschema.Draft202012Validator:
    """A validator of one definition of the published protocol schema (the schema is the one authority)."""
    schema = schemas.load_schema(PROTOCOL)
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"})


def answer_problem(answer: Any) -> str | None:
    """What is wrong with a parsed answer line's shape, in words naming the field (None: it is well-formed).

    The definition to check is chosen by the keys the answer has, so the message says what is wrong
    with the answer it tried to be (a rejection without a message), not that it matches no shape."""
    if not isinstance(answer, dict):
        return f"the answer line is JSON but not an object ({type(answer).__name__})"
    if "error" in answer:
        definition = "error_answer"
    elif "result" in answer:
        definition = "result_answer"
    else:
        return f'the answer has neither "result" nor "error" (keys: {sorted(answer)[:8]})'
    error = best_match(_answer_validator(definition).iter_errors(answer))
    return (
        None if error is None else f"the {definition.replace('_', ' ')} breaks the protocol: {schemas.explain(error)}"
    )


def line_excerpt(line: bytes) -> str:
    """The start of an answer line for reports, without decoding all of a megabyte line to show 500 chars."""
    if len(line) <= EXCERPT_CHARS * 4:
        return excerpt(line)
    head = line[: EXCERPT_CHARS * 4].decode("utf-8", errors="replace")[:EXCERPT_CHARS]
    return f"{head}... [{len(line)} bytes in all]"


class _StderrTail:
    """Drains a pipe in a thread for the process's whole life, keeping only its last bytes."""

    def __init__(self, fd: int, limit: int = STDERR_TAIL_BYTES):
        self.fd, self.limit = fd, limit
        self.tail = b""
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._drain, daemon=True, name="jsonl-stderr")
        self.thread.start()

    def _drain(self) -> None:
        try:
            while chunk := os.read(self.fd, 65536):
                with self._lock:
                    self.tail = (self.tail + chunk)[-self.limit :]
        except (OSError, ValueError):
            pass

    def text(self) -> str:
        with self._lock:
            tail = self.tail
        return tail.decode("utf-8", errors="replace").strip()[-STDERR_EXCERPT_CHARS:]


class _LineProcess:
    """One running command and its pipes; one exchange at a time."""

    def __init__(self, command: str):
        self.process = subprocess.Popen(
            command,
            shell=True,
            start_new_session=True,
            bufsize=0,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        stdin, stdout, stderr = self.process.stdin, self.process.stdout, self.process.stderr
        assert stdin is not None and stdout is not None and stderr is not None  # all three piped above
        self._stdin_pipe, self._stdout_pipe, self._stderr_pipe = stdin, stdout, stderr
        self.stderr = _StderrTail(stderr.fileno())
        self.stdin_fd, self.stdout_fd = stdin.fileno(), stdout.fileno()
        for fd in (self.stdin_fd, self.stdout_fd):
            os.set_blocking(fd, False)
            _widen_pipe(fd)
        self.pending = bytearray()  # what was read past the last answer line
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.stdout_fd, selectors.EVENT_READ)
        # The command's exit is watched too: a child it started may hold stdout open after it died,
        # so an end of stdout may never come. A pidfd says at once (Linux); elsewhere, a poll each tick.
        self.exit_fd = _pidfd(self.process.pid)
        if self.exit_fd is not None:
            self.selector.register(self.exit_fd, selectors.EVENT_READ)
        self.fresh = True  # no exchange yet: the first may wait for the command to start
        self.killed = self.released = self.busy = False
        self._kill_lock = threading.Lock()  # close() may kill it while its exchange runs in another thread

    def exchange(self, request: bytes, timeout: float, max_bytes: int) -> bytes:
        """Write one request line, read one answer line (without its newline); _ExchangeFailed otherwise.
        A kill meanwhile (close()) ends it as the command's death does; its pipes are released after it."""
        with self._kill_lock:
            if self.killed:
                raise _ExchangeFailed("the command was killed (the target was closed)")
            self.busy = True
        try:
            return self._exchange(request, timeout, max_bytes)
        finally:
            with self._kill_lock:
                self.busy = False
                release = self.killed and not self.released
                self.released = self.released or release
            if release:
                self._release()

    def _exchange(self, request: bytes, timeout: float, max_bytes: int) -> bytes:
        limit = f"{timeout:g} s"
        if self.fresh:
            timeout, self.fresh = timeout + STARTUP_SECONDS, False
            limit = f"{timeout:g} s (its start-up included)"
        deadline = time.monotonic() + timeout
        unsent = memoryview(request)
        scanned = 0  # how much of ``pending`` is known to hold no newline
        self.selector.register(self.stdin_fd, selectors.EVENT_WRITE)
        writing, exited = True, False
        try:
            while True:
                newline = self.pending.find(b"\n", scanned)
                if newline >= 0:
                    if unsent:
                        raise _ExchangeFailed(
                            "answered before reading the whole request", bytes(self.pending), "answered early"
                        )
                    line = bytes(self.pending[:newline])
                    del self.pending[: newline + 1]
                    return line
                scanned = len(self.pending)
                if scanned > max_bytes:
                    raise _ExchangeFailed(
                        f"answer line longer than {max_bytes} bytes (stopped reading)",
                        bytes(self.pending[: EXCERPT_CHARS * 4]),
                        OVER_THE_CAP,
                    )
                if exited:
                    raise _ExchangeFailed(
                        self._gone("closed its standard output"), bytes(self.pending), self.exit_fault()
                    )
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    what = "reading the request" if unsent else "answering"
                    raise _ExchangeFailed(
                        f"no answer line within {limit}: the command was still {what}",
                        bytes(self.pending[: EXCERPT_CHARS * 4]),
                        NO_ANSWER_IN_TIME,
                    )
                tick = remaining if self.exit_fd is not None else min(remaining, EXIT_POLL_SECONDS)
                events = self.selector.select(tick)
                died = any(key.fd == self.exit_fd for key, _ in events) or (
                    self.exit_fd is None and self.process.poll() is not None
                )
                for key, _events in events:
                    if key.fd == self.stdout_fd:
                        exited = not self._read_available(max_bytes) or exited
                    elif key.fd == self.stdin_fd and unsent:
                        try:
                            unsent = unsent[os.write(self.stdin_fd, unsent[:WRITE_CHUNK]) :]
                        except BlockingIOError:
                            continue
                        except OSError:  # EPIPE: it closed its standard input (or exited)
                            raise _ExchangeFailed(
                                self._gone("closed its standard input"), bytes(self.pending), self.exit_fault()
                            ) from None
                        if not unsent:
                            self.selector.unregister(self.stdin_fd)
                            writing = False
                if died:  # what it wrote before it died is still read: a last answer counts
                    self._read_available(max_bytes)
                    exited = True
        finally:
            if writing:
                self.selector.unregister(self.stdin_fd)

    def _read_available(self, max_bytes: int) -> bool:
        """Read what stdout holds now, never past the cap; False at its end (every writer closed it)."""
        while len(self.pending) <= max_bytes:
            try:
                chunk = os.read(self.stdout_fd, min(READ_CHUNK, max_bytes + 1 - len(self.pending)))
            except BlockingIOError:
                return True
            if not chunk:
                return False
            self.pending += chunk
        return True

    def _gone(self, what: str) -> str:
        """Why the command stopped talking: its exit status when it exited, and the end of its stderr."""
        try:
            status = self.process.wait(timeout=0.5)
            said = f"exited with status {status}" if status >= 0 else f"was killed by signal {-status}"
        except subprocess.TimeoutExpired:
            said = what
        said = f"the command {said} before answering"
        self.stderr.thread.join(timeout=STDERR_SETTLE_SECONDS)  # its last words may still be in the pipe
        err = self.stderr.text()
        return f"{said}; stderr: {err}" if err else said

    def exit_fault(self) -> str:
        """The fault of a command that stopped talking (model.TargetResponse.fault), after ``_gone``."""
        status = self.process.returncode
        if status is None:
            return "stopped talking"
        return f"exited with status {status}" if status >= 0 else f"killed by signal {-status}"

    def stderr_note(self) -> str:
        err = self.stderr.text()
        return f"; stderr: {err}" if err else ""

    def end_input(self) -> None:
        try:
            self._stdin_pipe.close()
        except OSError:
            pass

    def kill(self) -> None:
        """Kill the process group (the command and every child it started) at once; reap the command and
        release its pipes once, here, or after the exchange in flight in another thread (which the
        kill ends), so that no descriptor is closed under a select that waits on it."""
        with self._kill_lock:
            if not self.killed:
                self.killed = True
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            if self.busy or self.released:
                return
            self.released = True
        self._release()

    def _release(self) -> None:
        self.process.wait()
        self.end_input()
        self.selector.close()
        if self.exit_fd is not None:
            os.close(self.exit_fd)
        self._stdout_pipe.close()
        self.stderr.thread.join(timeout=1)  # the kill closed the pipe's other end: the drain sees its end
        if not self.stderr.thread.is_alive():  # (a child that left the group may hold it open: leave it be)
            self._stderr_pipe.close()


class JsonlTarget:
    """A command speaking the line protocol, started once per concurrent caller and kept."""

    def __init__(self, spec: str, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = DEFAULT_MAX_BYTES):
        self.spec = spec
        self.command = spec.removeprefix("jsonl:").strip()
        if not self.command:
            raise TargetSpecError("jsonl: target needs a command, e.g. 'jsonl:node my-tool.mjs'")
        self.timeout = float(timeout)
        self.max_bytes = int(max_bytes)
        self._ids = itertools.count(1)
        self._idle: list[_LineProcess] = []
        self._running: set[_LineProcess] = set()
        self._lock = threading.Lock()
        self._closed = False  # set by close(): no process is started after it
        self.started = 0  # processes started (the first, and one after each failed exchange)
        # close() when the run is over; and if it never is (the harness itself failed), at exit
        self._closer = weakref.finalize(self, _close_all, self._running, self._idle, self._lock)

    wire_forms = ONE_LINE  # a request stays on one line: only the forms without a newline (conformance/wire.py)
    implements_some_tools = True  # a program written for one tool may answer "not found" for the others
    # What to check when the preflight finds the target unusable (engine/health.py), after the line to try.
    preflight_hint = (
        "the program reads one JSON request per line on stdin and writes one answer line per request, "
        '{"id": ..., "result": ...} or {"id": ..., "error": ...}, flushing stdout after each'
    )

    def call(self, tool_id: str, version: str, payload: Any, wire: WireForm = COMPACT) -> TargetResponse:
        started = time.monotonic()
        request_id = next(self._ids)
        request = request_line(request_id, tool_id, version, payload, wire)
        try:
            process = self._checkout()
        except _Closed:
            return TargetResponse("transport_error", detail="not sent: the target was closed (the run is stopping)")
        except OSError as exc:
            return TargetResponse(
                "transport_error",
                detail=f"cannot start the command: {exc}",
                duration_ms=(time.monotonic() - started) * 1000,
            )
        try:
            line = process.exchange(request, self.timeout, self.max_bytes)
            response = self._read_answer(line, request_id, process)
        except _ExchangeFailed as failed:
            response = TargetResponse(
                "transport_error", raw=line_excerpt(failed.raw), detail=failed.detail, fault=failed.fault
            )
        except (OSError, ValueError) as exc:  # its pipes were closed under it: the target was closed
            response = TargetResponse("transport_error", detail=f"the exchange was cut short: {exc}")
        response.duration_ms = (time.monotonic() - started) * 1000
        if response.kind == "transport_error":
            self._discard(process)  # it may still be answering: its next line would belong to this case
            response.detail += " (process group killed; a new process serves the next case)"
        else:
            with self._lock:
                self._idle.append(process)
        return response

    def _read_answer(self, line: bytes, request_id: int, process: _LineProcess) -> TargetResponse:
        raw = line_excerpt(line)
        try:
            answer = parse_json(line)
        except oracle.ContractError as exc:
            reason = exc.message.removeprefix("input: ")  # the parser speaks of its input: here, the answer line
            detail = "empty answer line" if not line.strip() else f"the answer line is not JSON: {reason}"
            return TargetResponse(
                "transport_error", raw=raw, detail=detail + process.stderr_note(), fault="answer line not JSON"
            )
        problem = answer_problem(answer)
        if problem is None and answer["id"] != request_id:
            problem = (
                f"the answer carries id {answer['id']} where request {request_id} was sent "
                f"(one answer per request, in order)"
            )
        if problem is not None:
            return TargetResponse("transport_error", raw=raw, detail=problem, fault="answer line malformed")
        if "error" in answer:
            return TargetResponse("rejection", error_code=answer["error"]["code"], raw=raw, detail="error answer")
        return TargetResponse("result", result=answer["result"], raw=raw)

    def _checkout(self) -> _LineProcess:
        with self._lock:
            if self._closed:
                raise _Closed()
            if self._idle:
                return self._idle.pop()
            self.started += 1
        process = _LineProcess(self.command)
        with self._lock:
            self._running.add(process)
            closed = self._closed
        if closed:  # closed while it started: close() did not see it
            self._discard(process)
            raise _Closed()
        return process

    def _discard(self, process: _LineProcess) -> None:
        with self._lock:
            self._running.discard(process)
        process.kill()

    def reproduce_hint(self, tool_id: str, version: str, payload: Any, wire: WireForm = COMPACT) -> str:
        line = request_line(1, tool_id, version, payload, wire).decode("utf-8").rstrip("\n")
        return f"printf '%s\\n' {shlex.quote(line)} | {self.command}"

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._closer()


def _close_all(running: set[_LineProcess], idle: list[_LineProcess], lock: threading.Lock) -> None:
    """End every process: end of input first (a well-behaved command exits by itself), then the kill
    of each process group, which also ends the children that would otherwise outlive the run."""
    with lock:
        processes = list(running)
        running.clear()
        idle.clear()
    for process in processes:
        process.end_input()
    deadline = time.monotonic() + CLOSE_GRACE_SECONDS
    for process in processes:
        try:
            process.process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        process.kill()


def jsonl_target(
    spec: str, *, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = DEFAULT_MAX_BYTES, **_options: Any
) -> JsonlTarget:
    """``jsonl:COMMAND`` (retries do not apply: a failed exchange fails its case, and the process is replaced)."""
    return JsonlTarget(spec, timeout=timeout, max_bytes=max_bytes)


def _pidfd(pid: int) -> int | None:
    """A file descriptor readable when the process exits (Linux 5.3+), or None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _widen_pipe(fd: int) -> None:
    """Ask for a wider pipe (Linux), so a large request or answer crosses in a few system calls."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None)  # Python 3.10+, Linux only
    if set_size is None:
        return
    try:
        fcntl.fcntl(fd, set_size, PIPE_BYTES)
    except OSError:
        pass  # above /proc/sys/fs/pipe-max-size for an unprivileged user: the default width will do

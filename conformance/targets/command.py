"""The command target, ``cmd:COMMAND``: a shell command run once per case.

``{tool}``/``{version}`` in the command are substituted (shell-quoted); the input JSON
goes on stdin, and, where the command names ``{input}``, into a temporary file whose
(shell-quoted) path replaces it, for clients that read their input from a file (``node
cli.mjs run {tool} {version} --input {input}``); the file is removed after the call, also
after a timeout or a crash. stdout is ``{"result": ...}`` or an error body ``{"error": ...}`` (the
protocol of ``conformance exec``), whatever the exit status. The command runs in its own
process group, so a timeout or an oversized answer kills it and every child it started.
``close`` kills the process group of every command still running (the breaker tripped, or
SIGTERM: the calls in flight end at once), and no command starts after it.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from typing import Any

from conformance.model import TargetResponse
from conformance.targets.base import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    NO_ANSWER_IN_TIME,
    OVER_THE_CAP,
    TargetSpecError,
    excerpt,
    read_envelope,
)
from conformance.wire import ANY, COMPACT, WireForm

INPUT_PLACEHOLDER = "{input}"  # replaced by the path of a temporary file holding the input JSON


def response_from_envelope(data: bytes, status: int | None, started: float) -> TargetResponse:
    """Classify a JSON answer of the command protocol: a result, a rejection, or garbage."""
    elapsed = (time.monotonic() - started) * 1000
    raw = excerpt(data)
    envelope = read_envelope(data)
    if envelope.kind == "result":
        return TargetResponse("result", result=envelope.result, status=status, raw=raw, duration_ms=elapsed)
    if envelope.kind == "rejection":
        return TargetResponse(
            "rejection",
            status=status,
            error_code=envelope.error_code,
            raw=raw,
            duration_ms=elapsed,
            detail="error body",
        )
    if envelope.empty:
        detail, what = f"empty output (exit status {status})", "empty output"
    elif envelope.not_json is not None:
        detail, what = f"output is not JSON: {envelope.not_json} (exit status {status})", "output not JSON"
    else:
        detail, what = 'output is JSON but neither {"result": ...} nor {"error": ...}', "no envelope"
    return TargetResponse(
        "transport_error",
        status=status,
        raw=raw,
        duration_ms=elapsed,
        detail=detail,
        fault=f"exit status {status}, {what}",
    )


class CommandTarget:
    """Runs a shell command once per case: input JSON on stdin, the answer on stdout.

    The command runs in its own process group, so a timeout or an oversized answer
    kills it and every child it started. At most ``max_bytes`` of stdout are kept.
    """

    def __init__(self, spec: str, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = DEFAULT_MAX_BYTES):
        self.spec = spec
        self.template = spec.removeprefix("cmd:").strip()
        if not self.template:
            raise TargetSpecError("cmd: target needs a command, e.g. 'cmd:mytool {tool} {version}'")
        self.timeout = timeout
        self.max_bytes = max_bytes
        self._running: set[subprocess.Popen] = set()
        self._lock = threading.Lock()
        self._closed = False

    def command_line(self, tool_id: str, version: str, input_path: str | None = None) -> str:
        """The shell line of one case; ``input_path`` (shell-quoted here) replaces ``{input}``."""
        line = self.template.replace("{tool}", shlex.quote(tool_id)).replace("{version}", shlex.quote(version))
        return line if input_path is None else line.replace(INPUT_PLACEHOLDER, shlex.quote(input_path))

    @property
    def reads_input_file(self) -> bool:
        return INPUT_PLACEHOLDER in self.template

    wire_forms = ANY  # stdin and the {input} file hold the bytes of the drawn form (conformance/wire.py)
    implements_some_tools = True  # a program written for one tool may answer "not found" for the others
    # What to check when the preflight finds the target unusable (engine/health.py), after the command to try.
    preflight_hint = (
        'the command gets the input JSON on stdin ({input}: a file\'s path) and prints {"result": ...} or '
        '{"error": {"code": ..., "message": ...}} on stdout'
    )

    def call(self, tool_id: str, version: str, payload: Any, wire: WireForm = COMPACT) -> TargetResponse:
        started = time.monotonic()
        stdin_bytes = wire.encode(payload)
        if not self.reads_input_file:
            return self._run(self.command_line(tool_id, version), stdin_bytes, started)
        try:
            with _input_file(stdin_bytes) as path:
                return self._run(self.command_line(tool_id, version, path), stdin_bytes, started)
        except OSError as exc:  # the file could not be written: the harness's machine, not the target
            return TargetResponse(
                "transport_error",
                detail=f"cannot write the {{input}} file: {exc}",
                duration_ms=(time.monotonic() - started) * 1000,
            )

    def _run(self, command_line: str, stdin_bytes: bytes, started: float) -> TargetResponse:
        with self._lock:
            if self._closed:
                return TargetResponse("transport_error", detail="not sent: the target was closed (the run is stopping)")
            try:
                process = subprocess.Popen(
                    command_line,
                    shell=True,
                    start_new_session=True,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                )
            except OSError as exc:
                return TargetResponse(
                    "transport_error",
                    detail=f"cannot start the command: {exc}",
                    duration_ms=(time.monotonic() - started) * 1000,
                )
            self._running.add(process)
        try:
            return self._wait(process, stdin_bytes, started)
        finally:  # also when the run is interrupted while it waits: no command outlives its call
            if process.returncode is None:
                _kill_group(process)
                process.wait()
            with self._lock:
                self._running.discard(process)

    def _wait(self, process: subprocess.Popen, stdin_bytes: bytes, started: float) -> TargetResponse:
        stdout = _CappedReader(process.stdout, self.max_bytes, on_overflow=lambda: _kill_group(process))
        stderr = _CappedReader(process.stderr, 4096)
        writer = threading.Thread(target=_feed, args=(process.stdin, stdin_bytes), daemon=True)
        for thread in (writer, stdout.thread, stderr.thread):
            thread.start()
        timed_out = False
        try:
            process.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(process)
            process.wait()
        for thread in (writer, stdout.thread, stderr.thread):
            thread.join(timeout=2)
        elapsed = (time.monotonic() - started) * 1000
        status = process.returncode
        err = excerpt(stderr.data, 300)
        if timed_out:
            return TargetResponse(
                "transport_error",
                status=status,
                raw=excerpt(stdout.data),
                duration_ms=elapsed,
                detail=f"timed out after {self.timeout:g} s (process group killed)",
                fault=NO_ANSWER_IN_TIME,
            )
        if stdout.overflowed:
            return TargetResponse(
                "transport_error",
                status=status,
                raw=excerpt(stdout.data),
                duration_ms=elapsed,
                detail=f"output larger than {self.max_bytes} bytes (process group killed)",
                fault=OVER_THE_CAP,
            )
        if status is not None and status < 0:
            return TargetResponse(
                "transport_error",
                status=status,
                raw=excerpt(stdout.data),
                duration_ms=elapsed,
                detail=f"killed by signal {-status}; stderr: {err}",
                fault=f"killed by signal {-status}",
            )
        response = response_from_envelope(stdout.data, status, started)
        if response.kind == "transport_error" and err:
            response.detail += f"; stderr: {err}"
        return response

    def reproduce_hint(self, tool_id: str, version: str, payload: Any, wire: WireForm = COMPACT) -> str:
        data = shlex.quote(wire.encode(payload).decode("utf-8"))
        if not self.reads_input_file:
            return f"printf '%s' {data} | {self.command_line(tool_id, version)}"
        command = self.command_line(tool_id, version).replace(INPUT_PLACEHOLDER, '"$f"')
        return f'f=$(mktemp) && printf \'%s\' {data} > "$f" && {command} < "$f"; rm -f "$f"'

    def close(self) -> None:
        with self._lock:
            self._closed = True
            running = list(self._running)
        for process in running:
            _kill_group(process)


def command_target(
    spec: str, *, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = DEFAULT_MAX_BYTES, **_options: Any
) -> CommandTarget:
    """``cmd:COMMAND`` (retries do not apply: a command's answer is never re-asked)."""
    return CommandTarget(spec, timeout=timeout, max_bytes=max_bytes)


@contextlib.contextmanager
def _input_file(data: bytes) -> Iterator[str]:
    """A temporary file holding ``data``, removed when the call is over, whatever happened in it."""
    fd, path = tempfile.mkstemp(prefix="conformance-input-", suffix=".json")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        yield path
    finally:
        with contextlib.suppress(FileNotFoundError):  # the command may have removed it itself
            os.unlink(path)


def _feed(pipe, data: bytes) -> None:
    try:
        pipe.write(data)
    except (BrokenPipeError, OSError):
        pass  # the command did not read its input: its answer will say what it made of that
    finally:
        try:
            pipe.close()
        except OSError:
            pass


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class _CappedReader:
    """Drains a pipe in a thread, keeping at most ``limit`` bytes (so a flood cannot fill memory)."""

    def __init__(self, pipe, limit: int, on_overflow=None):
        self.pipe, self.limit, self.on_overflow = pipe, limit, on_overflow
        self.chunks: list[bytes] = []
        self.size = 0
        self.overflowed = False
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            while chunk := self.pipe.read1(65536):
                if self.size + len(chunk) > self.limit:
                    self.overflowed = True
                    self.chunks.append(chunk[: self.limit - self.size])
                    self.size = self.limit
                    if self.on_overflow:
                        self.on_overflow()
                        return
                    continue  # keep draining, so the writer never blocks
                self.chunks.append(chunk)
                self.size += len(chunk)
        except (OSError, ValueError):
            pass
        finally:
            try:
                self.pipe.close()
            except OSError:
                pass

    @property
    def data(self) -> bytes:
        return b"".join(self.chunks)

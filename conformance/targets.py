"""Targets: the implementations under test, behind one small protocol.

A target turns ``(tool_id, version, payload)`` into a ``TargetResponse`` and never
raises for anything the implementation does wrong: a crash, a hang, garbage or an
oversized answer becomes ``kind="transport_error"`` with a truncated excerpt, so the
harness can report it and keep its head.

    oracle               the built-in oracle, in process
    python:pkg.module    a module exposing ``execute(tool_id, version, payload)``
    cmd:COMMAND          a shell command run once per case; ``{tool}``/``{version}``
                         substituted (shell-quoted); input JSON on stdin; stdout is
                         ``{"result": ...}`` or an error body ``{"error": ...}``
    http(s)://BASE       the hosted API (conformance.targets_http.HttpTarget)

In-process targets (``oracle``, ``python:``) cannot be timed out: a call that hangs
hangs the run. Wrap an implementation you do not trust in a ``cmd:`` or HTTP target.
"""

from __future__ import annotations

import copy
import importlib
import os
import shlex
import signal
import subprocess
import threading
import time
import traceback
from typing import Any, Protocol

import oracle
from conformance.jsonio import encode_request, parse_json
from conformance.model import TargetResponse

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_BYTES = 8 * 1024 * 1024  # far above the largest legal output (1,000,000 bytes)
EXCERPT_CHARS = 500  # how much of a bad answer a report shows


class TargetSpecError(ValueError):
    """The --target value cannot be used (a usage error, exit 2)."""


class Target(Protocol):
    spec: str

    def call(self, tool_id: str, version: str, payload: Any) -> TargetResponse:
        """Send one input; never raises for target misbehaviour."""

    def reproduce_hint(self, tool_id: str, version: str, payload: Any) -> str:
        """A shell line that re-sends this input outside the harness ("" when there is none)."""

    def close(self) -> None:
        """Release connections and processes."""


def excerpt(text: str | bytes, limit: int = EXCERPT_CHARS) -> str:
    """The start of what came back, readable and bounded, for reports."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def read_error_code(body: Any) -> str | None:
    """The error code in the common error-body shapes, if any.

    The hosted error body is not published, so the shapes seen in the wild are read:
    ``{"error": {"code": C}}``, ``{"error": C}`` and ``{"code": C}``.
    """
    if not isinstance(body, dict):
        return None
    error = body.get("error")
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        return error["code"]
    if isinstance(error, str):
        return error
    if isinstance(body.get("code"), str):
        return body["code"]
    return None


def response_from_envelope(data: bytes, status: int | None, started: float) -> TargetResponse:
    """Classify a JSON answer of the command protocol: a result, a rejection, or garbage."""
    elapsed = (time.monotonic() - started) * 1000
    raw = excerpt(data)
    if not data.strip():
        return TargetResponse("transport_error", status=status, raw=raw, duration_ms=elapsed,
                              detail=f"empty output (exit status {status})")
    try:
        body = parse_json(data)
    except oracle.ContractError as exc:
        return TargetResponse("transport_error", status=status, raw=raw, duration_ms=elapsed,
                              detail=f"output is not JSON: {exc.message} (exit status {status})")
    if isinstance(body, dict) and "result" in body and "error" not in body:
        return TargetResponse("result", result=body["result"], status=status, raw=raw, duration_ms=elapsed)
    if isinstance(body, dict) and "error" in body:
        return TargetResponse("rejection", status=status, error_code=read_error_code(body), raw=raw,
                              duration_ms=elapsed, detail="error body")
    return TargetResponse("transport_error", status=status, raw=raw, duration_ms=elapsed,
                          detail='output is JSON but neither {"result": ...} nor {"error": ...}')


class InProcessTarget:
    """Calls an ``execute(tool_id, version, payload)`` function in this process.

    An exception with a ``code`` attribute (oracle.ContractError among them) is a
    rejection; any other exception is a target error. The payload is deep-copied,
    so an implementation that mutates its input cannot corrupt the case.
    """

    def __init__(self, spec: str, execute):
        self.spec = spec
        self._execute = execute

    def call(self, tool_id: str, version: str, payload: Any) -> TargetResponse:
        started = time.monotonic()
        try:
            result = self._execute(tool_id, version, copy.deepcopy(payload))
        except Exception as exc:  # noqa: BLE001 - any failure of the implementation is data
            elapsed = (time.monotonic() - started) * 1000
            code = getattr(exc, "code", None)
            if code is not None:
                return TargetResponse("rejection", error_code=str(code), raw=excerpt(str(exc)),
                                      duration_ms=elapsed, detail=f"{type(exc).__name__}")
            last_line = traceback.format_exception_only(type(exc), exc)[-1].strip()
            return TargetResponse("transport_error", raw=excerpt(traceback.format_exc()), duration_ms=elapsed,
                                  detail=f"raised {excerpt(last_line, 200)}")
        return TargetResponse("result", result=result, duration_ms=(time.monotonic() - started) * 1000)

    def reproduce_hint(self, tool_id: str, version: str, payload: Any) -> str:
        return ""

    def close(self) -> None:
        pass


def python_target(spec: str) -> InProcessTarget:
    module_name = spec.removeprefix("python:").strip()
    if not module_name:
        raise TargetSpecError("python: target needs a module name, e.g. python:mypkg.metrics")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - an import failure is the user's to fix
        raise TargetSpecError(f"cannot import {module_name}: {type(exc).__name__}: {exc}") from None
    execute = getattr(module, "execute", None)
    if not callable(execute):
        raise TargetSpecError(f"module {module_name} has no execute(tool_id, version, payload) function")
    return InProcessTarget(spec, execute)


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

    def command_line(self, tool_id: str, version: str) -> str:
        return self.template.replace("{tool}", shlex.quote(tool_id)).replace("{version}", shlex.quote(version))

    def call(self, tool_id: str, version: str, payload: Any) -> TargetResponse:
        started = time.monotonic()
        stdin_bytes = encode_request(payload)
        try:
            process = subprocess.Popen(
                self.command_line(tool_id, version), shell=True, start_new_session=True,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )
        except OSError as exc:
            return TargetResponse("transport_error", detail=f"cannot start the command: {exc}",
                                  duration_ms=(time.monotonic() - started) * 1000)
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
            return TargetResponse("transport_error", status=status, raw=excerpt(stdout.data), duration_ms=elapsed,
                                  detail=f"timed out after {self.timeout:g} s (process group killed)")
        if stdout.overflowed:
            return TargetResponse("transport_error", status=status, raw=excerpt(stdout.data), duration_ms=elapsed,
                                  detail=f"output larger than {self.max_bytes} bytes (process group killed)")
        if status is not None and status < 0:
            return TargetResponse("transport_error", status=status, raw=excerpt(stdout.data), duration_ms=elapsed,
                                  detail=f"killed by signal {-status}; stderr: {err}")
        response = response_from_envelope(stdout.data, status, started)
        if response.kind == "transport_error" and err:
            response.detail += f"; stderr: {err}"
        return response

    def reproduce_hint(self, tool_id: str, version: str, payload: Any) -> str:
        return f"printf '%s' {shlex.quote(encode_request(payload).decode('utf-8'))} | {self.command_line(tool_id, version)}"

    def close(self) -> None:
        pass


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


def make_target(spec: str, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = DEFAULT_MAX_BYTES,
                retries: int = 2) -> Target:
    """The target a ``--target`` value names; TargetSpecError if it names none."""
    spec = spec.strip()
    if spec == "oracle":
        return InProcessTarget("oracle", oracle.execute)
    if spec.startswith("python:"):
        return python_target(spec)
    if spec.startswith("cmd:"):
        return CommandTarget(spec, timeout=timeout, max_bytes=max_bytes)
    if spec.startswith(("http://", "https://")):
        try:
            from conformance.targets_http import HttpTarget
        except ModuleNotFoundError as exc:
            raise TargetSpecError(f"HTTP targets are unavailable: {exc}") from None
        return HttpTarget(spec, timeout=timeout, max_bytes=max_bytes, retries=retries)
    raise TargetSpecError(
        f"unknown target {spec!r}: use oracle, python:MODULE, cmd:COMMAND, http://BASE or https://BASE"
    )

"""In-process targets: ``oracle`` (the built-in oracle) and ``python:pkg.module`` (a module
exposing ``execute(tool_id, version, payload)``), called in this process.

In-process targets cannot be timed out: a call that hangs hangs the run. Wrap an
implementation you do not trust in a ``cmd:`` or HTTP target.
"""

from __future__ import annotations

import copy
import importlib
import time
import traceback
from typing import Any

import oracle
from conformance.model import TargetResponse
from conformance.targets.base import TargetSpecError, excerpt, excerpt_of_traceback

TRACEBACK_CHARS = 2_000  # a traceback's last frames (long paths, carets) need more than an answer's excerpt


class InProcessTarget:
    """Calls an ``execute(tool_id, version, payload)`` function in this process.

    An exception with a ``code`` attribute (oracle.ContractError among them) is a
    rejection; any other exception is a target error. The payload is deep-copied,
    so an implementation that mutates its input cannot corrupt the case.
    """

    # No transport stands between: an exception is the implementation's own, even one that would not come
    # back when the input is sent again (engine/health.py judges it at once).
    in_process = True
    implements_some_tools = True  # a module written for one tool may answer "not found" for the others
    # What to check when the preflight finds the target unusable (engine/health.py).
    preflight_hint = (
        "the module's execute(tool_id, version, payload) returns the output, or raises an exception whose "
        "code attribute is the error code (not_found for a tool it does not implement)"
    )

    def __init__(self, spec: str, execute):
        self.spec = spec
        self._execute = execute

    def call(self, tool_id: str, version: str, payload: Any) -> TargetResponse:
        started = time.monotonic()
        try:
            result = self._execute(tool_id, version, copy.deepcopy(payload))
        except Exception as exc:  # noqa: BLE001 - any failure of the implementation is data
            elapsed = (time.monotonic() - started) * 1000
            special = self.response_to(exc, elapsed)
            if special is not None:
                return special
            code = getattr(exc, "code", None)
            if code is not None:
                return TargetResponse(
                    "rejection",
                    error_code=str(code),
                    raw=excerpt(str(exc)),
                    duration_ms=elapsed,
                    detail=f"{type(exc).__name__}",
                )
            last_line = traceback.format_exception_only(type(exc), exc)[-1].strip()
            return TargetResponse(
                "transport_error",
                raw=excerpt_of_traceback(traceback.format_exc(), TRACEBACK_CHARS),
                duration_ms=elapsed,
                detail=f"raised {excerpt(last_line, 200)}",
                fault=f"raised {type(exc).__name__}",
            )
        return self.answered(tool_id, version, result, (time.monotonic() - started) * 1000)

    def answered(self, tool_id: str, version: str, result: Any, elapsed_ms: float) -> TargetResponse:
        """A kind of target's own reading of an answer (here: the answer as it is)."""
        return TargetResponse("result", result=result, duration_ms=elapsed_ms)

    def response_to(self, exc: Exception, elapsed_ms: float) -> TargetResponse | None:
        """A kind of target's own reading of an exception (None: a rejection or a target error, as above)."""
        return None

    def reproduce_hint(self, tool_id: str, version: str, payload: Any) -> str:
        return ""

    def close(self) -> None:
        pass


def oracle_target(spec: str = "oracle", **_options: Any) -> InProcessTarget:
    """``oracle``: the built-in oracle (time and size limits do not apply in process)."""
    return InProcessTarget("oracle", oracle.execute)


def python_target(spec: str, **_options: Any) -> InProcessTarget:
    """``python:MODULE``: the module's ``execute`` function; TargetSpecError if there is none."""
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

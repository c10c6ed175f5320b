"""``implementation:NAME``: a real library (conformance/implementations/NAME.py) called in this process.

Like a ``python:`` target, except that the adapter's ``NotApplicable`` (an input or output the
library's public API cannot express) comes back as the response kind ``not_applicable``, which the
verdict turns into a skipped case "not applicable: CAUSE", never a failure; and a ``Partial`` answer
(the fields the library computes) comes back as a result with its ``Expressed`` declaration, judged on
those fields alone. No other kind of target can declare a field not expressed.
"""

from __future__ import annotations

from typing import Any

from conformance.model import TargetResponse
from conformance.targets.base import TargetSpecError
from conformance.targets.inprocess import InProcessTarget

PREFIX = "implementation:"


def implementation_name(spec: str) -> str:
    """The library named by an ``implementation:NAME`` target ("" for any other target)."""
    return spec.removeprefix(PREFIX).strip() if spec.startswith(PREFIX) else ""


class ImplementationTarget(InProcessTarget):
    def response_to(self, exc: Exception, elapsed_ms: float) -> TargetResponse | None:
        from conformance.implementations import NotApplicable

        if isinstance(exc, NotApplicable):
            return TargetResponse("not_applicable", detail=exc.cause, raw=exc.detail, duration_ms=elapsed_ms)
        return None

    def answered(self, tool_id: str, version: str, result: Any, elapsed_ms: float) -> TargetResponse:
        from conformance.implementations import Partial
        from oracle.registry import tool

        if not isinstance(result, Partial):
            return super().answered(tool_id, version, result, elapsed_ms)
        output, expressed = result.resolve(tool(tool_id, version).contract.output_schema)
        return TargetResponse("result", result=output, duration_ms=elapsed_ms, expressed=expressed)


def implementation_target(spec: str, **_options: Any) -> ImplementationTarget:
    """``implementation:NAME``: TargetSpecError when there is no such library or it is not installed."""
    from conformance.implementations import library

    name = implementation_name(spec)
    try:
        found = library(name)
    except KeyError as exc:
        raise TargetSpecError(str(exc.args[0])) from None
    missing = found.missing()
    if missing:
        raise TargetSpecError(f"{name}: {missing}")
    return ImplementationTarget(spec, found.execute)

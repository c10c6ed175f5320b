"""``implementation:NAME``: a real library (conformance/implementations/NAME.py) called in this process.

Like a ``python:`` target, except that the adapter's ``NotApplicable`` (an input or output the
library's public API cannot express) comes back as the response kind ``not_applicable``, which the
verdict turns into a skipped case "not applicable: CAUSE", never a failure.
"""

from __future__ import annotations

from typing import Any

from conformance.model import TargetResponse
from conformance.targets.base import TargetSpecError
from conformance.targets.inprocess import InProcessTarget


class ImplementationTarget(InProcessTarget):
    def response_to(self, exc: Exception, elapsed_ms: float) -> TargetResponse | None:
        from conformance.implementations import NotApplicable

        if isinstance(exc, NotApplicable):
            return TargetResponse("not_applicable", detail=exc.cause, raw=exc.detail, duration_ms=elapsed_ms)
        return None


def implementation_target(spec: str, **_options: Any) -> ImplementationTarget:
    """``implementation:NAME``: TargetSpecError when there is no such library or it is not installed."""
    from conformance.implementations import library

    name = spec.removeprefix("implementation:").strip()
    try:
        found = library(name)
    except KeyError as exc:
        raise TargetSpecError(str(exc.args[0])) from None
    missing = found.missing()
    if missing:
        raise TargetSpecError(f"{name}: {missing}")
    return ImplementationTarget(spec, found.execute)

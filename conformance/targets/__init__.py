"""Targets: the implementations under test, behind one small protocol.

A target turns ``(tool_id, version, payload)`` into a ``TargetResponse`` and never
raises for anything the implementation does wrong: a crash, a hang, garbage or an
oversized answer becomes ``kind="transport_error"`` with a truncated excerpt, so the
harness can report it and keep its head.

    oracle               the built-in oracle, in process (targets.inprocess)
    python:pkg.module    a module exposing ``execute(tool_id, version, payload)``, in
                         process (targets.inprocess)
    cmd:COMMAND          a shell command run once per case; ``{tool}``/``{version}``
                         substituted (shell-quoted); input JSON on stdin; stdout is
                         ``{"result": ...}`` or an error body ``{"error": ...}``
                         (targets.command)
    http(s)://BASE       the hosted API (targets.http)

In-process targets (``oracle``, ``python:``) cannot be timed out: a call that hangs
hangs the run. Wrap an implementation you do not trust in a ``cmd:`` or HTTP target.

What the kinds share (defaults, excerpts, error codes) is in targets.base.
"""

from __future__ import annotations

from typing import Any, Protocol

import oracle
from conformance.model import TargetResponse
from conformance.targets.base import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    TargetSpecError,
    excerpt,
    read_error_code,
)
from conformance.targets.command import CommandTarget
from conformance.targets.inprocess import InProcessTarget, python_target

__all__ = [
    "Target", "TargetSpecError", "make_target", "DEFAULT_TIMEOUT", "DEFAULT_MAX_BYTES", "excerpt", "read_error_code",
    "InProcessTarget", "CommandTarget",
]


class Target(Protocol):
    spec: str

    def call(self, tool_id: str, version: str, payload: Any) -> TargetResponse:
        """Send one input; never raises for target misbehaviour."""

    def reproduce_hint(self, tool_id: str, version: str, payload: Any) -> str:
        """A shell line that re-sends this input outside the harness ("" when there is none)."""

    def close(self) -> None:
        """Release connections and processes."""


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
            from conformance.targets.http import HttpTarget
        except ModuleNotFoundError as exc:
            raise TargetSpecError(f"HTTP targets are unavailable: {exc}") from None
        return HttpTarget(spec, timeout=timeout, max_bytes=max_bytes, retries=retries)
    raise TargetSpecError(
        f"unknown target {spec!r}: use oracle, python:MODULE, cmd:COMMAND, http://BASE or https://BASE"
    )

"""Targets: the implementations under test, behind one small protocol.

A target turns ``(tool_id, version, payload)`` into a ``TargetResponse`` and never
raises for anything the implementation does wrong: a crash, a hang, garbage or an
oversized answer becomes ``kind="transport_error"`` with a truncated excerpt, so the
harness can report it and keep its head.

    oracle               the built-in oracle, in process (targets.inprocess)
    python:pkg.module    a module exposing ``execute(tool_id, version, payload)``, in
                         process (targets.inprocess)
    cmd:COMMAND          a shell command run once per case; ``{tool}``/``{version}``
                         substituted (shell-quoted), ``{input}`` by the path of a
                         temporary file holding the input; input JSON on stdin; stdout is
                         ``{"result": ...}`` or an error body ``{"error": ...}``
                         (targets.command)
    jsonl:COMMAND        a command started once (per worker) answering one JSON request
                         line with one answer line (targets.jsonl)
    http(s)://BASE       the hosted API (targets.http)
    implementation:NAME  a real library through its adapter (conformance/implementations/NAME.py),
                         in process; what its API cannot express is "not applicable"
                         (targets.implementation)
    mcp+http(s)://HOST:PORT/PATH
                         an MCP server over Streamable HTTP (the hosted service's MCP interface,
                         or `conformance serve` at /mcp): each case calls the tool ``execute``
                         with ``{"id", "version", "input"}`` through the official MCP SDK; the
                         envelope is read from ``structuredContent``, else from the text content;
                         ``isError`` with an error body, or a JSON-RPC error, is a rejection
                         (targets.mcp)

A target may also say which contract it serves, ``published_contract(tool_id, version)``
(targets.published; the HTTP target has it), which the preflight compares with the suite's.

In-process targets (``oracle``, ``python:``) cannot be timed out: a call that hangs
hangs the run. Wrap an implementation you do not trust in a ``cmd:`` or HTTP target.

``make_target`` finds the kind of a ``--target`` value in ``KINDS``, a table of prefixes
and constructors: a new kind of target is one module and one line there. What the kinds
share (defaults, excerpts, the one reading of a JSON answer envelope) is in targets.base.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from conformance.model import TargetResponse
from conformance.targets.base import (
    DEFAULT_MAX_BYTES,
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    TargetSpecError,
    excerpt,
    read_envelope,
    read_error_code,
)
from conformance.targets.command import CommandTarget, command_target
from conformance.targets.inprocess import InProcessTarget, oracle_target, python_target

__all__ = [
    "Target",
    "TargetSpecError",
    "TargetKind",
    "KINDS",
    "make_target",
    "DEFAULT_TIMEOUT",
    "DEFAULT_MAX_BYTES",
    "excerpt",
    "read_error_code",
    "read_envelope",
    "InProcessTarget",
    "CommandTarget",
]


class Target(Protocol):
    spec: str

    def call(self, tool_id: str, version: str, payload: Any) -> TargetResponse:
        """Send one input; never raises for target misbehaviour."""

    def reproduce_hint(self, tool_id: str, version: str, payload: Any) -> str:
        """A shell line that re-sends this input outside the harness ("" when there is none)."""

    def close(self) -> None:
        """Release connections and processes. It may come while calls are in flight (the breaker
        tripped, or SIGTERM): they end at once as transport errors, and no call starts after it."""


class TargetKind(NamedTuple):
    """One kind of ``--target`` value: how it starts, and what makes its target."""

    prefix: str
    argument: str  # what follows the prefix, as the usage error names it; "" if the value is the prefix alone
    make: Callable[..., Target]  # make(spec, timeout=..., max_bytes=..., retries=...); TargetSpecError if unusable

    @property
    def form(self) -> str:
        return self.prefix + self.argument

    def names(self, spec: str) -> bool:
        return spec.startswith(self.prefix) if self.argument else spec == self.prefix


def _lazy(module: str, constructor: str, what: str) -> Callable[..., Target]:
    """A constructor imported on first use, for a kind whose module is heavy to import."""

    def make(spec: str, **options: Any) -> Target:
        try:
            found = getattr(importlib.import_module(module), constructor)
        except ModuleNotFoundError as exc:
            raise TargetSpecError(f"{what} targets are unavailable: {exc}") from None
        return found(spec, **options)

    return make


_http_target = _lazy("conformance.targets.http", "http_target", "HTTP")  # requests is too heavy for every run
_jsonl_target = _lazy("conformance.targets.jsonl", "jsonl_target", "jsonl:")  # imports jsonschema
_implementation_target = _lazy("conformance.targets.implementation", "implementation_target", "implementation:")
_mcp_target = _lazy("conformance.targets.mcp", "mcp_target", "MCP")  # the MCP SDK, only when asked for

KINDS: tuple[TargetKind, ...] = (  # the first that names the value makes its target
    TargetKind("oracle", "", oracle_target),
    TargetKind("python:", "MODULE", python_target),
    TargetKind("cmd:", "COMMAND", command_target),
    TargetKind("implementation:", "NAME", _implementation_target),
    TargetKind("jsonl:", "COMMAND", _jsonl_target),
    TargetKind("http://", "BASE", _http_target),
    TargetKind("https://", "BASE", _http_target),
    TargetKind("mcp+http://", "HOST:PORT/PATH", _mcp_target),
    TargetKind("mcp+https://", "HOST:PORT/PATH", _mcp_target),
)


def make_target(
    spec: str, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = DEFAULT_MAX_BYTES, retries: int = DEFAULT_RETRIES
) -> Target:
    """The target a ``--target`` value names; TargetSpecError if it names none."""
    spec = spec.strip()
    for kind in KINDS:
        if kind.names(spec):
            return kind.make(spec, timeout=timeout, max_bytes=max_bytes, retries=retries)
    forms = [kind.form for kind in KINDS]
    raise TargetSpecError(f"unknown target {spec!r}: use {', '.join(forms[:-1])} or {forms[-1]}")

"""The tools' side of the cross-check, one module per tool (``adapters/<tool_id with _>.py``), found from the
registry: ``INPUTS`` (a Hypothesis strategy of valid inputs aimed at where the libraries part ways), the
conditions on an input that the libraries' divergence entries share (computed with the oracle's own
statistics), and ``AGREEMENTS`` (areas where several libraries were checked and agree). A tool without a
module is simply not cross-checked. Helpers shared by a family of tools live in ``bleu.py`` and ``chrf.py``.

What is known about a library (its calls, its checks, its divergences) lives in its own module,
conformance/implementations/<name>.py: ``checks()`` and ``divergences()`` read them from there.
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType

from conformance.crosscheck.model import Agreement, Check, Divergence
from oracle.registry import module_name, tool_keys


@functools.cache
def adapters() -> dict[tuple[str, str], ModuleType]:
    """(tool_id, version) -> the tool's adapter module, for every implemented tool that has one."""
    found = {}
    for tool_id, version in tool_keys():
        name = f"{__name__}.{module_name(tool_id)}"
        try:
            found[(tool_id, version)] = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    return found


def _libraries():
    from conformance.implementations import implementations

    return implementations().values()


@functools.cache
def checks() -> tuple[Check, ...]:
    """Every library's checks of the tools that have inputs here."""
    tools = {tool_id for tool_id, _ in adapters()}
    return tuple(check for library in _libraries() for check in library.checks() if check.tool_id in tools)


@functools.cache
def divergences() -> tuple[Divergence, ...]:
    """Every library's divergences, tool by tool (the registry's order), within a tool the crosscheck extra's
    libraries first."""
    order = [tool_id for tool_id, _ in tool_keys()]
    libraries = sorted(_libraries(), key=lambda library: library.implementation.extra != "crosscheck")
    found = [divergence for library in libraries for divergence in library.divergences()]
    return tuple(sorted(found, key=lambda divergence: order.index(divergence.tool_id)))


@functools.cache
def agreements() -> tuple[Agreement, ...]:
    return (
        *(agreement for module in adapters().values() for agreement in getattr(module, "AGREEMENTS", ())),
        *(agreement for library in _libraries() for agreement in getattr(library.module, "AGREEMENTS", ())),
    )


def inputs(tool_id: str):
    """The tool's input strategy."""
    return next(module.INPUTS for (tid, _), module in adapters().items() if tid == tool_id)

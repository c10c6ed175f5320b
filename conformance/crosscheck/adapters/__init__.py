"""Cross-check adapters, one module per tool (``adapters/<tool_id with _>.py``), found from the registry.

A tool's adapter module declares ``INPUTS`` (a Hypothesis strategy of valid inputs aimed at
where the libraries part ways), ``CHECKS`` (library functions compared with the tool),
``DIVERGENCES`` (the known departures from its contract) and ``AGREEMENTS``. A tool without
an adapter module is simply not cross-checked. Helpers shared by a family of tools live in
``bleu.py`` and ``chrf.py``.
"""

from __future__ import annotations

import dataclasses
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


@functools.cache
def checks() -> tuple[Check, ...]:
    return tuple(
        dataclasses.replace(check, tool_id=tool_id, version=version)
        for (tool_id, version), module in adapters().items()
        for check in module.CHECKS
    )


@functools.cache
def divergences() -> tuple[Divergence, ...]:
    return tuple(
        dataclasses.replace(divergence, tool_id=tool_id)
        for (tool_id, _), module in adapters().items()
        for divergence in module.DIVERGENCES
    )


@functools.cache
def agreements() -> tuple[Agreement, ...]:
    return tuple(agreement for module in adapters().values() for agreement in module.AGREEMENTS)


def inputs(tool_id: str):
    """The tool's input strategy."""
    return next(module.INPUTS for (tid, _), module in adapters().items() if tid == tool_id)

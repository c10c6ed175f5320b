"""Which tools there are, found from the contracts folder; nothing else lists them.

A tool is a contract file ``contracts/<tool-id>/<version>.json``; the oracle implements it
when the module ``oracle.<tool_id with - as _>`` exists and its ``TOOL`` has that version
(a module may also define ``TOOLS``, a list, for several versions). Every part of the
project (CLI, server, suite, reports, gate, cross-checks) asks this registry, so adding a
tool never means writing its id anywhere but in its own unit.
"""

from __future__ import annotations

import functools
import importlib

from oracle.contracts import available, contract
from oracle.errors import NOT_FOUND, ContractError
from oracle.tool import Tool


def module_name(tool_id: str) -> str:
    """``bleu-corpus-compute`` -> ``bleu_corpus_compute``: the name of a tool's module in every package."""
    return tool_id.replace("-", "_")


@functools.lru_cache(maxsize=None)
def _module_tools(tool_id: str) -> dict[str, Tool]:
    try:
        module = importlib.import_module(f"oracle.{module_name(tool_id)}")
    except ModuleNotFoundError as exc:
        if exc.name == f"oracle.{module_name(tool_id)}":
            return {}
        raise
    declared = getattr(module, "TOOLS", None) or [module.TOOL]
    return {tool.version: tool for tool in declared}


def tool(tool_id: str, version: str) -> Tool:
    """The oracle's tool; ContractError(not_found) when there is no contract or no implementation."""
    contract(tool_id, version)  # a missing contract says so
    found = _module_tools(tool_id).get(version)
    if found is None:
        raise ContractError(NOT_FOUND, f"the oracle does not implement {tool_id}@{version}")
    return found


def implemented(tool_id: str, version: str) -> bool:
    try:
        tool(tool_id, version)
    except ContractError:
        return False
    return True


def tools() -> list[Tool]:
    """Every implemented tool, sorted by id and version."""
    return [tool(tool_id, version) for tool_id, version in available() if implemented(tool_id, version)]


def tool_keys() -> list[tuple[str, str]]:
    """(tool_id, version) of every implemented tool, sorted."""
    return [(t.id, t.version) for t in tools()]

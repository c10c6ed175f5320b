"""Which tools there are, found from the contracts folder; nothing else lists them.

A tool is a contract file ``contracts/<tool-id>/<version>.json``; the oracle implements it
when the module ``oracle.<tool_id with - as _>`` exists and its ``TOOL`` has that version
(a module may also define ``TOOLS``, a list, for several versions). Every part of the
project (CLI, server, suite, reports, gate, cross-checks) asks this registry, so adding a
tool never means writing its id anywhere but in its own unit.
"""

from __future__ import annotations

import ast
import functools
import importlib
from pathlib import Path

from oracle.contracts import available, contract
from oracle.errors import NOT_FOUND, ContractError
from oracle.tool import Tool


def module_name(tool_id: str) -> str:
    """``bleu-corpus-compute`` -> ``bleu_corpus_compute``: the name of a tool's module in every package."""
    return tool_id.replace("-", "_")


@functools.cache
def _module_tools(tool_id: str) -> dict[str, Tool]:
    try:
        module = importlib.import_module(f"oracle.{module_name(tool_id)}")
    except ModuleNotFoundError as exc:
        if exc.name == f"oracle.{module_name(tool_id)}":
            return {}
        raise
    declared = getattr(module, "TOOLS", None) or [module.TOOL]
    return {tool.version: tool for tool in declared}


_PACKAGE_DIR = Path(__file__).resolve().parent


def _oracle_imports(stem: str) -> set[str]:
    """The oracle modules (file stems) one module of the package imports, read from its import statements."""
    tree = ast.parse((_PACKAGE_DIR / f"{stem}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[1] for alias in node.names if alias.name.startswith("oracle.")}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "oracle":
            found |= {alias.name for alias in node.names if (_PACKAGE_DIR / f"{alias.name}.py").is_file()}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.startswith("oracle."):
            found.add(node.module.split(".")[1])
    return found


@functools.cache
def modules_used(tool_id: str) -> frozenset[str]:
    """The oracle modules (file stems: ``bleu_score``, ``__init__``) an answer of the tool may run.

    The package's entry (``oracle.execute``, through this registry) and the tool's module, with
    every oracle module they import, transitively. Mutation testing (benchmarks/mutation.py)
    sends the mutants of a module to the tools that use it alone.
    """
    seen: set[str] = set()
    pending = ["__init__", module_name(tool_id)]
    while pending:
        stem = pending.pop()
        if stem not in seen and (_PACKAGE_DIR / f"{stem}.py").is_file():
            seen.add(stem)
            pending.extend(_oracle_imports(stem))
    return frozenset(seen)


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

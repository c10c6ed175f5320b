"""Reference oracle for the MT-metric tool contracts.

``execute(tool_id, version, payload)`` returns the output object or raises
``ContractError`` with ``.code`` and a ``.message`` naming the offending path.
Tools are found from the contracts folder (``oracle.registry``); each tool module
reads top to bottom like its contract.
"""

from __future__ import annotations

from typing import Any

from oracle.contracts import available, contract, load_contract
from oracle.errors import INVALID_INPUT, LIMIT_EXCEEDED, NOT_FOUND, ContractError
from oracle.registry import implemented, tool, tool_keys, tools

__all__ = [
    "execute",
    "ContractError",
    "implemented",
    "tool",
    "tools",
    "tool_keys",
    "load_contract",
    "contract",
    "available",
    "INVALID_INPUT",
    "LIMIT_EXCEEDED",
    "NOT_FOUND",
]


def execute(tool_id: str, version: str, payload: Any) -> dict[str, Any]:
    return tool(tool_id, version).execute(payload)

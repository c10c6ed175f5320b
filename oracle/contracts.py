"""The published contracts as data: ``contracts/<tool-id>/<version>.json``.

In a source checkout (or an editable install) the files are read from the
repository's ``contracts/`` folder; an installed wheel carries a copy under
``oracle/_data/contracts``.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from oracle.errors import NOT_FOUND, ContractError

_PACKAGE_DIR = Path(__file__).resolve().parent


def contracts_dir() -> Path:
    for candidate in (_PACKAGE_DIR.parent / "contracts", _PACKAGE_DIR / "_data" / "contracts"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("no contracts/ folder found beside the oracle package")


def contract_path(tool_id: str, version: str) -> Path:
    return contracts_dir() / tool_id / f"{version}.json"


def available() -> list[tuple[str, str]]:
    """Every (tool_id, version) with a contract file, sorted."""
    root = contracts_dir()
    return sorted(
        (path.parent.name, path.stem)
        for path in root.glob("*/*.json")
    )


@functools.lru_cache(maxsize=None)
def _load(tool_id: str, version: str) -> str:
    path = contract_path(tool_id, version)
    if not path.is_file():
        raise ContractError(NOT_FOUND, f"no contract {tool_id}@{version}")
    return path.read_text(encoding="utf-8")


def load_contract(tool_id: str, version: str) -> dict:
    """The contract as published (a fresh copy each call: callers may not mutate the cache)."""
    if not isinstance(tool_id, str) or not isinstance(version, str):
        raise ContractError(NOT_FOUND, f"no contract {tool_id!r}@{version!r}")
    if "/" in tool_id or "/" in version or tool_id.startswith(".") or version.startswith("."):
        raise ContractError(NOT_FOUND, f"no contract {tool_id}@{version}")
    return json.loads(_load(tool_id, version))

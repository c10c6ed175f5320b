"""The contracts as data: ``contracts/<tool-id>/<version>.json``, read once.

In a source checkout (or an editable install) the files are read from the
repository's ``contracts/`` folder; an installed wheel carries a copy under
``oracle/_data/contracts``.

``contract(tool_id, version)`` is the one cache of the project: a ``Contract`` holds
the file's text, read-only views of its parts, and the compiled validators of its
schemas, so every part of the harness shares them and none can alter them.
``load_contract`` hands out a fresh copy of the whole document for callers that
want a dict to keep or change.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

import fastjsonschema
import jsonschema

from oracle.errors import NOT_FOUND, ContractError

_PACKAGE_DIR = Path(__file__).resolve().parent
DRAFT = "draft"
PUBLISHED = "published"


def contracts_dir() -> Path:
    for candidate in (_PACKAGE_DIR.parent / "contracts", _PACKAGE_DIR / "_data" / "contracts"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("no contracts/ folder found beside the oracle package")


def contract_path(tool_id: str, version: str) -> Path:
    return contracts_dir() / tool_id / f"{version}.json"


def available() -> list[tuple[str, str]]:
    """Every (tool_id, version) with a contract file, sorted."""
    return sorted((path.parent.name, path.stem) for path in contracts_dir().glob("*/*.json"))


@dataclass(frozen=True, eq=False)
class Contract:
    """One contract file, parsed once; its parts are read-only and its validators compiled once."""

    tool_id: str
    version: str
    text: str

    @cached_property
    def _document(self) -> dict[str, Any]:
        return cast(dict[str, Any], json.loads(self.text))

    def document(self) -> dict[str, Any]:
        """The whole contract as a fresh dict (the caller may keep or change it)."""
        return cast(dict[str, Any], json.loads(self.text))

    @property
    def label(self) -> str:
        return f"{self.tool_id}@{self.version}"

    @cached_property
    def digest(self) -> str:
        """``sha256:HEX`` of the file: what tells two runs that checked a contract changed in place apart."""
        return "sha256:" + hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @cached_property
    def status(self) -> str:
        """ "draft" for a contract marked ``"status": "draft"``, else "published"."""
        return DRAFT if self._document.get("status") == DRAFT else PUBLISHED

    @cached_property
    def limits(self) -> Mapping[str, int]:
        return MappingProxyType(dict(self._document.get("limits", {})))

    @cached_property
    def semantics(self) -> tuple[str, ...]:
        return tuple(self._document.get("semantics", ()))

    # The schemas are handed to validators only; validators never change them.
    @property
    def input_schema(self) -> dict[str, Any]:
        return cast(dict[str, Any], self._document["input_schema"])

    @property
    def output_schema(self) -> dict[str, Any]:
        return cast(dict[str, Any], self._document["output_schema"])

    @cached_property
    def input_validator(self) -> jsonschema.Draft202012Validator:
        return jsonschema.Draft202012Validator(self.input_schema)

    @cached_property
    def output_validator(self) -> jsonschema.Draft202012Validator:
        return jsonschema.Draft202012Validator(self.output_schema)

    @cached_property
    def input_accepts(self) -> Callable[[Any], Any]:
        """A compiled check of the whole input_schema: raises on any violation, ~100x faster on a valid input."""
        return cast(Callable[[Any], Any], fastjsonschema.compile(self.input_schema))

    @cached_property
    def output_accepts(self) -> Callable[[Any], Any]:
        return cast(Callable[[Any], Any], fastjsonschema.compile(self.output_schema))

    @functools.cache  # noqa: B019 - contracts live as long as the process
    def property_validator(self, prop: str) -> jsonschema.Draft202012Validator:
        return jsonschema.Draft202012Validator(self.input_schema["properties"][prop])


@functools.cache
def _read(tool_id: str, version: str) -> Contract:
    path = contract_path(tool_id, version)
    if not path.is_file():
        raise ContractError(NOT_FOUND, f"no contract {tool_id}@{version}")
    return Contract(tool_id, version, path.read_text(encoding="utf-8"))


def contract(tool_id: str, version: str) -> Contract:
    """The contract of ``tool_id@version``; ContractError(not_found) when there is none."""
    if not isinstance(tool_id, str) or not isinstance(version, str):
        raise ContractError(NOT_FOUND, f"no contract {tool_id!r}@{version!r}")
    if "/" in tool_id or "/" in version or tool_id.startswith(".") or version.startswith("."):
        raise ContractError(NOT_FOUND, f"no contract {tool_id}@{version}")
    return _read(tool_id, version)


def load_contract(tool_id: str, version: str) -> dict[str, Any]:
    """The contract as published, as a fresh dict each call."""
    return contract(tool_id, version).document()

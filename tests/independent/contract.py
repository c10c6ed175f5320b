"""The contract documents, read straight from the repository's contracts/ folder."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import fastjsonschema

from independent.errors import Rejection

CONTRACTS = Path(__file__).resolve().parents[2] / "contracts"


@functools.cache
def contract(tool_id: str, version: str = "1.0.0") -> dict:
    return json.loads((CONTRACTS / tool_id / f"{version}.json").read_text(encoding="utf-8"))


@functools.cache
def _validator(tool_id: str, version: str):
    return fastjsonschema.compile(contract(tool_id, version)["input_schema"])


def check_schema(tool_id: str, payload, version: str = "1.0.0") -> None:
    """Every schema violation is invalid_input (the other reading of A6)."""
    try:
        _validator(tool_id, version)(payload)
    except fastjsonschema.JsonSchemaException as error:
        raise Rejection("invalid_input", error.message) from None


def utf8_bytes(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))

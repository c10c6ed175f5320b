"""The output_schema check: the first violation, shallowest first, in plain words."""

from __future__ import annotations

import math
from typing import Any

import fastjsonschema

from conformance.compare.diff import json_pointer, short
from conformance.model import Mismatch
from oracle.contracts import Contract


def _schema_accepts(contract: Contract, result: Any) -> bool:
    """The compiled check accepts a large valid output many times faster; jsonschema stays the
    authority for every output it does not accept, and writes the error."""
    try:
        contract.output_accepts(result)
    except (fastjsonschema.JsonSchemaException, RecursionError):
        return False
    return not _has_non_finite(result)


def _has_non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_has_non_finite(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_non_finite(v) for v in value)
    return False


def output_schema_error(contract: Contract, result: Any) -> Mismatch | None:
    """The first violation of the output_schema (shallowest first), as a Mismatch."""
    if _schema_accepts(contract, result):
        return None
    try:
        errors = list(contract.output_validator.iter_errors(result))
    except RecursionError:
        return Mismatch("", None, "<nested too deep>", "the output is nested too deeply to be an output of this tool")
    if not errors:
        return None
    error = min(errors, key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    pointer = json_pointer(error.absolute_path)
    message = error.message if len(error.message) <= 200 else f"violates {error.validator} {error.validator_value!r}"
    return Mismatch(pointer, f"{error.validator}: {error.validator_value!r}"[:200], short(error.instance),
                    f"the output violates the contract's output_schema at {pointer or '/'}: {message}")

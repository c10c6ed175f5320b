"""The output_schema check: the first violation, shallowest first, in plain words."""

from __future__ import annotations

import json
import math
from typing import Any

import fastjsonschema

from conformance.compare.diff import as_json, json_pointer, short
from conformance.model import Mismatch
from oracle.contracts import Contract
from oracle.validation import describe_violation

SCHEMA_VIOLATION = "the output violates the contract's output_schema"  # how every such message starts


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
    # expected: the keyword and its value as JSON ({"maximum": 1}); the message says it in words
    keyword = {error.validator: short(error.validator_value)}
    return Mismatch(pointer, keyword, short(error.instance),
                    f"{SCHEMA_VIOLATION} at {pointer or '/'}: {_in_words(error, pointer or 'the output')} "
                    f"(keyword {error.validator}: {json.dumps(short(error.validator_value))})")


_DESCRIBED = frozenset({"type", "maxItems", "minItems", "maxLength", "minLength", "minimum", "maximum"})


def _in_words(error, where: str) -> str:
    """``/bleu is 1.5, more than the maximum 1``: the value and the bound in words, values as JSON."""
    keyword, bound, instance = error.validator, error.validator_value, error.instance
    if keyword in _DESCRIBED:
        return f"{where} {describe_violation(error)}"
    if keyword == "enum":
        return f"{where} must be one of {', '.join(map(as_json, bound))}, got {as_json(short(instance))}"
    if keyword == "const":
        return f"{where} must be {as_json(bound)}, got {as_json(short(instance))}"
    if keyword == "required" and isinstance(instance, dict):
        missing = [key for key in bound if key not in instance]
        return f"{where} lacks the required key{'s' if len(missing) > 1 else ''} {', '.join(map(as_json, missing))}"
    if keyword == "additionalProperties" and isinstance(instance, dict):
        allowed = error.schema.get("properties", {})
        extra = [key for key in instance if key not in allowed]
        return f"{where} has keys the schema does not allow: {as_json(short(extra))}"
    return f"{where} violates the keyword {keyword}"

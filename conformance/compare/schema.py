"""The output_schema check: the first violation, shallowest first, in plain words."""

from __future__ import annotations

import json
import math
from typing import Any

import fastjsonschema

from conformance.compare.diff import json_pointer, short
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


_DESCRIBED = frozenset({"type", "maxItems", "minItems", "maxLength", "minLength", "minimum", "maximum", "enum"})


def _in_words(error, where: str) -> str:
    """``/bleu is 1.5, more than the maximum 1``: the value and the bound in words."""
    if error.validator in _DESCRIBED:
        return f"{where} {describe_violation(error)}"
    return f"{where}: {error.message if len(error.message) <= 200 else 'violates ' + str(error.validator)}"

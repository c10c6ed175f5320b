"""The output_schema check: the first violation, shallowest first, in plain words.

A partial answer (an implementation's library computes some fields: ``model.Expressed``) is held to
the same schema with no key required (a field it lacks is not expressed; a key the schema does not
know still fails), and a field holding the library's float for an exact six-decimal string to being a
finite number: its range follows from the comparison with the exact value, which lies in the
pattern's 0..100. Every other field keeps its subschema, bounds included (a library's bleu above 1
fails ``maximum``).
"""

from __future__ import annotations

import copy
import functools
import json
import math
from typing import Any

import fastjsonschema
import jsonschema

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
    return first_violation(contract.output_validator, result)


def partial_schema_error(contract: Contract, result: Any, library_floats: tuple[str, ...]) -> Mismatch | None:
    """The first violation of a partial answer (its fields, ``library_floats`` finite numbers), as a Mismatch."""
    validator = _partial_validator(contract.tool_id, contract.version, tuple(sorted(library_floats)))
    return first_violation(validator, result)


@functools.cache
def _partial_validator(tool_id: str, version: str, library_floats: tuple[str, ...]) -> jsonschema.Draft202012Validator:
    from oracle.contracts import contract

    schema = _without_required(copy.deepcopy(contract(tool_id, version).output_schema))
    for pointer in library_floats:
        parent, key = _subschema_parent(schema, pointer)
        parent[key] = {"type": "number"}
    return jsonschema.Draft202012Validator(schema)


def _without_required(schema: Any) -> Any:
    if isinstance(schema, dict):
        if isinstance(schema.get("required"), list):
            del schema["required"]
        for value in schema.values():
            _without_required(value)
    elif isinstance(schema, list):
        for value in schema:
            _without_required(value)
    return schema


def _subschema_parent(schema: dict, pointer_class: str) -> tuple[dict, str]:
    """The object holding the subschema of a pointer class ("/segments/*/score"), and its key there."""
    parts = pointer_class.strip("/").split("/")
    node, key = schema["properties"], parts[0]
    for part in parts[1:]:
        node, key = (node[key], "items") if part == "*" else (node[key]["properties"], part)
    return node, key


def first_violation(validator: jsonschema.Draft202012Validator, result: Any) -> Mismatch | None:
    """The shallowest violation of a schema, as a Mismatch (None: the result has none)."""
    try:
        errors = list(validator.iter_errors(result))
    except RecursionError:
        return Mismatch("", None, "<nested too deep>", "the output is nested too deeply to be an output of this tool")
    if not errors:
        return None
    error = min(errors, key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    pointer = json_pointer(error.absolute_path)
    # expected: the keyword and its value as JSON ({"maximum": 1}); the message says it in words
    keyword = {error.validator: short(error.validator_value)}
    return Mismatch(
        pointer,
        keyword,
        short(error.instance),
        f"{SCHEMA_VIOLATION} at {pointer or '/'}: {_in_words(error, pointer or 'the output')} "
        f"(keyword {error.validator}: {json.dumps(short(error.validator_value))})",
    )


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

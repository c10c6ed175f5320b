"""JSON Schemas (Draft 2020-12) of the project's own file formats, and readable errors.

    known-failures.schema.json     the --known-failures file (conformance/known_failures.py)
    reproducer.schema.json         REPORT_DIR/reproducers/<id>.json (conformance/replay.py)
    command-protocol.schema.json   what a ``cmd:`` target prints on stdout (conformance/targets.py)
    jsonl-protocol.schema.json     the request and answer lines of a ``jsonl:`` target (targets/jsonl.py)

The schemas ship inside the package. ``first_error`` picks the error to report and
``explain`` turns it into ``<JSON pointer>: <problem> (<the field's description>)``,
so a message names the offending field and says what belongs there.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from conformance.jsonio import json_pointer
from oracle.validation import json_type

SCHEMA_DIR = Path(__file__).resolve().parent
NAMES = ("known-failures", "reproducer", "command-protocol", "jsonl-protocol")


def schema_path(name: str) -> Path:
    return SCHEMA_DIR / f"{name}.schema.json"


@functools.cache
def load_schema(name: str) -> dict:
    return json.loads(schema_path(name).read_text(encoding="utf-8"))


@functools.cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = load_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def first_error(name: str, instance: Any, prefer: Iterable[str] = ()) -> ValidationError | None:
    """The error to report for ``instance`` under schema ``name`` (None when it is valid).

    Errors about a top-level key in ``prefer`` come first (e.g. a reproducer's ``format``:
    when it is wrong, nothing else in the file is worth reporting); otherwise jsonschema's
    ``best_match``, which reports the shallowest error.
    """
    errors = list(validator(name).iter_errors(instance))
    preferred = [error for error in errors if top_level_key(error) in set(prefer)]
    return best_match(preferred or errors)


def top_level_key(error: ValidationError) -> str | None:
    """The top-level key of the document an error is about (None: the document as a whole)."""
    if error.absolute_path:
        return str(error.absolute_path[0])
    if error.validator == "required":
        return missing_key(error)
    return None


def location(error: ValidationError) -> str:
    """The JSON pointer of the offending field; for a missing key, of the key that is missing."""
    parts = list(error.absolute_path)
    if error.validator == "required":
        parts.append(missing_key(error))
    return json_pointer(parts)


def explain(error: ValidationError, describe: bool = True) -> str:
    """``<pointer>: <problem>``, plus the offending field's description when the schema has one.

    An error of the whole document has no pointer and no description (the document's
    description is the format's documentation, not a hint).
    """
    where = location(error)
    if not where:
        return _problem(error)
    description = _description(error) if describe else ""
    text = f"{where}: {_problem(error)}"
    return f"{text} ({description})" if description else text


_TYPE_NAMES = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def missing_key(error: ValidationError) -> str:
    """The key a ``required`` error is about (the first one missing)."""
    instance = error.instance if isinstance(error.instance, dict) else {}
    return next((key for key in error.validator_value if key not in instance), "?")


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _problem(error: ValidationError) -> str:
    keyword, expected, instance = error.validator, error.validator_value, error.instance
    if keyword == "required":
        return "is missing"
    if keyword == "additionalProperties":
        known = set(error.schema.get("properties", {}))
        extra = sorted(key for key in instance if key not in known)
        return f"unknown key(s) {', '.join(extra)}"
    if keyword == "type":
        types = [expected] if isinstance(expected, str) else list(expected)
        wanted = " or ".join(_TYPE_NAMES.get(name, name) for name in types)
        return f"expected {wanted}, got {json_type(instance)}"
    if keyword == "const":
        return f"expected {_short(expected)}, got {_short(instance)}"
    if keyword == "enum":
        return f"expected one of {', '.join(_short(value) for value in expected)}, got {_short(instance)}"
    if keyword == "pattern" and expected == r"\S":
        return "is blank"
    if keyword == "minLength" and expected == 1:
        return "is empty"
    return error.message[:200]


def _description(error: ValidationError) -> str:
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "required":
        schema = schema.get("properties", {}).get(missing_key(error), {})
    return schema.get("description", "") if isinstance(schema, dict) else ""

"""The input schema an MCP server declares for ``execute`` (its ``tools/list``), and whether a
call's arguments break it.

An MCP server's SDK may check the arguments against the declared schema before the tool runs,
and refuse a violation itself: the TypeScript SDK (1.x) answers ``isError: true`` with plain
text ("MCP error -32602: Input validation error: ..."), not the contract's error body. Such a
refusal is told apart from a broken answer by checking the same arguments against the same
schema here (open point a17).

The schema is the server's, so it is not trusted: a schema that is not an object, names a
``$schema`` this project's jsonschema does not know, is not a valid schema, or cannot be
evaluated (a ``$ref`` out of the document, a bad pattern) is no usable schema, and then no
argument counts as breaking it. Without ``$schema``, the MCP specification's default applies:
JSON Schema 2020-12. ``$ref`` resolves within the document only (an empty registry: nothing is
fetched).

A declared ``pattern`` (or ``patternProperties``) is a regular expression of the server's, and
Python's ``re`` has no time limit: ``(a+)+$`` against forty a's and a "!" runs for hours. A schema
using one is therefore evaluated in a child process (``python -m conformance.targets.mcp_schema``)
whose evaluation is killed after ``EVALUATION_SECONDS`` (an alarm set once its imports are done, so
a slow start on a busy machine does not count); a schema the child cannot evaluate in time decides
nothing, as one that cannot be evaluated at all. Schemas without a pattern (zod's, the usual
case) are evaluated here.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import jsonschema
from jsonschema.validators import validator_for
from referencing import Registry

MESSAGE_CHARS = 200  # of a violation, quoted in a report line
PATTERN_KEYWORDS = ("pattern", "patternProperties")  # the keywords that run the server's regular expressions
EVALUATION_SECONDS = 5  # a child evaluating a schema with a pattern is killed after this long (whole seconds)
START_SECONDS = 60.0  # and its interpreter may take this long to start, on a busy machine


@dataclass(frozen=True)
class DeclaredSchema:
    """A usable validator of ``execute``'s arguments, or why there is none (``absent``); ``isolated``:
    the schema runs the server's regular expressions, so a child process evaluates it."""

    validator: Any = None
    absent: str = ""
    isolated: bool = False

    def violation(self, arguments: Any) -> str | None:
        """How ``arguments`` break the declared schema (where, and the keyword they break), or None when
        they satisfy it, or no usable schema can tell."""
        if self.validator is None:
            return None
        if self.isolated:
            return violation_in_child(self.validator.schema, arguments)
        return first_violation(self.validator, arguments)


def first_violation(validator: Any, arguments: Any) -> str | None:
    try:
        error = jsonschema.exceptions.best_match(validator.iter_errors(arguments))
    except Exception:  # a schema that cannot be evaluated on this value decides nothing
        return None
    if error is None:
        return None
    where = "/".join(str(part) for part in error.absolute_path) or "the top level"
    try:
        rule = json.dumps({error.validator: error.validator_value}, ensure_ascii=False)[1:-1]
    except (TypeError, ValueError):
        rule = str(error.validator)
    return f"at {where[:MESSAGE_CHARS]}, {rule[:MESSAGE_CHARS]}"  # the keyword, not the value: it may be big


def violation_in_child(schema: Any, arguments: Any) -> str | None:
    """``first_violation`` in a child process, killed after EVALUATION_SECONDS (then: None, it decides nothing)."""
    request = json.dumps({"schema": schema, "arguments": arguments, "seconds": EVALUATION_SECONDS}, ensure_ascii=False)
    try:
        done = subprocess.run(
            [sys.executable, "-m", __name__],
            input=request.encode("utf-8"),
            capture_output=True,
            timeout=START_SECONDS + EVALUATION_SECONDS,
            check=False,
        )
        found = json.loads(done.stdout)["violation"] if done.returncode == 0 else None
    except (subprocess.TimeoutExpired, OSError, ValueError, KeyError, TypeError):
        return None
    return found if isinstance(found, str) else None


def uses_patterns(schema: Any) -> bool:
    """Does the schema hold a pattern keyword anywhere (a property merely named so counts too)?"""
    pending = [schema]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            if any(keyword in value for keyword in PATTERN_KEYWORDS):
                return True
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


def no_schema(why: str) -> DeclaredSchema:
    return DeclaredSchema(absent=why)


def declared_schema(schema: Any) -> DeclaredSchema:
    """The validator of a declared ``inputSchema``, or why it cannot be used."""
    if not isinstance(schema, dict):
        return no_schema(f"its inputSchema is {type(schema).__name__}, not an object")
    if "$schema" in schema:
        validator_class = validator_for(schema, default=None)
        if validator_class is None:
            return no_schema(f"its inputSchema's $schema {str(schema['$schema'])[:80]!r} is not one this suite knows")
    else:
        validator_class = jsonschema.Draft202012Validator
    try:
        validator_class.check_schema(schema)
    except jsonschema.SchemaError as exc:
        return no_schema(f"its inputSchema is not a valid JSON Schema: {exc.message[:MESSAGE_CHARS]}")
    except Exception as exc:  # e.g. a RecursionError on a schema nested past the interpreter's limit
        return no_schema(f"its inputSchema could not be read ({type(exc).__name__})")
    return DeclaredSchema(validator_class(schema, registry=Registry()), isolated=uses_patterns(schema))


def execute_schema(tools: Any, tool_name: str) -> DeclaredSchema:
    """The declared schema of ``tool_name`` among the listed tools (the SDK's Tool objects)."""
    found = next((tool for tool in tools if getattr(tool, "name", None) == tool_name), None)
    if found is None:
        return no_schema(f"tools/list does not list {tool_name!r}")
    return declared_schema(getattr(found, "input_schema", None))


def main() -> int:
    """The child: reads {schema, arguments} on stdin, prints {"violation": text or null}."""
    request = json.loads(sys.stdin.buffer.read())
    if hasattr(signal, "alarm"):  # POSIX; elsewhere the parent's time limit alone bounds it
        signal.alarm(max(1, int(request["seconds"])))  # SIGALRM's default action ends the process, inside re too
    declared = declared_schema(request["schema"])
    found = None if declared.validator is None else first_violation(declared.validator, request["arguments"])
    sys.stdout.write(json.dumps({"violation": found}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

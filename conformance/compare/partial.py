"""A partial answer (an implementation's library computes some of the output's fields) judged on those alone.

The answer's fields are validated against their output_schema subschemas (schema.partial_schema_error),
then compared with the same fields of the expected output: the exact ones exactly and the libm floats
within their bound (verdict.compare_output, the full expected output giving the statistics the bound
reads), and each library float for an exact six-decimal value against that exact value
(library_floats). The verdict says what it was judged on: "on score, segment_scores (score_fraction
not expressed)". An answer that expresses no field is not applicable.
"""

from __future__ import annotations

from typing import Any

from conformance.compare.expected import Expected
from conformance.compare.library_floats import compare_library_float, exact_value
from conformance.compare.schema import partial_schema_error
from conformance.model import NOT_APPLICABLE, Expressed, Mismatch, Verdict
from oracle.tool import Tool


def judge_partial(expected: Expected, wanted: dict, result: Any, expressed: Expressed, compare_output) -> Verdict:
    """``compare_output``: the whole-output comparison (verdict.compare_output), applied to the fields present."""
    judged = expressed.judged_on()
    if not expressed.fields:
        return Verdict("skipped", f"{NOT_APPLICABLE}: the library's answer expresses no field of the output")
    tool, payload = expected.tool, expected.case.input
    error = partial_schema_error(tool.contract, result, tuple(expressed.library_floats))
    if error is not None:
        return Verdict("failed", f"{error.message} ({judged})", error)
    first = partial_difference(tool, payload, wanted, result, expressed, compare_output)
    if first is None:
        return Verdict("passed", judged)
    for behaviour in expected.readings[1:]:
        if (
            behaviour.output is not None
            and partial_difference(tool, payload, behaviour.output, result, expressed, compare_output) is None
        ):
            return Verdict(
                "passed", f"{judged}; matches the output under another reading of an open point ({behaviour.reading})"
            )
    return Verdict("failed", f"{first.pointer or 'output'}: {first.message} ({judged})", first)


def partial_difference(
    tool: Tool, payload: Any, expected: dict, actual: dict, expressed: Expressed, compare_output
) -> Mismatch | None:
    """The first telling difference in the expressed fields: an exact field first (a wrong count explains a
    wrong score), then the library floats, in the answer's order."""
    floats = expressed.library_floats
    plain = _without(actual, floats)
    exact = compare_output(tool, payload, projected(_without(expected, floats), plain), plain, statistics=expected)
    if exact is not None:
        return exact
    for pointer_class, scale in floats.items():
        for pointer, value in _values_at(actual, pointer_class):
            found = compare_library_float(pointer, exact_value(tool, payload, expected, pointer), value, scale)
            if found is not None:
                return found
    return None


def projected(expected: Any, actual: Any) -> Any:
    """The expected value restricted to what the answer holds: an object to the answer's keys (a key the
    expected output lacks stays out, for the diff to show), arrays of the same length item by item."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        return {key: projected(value, actual[key]) for key, value in expected.items() if key in actual}
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [projected(e, a) for e, a in zip(expected, actual)]
    return expected


def _without(value: Any, pointer_classes) -> Any:
    """A copy of the value without the parts at those pointer classes."""
    for pointer_class in pointer_classes:
        value = _dropped(value, pointer_class.strip("/").split("/"))
    return value


def _dropped(value: Any, parts: list[str]) -> Any:
    if len(parts) == 1 or (len(parts) == 2 and parts[1] == "*"):  # the field itself (an array of floats: all of it)
        return {k: v for k, v in value.items() if k != parts[0]} if isinstance(value, dict) else value
    if not isinstance(value, dict) or parts[0] not in value:
        return value
    inner = value[parts[0]]
    rest = parts[1:]
    if rest[0] == "*" and isinstance(inner, list):
        inner = [_dropped(item, rest[1:]) for item in inner]
    elif rest[0] != "*":
        inner = _dropped(inner, rest)
    return {**value, parts[0]: inner}


def _values_at(value: Any, pointer_class: str) -> list[tuple[str, Any]]:
    """(concrete pointer, value) of every part of the value at a pointer class ("/segments/*/score")."""
    found = [("", value)]
    for part in pointer_class.strip("/").split("/"):
        step = []
        for pointer, node in found:
            if part == "*" and isinstance(node, list):
                step += [(f"{pointer}/{i}", item) for i, item in enumerate(node)]
            elif isinstance(node, dict) and part in node:
                step.append((f"{pointer}/{part}", node[part]))
        found = step
    return found

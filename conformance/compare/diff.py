"""The exact structural diff of two JSON values, and the one JSON-pointer formatter.

Numbers compare by value (a JSON 1 equals 1.0, open point A11), a boolean is never a number,
strings, arrays and objects exactly; extra or missing keys are differences.
"""

from __future__ import annotations

import json
import math
from collections.abc import Set as AbstractSet
from typing import Any

from conformance.jsonio import json_pointer
from conformance.model import Mismatch


def escape(key: Any) -> str:
    """One reference token of a JSON pointer (RFC 6901)."""
    return json_pointer([key])[1:]


def as_json(value: Any) -> str:
    """A value as JSON text for a message (``null``, ``true``, ``"a"``; never Python's None or True)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):  # NaN and infinities (allowed here), or a non-JSON object
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)


def short(value: Any) -> Any:
    """The value, or the beginning of its JSON text when that is longer than 200 characters."""
    if value is None or isinstance(value, (bool, float)):
        return value
    if isinstance(value, int) and value.bit_length() > 4_000:  # beyond what str() may print
        return f"<integer of {value.bit_length():,} bits>"
    text = as_json(value)
    return value if len(text) <= 200 else text[:197] + "..."


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def delta(expected: float, actual: float) -> float:
    """|expected - actual| as a float; inf for NaN, infinities and integers beyond a double."""
    try:
        found = float(abs(expected - actual))
    except OverflowError:
        return math.inf
    return found if math.isfinite(found) else math.inf


def _same_scalar(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if is_number(expected) and is_number(actual):
        return expected == actual
    return type(expected) is type(actual) and expected == actual


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number" if is_number(value) else type(value).__name__
    )


def first_difference(
    expected: Any, actual: Any, pointer: str = "", skip_top_level: AbstractSet[str] = frozenset()
) -> Mismatch | None:
    """Exact structural comparison: numbers by value (1 == 1.0), never a boolean for a number."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return Mismatch(pointer, short(expected), short(actual), f"expected an object, got {_kind(actual)}")
        for key in expected:
            if key not in actual:
                return Mismatch(f"{pointer}/{escape(key)}", short(expected[key]), None, f"missing key {key!r}")
        for key in actual:
            if key not in expected:
                return Mismatch(f"{pointer}/{escape(key)}", None, short(actual[key]), f"unexpected key {key!r}")
        for key in expected:
            if pointer == "" and key in skip_top_level:
                continue
            found = first_difference(expected[key], actual[key], f"{pointer}/{escape(key)}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return Mismatch(pointer, short(expected), short(actual), f"expected an array, got {_kind(actual)}")
        for index, (e, a) in enumerate(zip(expected, actual)):
            found = first_difference(e, a, f"{pointer}/{index}")
            if found:
                return found
        if len(expected) != len(actual):
            index = min(len(expected), len(actual))
            return Mismatch(
                f"{pointer}/{index}",
                short(expected[index]) if index < len(expected) else None,
                short(actual[index]) if index < len(actual) else None,
                f"expected {len(expected)} items, got {len(actual)}",
            )
        return None
    if _same_scalar(expected, actual):
        return None
    found_delta = delta(expected, actual) if is_number(expected) and is_number(actual) else None
    return Mismatch(
        pointer,
        expected,
        short(actual),
        f"expected {as_json(short(expected))}, got {as_json(short(actual))}",
        delta=found_delta,
        tolerance=0.0 if found_delta is not None else None,
    )

"""Hand-written field checks for the tools whose contracts state a validation order.

No schema validator: each check is read off the contract's "Validation order" sentence and its
input_schema, so the order of the checks is the order of the calls.
"""

from __future__ import annotations

import math
from fractions import Fraction

from independent.errors import Rejection


def invalid(message: str) -> Rejection:
    return Rejection("invalid_input", message)


def over_limit(message: str) -> Rejection:
    return Rejection("limit_exceeded", message)


def check_object(payload, known: tuple[str, ...], required: tuple[str, ...]) -> None:
    """Plain object, then unknown keys, then missing keys."""
    if not isinstance(payload, dict):
        raise invalid("the input must be a JSON object")
    unknown = [key for key in payload if key not in known]
    if unknown:
        raise invalid(f"unknown key {unknown[0]!r}")
    missing = [key for key in required if key not in payload]
    if missing:
        raise invalid(f"missing key {missing[0]!r}")


def is_json_integer(value) -> bool:
    """A number with no fractional part (JSON Schema): 4.0 is 4; true, "4", 4.5 and infinity are not."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value) and value == math.floor(value)


def as_int(value) -> int:
    return value if isinstance(value, int) else int(Fraction(value))


def check_integer(name: str, value, low: int, high: int) -> None:
    if not is_json_integer(value):
        raise invalid(f"{name} must be an integer")
    if not low <= value <= high:
        raise invalid(f"{name} must be between {low} and {high}")


def lone_surrogate_in(text: str) -> bool:
    """A code point U+D800..U+DFFF left in a decoded string is half of no pair."""
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def to_fixed(x: float, digits: int) -> float:
    """Number(x.toFixed(digits)) for finite 0 <= x < 1e21, in integers only.

    x = p/q exactly (q a power of two); toFixed takes the n nearest to x * 10^d, the larger on a
    tie: n = floor((2 p 10^d + q) / 2q). Python's int / int is correctly rounded, as Number() of
    the decimal string is.
    """
    p, q = x.as_integer_ratio()
    scale = 10**digits
    n = (2 * p * scale + q) // (2 * q)
    return n / scale

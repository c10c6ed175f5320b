"""Shared by the mutants that model JavaScript's data model: not a mutant itself."""

# The names every plain object `{}` inherits from Object.prototype (`name in {}` is true).
OBJECT_PROTOTYPE_NAMES = frozenset(
    (
        "constructor",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "toLocaleString",
        "toString",
        "valueOf",
        "__defineGetter__",
        "__defineSetter__",
        "__lookupGetter__",
        "__lookupSetter__",
        "__proto__",
    )
)


def is_array_index(key: str) -> bool:
    """A canonical array index ("0" .. "4294967294"): an object enumerates these first, ascending."""
    return key.isascii() and key.isdigit() and (key == "0" or not key.startswith("0")) and int(key) < 2**32 - 1


def object_key_order(keys: list[str]) -> list[str]:
    """The order Object.keys gives for own keys inserted in ``keys``' order (ECMA-262 OrdinaryOwnPropertyKeys)."""
    indices = sorted((k for k in keys if is_array_index(k)), key=int)
    return indices + [k for k in keys if not is_array_index(k)]


def int16(value: int) -> int:
    """The value an Int16Array element holds after storing ``value``: wraps at 2^15."""
    return (value + 2**15) % 2**16 - 2**15


def to_precision(value: float, digits: int) -> float:
    """Number(value.toPrecision(digits)): ``digits`` significant digits, not digits after the point."""
    return float(f"{value:.{digits}g}")

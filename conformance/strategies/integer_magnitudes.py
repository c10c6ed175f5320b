"""Integers far past their bounds, for every integer field of every tool.

An implementation that reads an integer into a fixed-width type (int32, uint32, int64) or a double
before checking its range may narrow a huge value back into range: 2^32 + 4 wraps to 4 in 32 bits,
2^64 + 4 to 4 in 64 bits, 2^53 + 1 becomes 2^53 as a double, whose low 32 bits are 0. It then
answers an input the contract rejects. ``invalid/integer-magnitudes`` sends every integer field of a
tool (read from its input_schema: top-level properties and array items, so a new contract gets them
too) one value from MAGNITUDES that lies past the field's schema bounds, in one of the contract's
own example inputs, which are otherwise valid: exactly one rule is broken per case.

The expected code is the one of the same field just past the same bound (maximum + 1, minimum - 1),
as the oracle gives it: a value far past a bound breaks the rule one just past it breaks (the
brevity penalty's lengths name max_length, so limit_exceeded; every other field invalid_input).
Where an open point lets that input's code differ (A6: a schema rule mirroring a named limit),
any rejection passes. The request body carries each integer's exact digits (2^53 + 1 is no
double). No value here is written with a fraction or overflows a double: 4.0 is A9's (the
boundary families write integral floats where a draft decides it), 1e400 is A15's.

Each (magnitude, field) pair is one example, magnitude drawn first, the base input and the array
item chosen from the pair, so the space is small: the default profile's 40 invalid examples draw
every pair of a tool with up to three integer fields; the quick profile's 6 draw 6 distinct pairs.
"""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from conformance import open_points
from conformance.model import Expectation
from conformance.strategies.base import (
    ANY_ERROR,
    Family,
    GeneratedCase,
    aimed,
    case,
    composite,
    input_schema,
    sampled_by_index,
)
from oracle.contracts import contract
from oracle.errors import ContractError
from oracle.registry import tool

NAME = "invalid/integer-magnitudes"
ITEM = 0  # a path step into an array's items (a property name is a str)
K = 4  # the small k of 2^32 + k and 2^64 + k, clamped into the field's range: wrapping lands on it

TOP_LEVEL, ARRAY_ITEM = "a top-level integer field", "an item of an integer array"


@dataclass(frozen=True)
class Magnitude:
    aim: str  # the magnitude class
    label: str  # how the value is written in words
    offset: int  # the value is offset + k (k = 0 unless the class adds one)
    adds_k: bool = False

    def value(self, k: int) -> int:
        return self.offset + (k if self.adds_k else 0)


MAGNITUDES = (
    Magnitude("2^31-1", "2^31 - 1", 2**31 - 1),
    Magnitude("2^31", "2^31", 2**31),
    Magnitude("2^32", "2^32", 2**32),
    Magnitude("2^32+k wraps into range", "2^32 + {k}", 2**32, adds_k=True),
    Magnitude("2^53", "2^53", 2**53),
    Magnitude("2^53+1", "2^53 + 1", 2**53 + 1),
    Magnitude("2^63-1", "2^63 - 1", 2**63 - 1),
    Magnitude("2^63", "2^63", 2**63),
    Magnitude("2^64+k", "2^64 + {k}", 2**64, adds_k=True),
    Magnitude("large negative", "-2^31", -(2**31)),
    Magnitude("large negative", "-2^32 + {k}", -(2**32), adds_k=True),
    Magnitude("large negative", "-2^53 - 1", -(2**53) - 1),
    Magnitude("large negative", "-2^63", -(2**63)),
)


@dataclass(frozen=True)
class Field:
    """An integer the input schema types, at ``path`` (property names, ITEM for an array's items)."""

    path: tuple[str | int, ...]
    low: int | None
    high: int | None

    @property
    def range(self) -> str:
        return f"{'-inf' if self.low is None else self.low}..{'inf' if self.high is None else self.high}"

    @property
    def kind(self) -> str:
        return ARRAY_ITEM if ITEM in self.path else TOP_LEVEL

    def within(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def k(self) -> int | None:
        """The small k that 2^32 + k and 2^64 + k wrap to: K, or the nearest value >= 1 in range."""
        low, high = max(self.low if self.low is not None else 1, 1), self.high if self.high is not None else K
        k = min(max(K, low), high)
        return k if k >= low and self.within(k) else None


def _is_integer(schema: dict) -> bool:
    kind = schema.get("type")
    return kind == "integer" or (isinstance(kind, list) and "integer" in kind)


def _number(schema: dict, key: str) -> float | None:
    value = schema.get(key)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _bounds(schema: dict) -> tuple[int | None, int | None]:
    """The least and the greatest integer the schema's minimum/maximum (or exclusive ones) allow."""
    low = high = None
    if (value := _number(schema, "minimum")) is not None:
        low = math.ceil(value)
    elif (value := _number(schema, "exclusiveMinimum")) is not None:
        low = math.floor(value) + 1
    if (value := _number(schema, "maximum")) is not None:
        high = math.floor(value)
    elif (value := _number(schema, "exclusiveMaximum")) is not None:
        high = math.ceil(value) - 1
    return low, high


def integer_fields(schema: dict, path: tuple[str | int, ...] = ()) -> Iterator[Field]:
    """Every integer of the schema: its properties and array items, walked down."""
    if not isinstance(schema, dict):
        return
    if _is_integer(schema):
        yield Field(path, *_bounds(schema))
    for name, prop in schema.get("properties", {}).items():
        yield from integer_fields(prop, (*path, name))
    if isinstance(schema.get("items"), dict):
        yield from integer_fields(schema["items"], (*path, ITEM))


def _containers(payload: Any, path: tuple[str | int, ...], pick: int) -> tuple[Any, Any, tuple] | None:
    """(the object or list holding the field, its key or index, the concrete path); None when the
    payload has no array item there (an absent array, an empty one). A missing property is added."""
    holder: Any = payload
    concrete: list[str | int] = []
    for depth, step in enumerate(path):
        last = depth == len(path) - 1
        if step == ITEM:
            if not isinstance(holder, list) or not holder:
                return None
            index = (pick + depth) % len(holder)
            if last:
                return holder, index, (*concrete, index)
            holder, concrete = holder[index], [*concrete, index]
        else:
            if not isinstance(holder, dict):
                return None
            if last:
                return holder, step, (*concrete, step)
            if step not in holder:
                return None
            holder, concrete = holder[step], [*concrete, step]
    return None


def _written(path: tuple) -> str:
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


def _wrapped(value: int, bits: int) -> int:
    """The value a signed ``bits``-bit integer holds after storing ``value`` (two's complement)."""
    half = 2 ** (bits - 1)
    return (value + half) % (2 * half) - half


def _narrowings(field: Field, value: int) -> str:
    """What the common narrowings make of ``value``, and whether that lands in the field's range."""

    def landing(narrowed: int) -> str:
        return f"{narrowed}, {'inside' if field.within(narrowed) else 'still outside'} the range {field.range}"

    notes = []
    as_double = int(float(value))
    if as_double != value:
        notes.append(f"no double holds it (a double rounds it to {as_double})")
    int32, int64 = _wrapped(value, 32), _wrapped(value, 64)
    if int32 == value:
        notes.append("it fits a signed 32-bit integer")
    elif int64 in (value, int32):
        notes.append(f"a 32-bit integer wraps it to {landing(int32)}")
    else:
        notes.append(f"a 32-bit integer wraps it to {landing(int32)}, a 64-bit one to {landing(int64)}")
    return "; ".join(notes)


@functools.cache
def _bases(tool_id: str, version: str) -> tuple[dict, ...]:
    """The contract's own example inputs the oracle answers: certainly valid."""
    found = []
    for example in contract(tool_id, version).document().get("examples", []):
        payload = example.get("input")
        if not isinstance(payload, dict):
            continue
        try:
            tool(tool_id, version).execute(copy.deepcopy(payload))
        except ContractError:
            continue
        found.append(payload)
    return tuple(found)


def _side(field: Field, value: int) -> int:
    """1 past the maximum, -1 past the minimum."""
    return 1 if field.high is not None and value > field.high else -1


def _just_past(field: Field, value: int) -> int:
    bound = field.high if _side(field, value) > 0 else field.low
    assert bound is not None
    return bound + _side(field, value)


def _expectation(tool_id: str, version: str, payload: dict) -> Expectation:
    """The oracle's code for ``payload``, or any rejection where an open point leaves the code open (A6)."""
    subject = tool(tool_id, version)
    try:
        subject.execute(copy.deepcopy(payload))
    except ContractError as error:
        if len(open_points.acceptable_error_codes(subject, payload) | {error.code}) > 1:
            return ANY_ERROR
        return Expectation("error", error.code)
    raise ValueError(f"{tool_id}@{version}: the oracle answers {payload!r}, which is past a schema bound")


def _placed(base: dict, field: Field, value: int, pick: int) -> tuple[dict, tuple] | None:
    """A copy of ``base`` with ``value`` at the field (an array item chosen by ``pick``), and the concrete path."""
    payload = copy.deepcopy(base)
    found = _containers(payload, field.path, pick)
    if found is None:
        return None
    holder, key, concrete = found
    holder[key] = value
    return payload, concrete


@dataclass(frozen=True)
class Planned:
    """One example: a magnitude at a field it lies past, in a base input, expecting what one just past does."""

    magnitude: Magnitude
    field: Field
    value: int
    base: dict
    pick: int
    expect: Expectation

    def built(self) -> GeneratedCase:
        placed = _placed(self.base, self.field, self.value, self.pick)
        assert placed is not None  # the base was chosen for having the field
        payload, concrete = placed
        side = _side(self.field, self.value)
        bound = f"maximum {self.field.high}" if side > 0 else f"minimum {self.field.low}"
        label = self.magnitude.label.format(k=self.value - self.magnitude.offset)
        code = "any rejection" if self.expect.error_code == "any" else self.expect.error_code
        return case(
            payload,
            self.expect,
            f"{_written(concrete)} {self.value} = {label}, past the {bound}; {_narrowings(self.field, self.value)}: "
            f"must be rejected ({code}, as {_just_past(self.field, self.value)} is)",
        )


@functools.cache
def _plan(tool_id: str, version: str) -> tuple[tuple[Planned, ...], ...]:
    """Per magnitude (those past some field's bounds), one example per field it lies past."""
    bases = _bases(tool_id, version)
    usable = {
        field: [b for b in bases if _placed(b, field, 0, 0)] for field in integer_fields(input_schema(tool_id, version))
    }
    expectations: dict[tuple[Field, int], Expectation] = {}
    for field, found in usable.items():
        for bound, side in ((field.high, 1), (field.low, -1)):
            if found and bound is not None:
                placed = _placed(found[0], field, bound + side, 0)
                assert placed is not None
                expectations[(field, side)] = _expectation(tool_id, version, placed[0])
    plan = []
    for m, magnitude in enumerate(MAGNITUDES):
        planned: list[Planned] = []
        for field, found in usable.items():
            k = field.k() if magnitude.adds_k else 0
            if not found or k is None or field.within(magnitude.value(k)):
                continue
            value = magnitude.value(k)
            base = found[(m + len(planned)) % len(found)]  # the bases and the array items vary across examples
            planned.append(Planned(magnitude, field, value, base, m, expectations[(field, _side(field, value))]))
        if planned:
            plan.append(tuple(planned))
    return tuple(plan)


def integer_magnitudes(tool_id: str, version: str) -> Family | None:
    plan = _plan(tool_id, version)
    if not plan:
        return None

    @composite
    def build(draw):
        at_magnitude = plan[draw(sampled_by_index(tuple(range(len(plan)))))]  # the magnitude first
        planned = at_magnitude[draw(sampled_by_index(tuple(range(len(at_magnitude)))))]
        aimed(planned.magnitude.aim)
        aimed(planned.field.kind)
        return planned.built()

    every = [planned for at_magnitude in plan for planned in at_magnitude]
    return Family(
        NAME,
        "invalid",
        build(),
        "every integer field far past its bounds: 2^31 - 1 to 2^64 + k and large negatives "
        "(an int32, uint32, int64 or double would narrow them, some into range)",
        aims=tuple(dict.fromkeys([p.magnitude.aim for p in every] + [p.field.kind for p in every])),
    )


def families(tool_id: str, version: str) -> list[Family]:
    family = integer_magnitudes(tool_id, version)
    return [family] if family is not None else []

"""Strict JSON in and out, shared by `exec`, the server and the targets.

Input JSON that a JavaScript service could not take at face value is rejected
as ``invalid_input`` rather than guessed at: invalid UTF-8, the non-JSON
literals NaN/Infinity, numbers that overflow a double (1e400), duplicate keys
(whose meaning differs between parsers), and nesting too deep to walk.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Iterable
from typing import Any

from oracle.errors import INVALID_INPUT, ContractError

MAX_NESTING = 64  # far deeper than any contract's input (3 levels) needs


def _reject_constant(name: str) -> Any:
    raise ContractError(INVALID_INPUT, f"input: {name} is not JSON")


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ContractError(INVALID_INPUT, f"input: the number {text[:40]} does not fit a double")
    return value


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    result: dict = {}
    for key, value in pairs:
        if key in result:
            raise ContractError(INVALID_INPUT, f"{key[:60]}: duplicate key in a JSON object")
        result[key] = value
    return result


# A JSON string as the depth check reads it: from a quote to the next unescaped quote, or to the
# end of the text when it is never closed (then nothing after it counts as a bracket).
_STRING = re.compile(r'"(?:[^"\\]+|\\.)*(?:"|\\?\Z)', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1, ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_ALL_BUT_BRACKETS_AND_QUOTES = bytes(set(range(256)) - set(b'[]{}"'))


def _nesting_depth_ok(text: str) -> bool:
    """No bracket outside a string opens deeper than MAX_NESTING levels.

    Done with C-speed string operations, not a loop over every character: a strict parse of a
    megabyte input or answer would otherwise spend most of its time here. Fewer openers than the
    limit cannot nest deeper than it; otherwise the strings are cut out, the brackets kept, and
    the running depth summed (closers that were never opened count down, as a plain walk does)."""
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return True
    return (
        max(itertools.accumulate(map(_DEPTH_STEP.__getitem__, _brackets_outside_strings(text))), default=0)
        <= MAX_NESTING
    )


def _brackets_outside_strings(text: str) -> bytes | str:
    """The brackets of the text that are not inside a string, in order.

    Without a backslash a string runs from one quote to the next, so only brackets and quotes
    matter: every other byte is dropped (UTF-8 never puts an ASCII byte inside a multi-byte
    character), then adjacent quotes (empty strings, or one string's end and the next one's
    start: either way nothing between them, and every later quote keeps its parity), and what
    lies between the first and second quote, the third and fourth, ... is inside a string. With
    backslashes, whose escapes reach characters dropped that way, the strings are cut out of
    the text itself."""
    if "\\" in text:
        return _NOT_A_BRACKET.sub("", _STRING.sub("", text))
    kept = text.encode("utf-8", "surrogatepass").translate(None, _ALL_BUT_BRACKETS_AND_QUOTES)
    return b"".join(kept.replace(b'""', b"").split(b'"')[::2])


def parse_json(data: bytes | str) -> Any:
    """Parse one JSON document strictly; every failure is a ContractError(invalid_input)."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ContractError(INVALID_INPUT, f"input: not valid UTF-8 at byte {exc.start}") from None
    else:
        text = data
    if text.startswith("\ufeff"):
        text = text[1:]
    if not _nesting_depth_ok(text):
        raise ContractError(INVALID_INPUT, f"input: JSON nested deeper than {MAX_NESTING} levels")
    try:
        return json.loads(
            text,
            parse_constant=_reject_constant,
            parse_float=_parse_float,
            object_pairs_hook=_no_duplicates,
        )
    except json.JSONDecodeError as exc:
        raise ContractError(
            INVALID_INPUT, f"input: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    except ValueError as exc:  # e.g. an integer literal longer than Python converts
        raise ContractError(INVALID_INPUT, f"input: unreadable JSON number ({str(exc)[:80]})") from None
    except RecursionError:
        raise ContractError(INVALID_INPUT, "input: JSON nested too deeply") from None


def dump_json(value: Any, *, pretty: bool = False) -> str:
    """Serialise output as JSON.stringify would (compact, non-ASCII kept), or indented for people."""
    if pretty:
        return json.dumps(value, ensure_ascii=False, indent=2)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def encode_request(payload: Any) -> bytes:
    """A request body as UTF-8 JSON; strings holding lone surrogates (invalid-input cases) go as \\u escapes."""
    try:
        return dump_json(payload).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(payload, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def json_pointer(parts: Iterable[Any]) -> str:
    """An RFC 6901 JSON pointer of a path ("" is the whole document): the project's one pointer formatter."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)

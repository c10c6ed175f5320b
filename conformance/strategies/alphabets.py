"""Shared Unicode alphabets for the generated cases.

The chrF++ whitespace set is read from the contract's own sentence, not copied
from the oracle, so a generator and an oracle cannot share one typo. The
lowercase-safe alphabet holds the code points whose lowercase mapping and casing
context are the same in every Unicode version a runtime may use (open point A5).
"""

from __future__ import annotations

import functools
import json
import re
import string
import unicodedata
from pathlib import Path

import oracle
from conformance.strategies.base import semantics

# "the 32 ASCII punctuation characters !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~" -- Python's
# string.punctuation is exactly that set (tests/test_strategies.py checks it against the contract).
ASCII_PUNCTUATION = string.punctuation

# Punctuation the contract does not split (its unsupported_operations name U+3002 and U+00BF).
NON_ASCII_PUNCTUATION = ("\u3002", "\u00bf", "\u00a1", "\u2026", "\u00ab", "\u00bb", "\u201c", "\u201d", "\uff0c")

# Format characters that look like spaces or vanish, but are NOT in the contract's whitespace list.
WHITESPACE_NEAR_MISSES = ("\u200b", "\ufeff", "\u180e", "\u00ad", "\u2060")

COMBINING_MARKS = tuple(chr(cp) for cp in range(0x0300, 0x036F + 1))

# Astral (outside the BMP) characters: one code point, two UTF-16 code units, four UTF-8 bytes.
ASTRAL_CHARACTERS = ("\U0001d4b3", "\U0001f600", "\U00010400", "\U00010428", "\U00020000", "\U0001f44d", "\U00010348")

# One character of each UTF-8 width, for byte-limit boundaries.
CHARACTER_OF_WIDTH = {1: "a", 2: "\u00e9", 3: "\u20ac", 4: "\U0001f600"}

_CODE_POINT = re.compile(r"U\+([0-9A-Fa-f]{4,6})(?:\s*-\s*U\+([0-9A-Fa-f]{4,6}))?")


@functools.cache
def contract_whitespace(tool_id: str, version: str) -> tuple[str, ...]:
    """The code points of the contract sentence "every whitespace code point removed: U+0009-U+000D, ..."."""
    sentence = next(line for line in semantics(tool_id, version) if "whitespace code point" in line)
    listed = sentence[sentence.index(":") :]
    code_points: list[int] = []
    for match in _CODE_POINT.finditer(listed):
        first = int(match.group(1), 16)
        last = int(match.group(2), 16) if match.group(2) else first
        code_points.extend(range(first, last + 1))
    return tuple(map(chr, code_points))


def whitespace_neighbours(whitespace: tuple[str, ...]) -> tuple[str, ...]:
    """The code points one below or one above a code point of the contract's whitespace list and not
    on it (U+0008, U+000E, U+001B, U+0021, U+0084, U+0086, ..., U+1FFF, U+200B, ..., U+3001): the
    contract removes "exactly" its list, so each of these is a character, kept like any other. A
    range read one too wide (U+0009-U+000E, U+001B-U+001F, U+1FFF-U+200A) removes one of them."""
    listed = {ord(ch) for ch in whitespace}
    return tuple(chr(cp) for cp in sorted({cp + step for cp in listed for step in (-1, 1)} - listed))


# --- lowercase (open point A5) ------------------------------------------------

_STABLE_BLOCKS = (
    (0x0020, 0x007E),  # printable ASCII
    (0x00A0, 0x00FF),  # Latin-1 Supplement
    (0x0100, 0x017F),  # Latin Extended-A (U+0130 is in it)
    (0x0300, 0x036F),  # combining diacritical marks
    (0x0370, 0x03FF),  # Greek (assigned code points only)
    (0x0400, 0x04FF),  # Cyrillic
    (0x10400, 0x1044F),  # Deseret: astral letters with case
)
# ASCII and Latin-1 whitespace of the contract's list, usable with lowercase=true as well.
_STABLE_CONTROLS = (0x0009, 0x000A, 0x000B, 0x000C, 0x000D, 0x001C, 0x001D, 0x001E, 0x001F, 0x0085)

LOWERCASE_DIFFERENCES_FILE = Path(oracle.__file__).resolve().parent / "data" / "lowercase_unicode_differences.json"


def _code_point(text: str) -> int:
    return int(text.removeprefix("U+"), 16)


@functools.cache
def lowercase_unstable_code_points() -> frozenset[int]:
    """Code points whose toLowerCase (or the Final_Sigma context they give) differs between the
    oracle's Unicode version and a JavaScript runtime's, and those assigned only in the latter:
    the oracle's data file ``code_points`` and ``assigned_in_javascript_only`` ranges."""
    if not LOWERCASE_DIFFERENCES_FILE.is_file():
        return frozenset()
    table = json.loads(LOWERCASE_DIFFERENCES_FILE.read_text(encoding="utf-8"))
    unstable = {_code_point(text) for text in table.get("code_points", [])}
    for first, last in table.get("assigned_in_javascript_only", []):
        unstable.update(range(_code_point(first), _code_point(last) + 1))
    return frozenset(unstable)


@functools.cache
def lowercase_safe_alphabet() -> str:
    """Assigned code points of the stable blocks, minus every listed difference, in code point order."""
    unstable = lowercase_unstable_code_points()
    code_points = list(_STABLE_CONTROLS)
    for first, last in _STABLE_BLOCKS:
        code_points.extend(range(first, last + 1))
    return "".join(
        chr(cp) for cp in code_points if cp not in unstable and unicodedata.category(chr(cp)) not in ("Cn", "Cs", "Co")
    )


@functools.cache
def _lowercase_safe_set() -> frozenset[str]:
    return frozenset(lowercase_safe_alphabet())


# Code points no Unicode version gives a case mapping: controls (Cc), the line and paragraph separators
# (Zl, Zp), private use (Co) and noncharacters. toLowerCase maps each to itself in every runtime, so
# they may be sent with lowercase=true though the alphabet above does not draw them.
_CASELESS_CATEGORIES = ("Cc", "Zl", "Zp", "Co")


def is_noncharacter(cp: int) -> bool:
    return 0xFDD0 <= cp <= 0xFDEF or cp & 0xFFFE == 0xFFFE


@functools.cache
def always_lowercases_to_itself(ch: str) -> bool:
    cp = ord(ch)
    return unicodedata.category(ch) in _CASELESS_CATEGORIES or is_noncharacter(cp)


def lowercase_safe(*texts: str) -> bool:
    """True when every code point of the texts may be sent with lowercase=true."""
    safe = _lowercase_safe_set()
    return all(ch in safe or always_lowercases_to_itself(ch) for text in texts for ch in text)

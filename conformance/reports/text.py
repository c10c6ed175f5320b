"""Text every report format shows a person: visible strings, values within a budget, cuts.

Renders single strings and JSON values (from report.json documents) as plain text; each
format (markdown.py, html.py, junit.py, console.py) escapes this text for itself on top.

Everything a target sent back is untrusted: it can be huge, contain markup, control
characters, lone surrogates or look-alike whitespace. So every string shown to a person
goes through ``visible()`` (whitespace and invisible code points become glyphs or
``⟨U+XXXX⟩``; lone surrogates can then be written as UTF-8), every value is rendered by
``render_value()`` within a size budget, and every cut goes through ``truncate()``, which
says what was cut.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterator
from typing import Any

# Size budgets (characters of rendered text) for the human reports; report.json keeps everything.
VALUE_LIMIT = 400  # a value at the first difference, shown inline
INPUT_INLINE_LIMIT = 2_000  # beyond this the input is referred to by its reproducer file
BLOCK_LIMIT = 6_000  # any code block (input excerpt, raw response)
LINE_LIMIT = 500  # one line of a one-line message (a JUnit message, a console line)
DIFF_MAX_LINES = 400  # pretty-printed outputs longer than this get no whole-output diff
MAX_DETAILED_FAILURES = 200  # sections per report; the rest are listed by id only
MAX_LISTED = 500  # rows of the known-failure and skipped lists
MAX_DEPTH = 100  # JSON nesting kept in report.json (a python: target can return anything)
STRING_CAP = 100_000  # characters of one string made visible before the budgets above cut it

# ---------------------------------------------------------------- code points

_GLYPHS = {" ": "␣", "\t": "⇥", "\n": "↵"}
# Literal glyphs are escaped too, so that the rendering stays one-to-one.
_SELF_ESCAPED = frozenset("␣⇥↵⟨")
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})
_MARK_CATEGORIES = frozenset({"Mn", "Me", "Mc"})
# Default-ignorable code points outside the categories above (fillers, variation selectors).
_IGNORABLE = frozenset(
    chr(value)
    for low, high in (
        (0x034F, 0x034F),
        (0x115F, 0x1160),
        (0x17B4, 0x17B5),
        (0x180B, 0x180F),
        (0x3164, 0x3164),
        (0xFE00, 0xFE0F),
        (0xFFA0, 0xFFA0),
        (0xE0100, 0xE01EF),
    )
    for value in range(low, high + 1)
)
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def code_point(ch: str) -> str:
    return f"⟨U+{ord(ch):04X}⟩"


def visible(text: str, *, spaces: bool = True) -> str:
    """Show what a string really holds: ``a b`` -> ``a␣b``, tab ``⇥``, newline ``↵``, and
    ``⟨U+00A0⟩`` for every other whitespace, control, format, private-use, unassigned or
    lone-surrogate code point. ``spaces=False`` keeps U+0020 as is (for prose).

    Combining marks are shown as code points unless the string is in NFC and the mark sits
    on a visible base character: then an NFC/NFD difference (which these contracts never
    normalize away) is visible, while ordinary accented or Indic text stays readable.
    """
    if text.isascii() and text.isprintable():  # the common case: only the space needs a glyph
        return text.replace(" ", "␣") if spaces else text
    try:
        nfc = unicodedata.is_normalized("NFC", text)
    except (UnicodeError, ValueError):  # lone surrogates
        nfc = False
    out: list[str] = []
    previous_shown = False  # was the previous code point shown as itself (a base a mark can sit on)?
    for ch in text:
        if ch == " ":
            out.append(" " if not spaces else "␣")
            previous_shown = False
            continue
        if ch in _GLYPHS:
            out.append(_GLYPHS[ch])
            previous_shown = False
            continue
        category = unicodedata.category(ch)
        if ch in _SELF_ESCAPED or category in _INVISIBLE_CATEGORIES or ch in _IGNORABLE:
            out.append(code_point(ch))
            previous_shown = False
        elif category in _MARK_CATEGORIES and not (nfc and previous_shown):
            out.append(code_point(ch))
        else:
            out.append(ch)
            previous_shown = True
    return "".join(out)


def counted(count: int, word: str) -> str:
    """``1 failure``, ``2 failures``, ``0 failures``: a count and its noun, plural unless one."""
    return f"{count} {word}" + ("" if count == 1 else "s")


def prose(text: Any) -> str:
    """A sentence or a name for a person to read: visible code points, ordinary spaces."""
    return visible(str(text), spaces=False)


def visible_lines(text: str) -> str:
    """Multi-line untrusted text (a raw response): each line made visible, spaces kept."""
    return "\n".join(visible(line, spaces=False) for line in text.split("\n"))


# In a command line only these are shown as code points: they cannot be pasted into a terminal
# (controls, line separators) or written at all (lone surrogates).
_UNPASTEABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def command_text(command: str) -> tuple[str, str]:
    """(a command exactly as it must be pasted, or with ⟨U+XXXX⟩ where it cannot be; a note then).

    Other invisible characters (a no-break space in a chrF input, say) stay as they are, so the
    command still runs, with a note naming them: copying from a page can change them.
    """
    shown = _UNPASTEABLE.sub(lambda match: code_point(match.group()), command)
    if shown != command:
        return shown, "holds characters a terminal cannot take, shown as ⟨U+XXXX⟩: use the replay command instead"
    invisible = sorted({ch for ch in command if ch != " " and visible(ch, spaces=False) != ch})
    if invisible:
        named = ", ".join(f"U+{ord(ch):04X}" for ch in invisible[:5]) + (", …" if len(invisible) > 5 else "")
        return command, f"holds invisible or combining characters ({named}) that copying may change: replay is exact"
    return command, ""


# ---------------------------------------------------------------- cutting


def truncate(text: str, limit: int, *, more: bool = False) -> tuple[str, str]:
    """(text cut to ``limit`` characters, a note saying what was cut or "").

    ``more``: the text is itself only the beginning of a longer value (the count of what was
    cut is then unknown, and the note does not give one).
    """
    if len(text) <= limit and not more:
        return text, ""
    cut = "" if more else f": {len(text) - limit:,} more characters"
    return text[:limit] + " …", f"truncated{cut}; the full value is in report.json"


def one_line(text: str, limit: int = LINE_LIMIT) -> str:
    """Text on one line (line breaks become spaces), cut to ``limit`` characters."""
    return truncate(" ".join(text.split("\n")), limit)[0]


# ---------------------------------------------------------------- values


def json_scalar(value: Any) -> str:
    """JSON text of a number, boolean or null; non-finite numbers as NaN / Infinity / -Infinity."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    try:
        return json.dumps(value)
    except ValueError:  # an integer too long for str()
        return f"<integer of {value.bit_length():,} bits>"


def _visible_string(text: str) -> str:
    """A JSON string of ``text`` made visible."""
    return json.dumps(visible(text), ensure_ascii=False)


def _value_pieces(value: Any, indent: int | None, level: int, string=_visible_string) -> Iterator[str]:
    """JSON text of ``value`` in pieces, strings made visible (or as ``string`` writes them); lazy so
    a budget can stop it early."""
    if level > MAX_DEPTH:
        yield f"<nested deeper than {MAX_DEPTH} levels>"
    elif isinstance(value, str):
        # Every budget is far below STRING_CAP, so a string cut here is always reported as truncated.
        yield string(value[:STRING_CAP])
    elif value is None or isinstance(value, (bool, int, float)):
        yield json_scalar(value)
    elif isinstance(value, (list, tuple)) and indent and _is_short_flat(value):
        yield "[" + ", ".join(next(_value_pieces(item, None, level + 1, string)) for item in value) + "]"
    elif isinstance(value, (list, tuple, dict)):
        is_object = isinstance(value, dict)
        opening, closing = ("{", "}") if is_object else ("[", "]")
        if not value:
            yield opening + closing
            return
        inner = "\n" + " " * (indent * (level + 1)) if indent else ""
        yield opening
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for position, (key, item) in enumerate(items):
            yield ("," if position else "") + inner
            if is_object:
                yield string(str(key)) + (": " if indent else ":")
            yield from _value_pieces(item, indent, level + 1, string)
        yield ("\n" + " " * (indent * level) if indent else "") + closing
    else:
        yield string(repr(value))


def _is_short_flat(items: list | tuple) -> bool:
    """A short list of scalars (counts, tokens) stays on one line even when indenting."""
    if len(items) > 16 or not all(item is None or isinstance(item, (str, bool, int, float)) for item in items):
        return False
    return sum(len(item) if isinstance(item, str) else 8 for item in items) <= 80


def render_value(
    value: Any, limit: int = VALUE_LIMIT, *, indent: int | None = None, string=_visible_string
) -> tuple[str, str]:
    """(JSON-like text with visible strings, truncation note or ""), at most ``limit`` characters."""
    pieces: list[str] = []
    size = 0
    for piece in _value_pieces(value, indent, 0, string):
        pieces.append(piece)
        size += len(piece)
        if size > limit:
            return truncate("".join(pieces), limit, more=True)
    return "".join(pieces), ""


# ---------------------------------------------------------------- escaped: every code point told apart

ESCAPED_NOTE = "every character outside printable ASCII written as \\uXXXX, or \\u{XXXXX} beyond U+FFFF"


def _escaped_char(ch: str) -> str:
    point = ord(ch)
    if ch in '"\\':
        return "\\" + ch
    if 0x20 <= point < 0x7F:
        return ch
    return f"\\u{{{point:X}}}" if point > 0xFFFF else f"\\u{point:04X}"


def escaped_string(text: str) -> str:
    """A JSON-like string where every character outside printable ASCII is its code point:
    ``"\\u{1F600}"`` (beyond the BMP), ``"\\u0000"``, ``"a\\u00A0b"`` (within it). Pure ASCII."""
    return '"' + "".join(map(_escaped_char, text)) + '"'


def holds_unusual(value: Any, depth: int = 0) -> bool:
    """Does a string in ``value`` (a key too) hold a character outside printable ASCII: a control,
    U+0000, a zero-width or bidi control, a combining mark, an emoji, any non-ASCII letter?"""
    if depth > MAX_DEPTH:
        return False
    if isinstance(value, str):
        return not (value.isascii() and value.isprintable())
    if isinstance(value, dict):
        return any(holds_unusual(key, depth + 1) or holds_unusual(item, depth + 1) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return any(holds_unusual(item, depth + 1) for item in value)
    return False


def render_escaped(value: Any, limit: int = VALUE_LIMIT) -> tuple[str, str]:
    """(``value`` as compact JSON-like text, strings escaped by escaped_string; truncation note or "")."""
    return render_value(value, limit, string=escaped_string)

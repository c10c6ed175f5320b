"""Wire forms: the serialisations of one request body that every correct server reads alike.

RFC 8259 gives one JSON value many texts. A server that parses its body with a real JSON parser
answers them all the same; one that matches bytes, splits lines, assumes compact separators, reads
``\\u`` escapes as text, takes a surrogate pair for two characters, or sizes its body limit for raw
UTF-8 answers some of them wrongly. Each generated case is therefore sent in a form drawn with it
(``forms``, part of the Hypothesis example, so it shrinks towards the compact form and a seed fixes
it), by every target that carries bytes (``Target.wire_forms``):

    layout            compact; spaced (a space before and after every ':' and ','); pretty (newlines,
                      LF or CRLF, and an indentation of one space, two, four or a tab)
    ascii_only        every non-ASCII character as a \\u escape, an astral one as an escaped
                      surrogate pair ("\\ud83c\\udf55"); ``upper_hex`` writes the hex digits upper-case
    long_escapes      control characters as \\u00XX, never the short \\n \\t \\r \\b \\f
    escaped_solidus   every '/' as '\\/'
    escaped_letters   the first ASCII letter of every key and string as \\u00XX ("\\u0068ypotheses")
    key_order         0: the keys in the order the case was built; else the seed of a permutation of
                      every object's keys
    fresh_connection  over HTTP, ``Connection: close``: the request opens a connection of its own,
                      where the others share kept-alive ones

Never a byte-order mark, never invalid UTF-8, never a duplicate key (open point A15): every form
is the same value, so no open point is involved and nothing new is asserted. A form that would
make the body larger than the largest compact body a valid input of the tool can produce
(``strategies/wire_sizes.py``) falls back to compact (``fitting``): a server may size its body
limit for what valid inputs need, and the suite never sends more than that. The one-line forms
(``one_line``) are those a ``jsonl:`` request line can carry.
"""

from __future__ import annotations

import functools
import json
import random
import re
import threading
from dataclasses import asdict, dataclass, replace
from typing import Any

from hypothesis import strategies as st

from conformance.jsonio import encode_request

LAYOUTS = ("compact", "spaced", "pretty")
INDENTS = ("  ", "    ", "\t", " ")
NEWLINES = ("\n", "\r\n")
ANY, ONE_LINE, NONE = "any", "one-line", ""  # what a target carries (Target.wire_forms)

_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|.)")  # one escape of json.dumps's output, read left to right
_ESCAPE_OR_LETTER = re.compile(r"\\(?:u[0-9a-fA-F]{4}|.)|[A-Za-z]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_SHORT_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f"}


@dataclass(frozen=True)
class WireForm:
    layout: str = "compact"
    indent: str = "  "
    newline: str = "\n"
    ascii_only: bool = False
    upper_hex: bool = False
    long_escapes: bool = False
    escaped_solidus: bool = False
    escaped_letters: bool = False
    key_order: int = 0
    fresh_connection: bool = False

    @property
    def is_compact(self) -> bool:
        """The bytes are those of the compact form (a fresh connection changes no byte)."""
        return replace(self, fresh_connection=False) == COMPACT

    def to_dict(self) -> dict:
        """What differs from the compact form (``{}`` for it), as a case records it."""
        return {key: value for key, value in asdict(self).items() if value != getattr(COMPACT, key)}

    @classmethod
    def from_dict(cls, data: dict | None) -> WireForm:
        return replace(COMPACT, **(data or {}))

    def describe(self) -> str:
        """ "pretty-printed (tab, CRLF), ASCII-only with upper-case \\u escapes, keys reordered": for reports."""
        parts = []
        if self.layout == "pretty":
            parts.append(
                f"pretty-printed ({_INDENT_NAMES[self.indent]}, {'CRLF' if self.newline == chr(13) + chr(10) else 'LF'})"
            )
        else:
            parts.append({"compact": "compact", "spaced": "spaced (' : ', ' , ')"}[self.layout])
        if self.ascii_only:
            parts.append("ASCII-only" + (" with upper-case \\u escapes" if self.upper_hex else " (\\u escapes)"))
        elif self.upper_hex:
            parts.append("upper-case \\u escapes")
        if self.long_escapes:
            parts.append("controls as \\u00XX")
        if self.escaped_solidus:
            parts.append("'/' as '\\/'")
        if self.escaped_letters:
            parts.append("first letters as \\u00XX")
        if self.key_order:
            parts.append(f"keys reordered (seed {self.key_order})")
        if self.fresh_connection:
            parts.append("on a fresh connection")
        return ", ".join(parts)

    def encode(self, value: Any) -> bytes:
        """The value in this form, as UTF-8 bytes (a string holding a lone surrogate, which only an
        invalid-input case sends, is always written with \\u escapes, as encode_request does)."""
        if self.is_compact:
            return encode_request(value)
        try:
            return _Writer(self).value(value, 0).encode("utf-8")
        except RecursionError:  # a case nested deeper than Python recurses (an invalid-input case)
            return encode_request(value)


_INDENT_NAMES = {"  ": "2 spaces", "    ": "4 spaces", "\t": "tab", " ": "1 space"}
COMPACT = WireForm()


class _Writer:
    def __init__(self, form: WireForm):
        self.form = form
        self.colon, self.comma = {"compact": (":", ","), "spaced": (" : ", " , "), "pretty": (": ", ",")}[form.layout]

    def value(self, value: Any, depth: int) -> str:
        if isinstance(value, dict):
            keys = list(value)
            if self.form.key_order:
                random.Random(f"{self.form.key_order} {len(keys)} {depth}").shuffle(keys)
            items = [self.string(str(key)) + self.colon + self.value(value[key], depth + 1) for key in keys]
            return self.container("{", items, "}", depth)
        if isinstance(value, (list, tuple)):
            return self.container("[", [self.value(item, depth + 1) for item in value], "]", depth)
        if isinstance(value, str):
            return self.string(value)
        return json.dumps(value)  # numbers, booleans and null exactly as the compact form writes them

    def container(self, opening: str, items: list[str], closing: str, depth: int) -> str:
        if not items:
            return opening + closing
        if self.form.layout == "pretty":
            inner = self.form.newline + self.form.indent * (depth + 1)
            outer = self.form.newline + self.form.indent * depth
            return opening + inner + (self.comma + inner).join(items) + outer + closing
        if self.form.layout == "spaced":
            return f"{opening} {self.comma.join(items)} {closing}"
        return opening + self.comma.join(items) + closing

    def string(self, text: str) -> str:
        form = self.form
        written = json.dumps(text, ensure_ascii=form.ascii_only or bool(_SURROGATE.search(text)))
        if form.long_escapes or form.upper_hex:
            written = _ESCAPE.sub(self._escape, written)
        if form.escaped_solidus:
            written = written.replace("/", "\\/")  # json.dumps never writes '/' inside an escape
        if form.escaped_letters:
            letter = next((m for m in _ESCAPE_OR_LETTER.finditer(written) if m.group()[0] != "\\"), None)
            if letter is not None:
                at = letter.start()
                written = written[:at] + self._hex(ord(written[at])) + written[at + 1 :]
        return written

    def _escape(self, match: re.Match) -> str:
        escape = match.group()
        if escape[1] in _SHORT_ESCAPES and self.form.long_escapes:
            return self._hex(ord(_SHORT_ESCAPES[escape[1]]))
        if escape[1] == "u" and self.form.upper_hex:
            return "\\u" + escape[2:].upper()
        return escape

    def _hex(self, code_point: int) -> str:
        return f"\\u{code_point:04X}" if self.form.upper_hex else f"\\u{code_point:04x}"


def forms(one_line: bool = False) -> st.SearchStrategy[WireForm]:
    """A wire form, shrinking towards the compact one; ``one_line``: no newline between tokens."""
    from conformance.strategies.base import sampled_by_index

    layouts = LAYOUTS[:2] if one_line else LAYOUTS
    return st.builds(
        WireForm,
        layout=sampled_by_index(layouts),
        indent=sampled_by_index(INDENTS),
        newline=sampled_by_index(NEWLINES),
        ascii_only=st.booleans(),
        upper_hex=st.booleans(),
        long_escapes=st.booleans(),
        escaped_solidus=st.booleans(),
        escaped_letters=st.booleans(),
        key_order=st.integers(0, 2**16),
        fresh_connection=st.booleans(),
    )


DEFAULT_BODY_BOUND = 1 << 20  # for a tool whose largest compact body is not known


@functools.cache
def body_bound(tool_id: str, version: str) -> int:
    """The largest compact body a valid input of the tool can produce (strategies/wire_sizes.py)."""
    from conformance.strategies import wire_sizes

    bound = getattr(wire_sizes, "largest_body_bound", None)
    try:
        return int(bound(tool_id, version)) if bound is not None else DEFAULT_BODY_BOUND
    except (KeyError, ValueError, TypeError):
        return DEFAULT_BODY_BOUND


def fitting(form: WireForm, tool_id: str, version: str, value: Any) -> WireForm:
    """The form, or the compact one (keeping the connection) when the form's body would be larger than
    both the compact body and the largest compact body a valid input of the tool produces."""
    if form.is_compact:
        return form
    formed = len(form.encode(value))
    if formed <= body_bound(tool_id, version) or formed <= len(encode_request(value)):
        return form
    return replace(COMPACT, fresh_connection=form.fresh_connection)


def of_case(case: Any) -> WireForm | None:
    """The case's wire form, None for the compact one (a target that carries no bytes is never given one)."""
    return WireForm.from_dict(case.wire) if case.wire else None


def reproduce_hint(target: Any, case: Any) -> str:
    """The target's shell line re-sending the case's exact bytes ("" when the target has none)."""
    form = carried(target, case)
    if form is None:
        return target.reproduce_hint(case.tool_id, case.version, case.input)
    return target.reproduce_hint(case.tool_id, case.version, case.input, form)


def sent_body(case: Any) -> str:
    """The exact text of the body the case was sent as (its input in its wire form); "" for an input nested
    deeper than Python serialises (only an in-process target, which is sent no bytes, gets one)."""
    try:
        return (of_case(case) or COMPACT).encode(case.input).decode("utf-8")
    except RecursionError:
        return ""


def carried(target: Any, case: Any) -> WireForm | None:
    """The case's wire form if ``target`` can carry it (replay may send a case to another kind of target)."""
    form = of_case(case)
    kind = getattr(target, "wire_forms", NONE)
    if form is None or not kind or (kind == ONE_LINE and form.layout == "pretty"):
        return None
    return form


def call(target: Any, case: Any) -> Any:
    """The target's answer to the case, sent in its wire form where the target carries it."""
    form = carried(target, case)
    if form is None:
        return target.call(case.tool_id, case.version, case.input)
    return target.call(case.tool_id, case.version, case.input, form)


class LargestBodies:
    """The largest compact body of a valid input sent to each tool, beside the largest any valid input can
    produce (``body_bound``): how close the run came to what a server's body limit must let through."""

    def __init__(self) -> None:
        self.sent: dict[str, int] = {}
        self._lock = threading.Lock()

    def note(self, case: Any) -> None:
        size = len(encode_request(case.input))
        key = f"{case.tool_id}@{case.version}"
        with self._lock:
            self.sent[key] = max(size, self.sent.get(key, 0))

    def figures(self, tools: list[tuple[str, str]]) -> dict:
        """Per tool@version: {"sent": bytes, "bound": bytes} (report.schema.json: header.largest_bodies)."""
        with self._lock:
            return {
                f"{tool_id}@{version}": {
                    "sent": self.sent.get(f"{tool_id}@{version}", 0),
                    "bound": body_bound(tool_id, version),
                }
                for tool_id, version in tools
            }


def merged_figures(headers: list[dict]) -> dict:
    """The largest bodies of the processes of one run (-n, shards): the largest of each tool's."""
    merged: dict = {}
    for header in headers:
        for key, figures in (header.get("largest_bodies") or {}).items():
            kept = merged.setdefault(key, dict(figures))
            kept["sent"] = max(kept.get("sent", 0), figures.get("sent", 0))
    return merged


def figures_text(figures: dict) -> str:
    """ "bleu-corpus-compute@1.0.0 6,461,487 of 6,470,514 bytes (99.9 %); ...": for the report header."""
    return "; ".join(
        f"{key} {value['sent']:,} of {value['bound']:,} bytes ({100 * value['sent'] / value['bound']:.1f} %)"
        for key, value in figures.items()
        if isinstance(value, dict) and value.get("bound")
    )

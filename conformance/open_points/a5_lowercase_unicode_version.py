"""A5: toLowerCase follows the runtime's Unicode version."""

from __future__ import annotations

import unicodedata

from conformance.open_points.inputs import texts
from conformance.open_points.model import OpenPoint, Quote
from conformance.strategies.alphabets import is_noncharacter, lowercase_unstable_code_points
from oracle import chrf
from oracle.tool import Tool

# The table of code points whose lowercase mapping or Final_Sigma context differs between the
# oracle's Unicode version and a JavaScript runtime's (oracle/data/lowercase_unicode_differences.json,
# read by the strategies' alphabets) plus every code point unassigned here. Without the table, a
# conservative rule: beside a capital sigma only ASCII, Latin-1 letters, combining marks and Greek.
_SIGMA_SAFE_RANGES = ((0x0000, 0x007F), (0x00C0, 0x00FF), (0x0300, 0x03FF))


def lowercase_is_version_dependent(text: str) -> bool:
    listed = lowercase_unstable_code_points()
    for ch in text:
        cp = ord(ch)
        # unassigned here may be a letter there; a noncharacter stays unassigned, without case, for ever
        if cp in listed or (
            unicodedata.category(ch) == "Cn" and not 0xD800 <= cp <= 0xDFFF and not is_noncharacter(cp)
        ):
            return True
    if "\u03a3" in text and not listed:
        return any(not any(lo <= ord(ch) <= hi for lo, hi in _SIGMA_SAFE_RANGES) for ch in text)
    return False


def version_dependent(tool: Tool, payload: dict) -> bool:
    """lowercase=true with a code point whose lowercasing depends on the Unicode version."""
    return payload.get("lowercase") is True and any(lowercase_is_version_dependent(t) for t in texts(payload))


POINT = OpenPoint(
    id="A5",
    title="toLowerCase follows the runtime's Unicode version",
    quotes=(Quote("semantics", "true applies String.prototype.toLowerCase (runtime Unicode default case mapping)"),),
    open="Lowercase mappings and the Cased / Case_Ignorable properties behind Final_Sigma change between "
    "Unicode versions: Python 3.11 has Unicode 14, current JavaScript engines 15 to 17.",
    readings=("the oracle's Unicode version (14.0)", "any later version a JavaScript runtime ships"),
    oracle_reading="Python's str.lower (full default case mapping with Final_Sigma, Unicode 14.0)",
    avoidance="With lowercase true no case contains a code point of oracle/data/lowercase_unicode_differences."
    "json (measured against Node.js) or one unassigned in Unicode 14 but a noncharacter (never assigned, never cased).",
    applies=lambda tool: tool.has(chrf.lowercase),
    depends=version_dependent,
)

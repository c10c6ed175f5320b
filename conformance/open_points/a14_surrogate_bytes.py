"""A14: chrF++, the UTF-8 bytes of a text holding a lone surrogate."""

from __future__ import annotations

from typing import Any

from conformance.open_points.inputs import texts
from conformance.open_points.model import OpenPoint, Quote
from oracle.errors import INVALID_INPUT, LIMIT_EXCEEDED
from oracle.tool import Tool
from oracle.validation import CHRF_TEXT_LIMITS, has_lone_surrogate, utf8_length


def byte_count_matters(tool: Tool, payload: dict) -> bool:
    """The byte limit is checked before lone surrogates; counting a lone surrogate as 3 bytes
    or 0 decides which check fails first."""
    found = texts(payload)
    if not any(has_lone_surrogate(t) for t in found):
        return False
    limit = tool.contract.limits["max_text_bytes"]
    with_surrogates = sum(map(utf8_length, found))
    without = sum(len(ch.encode("utf-8", "ignore")) for t in found for ch in t)
    return without <= limit < with_surrogates


def either_code(tool: Tool, payload: Any) -> set[str]:
    try:
        touched = isinstance(payload, dict) and byte_count_matters(tool, payload)
    except (TypeError, AttributeError, KeyError, ValueError):
        touched = False
    return {INVALID_INPUT, LIMIT_EXCEEDED} if touched else set()


POINT = OpenPoint(
    id="A14",
    title="chrF++: UTF-8 bytes of a text holding a lone surrogate",
    quotes=(Quote("semantics", "total UTF-8 bytes of all texts at most 65536, lone surrogates"),),
    open="The byte limit is checked before lone surrogates, but a lone surrogate has no UTF-8 encoding: counted "
    "as 3 bytes (WTF-8, or its U+FFFD replacement) or not at all, the first failing check may differ.",
    readings=("3 bytes per lone surrogate", "0 bytes (dropped before measuring)"),
    oracle_reading="3 bytes",
    avoidance="Lone-surrogate cases stay far below the byte limit; where the count decides between the two "
    "checks, the comparison accepts invalid_input and limit_exceeded.",
    applies=lambda tool: tool.has(CHRF_TEXT_LIMITS),
    decided_by=("a lone surrogate counting 3 bytes",),
    depends=byte_count_matters,
    error_codes=either_code,
)

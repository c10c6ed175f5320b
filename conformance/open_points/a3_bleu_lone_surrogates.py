"""A3: lone surrogates in BLEU tokens."""

from __future__ import annotations

from conformance.open_points.inputs import bleu_token_lists, bleu_tokens
from conformance.open_points.model import OpenPoint, Quote
from oracle.tool import Tool
from oracle.validation import BLEU_NO_LONE_SURROGATES, has_lone_surrogate


def holds_lone_surrogate(tool: Tool, payload: dict) -> bool:
    """A BLEU token holding a lone surrogate."""
    return bleu_token_lists(payload) and any(has_lone_surrogate(token) for token in bleu_tokens(payload))


POINT = OpenPoint(
    id="A3",
    title="Lone surrogates in BLEU tokens",
    quotes=(
        Quote("semantics", "Tokens are compared by exact string equality"),
        Quote("semantics", "tokens are compared by exact string equality"),
        Quote("input_schema", '"items":{"type":"string","minLength":1,"maxLength":128}'),
    ),
    open="A JSON string may hold an unpaired \\ud800-\\udfff escape. The BLEU contracts neither reject it (as "
    "chrF++ states it does) nor say how its UTF-8 bytes count.",
    readings=("reject as invalid_input", "accept and compare the code unit sequences"),
    oracle_reading="reject as invalid_input, like chrF++",
    avoidance="No case sends a lone surrogate to a BLEU tool; if one does, a rejection and the answer of the "
    "accepting reading both pass.",
    applies=lambda tool: tool.has(BLEU_NO_LONE_SURROGATES),
    decided_by=("a lone surrogate (a UTF-16 surrogate code unit that is not half of a pair",),
    depends=holds_lone_surrogate,
    alternative=lambda tool, payload: (tool.without(BLEU_NO_LONE_SURROGATES), payload),
    alternative_name="A3: lone surrogates accepted",
)

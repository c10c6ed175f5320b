"""A9: is 4.0 an integer?"""

from __future__ import annotations

from conformance.open_points.inputs import integer_fields
from conformance.open_points.model import OpenPoint, Quote
from oracle.errors import INVALID_INPUT, ContractError
from oracle.tool import Tool
from oracle.validation import Rule


def integer_written_as_float(tool: Tool, payload: dict) -> bool:
    """An integer field written with a fraction or exponent (4.0): JSON Schema and a
    JavaScript service take it as 4, a strictly typed parser may reject it."""
    return any(
        isinstance(payload.get(key), float) and payload[key].is_integer()
        for key in integer_fields(tool.contract.input_schema)
    )


def _reject(tool: Tool):
    def check(payload: dict, limits) -> None:
        if integer_written_as_float(tool, payload):
            raise ContractError(INVALID_INPUT, "an integer field holds a number written with a fraction or exponent")

    return Rule("integers written without a fraction", check)


POINT = OpenPoint(
    id="A9",
    title="Is 4.0 an integer?",
    quotes=(
        Quote("input_schema", '"max_order":{"type":"integer","minimum":1,"maximum":8}'),
        Quote("input_schema", '"decimals":{"type":"integer","minimum":0,"maximum":15}'),
        Quote("input_schema", '"beta":{"type":"integer","minimum":1,"maximum":16}'),
    ),
    open="JSON Schema 2020-12 counts a number with a zero fraction (4.0, 4e0) as an integer and a JavaScript "
    "service cannot tell it from 4; a strictly typed parser (serde, Jackson, Go) rejects it.",
    readings=("accept 4.0 as 4", "reject it as invalid_input"),
    oracle_reading="accept 4.0 as 4 (JSON Schema's rule)",
    avoidance="No case writes an integer field with a fraction or exponent; if one does, both readings pass.",
    decided_by=("4.0 is the integer 4",),
    depends=integer_written_as_float,
    alternative=lambda tool, payload: (tool.prepending(_reject(tool)), payload),
    alternative_name="A9: 4.0 is not an integer",
)

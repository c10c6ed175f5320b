"""A6: the error code when a violation is both a schema rule and a named limit."""

from __future__ import annotations

from typing import Any

from conformance.open_points.a7_bleu_validation_order import validation_order_stated
from conformance.open_points.model import OpenPoint, Quote
from oracle.errors import INVALID_INPUT, LIMIT_EXCEEDED
from oracle.tool import Tool
from oracle.validation import LIMIT_KEYWORDS

BOTH = frozenset({INVALID_INPUT, LIMIT_EXCEEDED})


def segments_over_limit(tool: Tool, payload: Any) -> bool:
    limit = tool.contract.limits["max_segments"]
    return isinstance(payload, dict) and any(
        isinstance(payload.get(key), list) and len(payload[key]) > limit for key in ("hypotheses", "references")
    )


def either_code(tool: Tool, payload: Any) -> set[str]:
    """Both codes where the input breaks a schema keyword mirroring a named limit. With a stated
    validation order only its first violation counts: there, the segment count."""
    if validation_order_stated(tool):
        return set(BOTH) if segments_over_limit(tool, payload) else set()
    mirrored = any(error.validator in LIMIT_KEYWORDS for error in tool.contract.input_validator.iter_errors(payload))
    return set(BOTH) if mirrored else set()


POINT = OpenPoint(
    id="A6",
    title="Error code when a violation is both a schema rule and a named limit",
    quotes=(
        Quote("input_schema", '"minItems":1,"maxItems":1000'),
        Quote("limits", '"max_segments":1000'),
        Quote("input_schema", '"minItems":1,"maxItems":8'),
        Quote("limits", '"max_references_per_segment":8'),
        Quote("limits", '"max_token_bytes":128'),
        Quote("input_schema", '"minItems":1,"maxItems":256'),
        Quote("limits", '"max_segments":256'),
    ),
    open="1001 segments, 9 references or a token over 128 code points break a schema rule (invalid_input) and "
    "a named limit (limit_exceeded) at once; the contracts do not say which code wins.",
    readings=("limit_exceeded", "invalid_input"),
    oracle_reading="limit_exceeded",
    avoidance='Such cases expect any rejection ("any"); the comparison accepts both codes.',
    decided_by=(
        "The limits answer limit_exceeded; they include the schema's",
        "More than 256 segments in either list and more than 65536 UTF-8 bytes",
    ),
    error_codes=either_code,
)

"""A2: which JSON serialisation does the output-size limit measure?"""

from __future__ import annotations

import functools
import json

from conformance.open_points.a1_token_totals import HYPOTHESIS_ONLY_TOKEN_LIMITS
from conformance.open_points.model import OpenPoint, Quote
from oracle.errors import ContractError
from oracle.tool import Tool
from oracle.validation import (
    BLEU_NO_LONE_SURROGATES,
    BLEU_TOKEN_LIMITS,
    OUTPUT_SIZE_LIMIT,
    OutputCheck,
    output_size,
    output_size_limit,
)


def most_verbose_output_size(output: dict) -> int:
    """The other reading: the largest serialisation a reasonable service could measure.

    Indented (2 or 4 spaces, as JSON.stringify(x, null, 2) or Python's indent=4 write it),
    non-ASCII \\u-escaped, inside the {"result": ...} envelope.
    """
    enveloped = {"result": output}
    return max(len(json.dumps(enveloped, indent=indent, ensure_ascii=True).encode("ascii")) for indent in (2, 4))


VERBOSE_OUTPUT_SIZE_LIMIT = OutputCheck(
    "max_output_bytes (most verbose serialisation)", functools.partial(output_size_limit, size=most_verbose_output_size)
)


def without_limits(tool: Tool) -> Tool:
    """The most accepting validation of the other readings (A1, A3), and no output-size limit:
    the output a reading would measure, whatever A1 and A3 say."""
    if tool.has(BLEU_TOKEN_LIMITS):
        tool = tool.replacing(BLEU_TOKEN_LIMITS, HYPOTHESIS_ONLY_TOKEN_LIMITS)
    if tool.has(BLEU_NO_LONE_SURROGATES):
        tool = tool.without(BLEU_NO_LONE_SURROGATES)
    return tool.without(OUTPUT_SIZE_LIMIT)


def between_serialisations(tool: Tool, payload: dict) -> bool:
    """Compact JSON fits the output limit and the most verbose serialisation does not."""
    if payload.get("detail") != "ngrams":
        return False  # "totals" and "segments" outputs stay far below the limit
    try:
        output = without_limits(tool).execute(payload)
    except ContractError:
        return False  # rejected for another reason under every reading
    return output_size(output) <= tool.contract.limits["max_output_bytes"] < most_verbose_output_size(output)


POINT = OpenPoint(
    id="A2",
    title="Which JSON serialisation does the output-size limit measure?",
    quotes=(Quote("semantics", "Output larger than 1,000,000 UTF-8 bytes of JSON is limit_exceeded"),),
    open="JSON text of one value has many sizes: compact or indented, non-ASCII raw or \\u-escaped, with or "
    'without the hosted API\'s {"result": ...} envelope.',
    readings=(
        "compact JSON.stringify form, non-ASCII raw, no envelope",
        'with the {"result": ...} envelope',
        'Python\'s default json.dumps (", " and ": ", non-ASCII \\u-escaped)',
        "indented (2 or 4 spaces)",
    ),
    oracle_reading="compact JSON.stringify form, non-ASCII raw, no envelope (the smallest)",
    avoidance="Cases produce outputs whose most verbose reasonable serialisation (indented, \\u-escaped, in the "
    "envelope) is at most 1,000,000 bytes (all accept) or whose compact form exceeds it (all reject). "
    "The detector flags outputs between; there the comparison accepts the answer or "
    "limit_exceeded.",
    applies=lambda tool: tool.has(OUTPUT_SIZE_LIMIT),
    depends=between_serialisations,
    alternative=lambda tool, payload: (tool.replacing(OUTPUT_SIZE_LIMIT, VERBOSE_OUTPUT_SIZE_LIMIT), payload),
    alternative_name="A2: output size of the most verbose serialisation",
)

"""The open points of the contracts, one record each, and what every reasonable reading does.

Each module ``aN_<topic>.py`` holds one open point whole: the catalogue text (the
contract text it is about, what is left open, the readings, how the suite avoids
deciding), ``depends`` (does an input touch it?), and where the comparison must accept
another reading, ``alternative`` (the oracle with one step swapped, through the
seams of ``oracle.tool.Tool``) or ``error_codes`` (the codes a reading may give).
``reports/ambiguities.md`` is generated from these records (``python -m
conformance.open_points``).

    behaviours(tool, payload)             what each reading touched by the input answers
    acceptable_error_codes(tool, payload) every code a reasonable reading may reject with
    depends_on(tool, payload)             the open points whose readings may differ on it
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from conformance.open_points import (
    a1_token_totals,
    a2_output_serialisation,
    a3_bleu_lone_surrogates,
    a4_chrf_corpus_sums,
    a5_lowercase_unicode_version,
    a6_schema_or_limit_code,
    a7_bleu_validation_order,
    a8_libm_floats,
    a9_integral_floats,
    a10_equal_segment_counts,
    a11_number_form,
    a12_error_body,
    a13_utf16_word_length,
    a14_surrogate_bytes,
    a15_duplicate_keys,
    a16_mcp_result_shape,
    a17_mcp_argument_validation,
    a18_unknown_tool_requests,
)
from conformance.open_points.model import Behaviour, OpenPoint, Quote
from oracle.errors import ContractError
from oracle.tool import Tool

__all__ = [
    "OpenPoint",
    "Quote",
    "Behaviour",
    "CATALOGUE",
    "BY_ID",
    "applicable",
    "depends_on",
    "behaviours",
    "expected_outputs",
    "acceptable_error_codes",
]

MODULES = (
    a1_token_totals,
    a2_output_serialisation,
    a3_bleu_lone_surrogates,
    a4_chrf_corpus_sums,
    a5_lowercase_unicode_version,
    a6_schema_or_limit_code,
    a7_bleu_validation_order,
    a8_libm_floats,
    a9_integral_floats,
    a10_equal_segment_counts,
    a11_number_form,
    a12_error_body,
    a13_utf16_word_length,
    a14_surrogate_bytes,
    a15_duplicate_keys,
    a16_mcp_result_shape,
    a17_mcp_argument_validation,
    a18_unknown_tool_requests,
)
CATALOGUE: tuple[OpenPoint, ...] = tuple(module.POINT for module in MODULES)
BY_ID = {point.id: point for point in CATALOGUE}
SOURCE = {module.POINT.id: module.__name__.replace(".", "/") + ".py" for module in MODULES}


@functools.cache
def applicable(tool: Tool) -> tuple[OpenPoint, ...]:
    """The open points of this tool's contract."""
    return tuple(point for point in CATALOGUE if point.applies_to(tool))


def depends_on(tool: Tool, payload: Any) -> list[OpenPoint]:
    """The open points whose readings may treat this input differently."""
    if not isinstance(payload, dict):
        return []
    touched = []
    for point in applicable(tool):
        if point.depends is None:
            continue
        try:
            if point.depends(tool, payload):
                touched.append(point)
        except (TypeError, AttributeError, KeyError, ValueError):
            pass  # malformed input: the schema rejects it under every reading
    return touched


def run_reading(tool: Tool, payload: Any, chosen: list[OpenPoint]) -> Behaviour:
    """The oracle with the alternative step of each chosen point swapped in."""
    name = "; ".join(point.alternative_name for point in chosen) or "oracle"
    variant, data = tool, payload
    try:
        for point in chosen:
            if point.alternative is None:
                raise ValueError(f"{point.id}: no other reading to run")
            variant, data = point.alternative(variant, data)
        output = variant.execute(data)
    except ContractError as error:
        return Behaviour(name, error_code=error.code, error_message=error.message)
    return Behaviour(name, output=output)


def behaviours(tool: Tool, payload: Any) -> list[Behaviour]:
    """What every reasonable reading does with the input, the oracle's first, duplicates removed:
    every combination of the other readings of the points the input touches."""
    touched = [point for point in depends_on(tool, payload) if point.alternative is not None]
    found: list[Behaviour] = []
    for switches in itertools.product((False, True), repeat=len(touched)):
        behaviour = run_reading(tool, payload, [point for point, on in zip(touched, switches) if on])
        if not any(b.output == behaviour.output and b.error_code == behaviour.error_code for b in found):
            found.append(behaviour)
    return found


def expected_outputs(tool: Tool, payload: Any) -> list[dict]:
    """The outputs of the readings that answer: the oracle's first (when the oracle answers),
    then those of the other readings where they differ. Empty when every reading rejects."""
    return [b.output for b in behaviours(tool, payload) if b.output is not None]


def acceptable_error_codes(tool: Tool, payload: Any) -> set[str]:
    """Every error code some reasonable reading may give for a rejected input: the codes of
    the readings' behaviours, and those the points stating codes allow (A6, A7, A14)."""
    codes = {b.error_code for b in behaviours(tool, payload) if b.error_code}
    for point in applicable(tool):
        if point.error_codes is not None:
            codes |= point.error_codes(tool, payload)
    return codes

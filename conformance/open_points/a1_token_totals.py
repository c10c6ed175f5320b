"""A1: do the total token limits count reference tokens?"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from conformance.open_points.inputs import bleu_token_lists, bleu_tokens
from conformance.open_points.model import OpenPoint, Quote
from oracle.tool import Tool
from oracle.validation import BLEU_TOKEN_LIMITS, Rule, bleu_token_limits, utf8_length


def hypothesis_only_totals(payload: dict, limits: Mapping[str, int]) -> None:
    """The other reading: per-token bytes for every token, the totals over hypothesis tokens only."""
    no_limit = sys.maxsize  # more tokens and bytes than any input can hold
    bleu_token_limits(payload, {**limits, "max_total_tokens": no_limit, "max_total_token_bytes": no_limit})
    bleu_token_limits({"hypotheses": payload["hypotheses"], "references": []}, limits)


HYPOTHESIS_ONLY_TOKEN_LIMITS = Rule("token limits (hypothesis totals)", hypothesis_only_totals)


def between_readings(tool: Tool, payload: dict) -> bool:
    """The hypothesis tokens alone are within a total limit, hypotheses plus references are not."""
    if not bleu_token_lists(payload):
        return False
    limits = tool.contract.limits
    hypothesis_tokens = [t for h in payload["hypotheses"] for t in h]
    all_tokens = bleu_tokens(payload)
    count_between = len(hypothesis_tokens) <= limits["max_total_tokens"] < len(all_tokens)
    bytes_between = (
        sum(map(utf8_length, hypothesis_tokens)) <= limits["max_total_token_bytes"] < sum(map(utf8_length, all_tokens))
    )
    return count_between or bytes_between


POINT = OpenPoint(
    id="A1",
    title="Do the total token limits count reference tokens?",
    quotes=(Quote("limits", '"max_total_tokens":50000'), Quote("limits", '"max_total_token_bytes":1048576')),
    open="The limits name a total of tokens and of token bytes but not which tokens: the hypotheses only, "
    "or hypotheses and references together.",
    readings=("hypothesis and reference tokens together", "hypothesis tokens only"),
    oracle_reading="hypothesis and reference tokens together (the stricter reading)",
    avoidance="Cases stay where every reading agrees: the hypothesis tokens alone exceed the limit (all reject) "
    "or hypotheses plus references are within it (all accept). The detector flags the band "
    "between; there the comparison accepts either reading's answer or rejection.",
    applies=lambda tool: tool.has(BLEU_TOKEN_LIMITS),
    decided_by=("Both totals count the hypothesis tokens and every reference token",),
    depends=between_readings,
    alternative=lambda tool, payload: (tool.replacing(BLEU_TOKEN_LIMITS, HYPOTHESIS_ONLY_TOKEN_LIMITS), payload),
    alternative_name="A1: totals count hypothesis tokens only",
)

"""A10: the BLEU tools never state equal segment counts."""

from __future__ import annotations

from conformance.open_points.model import OpenPoint, Quote
from oracle.tool import Tool
from oracle.validation import EQUAL_SEGMENT_COUNTS

STATED = "equal segment counts"


def unstated(tool: Tool) -> bool:
    return tool.has(EQUAL_SEGMENT_COUNTS) and not any(STATED in line for line in tool.contract.semantics)


def more_references_than_hypotheses(tool: Tool, payload: dict) -> bool:
    """Reference sets beyond the last hypothesis (no hypothesis to score) might be ignored."""
    hyps, refs = payload.get("hypotheses"), payload.get("references")
    return isinstance(hyps, list) and isinstance(refs, list) and len(refs) > len(hyps)


def ignore_extra_references(tool: Tool, payload: dict) -> tuple[Tool, dict]:
    return tool, {**payload, "references": payload["references"][: len(payload["hypotheses"])]}


POINT = OpenPoint(
    id="A10",
    title="The BLEU tools never state equal segment counts",
    quotes=(
        Quote(
            "semantics",
            "hypotheses[i] is the token list of segment i and references[i] lists 1 to 8 reference token lists for it",
        ),
        Quote("semantics", "equal segment counts"),
    ),
    open='chrF++ lists "equal segment counts" among its checks; the BLEU contracts only pair references[i] '
    "with hypotheses[i]. A hypothesis without references cannot be scored (every reading rejects), but "
    "reference sets beyond the last hypothesis could be ignored.",
    readings=("reject any difference as invalid_input", "ignore reference sets beyond the hypotheses"),
    oracle_reading="reject any difference as invalid_input",
    avoidance="Unequal-count cases have more hypotheses than reference sets (every reading rejects). "
    "The detector flags more reference sets than hypotheses; there the comparison accepts "
    "either a rejection or the answer on the first len(hypotheses) reference sets.",
    applies=unstated,
    depends=more_references_than_hypotheses,
    alternative=ignore_extra_references,
    alternative_name="A10: reference segments beyond the hypotheses ignored",
)

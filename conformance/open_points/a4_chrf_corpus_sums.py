"""A4: chrF++ corpus sums when a segment's reference lacks an order."""

from __future__ import annotations

from conformance.open_points.model import OpenPoint, Quote
from oracle import chrf
from oracle.errors import ContractError
from oracle.tool import Tool


def drop_orders_missing_in_reference(stats: list[chrf.OrderStatistics]) -> list[chrf.OrderStatistics]:
    """sacreBLEU's CHRF._get_match_statistics: an order the reference lacks contributes no
    hypothesis n-grams to the corpus sums."""
    return [s if s.reference > 0 else chrf.OrderStatistics(0, 0, 0) for s in stats]


def sacrebleu_corpus_statistics(per_segment: list[list[chrf.OrderStatistics]]) -> list[chrf.OrderStatistics]:
    """The other reading of the aggregation step."""
    return chrf.corpus_statistics([drop_orders_missing_in_reference(stats) for stats in per_segment])


def other_sums(tool: Tool) -> Tool:
    return tool.replacing(chrf.corpus_statistics, sacrebleu_corpus_statistics)


def corpus_sums_differ(tool: Tool, payload: dict) -> bool:
    """The contract's corpus sums and sacreBLEU's give a different corpus score."""
    if len(payload.get("hypotheses", [])) < 2:
        return False
    try:
        contract = tool.execute(payload)
    except ContractError:
        return False
    return other_sums(tool).execute(payload)["score_fraction"] != contract["score_fraction"]


POINT = OpenPoint(
    id="A4",
    title="chrF++ corpus sums when a segment's reference lacks an order",
    quotes=(Quote("semantics", "Corpus score sums per-order counts over all segments"),),
    open="Read literally every hypothesis n-gram enters the corpus sums. sacreBLEU (CHRF._get_match_statistics) "
    "and chrF++.py drop a segment's hypothesis n-grams of an order its reference has none of. The corpus "
    "score differs when a corpus of two or more segments has a segment whose reference lacks an order its "
    "hypothesis has while another segment has that order on both sides.",
    readings=(
        "sum every hypothesis n-gram (the contract's words)",
        "drop a segment's hypothesis n-grams of an order its reference lacks (sacreBLEU, chrF++.py)",
    ),
    oracle_reading="sum every hypothesis n-gram",
    avoidance="The comparison computes both (open_points.behaviours) and accepts either score and score_fraction; "
    "segment_scores and word_tokens agree under both. Cases may touch it.",
    applies=lambda tool: tool.has(chrf.corpus_statistics),
    decided_by=("the sums count every hypothesis n-gram", "hypothesis_ngrams counts every hypothesis n-gram"),
    depends=corpus_sums_differ,
    alternative=lambda tool, payload: (other_sums(tool), payload),
    alternative_name="A4: corpus sums drop hypothesis n-grams of orders the reference lacks",
)

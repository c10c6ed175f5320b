"""chrf-components@1.0.0: chrF with configurable orders and kept whitespace, with its statistics.

The chrF engine (``oracle.chrf``) with the contract's options mapped onto it: character orders
0..10, word orders 0..4, whitespace kept or removed. Reads top to bottom like the contract's semantics.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from oracle import chrf, value_clauses
from oracle.errors import INVALID_INPUT, ContractError
from oracle.tool import Tool
from oracle.validation import CHRF_TEXT_LIMITS, EQUAL_SEGMENT_COUNTS, Rule, Schema

DEFAULT_CHAR_ORDER = 6  # "char_order omitted means 6"
DEFAULT_WORD_ORDER = 0  # "word_order omitted means 0"
DEFAULT_WHITESPACE = False  # "whitespace true (omitted means false)"
DEFAULT_BETA = 2  # "beta omitted means 2"
DEFAULT_LOWERCASE = False  # "lowercase omitted means false"


def orders(payload: dict[str, Any]) -> tuple[int, int]:
    return int(payload.get("char_order", DEFAULT_CHAR_ORDER)), int(payload.get("word_order", DEFAULT_WORD_ORDER))


def at_least_one_order(payload: dict[str, Any], limits: Mapping[str, int]) -> None:
    """ "char_order + word_order at least 1" (after the defaults)."""
    char_order, word_order = orders(payload)
    if char_order + word_order < 1:
        raise ContractError(
            INVALID_INPUT,
            f"char_order: char_order {char_order} + word_order {word_order} is below 1: at least one order is needed",
        )


AT_LEAST_ONE_ORDER = Rule("char_order + word_order at least 1", at_least_one_order)


def rows(stats: list[chrf.OrderStatistics], char_order: int) -> list[dict[str, Any]]:
    """ "one row per order, character orders 1..char_order then word orders 1..word_order"."""
    return [
        {
            "unit": "char" if i < char_order else "word",
            "order": i + 1 if i < char_order else i - char_order + 1,
            "hypothesis_ngrams": s.hypothesis,
            "reference_ngrams": s.reference,
            "matches": s.matches,
        }
        for i, s in enumerate(stats)
    ]


def compute(payload: dict[str, Any], lowercase: Callable[[str], str] = chrf.lowercase) -> dict[str, Any]:
    char_order, word_order = orders(payload)
    whitespace = payload.get("whitespace", DEFAULT_WHITESPACE)
    beta = int(payload.get("beta", DEFAULT_BETA))
    lower = payload.get("lowercase", DEFAULT_LOWERCASE)
    hypotheses, references = list(payload["hypotheses"]), list(payload["references"])
    if lower:
        # "toLowerCase ... before n-gram extraction and tokenization, so word tokens are lowercased too"
        hypotheses = [lowercase(h) for h in hypotheses]
        references = [lowercase(r) for r in references]

    per_segment = [
        chrf.segment_statistics(h, r, char_order, word_order, whitespace) for h, r in zip(hypotheses, references)
    ]
    # "statistics ... holding sums over all segments; hypothesis_ngrams counts every hypothesis n-gram"
    corpus_stats = chrf.corpus_statistics(per_segment)
    corpus = 100 * chrf.f_score(corpus_stats, beta)
    return {
        "char_order": char_order,
        "word_order": word_order,
        "whitespace": whitespace,
        "beta": beta,
        "lowercase": lower,
        "segment_count": len(per_segment),
        "statistics": rows(corpus_stats, char_order),
        "score": chrf.six_decimals(corpus),
        "score_fraction": chrf.fraction_text(corpus),
        "segments": [
            {
                "segment": i,
                "statistics": rows(stats, char_order),
                "score": chrf.six_decimals(100 * chrf.f_score(stats, beta)),
            }
            for i, stats in enumerate(per_segment)
        ],
    }


# a score one rounding step off breaks the rounding (semantics 8) where the target's exact value is right;
# more than a step off its own rows, "score applies the rule above to the summed rows, each segment score
# to its own rows" (semantics 6)
SCORE_CLAUSE = value_clauses.chrf_score(8, value_clauses.from_own_rows(lambda p: int(p.get("beta", DEFAULT_BETA))), 6)


# "Validation order: plain object, unknown keys, missing keys, hypotheses then references (array, at
# most 256 segments, at least one, strings), equal segment counts, total UTF-8 bytes of all texts at
# most 65536, lone surrogates, char_order, word_order, char_order + word_order at least 1, whitespace,
# beta, lowercase."
TOOL = Tool(
    id="chrf-components",
    version="1.0.0",
    validation=(
        Schema("hypotheses"),
        Schema("references"),
        EQUAL_SEGMENT_COUNTS,
        CHRF_TEXT_LIMITS,
        Schema("char_order"),
        Schema("word_order"),
        AT_LEAST_ONE_ORDER,
        Schema("whitespace"),
        Schema("beta"),
        Schema("lowercase"),
    ),
    compute=compute,
    steps={"lowercase": chrf.lowercase},
    # the semantics line defining each output field (a (line, option) pair counts when the input sets it)
    # (a score depends on every line: only a wrong rounding of a right value, or a score off the target's own
    # rows, is attributed; any other wrong score is "unattributed")
    defaults={
        "char_order": DEFAULT_CHAR_ORDER,
        "word_order": DEFAULT_WORD_ORDER,
        "whitespace": DEFAULT_WHITESPACE,
        "beta": DEFAULT_BETA,
        "lowercase": DEFAULT_LOWERCASE,
    },
    clauses={
        "/char_order": 1,
        "/word_order": 1,
        "/whitespace": 3,
        "/beta": 7,
        "/lowercase": 7,
        "/statistics": 6,
        "/statistics/*": 6,
        "/statistics/*/unit": 6,
        "/statistics/*/order": 6,
        "/statistics/*/hypothesis_ngrams": 6,
        "/statistics/*/matches": 5,
        "/segments/*/segment": 6,
        "/segments/*/statistics/*": 6,
        "/segments/*/statistics/*/unit": 6,
        "/segments/*/statistics/*/order": 6,
        "/segments/*/statistics/*/hypothesis_ngrams": 6,
        "/segments/*/statistics/*/matches": 5,
        "/score_fraction": 8,
        "/score": SCORE_CLAUSE,
        "/segments/*/score": SCORE_CLAUSE,
    },
)

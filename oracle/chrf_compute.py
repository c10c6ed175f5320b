"""chrf-compute@1.0.0: exact chrF (Popovic 2015): character n-grams n = 1..6, no word n-grams.

The chrF engine (``oracle.chrf``) with word_order 0. Reads top to bottom like the contract's semantics.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from oracle import chrf, value_clauses
from oracle.tool import Tool
from oracle.validation import CHRF_TEXT_LIMITS, EQUAL_SEGMENT_COUNTS, Schema

CHAR_ORDER = 6  # "character n-grams n = 1..6"
WORD_ORDER = 0  # "No word n-grams are used (word_order 0)"
DEFAULT_BETA = 2  # "beta omitted means 2"
DEFAULT_LOWERCASE = False  # "lowercase omitted means false"


def compute(payload: dict[str, Any], lowercase: Callable[[str], str] = chrf.lowercase) -> dict[str, Any]:
    beta = int(payload.get("beta", DEFAULT_BETA))
    lower = payload.get("lowercase", DEFAULT_LOWERCASE)
    hypotheses, references = list(payload["hypotheses"]), list(payload["references"])
    if lower:
        # "true applies String.prototype.toLowerCase ... to every text before n-gram extraction"
        hypotheses = [lowercase(h) for h in hypotheses]
        references = [lowercase(r) for r in references]

    per_segment = [chrf.segment_statistics(h, r, CHAR_ORDER, WORD_ORDER) for h, r in zip(hypotheses, references)]
    # "Corpus score sums per-order counts over all segments ...; the sums count every hypothesis n-gram"
    corpus = 100 * chrf.f_score(chrf.corpus_statistics(per_segment), beta)
    return {
        "metric": "chrF",
        "char_order": CHAR_ORDER,
        "word_order": WORD_ORDER,
        "beta": beta,
        "lowercase": lower,
        "segment_count": len(per_segment),
        "score": chrf.six_decimals(corpus),
        "score_fraction": chrf.fraction_text(corpus),
        "segment_scores": [chrf.six_decimals(100 * chrf.f_score(stats, beta)) for stats in per_segment],
    }


def exact_score(payload: dict[str, Any], actual: dict[str, Any], pointer: str) -> Fraction:
    """The exact corpus score (the failure groups ask, to tell a wrong rounding from a wrong value)."""
    return Fraction(compute(payload)["score_fraction"])


# "Validation order: plain object, unknown keys, missing keys, hypotheses then references (array, at
# most 256 segments, at least one, strings), equal segment counts, total UTF-8 bytes of all texts at
# most 65536, lone surrogates, beta, lowercase."
TOOL = Tool(
    id="chrf-compute",
    version="1.0.0",
    validation=(
        Schema("hypotheses"),
        Schema("references"),
        EQUAL_SEGMENT_COUNTS,
        CHRF_TEXT_LIMITS,
        Schema("beta"),
        Schema("lowercase"),
    ),
    compute=compute,
    steps={"lowercase": chrf.lowercase},
    # the semantics line defining each output field (a (line, option) pair counts when the input sets it)
    # (a score depends on every line: only a wrong rounding of a right value, or a score off the target's own
    # rows, is attributed; any other wrong score is "unattributed")
    defaults={"beta": DEFAULT_BETA, "lowercase": DEFAULT_LOWERCASE},
    clauses={
        "/word_order": 1,
        "/beta": 5,
        "/lowercase": 5,
        "/score_fraction": 6,
        "/score": value_clauses.chrf_score(6, exact_score),
    },
)

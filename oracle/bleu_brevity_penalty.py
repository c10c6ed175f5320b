"""bleu-brevity-penalty@1.0.0: the corpus brevity penalty from lengths alone (Papineni 2002, 2.2.2 and 2.3).

Reads top to bottom like the contract's semantics.
"""

from __future__ import annotations

from typing import Any

from oracle.bleu_score import ScoreTerms, brevity_penalty
from oracle.bleu_statistics import closest_length
from oracle.jsnumber import round_to_fixed
from oracle.tool import Tool
from oracle.validation import LENGTH_LIMITS, Schema, equal_counts

LIMITS = frozenset({"maxItems", "maximum"})  # "they include the schema's maxItems 1000 and 8 and maximum 1048576"


def compute(payload: dict[str, Any]) -> dict[str, Any]:
    candidate_lengths, reference_lengths = payload["candidate_lengths"], payload["reference_lengths"]

    # "closest_reference_lengths[i] is the value in reference_lengths[i] closest to candidate_lengths[i]
    # ..., ties going to the shorter"; c and r their sums. "4.0 is the integer 4": the results are
    # written as integers (sums of integral doubles below 2^53 are exact).
    closest = [int(closest_length(c, lengths)) for c, lengths in zip(candidate_lengths, reference_lengths)]
    c, r = int(sum(candidate_lengths)), sum(closest)

    # "brevity_penalty is 1 when c > r, 0 when c = 0 (even if r = 0), otherwise exp(1 - r/c)"
    bp = brevity_penalty(c, r)
    if "decimals" in payload:  # "rounds brevity_penalty with Number.prototype.toFixed"
        bp = round_to_fixed(bp, int(payload["decimals"]))
    return {"brevity_penalty": bp, "candidate_length": c, "reference_length": r, "closest_reference_lengths": closest}


def float_terms(payload: dict[str, Any], output: dict[str, Any]) -> ScoreTerms:
    """brevity_penalty comes from c and r alone."""
    return ScoreTerms(output["candidate_length"], output["reference_length"])


# "Validation order ...: plain object, unknown keys, missing keys, then the fields in schema order:
# candidate_lengths ..., reference_lengths ..., decimals ...; then equal segment counts; then the limits"
TOOL = Tool(
    id="bleu-brevity-penalty",
    version="1.0.0",
    validation=(
        Schema("candidate_lengths", leave=LIMITS),
        Schema("reference_lengths", leave=LIMITS),
        Schema("decimals"),
        equal_counts("candidate_lengths", "reference_lengths"),
        LENGTH_LIMITS,
    ),
    compute=compute,
    float_fields=("brevity_penalty",),  # exp of a libm: compared within a bound
    float_terms=float_terms,
    # the semantics line defining each output field (a (line, option) pair counts when the input sets it)
    clauses={
        "/brevity_penalty": (3, (4, "decimals")),
        "/candidate_length": 2,
        "/reference_length": 2,
        "/closest_reference_lengths": 2,
        "/closest_reference_lengths/*": 2,
    },
)

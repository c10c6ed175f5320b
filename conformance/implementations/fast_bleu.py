"""fast-bleu (C++, PyPI ``fast-bleu``): ``fast_bleu.BLEU(references, weights, smoothing_func).get_score(hypotheses)``.

It scores every hypothesis against one fixed reference set (shared by all hypotheses) and returns
the scores only, with NLTK's method0 or method1 smoothing. So it expresses bleu-sentence-compute's
``bleu`` (the references as its reference set, the hypothesis alone, uniform weights 1/N over
max_order N >= 2: it asserts 2 <= N) with smoothing "none" (method0) or "chen-cherry-1"
(method1), effective order false; the counts and lengths are not expressed. ``decimals`` rounds
its float with toFixed (``implementations.rounded``). The corpus tools would need one reference set per
segment: not expressible, nor is chrF. The cross-check compares get_score with the oracle's bleu.
"""

from __future__ import annotations

import math
import struct

from conformance.crosscheck.adapters.bleu import library_answer, max_order
from conformance.crosscheck.adapters.bleu_sentence_compute import floor_or_exp_on_a_missing_order
from conformance.crosscheck.comparison import Comparison, not_comparable
from conformance.crosscheck.model import Check, Divergence
from conformance.implementations import Implementation, NotApplicable, Partial, rounded
from conformance.implementations._shared import catalogued, no_chrf
from oracle.bleu_score import smoothed_precisions

IMPLEMENTATION = Implementation(
    name="fast-bleu",
    language="C++",
    distribution="fast-bleu",
    requires=("fast_bleu",),
    counterpart="fast_bleu.BLEU(references, {N: (1/N,)*N}, smoothing_func).get_score([hypothesis])",
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = ("missing-order-denominator-one", "single-precision-weights", "space-joined-ngram-keys")

NOT_EXPRESSIBLE_OTHERWISE = (
    "fast_bleu.BLEU scores each hypothesis against one reference set shared by all "
    "and returns the score only: no counts, totals or lengths"
)
NOT_EXPRESSIBLE = no_chrf("fast-bleu")

# fast-bleu's method_0 and method_1, "the same as NLTK"'s: the contract's "none" and "chen-cherry-1"
SMOOTHING = {"none": 0, "chen-cherry-1": 1}


def inexpressible(payload: dict) -> str:
    """Why fast_bleu.BLEU cannot be given this input ("" when it can)."""
    if max_order(payload) < 2:
        return "max_order 1: fast_bleu.BLEU asserts a maximum order of at least 2"
    if payload["smoothing"] not in SMOOTHING:
        return "smoothing chen-cherry-2 or chen-cherry-3: fast-bleu has only NLTK's method0 and method1"
    if payload.get("effective_order", False):
        return "effective_order true: fast-bleu has no effective order"
    return ""


def score(payload: dict) -> float:
    """BLEU(references, {N: (1/N,)*N}, smoothing_func).get_score([hypothesis]): the hypothesis against its
    references as fast-bleu's one reference set, uniform weights 1/N."""
    from fast_bleu import BLEU

    n = max_order(payload)
    scorer = BLEU(payload["references"], {n: (1 / n,) * n}, smoothing_func=SMOOTHING[payload["smoothing"]])
    return scorer.get_score([payload["hypothesis"]])[n][0]


# --- the matrix: the target implementation:fast-bleu --------------------------------------------------------


def bleu_sentence_compute(payload: dict) -> Partial:
    reason = inexpressible(payload)
    if reason:
        raise NotApplicable(reason)
    return Partial({"bleu": rounded(payload, score(payload))})


# --- the cross-check ------------------------------------------------------------------------------------------


def sentence_score_comparison(payload: dict, expected: dict) -> Comparison:
    """fast-bleu's score against the contract's bleu, where its API expresses the input."""
    reason = inexpressible(payload)
    if reason:
        return not_comparable(reason)
    comparison = Comparison()
    comparison.close("bleu", expected["bleu"], score(payload))
    return comparison


@library_answer
def output(payload: dict) -> dict:
    """fast-bleu's sentence BLEU, as a partial output."""
    return {"bleu": score(payload)}


def single_precision(value: float) -> float:
    """The float32 nearest a double (IEEE round to nearest even), as a double."""
    return struct.unpack("f", struct.pack("f", value))[0]


@library_answer
def single_precision_weights_output(payload: dict) -> dict | None:
    """The mechanism written out: the contract's bp * exp(sum of w * ln(p_n)) with the weight w = 1/N rounded to
    float32, on the contract's own p_n; not modelled where that is the contract's score (0, or every p_n 1):
    the weight changes nothing there, so it explains no failure."""
    from oracle import execute
    from oracle.bleu_sentence_compute import TOOL

    expected = execute(TOOL.id, TOOL.version, payload)
    if expected["bleu"] == 0:
        return None
    weight = single_precision(1 / max_order(payload))
    precisions = smoothed_precisions(expected["matches"], expected["totals"], payload["smoothing"])
    log_sum = 0.0
    for numerator, denominator in precisions:
        log_sum += weight * math.log(numerator / denominator)
    bleu = expected["brevity_penalty"] * math.exp(log_sum)
    return None if bleu == expected["bleu"] else {"bleu": bleu}


def single_precision_weight_rounded(payload: dict) -> bool:
    """fast-bleu expresses the input and 1/N is not a float32 (N not a power of two)."""
    n = max_order(payload)
    return not inexpressible(payload) and single_precision(1 / n) != 1 / n


def token_holding_a_space(payload: dict) -> bool:
    """fast-bleu expresses the input and some token holds U+0020 (its n-gram keys join tokens with spaces)."""
    tokens = [*payload["hypothesis"], *(token for reference in payload["references"] for token in reference)]
    return not inexpressible(payload) and any(" " in token for token in tokens)


def floor_on_a_missing_order(payload: dict) -> bool:
    """fast-bleu expresses the input, smoothing chen-cherry-1, a hypothesis shorter than max_order, and some
    unigram matched: an order has l_n = 0."""
    return not inexpressible(payload) and floor_or_exp_on_a_missing_order(payload)


SENTENCE_CHECK = "fast-bleu/get_score:smoothed"

CHECKS = {
    "bleu_sentence_compute": [
        Check(
            SENTENCE_CHECK,
            "fast_bleu.BLEU(references, {N: (1/N,)*N}, smoothing_func=0|1).get_score([hypothesis]); max_order >= 2, "
            "smoothing none or chen-cherry-1, effective_order false only",
            sentence_score_comparison,
        ),
    ],
}

DIVERGENCES = {
    "bleu_sentence_compute": [
        Divergence(
            id="fast-bleu-space-joined-ngrams",
            **catalogued("space-joined-ngram-keys"),
            checks=(SENTENCE_CHECK,),
            fields=("bleu",),
            what_differs="BLEU of tokens holding a space: n-grams that differ as token sequences count as one, "
            'e.g. ("a", "a a") matching ("a a", "a")',
            mechanism="fast_bleu keys each n-gram by its tokens joined with a single space, so two n-grams whose "
            "joined strings are equal are the same key (checked: a space-joined count reproduces its "
            "scores, a NUL-joined one does not)",
            applies=token_holding_a_space,
            library_output=output,
        ),
        Divergence(
            id="fast-bleu-single-precision-weights",
            **catalogued("single-precision-weights"),
            checks=(SENTENCE_CHECK,),
            fields=("bleu",),
            what_differs="BLEU of max_order 3 (any N not a power of two): about 2e-8 relative off the contract's "
            "(0.510872944703268 for 0.5108729549290354)",
            mechanism="fast_bleu.BLEU keeps its weights in single precision (C++ float): 1/N rounded to 32 bits, "
            "fl32(1/3) = 0.3333333432674408, multiplies each ln(p_n); a power of two is exact",
            applies=single_precision_weight_rounded,
            library_output=single_precision_weights_output,
        ),
        Divergence(
            id="fast-bleu-smoothed-missing-order",
            shows="missing-order-denominator-one",
            checks=(SENTENCE_CHECK,),
            fields=("bleu",),
            what_differs="BLEU with chen-cherry-1 of a hypothesis shorter than max_order: positive where the "
            "contract has 0",
            mechanism="fast-bleu reimplements NLTK's sentence_bleu: an order without hypothesis n-grams has the "
            "precision 0 / max(1, 0), which method_1 turns into 0.1 / 1 and averages in with weight 1/N "
            "(NLTK's nltk-smoothed-missing-order); it has no effective order",
            clause="bleu is exactly 0 ... when effective_order is false and some order n <= max_order has smoothed "
            "denominator 0",
            applies=floor_on_a_missing_order,
            library_output=output,
        ),
    ],
}


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------


def sentence_call(payload: dict) -> str:
    from conformance.implementations._calls import literal, python

    n = max_order(payload)
    return python(
        ["from fast_bleu import BLEU"],
        [
            f"hypothesis = {literal(payload['hypothesis'])}",
            f"references = {literal(payload['references'])}",
            f"n = {n}",
            f"scorer = BLEU(references, {{n: (1 / n,) * n}}, smoothing_func={SMOOTHING.get(payload['smoothing'], 0)})",
        ],
        '{"bleu": scorer.get_score([hypothesis])[n][0]}',
    )


CALLS = {"bleu_sentence_compute": sentence_call}

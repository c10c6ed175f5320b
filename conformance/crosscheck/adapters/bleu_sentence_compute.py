"""Cross-checks of bleu-sentence-compute: sacreBLEU's compute_bleu and sentence_score, NLTK's sentence_bleu,
fast-bleu's BLEU.get_score, each with the library's counterpart of the input's smoothing and effective order; and
npm bleu-score's bleu (unsmoothed, one reference) on inputs of its own, with tokens named like the properties every
JavaScript object inherits."""

from __future__ import annotations

import math
import struct
import warnings

from hypothesis import strategies as st

from conformance.crosscheck.adapters.bleu import (
    BLEU_ABOVE_ONE,
    PLAIN_TOKENS,
    bleu_schema,
    empty_hypothesis_and_reference,
    every_ngram_matched,
    library_answer,
    max_order,
    sacrebleu_bleu,
    sacrebleu_quiet,
    sacrebleu_segment,
    sentence_inputs,
    sentence_statistics,
    torchmetrics_bleu_comparison,
    torchmetrics_bleu_divergences,
    unsplittable,
)
from conformance.crosscheck.comparison import Comparison, not_comparable
from conformance.crosscheck.model import NOT_MODELLED, Agreement, Check, Divergence
from conformance.implementations import npm_bleu_score, rounded
from conformance.strategies.base import composite
from oracle.bleu_score import SMOOTHING_METHODS, smoothed_precisions
from oracle.bleu_sentence_compute import TOOL

# the contract names its methods' counterparts: "sacreBLEU "floor"" with epsilon 0.1, ""add-k" with k = 1",
# ""exp""; "NLTK method1", "method2", "method3"; "none" is sacreBLEU's 'none' and NLTK's method0
SACREBLEU_SMOOTHING = {
    "none": ("none", None),
    "chen-cherry-1": ("floor", 0.1),
    "chen-cherry-2": ("add-k", 1),
    "chen-cherry-3": ("exp", None),
}
NLTK_SMOOTHING = {"none": "method0", "chen-cherry-1": "method1", "chen-cherry-2": "method2", "chen-cherry-3": "method3"}

# every smoothing with effective_order true, false and omitted
INPUTS = sentence_inputs(smoothing=st.sampled_from(SMOOTHING_METHODS), effective_order=st.none() | st.booleans())


def effective_order(payload: dict) -> bool:
    return bool(payload.get("effective_order", False))  # "(omitted means false)"


def score_comparison(expected: dict, score) -> Comparison:
    """A sacreBLEU BLEUScore against the contract: counts, lengths, brevity penalty and the score (percent)."""
    comparison = Comparison()
    comparison.exact("matches", expected["matches"], list(score.counts))
    comparison.exact("totals", expected["totals"], list(score.totals))
    comparison.exact("candidate_length", expected["candidate_length"], score.sys_len)
    comparison.exact("reference_length", expected["reference_length"], score.ref_len)
    comparison.close("brevity_penalty", expected["brevity_penalty"], score.bp)
    # "multiply by 100 for the sacreBLEU percentage scale"
    comparison.close("bleu * 100", 100 * expected["bleu"], score.score)
    comparison.within("bleu within output_schema", score.score / 100, bleu_schema(TOOL))
    return comparison


def sacrebleu_compute_bleu(payload: dict, expected: dict) -> Comparison:
    """BLEU.compute_bleu on the contract's own m_n, l_n, c and r: the scoring alone, no counting.

    compute_bleu changes the lists it is given (add-k adds k to them): it gets copies.
    """
    from sacrebleu.metrics import BLEU

    method, value = SACREBLEU_SMOOTHING[payload["smoothing"]]
    score = BLEU.compute_bleu(
        list(expected["matches"]),
        list(expected["totals"]),
        expected["candidate_length"],
        expected["reference_length"],
        smooth_method=method,
        smooth_value=value,
        effective_order=effective_order(payload),
        max_ngram_order=max_order(payload),
    )
    comparison = score_comparison(expected, score)
    comparison.library["smooth_method"] = method
    return comparison


def sacrebleu_score(payload: dict):
    """BLEU(tokenize='none', smooth_method=..., effective_order=...).sentence_score of the input."""
    method, value = SACREBLEU_SMOOTHING[payload["smoothing"]]
    metric = sacrebleu_bleu(max_order(payload), method, effective_order(payload), value)
    with sacrebleu_quiet():
        return metric.sentence_score(*sacrebleu_segment(payload))


@library_answer
def sacrebleu_output(payload: dict) -> dict:
    """sacreBLEU's sentence_score as a partial output: counts, totals, brevity penalty, score on 0-1."""
    score = sacrebleu_score(payload)
    return {
        "matches": list(score.counts),
        "totals": list(score.totals),
        "brevity_penalty": score.bp,
        "bleu": score.score / 100,
    }


def sacrebleu_sentence_score(payload: dict, expected: dict) -> Comparison:
    """BLEU(tokenize='none', smooth_method=..., effective_order=...).sentence_score: counting and scoring."""
    refused = unsplittable(payload)
    if refused:
        return refused
    method, _ = SACREBLEU_SMOOTHING[payload["smoothing"]]
    score = sacrebleu_score(payload)
    comparison = score_comparison(expected, score)
    comparison.library["smooth_method"] = method
    return comparison


def nltk_sentence_bleu(payload: dict, expected: dict) -> Comparison:
    """sentence_bleu with uniform weights 1/N and SmoothingFunction().method0-3; its brevity_penalty beside it.

    NLTK has no effective order: the input's effective_order is the contract's alone (the catalogue says
    where it changes the score).
    """
    from nltk.translate.bleu_score import brevity_penalty, closest_ref_length, modified_precision

    method = NLTK_SMOOTHING[payload["smoothing"]]
    hypothesis, references = payload["hypothesis"], payload["references"]
    score, warned = nltk_score(payload)
    c = len(hypothesis)
    comparison = Comparison()
    r = closest_ref_length(references, c)
    comparison.close("brevity_penalty", expected["brevity_penalty"], brevity_penalty(r, c))
    comparison.close("bleu", expected["bleu"], score)
    # the denominators sentence_bleu divides by (modified_precision's, as the contract's totals)
    orders = range(1, max_order(payload) + 1)
    comparison.exact(
        "totals", expected["totals"], [modified_precision(references, hypothesis, n).denominator for n in orders]
    )
    comparison.library["smoothing_function"] = method
    # method0 warns for each zero precision it replaces: shown, not compared
    comparison.library["warnings"] = warned
    return comparison


def nltk_score(payload: dict) -> tuple[float, int]:
    """sentence_bleu with uniform weights 1/N and the input's smoothing's counterpart; and its warnings."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    n = max_order(payload)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        score = sentence_bleu(
            payload["references"],
            payload["hypothesis"],
            weights=(1 / n,) * n,
            smoothing_function=getattr(SmoothingFunction(), NLTK_SMOOTHING[payload["smoothing"]]),
        )
    return score, len(caught)


@library_answer
def nltk_output(payload: dict) -> dict:
    """NLTK's sentence BLEU, as a partial output."""
    return {"bleu": nltk_score(payload)[0]}


# fast-bleu's method_0 and method_1, "the same as NLTK"'s: the contract's "none" and "chen-cherry-1"
FAST_BLEU_SMOOTHING = {"none": 0, "chen-cherry-1": 1}


def fast_bleu_inexpressible(payload: dict) -> str:
    """Why fast_bleu.BLEU cannot be given this input ("" when it can)."""
    if max_order(payload) < 2:
        return "max_order 1: fast_bleu.BLEU asserts a maximum order of at least 2"
    if payload["smoothing"] not in FAST_BLEU_SMOOTHING:
        return "smoothing chen-cherry-2 or chen-cherry-3: fast-bleu has only NLTK's method0 and method1"
    if effective_order(payload):
        return "effective_order true: fast-bleu has no effective order"
    return ""


def fast_bleu_score(payload: dict) -> float:
    """BLEU(references, {N: (1/N,)*N}, smoothing_func).get_score([hypothesis]): the hypothesis against its
    references as fast-bleu's one reference set, uniform weights 1/N."""
    from fast_bleu import BLEU

    n = max_order(payload)
    scorer = BLEU(payload["references"], {n: (1 / n,) * n}, smoothing_func=FAST_BLEU_SMOOTHING[payload["smoothing"]])
    return scorer.get_score([payload["hypothesis"]])[n][0]


def fast_bleu_sentence_score(payload: dict, expected: dict) -> Comparison:
    """fast-bleu's score against the contract's bleu, where its API expresses the input."""
    reason = fast_bleu_inexpressible(payload)
    if reason:
        return not_comparable(reason)
    comparison = Comparison()
    comparison.close("bleu", expected["bleu"], fast_bleu_score(payload))
    return comparison


@library_answer
def fast_bleu_output(payload: dict) -> dict:
    """fast-bleu's sentence BLEU, as a partial output."""
    return {"bleu": fast_bleu_score(payload)}


def single_precision(value: float) -> float:
    """The float32 nearest a double (IEEE round to nearest even), as a double."""
    return struct.unpack("f", struct.pack("f", value))[0]


@library_answer
def single_precision_weights_output(payload: dict) -> dict | None:
    """The mechanism written out: the contract's bp * exp(sum of w * ln(p_n)) with the weight w = 1/N rounded to
    float32, on the contract's own p_n; not modelled where that is the contract's score (0, or every p_n 1):
    the weight changes nothing there, so it explains no failure."""
    from oracle import execute

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


# --- npm bleu-score: bleu(reference, candidate, maxN), n-grams counted in plain JavaScript objects -----------

# The own properties of Object.prototype (ECMA-262 20.1.3 and Annex B; Node.js 20 has exactly these), which every
# plain object `{}` inherits: `name in {}` is true before the name is counted. All are methods but `__proto__`.
OBJECT_PROTOTYPE_NAMES = (
    "constructor",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "__proto__",
)
PROTO = "__proto__"  # an accessor: setting it to a number is ignored
INHERITED_METHODS = frozenset(OBJECT_PROTOTYPE_NAMES) - {PROTO}
# names a reader may suspect that a plain object does not inherit (a function's and an array's own properties)
NOT_INHERITED = ("prototype", "length")


@composite
def npm_bleu_score_inputs(draw) -> dict:
    """Inputs bleu-score expresses (one reference, smoothing none) where each of the tokens a, b, c stays, or is
    renamed to __proto__, to a method of Object.prototype, or to a name a plain object does not inherit (one time
    in four each): the same name in the hypothesis and the reference, so that the names are matched, unmatched and
    repeated as the plain tokens are."""
    payload = draw(
        sentence_inputs(smoothing=st.just("none"), effective_order=st.none() | st.just(False), max_references=1)
    )
    methods = [name for name in OBJECT_PROTOTYPE_NAMES if name != PROTO]
    names = {
        token: draw(st.just(token) | st.just(PROTO) | st.sampled_from(methods) | st.sampled_from(NOT_INHERITED))
        for token in PLAIN_TOKENS
    }
    return {
        **payload,
        "hypothesis": [names.get(token, token) for token in payload["hypothesis"]],
        "references": [[names.get(token, token) for token in reference] for reference in payload["references"]],
    }


def npm_bleu_score_sentence(payload: dict, expected: dict) -> Comparison:
    """bleu-score's bleu against the contract's, where it expresses the input; its NaN (JSON.stringify writes null)
    as NaN: equal to no number, inside no bound."""
    reason = npm_bleu_score.inexpressible(payload)
    if reason:
        return not_comparable(reason)
    score = npm_bleu_score.score(payload)
    score = math.nan if score is None else score
    comparison = Comparison()
    comparison.close("bleu", expected["bleu"], score)
    comparison.within("bleu within output_schema", score, bleu_schema(TOOL))
    return comparison


def npm_bleu_score_output(payload: dict) -> dict | None:
    """bleu-score's answer written out (bleu.js read line by line; tests/test_npm_bleu_score.py holds it to the
    package): null (a NaN) when a hypothesis token names a method of Object.prototype, else the unsmoothed
    BP * (p_1 * ... * p_N) ** (1/N) on the contract's counts with every `__proto__` unigram unmatched; not modelled
    where the package cannot be given the input."""
    if npm_bleu_score.inexpressible(payload):
        return NOT_MODELLED
    hypothesis, reference = payload["hypothesis"], payload["references"][0]
    if INHERITED_METHODS.intersection(hypothesis):
        return {"bleu": None}
    statistics = sentence_statistics(payload)
    matches = list(statistics.matches)
    matches[0] -= min(hypothesis.count(PROTO), reference.count(PROTO))
    product = 1.0
    for m, total in zip(matches, statistics.totals):
        product *= m / total if total > 0 else 0
    c, r = len(hypothesis), len(reference)
    brevity_penalty = 1 if c > r else math.exp(1 - r / c)
    return {"bleu": rounded(payload, brevity_penalty * product ** (1 / max_order(payload)))}


# --- conditions ---------------------------------------------------------------------------


def unigrams_matched(payload: dict) -> bool:
    return sentence_statistics(payload).matches[0] > 0


def add_k_past_the_early_return(payload: dict) -> bool:
    """smoothing chen-cherry-2 (add-k), max_order >= 2 and some unigram matched (compute_bleu does not return
    early), so add-k changes the counts of orders 2..N."""
    return payload["smoothing"] == "chen-cherry-2" and max_order(payload) >= 2 and unigrams_matched(payload)


def floor_or_exp_on_a_missing_order(payload: dict) -> bool:
    """smoothing chen-cherry-1 or chen-cherry-3, a hypothesis shorter than max_order, and some unigram matched
    (else both sides score 0): an order has l_n = 0."""
    return (
        payload["smoothing"] in ("chen-cherry-1", "chen-cherry-3")
        and len(payload["hypothesis"]) < max_order(payload)
        and unigrams_matched(payload)
    )


def add_one_on_a_missing_order(payload: dict) -> bool:
    """smoothing chen-cherry-2, a hypothesis shorter than max_order, and some unigram matched: an order n >= 2
    has l_n = 0."""
    return (
        payload["smoothing"] == "chen-cherry-2"
        and len(payload["hypothesis"]) < max_order(payload)
        and unigrams_matched(payload)
    )


def unsmoothed_zero_precision(payload: dict) -> bool:
    """smoothing none, some unigram matched and some order n <= max_order with m_n = 0 (l_n = 0 included)."""
    return payload["smoothing"] == "none" and unigrams_matched(payload) and 0 in sentence_statistics(payload).matches


def single_precision_weight_rounded(payload: dict) -> bool:
    """fast-bleu expresses the input and 1/N is not a float32 (N not a power of two)."""
    n = max_order(payload)
    return not fast_bleu_inexpressible(payload) and single_precision(1 / n) != 1 / n


def token_holding_a_space(payload: dict) -> bool:
    """fast-bleu expresses the input and some token holds U+0020 (its n-gram keys join tokens with spaces)."""
    tokens = [*payload["hypothesis"], *(token for reference in payload["references"] for token in reference)]
    return not fast_bleu_inexpressible(payload) and any(" " in token for token in tokens)


def floor_on_a_missing_order(payload: dict) -> bool:
    """fast-bleu expresses the input, smoothing chen-cherry-1, a hypothesis shorter than max_order, and some
    unigram matched: an order has l_n = 0."""
    return not fast_bleu_inexpressible(payload) and floor_or_exp_on_a_missing_order(payload)


def inherited_method_in_hypothesis(payload: dict) -> bool:
    """bleu-score expresses the input and a hypothesis token is the name of a method of Object.prototype (every
    own property name of Object.prototype but __proto__: constructor, toString, valueOf, hasOwnProperty, ...)."""
    return not npm_bleu_score.inexpressible(payload) and bool(INHERITED_METHODS.intersection(payload["hypothesis"]))


def proto_in_hypothesis_and_reference(payload: dict) -> bool:
    """bleu-score expresses the input, the hypothesis and the reference both hold the token __proto__, and no
    hypothesis token names a method of Object.prototype (whose NaN hides every count)."""
    return (
        not npm_bleu_score.inexpressible(payload)
        and not inherited_method_in_hypothesis(payload)
        and PROTO in payload["hypothesis"]
        and PROTO in payload["references"][0]
    )


SACREBLEU_CHECKS = ("sacrebleu/compute_bleu:smoothed", "sacrebleu/sentence_score:smoothed")
FAST_BLEU_CHECK = "fast-bleu/get_score:smoothed"
NPM_BLEU_SCORE_CHECK = "npm-bleu-score/bleu:object-property-tokens"
NPM_COUNTING_CLAUSE = "m_n sums min(count, largest count in any single reference) over the distinct hypothesis n-grams"

CHECKS = [
    Check(
        SACREBLEU_CHECKS[0],
        "sacrebleu",
        "BLEU.compute_bleu(matches, totals, c, r, smooth_method='none'|'floor'|'add-k'|'exp', smooth_value=None|0.1|1"
        "|None, effective_order=..., max_ngram_order=N), on the contract's statistics",
        sacrebleu_compute_bleu,
    ),
    Check(
        SACREBLEU_CHECKS[1],
        "sacrebleu",
        "BLEU(tokenize='none', smooth_method=..., smooth_value=..., effective_order=..., max_ngram_order=N)"
        ".sentence_score(hypothesis, references)",
        sacrebleu_sentence_score,
    ),
    Check(
        "nltk/sentence_bleu:smoothed",
        "nltk",
        "nltk.translate.bleu_score.sentence_bleu(references, hypothesis, weights=(1/N,)*N, "
        "smoothing_function=SmoothingFunction().method0|method1|method2|method3); brevity_penalty(r, c)",
        nltk_sentence_bleu,
    ),
    Check(
        FAST_BLEU_CHECK,
        "fast-bleu",
        "fast_bleu.BLEU(references, {N: (1/N,)*N}, smoothing_func=0|1).get_score([hypothesis]); max_order >= 2, "
        "smoothing none or chen-cherry-1, effective_order false only",
        fast_bleu_sentence_score,
    ),
    Check(
        "torchmetrics/bleu_score:sentence",
        "torchmetrics",
        "torchmetrics.functional.text.bleu_score(preds, target, n_gram=N, smooth=False|True).item(), the tokens "
        "joined with spaces",
        torchmetrics_bleu_comparison,
    ),
    Check(
        NPM_BLEU_SCORE_CHECK,
        "npm-bleu-score",
        "require('bleu-score').bleu(reference.join(' '), hypothesis.join(' '), N) in Node.js; one reference, smoothing "
        "none, effective_order false; inputs of its own, with tokens named like Object.prototype's properties",
        npm_bleu_score_sentence,
        inputs=npm_bleu_score_inputs(),
    ),
]

DIVERGENCES = [
    Divergence(
        id="sacrebleu-sentence-bp-empty",
        libraries=("sacrebleu",),
        checks=SACREBLEU_CHECKS,
        fields=("brevity_penalty",),
        what_differs="brevity penalty of an empty hypothesis against an empty reference: 1 instead of 0 (the "
        "score is 0 on both sides)",
        mechanism="BLEU.compute_bleu sets bp = 1.0 and replaces it only when sys_len < ref_len, so c = r = 0 "
        "keeps 1.0; it then returns early with score 0 (nothing matched)",
        clause="brevity_penalty is 1 when c > r, 0 when c = 0 (even if r = 0)",
        applies=empty_hypothesis_and_reference,
        library_output=sacrebleu_output,
    ),
    Divergence(
        id="sacrebleu-add-k-smoothed-counts",
        libraries=("sacrebleu",),
        checks=SACREBLEU_CHECKS,
        fields=("matches", "totals"),
        what_differs="the counts and totals reported with add-k: m_n + 1 and l_n + 1 for n >= 2 instead of the "
        "raw m_n and l_n (the score agrees)",
        mechanism="compute_bleu with smooth_method='add-k' adds smooth_value (k = 1) to correct[n-1] and "
        "total[n-1] in place for n >= 2 before dividing, and returns those lists as BLEUScore.counts "
        "and .totals; when no unigram matched it returns early, before adding, with the raw counts",
        clause="matches and totals are the raw m_n and l_n, never smoothed",
        applies=add_k_past_the_early_return,
        library_output=sacrebleu_output,
    ),
    Divergence(
        id="nltk-smoothed-missing-order",
        libraries=("nltk",),
        checks=("nltk/sentence_bleu:smoothed",),
        fields=("bleu",),
        what_differs="BLEU with chen-cherry-1 or -3 of a hypothesis shorter than max_order: positive where the "
        "contract has 0, or (effective_order) a lower score than the contract's over fewer orders",
        mechanism="modified_precision divides by max(1, count), so an order without hypothesis n-grams is "
        "Fraction(0, 1), which method1 turns into 0.1 / 1 and method3 into 1 / (2^k * 1); sentence_bleu "
        "has no effective order and averages it in with weight 1/N",
        clause="an order whose smoothed denominator is 0 has no n-grams and no p_n ... bleu is exactly 0 when c = 0, "
        "when m_1 = 0 ... when effective_order is false and some order n <= max_order has smoothed "
        "denominator 0",
        applies=floor_or_exp_on_a_missing_order,
        library_output=nltk_output,
    ),
    Divergence(
        id="nltk-method2-missing-order-half",
        libraries=("nltk",),
        checks=("nltk/sentence_bleu:smoothed",),
        fields=("bleu",),
        what_differs="BLEU with chen-cherry-2 of a hypothesis shorter than max_order: each order it is too short "
        "for has p_n = 1/2 instead of 1, so the score is lower",
        mechanism="modified_precision's denominator max(1, count) is 1 for an order without hypothesis n-grams, "
        "and method2 adds 1 to both parts: Fraction(0 + 1, 1 + 1) = 1/2 where (m_n + 1) / (l_n + 1) "
        "is 1/1",
        clause="p_n = (m_n + 1) / (l_n + 1) for n >= 2",
        applies=add_one_on_a_missing_order,
        library_output=nltk_output,
    ),
    Divergence(
        id="nltk-method0-zero-precision",
        libraries=("nltk",),
        checks=("nltk/sentence_bleu:smoothed",),
        fields=("bleu",),
        what_differs="unsmoothed BLEU when some order has no match but unigrams matched: a tiny positive number "
        "(and a warning) instead of exactly 0, or, under effective_order, instead of the score over "
        "the orders the hypothesis has",
        mechanism="SmoothingFunction().method0 replaces each zero precision (an order the hypothesis is too "
        "short for is Fraction(0, 1)) by sys.float_info.min (2.2e-308) and warns; with k such orders of "
        "N the score carries a factor (2.2e-308)^(k/N) (sentence_bleu returns 0 only when no unigram "
        "matched, and has no effective order)",
        clause='"none" gives p_n = m_n / l_n ... and with "none" when some m_n = 0 for n <= N\'',
        applies=unsmoothed_zero_precision,
        library_output=nltk_output,
    ),
    Divergence(
        id="sacrebleu-sentence-bleu-above-one",
        checks=SACREBLEU_CHECKS,
        applies=every_ngram_matched,
        library_output=sacrebleu_output,
        **BLEU_ABOVE_ONE,
    ),
    Divergence(
        id="fast-bleu-space-joined-ngrams",
        libraries=("fast-bleu",),
        checks=(FAST_BLEU_CHECK,),
        fields=("bleu",),
        what_differs="BLEU of tokens holding a space: n-grams that differ as token sequences count as one, e.g. "
        '("a", "a a") matching ("a a", "a")',
        mechanism="fast_bleu keys each n-gram by its tokens joined with a single space, so two n-grams whose "
        "joined strings are equal are the same key (checked: a space-joined count reproduces its "
        "scores, a NUL-joined one does not)",
        clause="Tokens are compared by exact string equality",
        applies=token_holding_a_space,
        library_output=fast_bleu_output,
    ),
    Divergence(
        id="fast-bleu-single-precision-weights",
        libraries=("fast-bleu",),
        checks=(FAST_BLEU_CHECK,),
        fields=("bleu",),
        what_differs="BLEU of max_order 3 (any N not a power of two): about 2e-8 relative off the contract's "
        "(0.510872944703268 for 0.5108729549290354)",
        mechanism="fast_bleu.BLEU keeps its weights in single precision (C++ float): 1/N rounded to 32 bits, "
        "fl32(1/3) = 0.3333333432674408, multiplies each ln(p_n); a power of two is exact",
        clause="bleu = brevity_penalty * exp((1/N') * sum of ln(p_n))",
        applies=single_precision_weight_rounded,
        library_output=single_precision_weights_output,
    ),
    Divergence(
        id="fast-bleu-smoothed-missing-order",
        libraries=("fast-bleu",),
        checks=(FAST_BLEU_CHECK,),
        fields=("bleu",),
        what_differs="BLEU with chen-cherry-1 of a hypothesis shorter than max_order: positive where the "
        "contract has 0",
        mechanism="fast-bleu reimplements NLTK's sentence_bleu: an order without hypothesis n-grams has the "
        "precision 0 / max(1, 0), which method_1 turns into 0.1 / 1 and averages in with weight 1/N "
        "(NLTK's nltk-smoothed-missing-order); it has no effective order",
        clause="bleu is exactly 0 ... when effective_order is false and some order n <= max_order has smoothed "
        "denominator 0",
        applies=floor_on_a_missing_order,
        library_output=fast_bleu_output,
    ),
    *torchmetrics_bleu_divergences(
        TOOL,
        "torchmetrics/bleu_score:sentence",
        "Arithmetic is IEEE-754 double: each p_n is one division of the exact values shown",
        smoothed=True,
    ),
    Divergence(
        id="npm-bleu-score-inherited-method-nan",
        libraries=("npm-bleu-score",),
        checks=(NPM_BLEU_SCORE_CHECK,),
        fields=("bleu", "bleu within output_schema"),
        what_differs="BLEU of a hypothesis holding a token named like a method every JavaScript object inherits "
        "(constructor, toString, valueOf, hasOwnProperty, ...): NaN, written null, instead of a number",
        mechanism="bleu.js counts n-grams in plain objects: `candidateNgrams[ngram] = (candidateNgrams[ngram] || 0) "
        "+ 1` reads the inherited function, which `+ 1` turns into a string; `ngram in referenceNgrams` is true for "
        "an inherited name, and `Math.min(count, referenceNgrams[ngram])` is NaN, so is the unigram precision, the "
        "product and the score (JSON.stringify writes null). Checked by running the package: every own property "
        "name of Object.prototype but `__proto__`; the name in the reference alone changes nothing. In "
        "tools/npm_bleu_score, `node -p \"require('bleu-score').bleu('a', 'toString', 1)\"` prints NaN",
        clause=NPM_COUNTING_CLAUSE,
        applies=inherited_method_in_hypothesis,
        library_output=npm_bleu_score_output,
        out_of_bounds=True,
    ),
    Divergence(
        id="npm-bleu-score-proto-never-counted",
        libraries=("npm-bleu-score",),
        checks=(NPM_BLEU_SCORE_CHECK,),
        fields=("bleu",),
        what_differs="BLEU of a hypothesis and a reference both holding the token __proto__: that unigram never "
        "matches, so the score is lower (0 where it was the only match)",
        mechanism="`candidateNgrams['__proto__'] = ...` calls Object.prototype's __proto__ setter, which ignores a "
        "value that is not an object, so __proto__ never becomes a key: `for (const ngram in candidateNgrams)` never "
        "visits it and its matches are lost (only the unigram's: a longer n-gram's key holds a space). In "
        "tools/npm_bleu_score, `node -p \"require('bleu-score').bleu('__proto__', '__proto__', 1)\"` prints 0",
        clause=NPM_COUNTING_CLAUSE,
        applies=proto_in_hypothesis_and_reference,
        library_output=npm_bleu_score_output,
    ),
]

AGREEMENTS = [
    Agreement(
        "no unigram matched (sentence)",
        "compute_bleu returns score 0 early when no count is positive (before any smoothing, with its real "
        "brevity penalty and the raw counts) and NLTK returns 0 when p_1's numerator is 0: the contract's "
        "'exactly 0 when c = 0, when m_1 = 0' for every smoothing",
        (*SACREBLEU_CHECKS, "nltk/sentence_bleu:smoothed"),
    ),
    Agreement(
        "NIST geometric sequence (chen-cherry-3)",
        "sacreBLEU's smooth_mteval (doubled before use, from 1) and NLTK's incvnt (from 1) give the first "
        "zero-match order 1 / (2 l_n), the next 1 / (4 l_n), then 1 / (8 l_n): the contract's k = 1, 2, 3, "
        "whichever order the matches stop at",
        (*SACREBLEU_CHECKS, "nltk/sentence_bleu:smoothed"),
    ),
    Agreement(
        "effective order (sacreBLEU)",
        "compute_bleu(effective_order=True) stops at the first order with total 0 and averages over the "
        "orders before it, the contract's N' = min(max_order, c); under add-k the totals of orders >= 2 "
        "are l_n + 1 > 0, so every order is used (N' = max_order), as the contract says",
        SACREBLEU_CHECKS,
    ),
    Agreement(
        "hypothesis shorter than max_order, effective_order false (sacreBLEU)",
        "compute_bleu's loop stops at the first total 0 and leaves the remaining precisions 0.0, which "
        "my_log maps to -9999999999: the score is exactly 0.0, the contract's 0, for every smoothing but "
        "add-k (whose totals are never 0 there, and whose scores agree)",
        SACREBLEU_CHECKS,
    ),
    Agreement(
        "floor and add-k values",
        "sacreBLEU's 100 * 0.1 / l_n (floor, smooth_value 0.1) and (m_n + 1) / (l_n + 1) (add-k, k = 1), "
        "NLTK's (0 + 0.1) / l_n (method1) and Fraction(m_n + 1, l_n + 1) (method2, l_n > 0) are the "
        "contract's p_n: scores agree within 1e-9 relative wherever every order has n-grams",
        (*SACREBLEU_CHECKS, "nltk/sentence_bleu:smoothed"),
    ),
    Agreement(
        "names a plain object does not inherit, and inherited names in the reference alone (bleu-score)",
        "bleu-score counts prototype and length as any other token, and a reference token named like a property of "
        "Object.prototype changes nothing (only the hypothesis's n-grams are looked up in the reference's counts): "
        "the contract's score within 1e-9 relative",
        (NPM_BLEU_SCORE_CHECK,),
    ),
]

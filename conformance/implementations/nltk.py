"""NLTK (Python) through its public API in ``nltk.translate.bleu_score``: ``corpus_bleu`` and
``sentence_bleu`` (uniform weights 1/N, ``SmoothingFunction().method0-3``), ``modified_precision``
(whose numerator and denominator are the counts corpus_bleu sums), ``closest_ref_length`` and
``brevity_penalty``.

NLTK takes token lists, so every token is expressible. It has no effective order and no
per-n-gram table, so those inputs are not applicable; ``decimals`` rounds its floats with toFixed
(``implementations.rounded``).

``nltk.translate.chrf_score.corpus_chrf`` and ``sentence_chrf(reference, hypothesis, min_len=1,
max_len=N, beta, ignore_whitespace)`` give chrF scores on 0..1 (its own definition: F per order
averaged, epsilon smoothing, a macro-averaged corpus score, its own whitespace set; the failure
groups show where that departs from the contracts): partial answers of chrf-compute and
chrf-components (character orders only: it has no word n-grams) holding the scores, the exact
fraction and the statistics not expressed. It has no lowercase option: the texts are lowercased
with the contracts' toLowerCase (str.lower, as the oracle reads it) before it sees them.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

from conformance.crosscheck.adapters.bleu import (
    hypothesis_shorter_than_max_order,
    library_answer,
    max_order,
    some_segment_shorter_than_max_order,
    some_zero_match_order_yet_unigram_match,
)
from conformance.crosscheck.adapters.bleu_sentence_compute import (
    add_one_on_a_missing_order,
    floor_or_exp_on_a_missing_order,
    unsmoothed_zero_precision,
)
from conformance.crosscheck.adapters.chrf import (
    cased,
    row_dicts,
    rule_score,
    text_with_information_separator,
)
from conformance.crosscheck.adapters.chrf_components import exact_segment_score as orders_exact_segment_score
from conformance.crosscheck.adapters.chrf_components import (
    nltk_texts,
    options,
    separator_with_whitespace_removed,
)
from conformance.crosscheck.adapters.chrf_compute import exact_segment_score as chrf6_exact_segment_score
from conformance.crosscheck.comparison import Comparison, not_comparable
from conformance.crosscheck.model import NOT_MODELLED, Check, Divergence
from conformance.implementations import Implementation, LibraryFloat, NotApplicable, Partial, rounded
from conformance.implementations._shared import catalogued, no_effective_order
from oracle import chrf
from oracle.chrf_compute import CHAR_ORDER as CHRF6_CHAR_ORDER
from oracle.chrf_compute import WORD_ORDER as CHRF6_WORD_ORDER
from oracle.chrf_plus_plus_compute import CHAR_ORDER as CHRF_PLUS_PLUS_CHAR_ORDER
from oracle.chrf_plus_plus_compute import WORD_ORDER as CHRF_PLUS_PLUS_WORD_ORDER

IMPLEMENTATION = Implementation(
    name="nltk",
    language="Python",
    distribution="nltk",
    requires=("nltk",),
    counterpart="nltk.translate.bleu_score.corpus_bleu / sentence_bleu / modified_precision / "
    "closest_ref_length / brevity_penalty",
    extra="crosscheck",
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = (
    "missing-order-denominator-one",
    "zero-precision-floor",
    "whitespace-set-without-information-separators",
    "f-per-order-averaged",
)

NOT_EXPRESSIBLE = {"chrf_plus_plus_compute": "NLTK's chrf_score has no word n-grams"}


def segment_counts(references: list, hypothesis: list, n: int) -> tuple[list[int], list[int]]:
    """modified_precision's numerator and denominator per order, as corpus_bleu sums them."""
    from nltk.translate.bleu_score import modified_precision

    fractions = [modified_precision(references, hypothesis, order) for order in range(1, n + 1)]
    return [f.numerator for f in fractions], [f.denominator for f in fractions]


def corpus_statistics(payload: dict) -> dict:
    """matches and totals summed over segments, c and r as corpus_bleu sums them (len, closest_ref_length)."""
    from nltk.translate.bleu_score import closest_ref_length

    n = max_order(payload)
    matches, totals, c, r = [0] * n, [0] * n, 0, 0
    for hypothesis, references in zip(payload["hypotheses"], payload["references"]):
        m, t = segment_counts(references, hypothesis, n)
        matches, totals = [a + b for a, b in zip(matches, m)], [a + b for a, b in zip(totals, t)]
        c += len(hypothesis)
        r += closest_ref_length(references, len(hypothesis))
    return {"max_order": n, "matches": matches, "totals": totals, "candidate_length": c, "reference_length": r}


def quietly(function, *args, **kwargs):
    """NLTK warns for each zero precision method0 replaces: silenced, the value is what counts."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def bleu_corpus_compute(payload: dict) -> dict:
    from nltk.translate.bleu_score import brevity_penalty, corpus_bleu

    stats = corpus_statistics(payload)
    n = stats["max_order"]
    bleu = quietly(corpus_bleu, payload["references"], payload["hypotheses"], weights=(1 / n,) * n)
    return {
        "bleu": rounded(payload, bleu),
        "brevity_penalty": rounded(payload, brevity_penalty(stats["reference_length"], stats["candidate_length"])),
        **stats,
    }


def bleu_ngrams_count(payload: dict) -> dict:
    detail = payload.get("detail", "totals")
    if detail == "ngrams":
        raise NotApplicable("detail ngrams: NLTK has no public per-n-gram clipping table")
    n = max_order(payload)
    stats = corpus_statistics(payload)
    output = {"max_order": n, "matches": stats["matches"], "totals": stats["totals"]}
    if detail == "segments":
        output["segments"] = []
        for i, (hypothesis, references) in enumerate(zip(payload["hypotheses"], payload["references"])):
            m, t = segment_counts(references, hypothesis, n)
            output["segments"].append({"segment": i, "candidate_length": len(hypothesis), "matches": m, "totals": t})
    return output


def sentence_statistics(payload: dict) -> dict:
    return corpus_statistics(
        {"hypotheses": [payload["hypothesis"]], "references": [payload["references"]], "max_order": max_order(payload)}
    )


def bleu_sentence_components(payload: dict) -> dict:
    return sentence_statistics(payload)


def bleu_sentence_compute(payload: dict) -> dict:
    from nltk.translate.bleu_score import SmoothingFunction, brevity_penalty, sentence_bleu

    no_effective_order(payload, "NLTK")
    stats = sentence_statistics(payload)
    n = stats["max_order"]
    smoothing = getattr(SmoothingFunction(), SMOOTHING[payload["smoothing"]])
    bleu = quietly(
        sentence_bleu, payload["references"], payload["hypothesis"], weights=(1 / n,) * n, smoothing_function=smoothing
    )
    # uniform weights 1/N over all N orders: the orders_used it was given
    return {
        "bleu": rounded(payload, bleu),
        "brevity_penalty": rounded(payload, brevity_penalty(stats["reference_length"], stats["candidate_length"])),
        **stats,
        "orders_used": n,
        "smoothing": payload["smoothing"],
    }


def bleu_brevity_penalty(payload: dict) -> dict:
    """closest_ref_length per segment (it reads only len() of each reference: a range of that length is one)
    and brevity_penalty on the sums, as corpus_bleu does."""
    from nltk.translate.bleu_score import brevity_penalty, closest_ref_length

    closest = [
        closest_ref_length([range(int(length)) for length in lengths], c)  # 4.0 is the integer 4
        for c, lengths in zip(payload["candidate_lengths"], payload["reference_lengths"])
    ]
    c, r = sum(payload["candidate_lengths"]), sum(closest)
    return {
        "brevity_penalty": rounded(payload, brevity_penalty(r, c)),
        "candidate_length": c,
        "reference_length": r,
        "closest_reference_lengths": closest,
    }


# --- chrF: corpus_chrf and sentence_chrf, floats on 0..1 ---------------------------------------------------


def chrf_scores(payload: dict, char_order: int, whitespace: bool = False) -> tuple[LibraryFloat, list[LibraryFloat]]:
    """(corpus_chrf, each segment's sentence_chrf) of the (lowercased where asked) texts, the input's beta."""
    from nltk.translate.chrf_score import corpus_chrf, sentence_chrf

    options = {
        "min_len": 1,
        "max_len": char_order,
        "beta": int(payload.get("beta", 2)),
        "ignore_whitespace": not whitespace,
    }
    hypotheses = [cased(payload, h) for h in payload["hypotheses"]]
    references = [cased(payload, r) for r in payload["references"]]
    return (
        LibraryFloat(corpus_chrf(references, hypotheses, **options), scale=1),
        [LibraryFloat(sentence_chrf(r, h, **options), scale=1) for h, r in zip(hypotheses, references)],
    )


def chrf_compute(payload: dict) -> Partial:
    score, segments = chrf_scores(payload, 6)
    return Partial({"score": score, "segment_scores": segments})


def chrf_components(payload: dict) -> Partial:
    from oracle.chrf_components import orders

    char_order, word_order = orders(payload)
    if word_order:
        raise NotApplicable("word_order above 0: NLTK's chrf_score has no word n-grams")
    score, segments = chrf_scores(payload, char_order, payload.get("whitespace", False))
    return Partial({"score": score, "segments": [{"segment": i, "score": s} for i, s in enumerate(segments)]})


# --- the cross-check: bleu ------------------------------------------------------------------------------------------------


def corpus_bleu_score(payload: dict) -> tuple[float, int]:
    """corpus_bleu with uniform weights 1/N and its default (method0) smoothing; and its warnings."""
    from nltk.translate.bleu_score import corpus_bleu

    n = max_order(payload)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        score = corpus_bleu(payload["references"], payload["hypotheses"], weights=(1 / n,) * n)
    return score, len(caught)


# --- the cross-check: chrf ------------------------------------------------------------------------------------------------


def chrf_floats(payload: dict, char_order: int, whitespace: bool = False) -> tuple[float, list[float]]:
    """corpus_chrf and each segment's sentence_chrf (orders 1..char_order, the input's beta, whitespace
    ignored unless kept, texts lowercased first where asked: NLTK has no option), 0..100."""
    from nltk.translate.chrf_score import corpus_chrf, sentence_chrf

    options = {
        "min_len": 1,
        "max_len": char_order,
        "beta": int(payload.get("beta", 2)),
        "ignore_whitespace": not whitespace,
    }
    hypotheses = [cased(payload, h) for h in payload["hypotheses"]]
    references = [cased(payload, r) for r in payload["references"]]
    return (
        100 * corpus_chrf(references, hypotheses, **options),
        [100 * sentence_chrf(r, h, **options) for h, r in zip(hypotheses, references)],
    )


def whitespace_statistics(
    payload: dict, char_order: int, word_order: int, whitespace: bool = False
) -> list[list[chrf.OrderStatistics]]:
    """The contract's rows of every segment with character n-grams taken as NLTK's _preprocess leaves the
    text (U+001C-U+001F kept): the whitespace-set mechanism alone, written out; word rows as the contract's."""
    from nltk.translate.chrf_score import _preprocess

    rows = []
    for h, r in zip(payload["hypotheses"], payload["references"]):
        h, r = cased(payload, h), cased(payload, r)
        characters = chrf.segment_statistics(
            _preprocess(h, not whitespace), _preprocess(r, not whitespace), char_order, 0, whitespace=True
        )
        rows.append(characters + (chrf.segment_statistics(h, r, 0, word_order) if word_order else []))
    return rows


def character_text(payload: dict, text: str, whitespace: bool = False) -> str:
    """The code points the contract takes character n-grams over."""
    return cased(payload, text) if whitespace else chrf.remove_whitespace(cased(payload, text))


def outside_agreement(payload: dict, char_order: int, whitespace: bool = False) -> bool:
    """NLTK's chrF and the contract's differ in definition except where both are certain to agree: every
    segment's hypothesis equals its reference with all char_order orders present (both score 1), or a single
    segment scored on character unigrams alone with a match (NLTK's one F is then the contract's F)."""
    pairs = [
        (character_text(payload, h, whitespace), character_text(payload, r, whitespace))
        for h, r in zip(payload["hypotheses"], payload["references"])
    ]
    if all(h == r and len(h) >= char_order for h, r in pairs):
        return False
    if char_order == 1 and len(pairs) == 1:
        hypothesis, reference = pairs[0]
        return not set(hypothesis) & set(reference)
    return True


# --- the cross-check: bleu_brevity_penalty --------------------------------------------------------------------------------


def brevity_penalty_comparison(payload: dict, expected: dict) -> Comparison:
    """closest_ref_length(references, c_i) per segment, summed, and brevity_penalty(r, c).

    closest_ref_length reads only len() of each reference: a reference of length n is given as range(n).
    """
    from nltk.translate.bleu_score import brevity_penalty, closest_ref_length

    closest = [
        closest_ref_length([range(n) for n in lengths], c)
        for c, lengths in zip(payload["candidate_lengths"], payload["reference_lengths"])
    ]
    c, r = sum(payload["candidate_lengths"]), sum(closest)
    comparison = Comparison()
    comparison.exact("closest_reference_lengths", expected["closest_reference_lengths"], closest)
    comparison.exact("candidate_length", expected["candidate_length"], c)
    comparison.exact("reference_length", expected["reference_length"], r)
    comparison.close("brevity_penalty", expected["brevity_penalty"], brevity_penalty(r, c))
    return comparison


# --- the cross-check: bleu_corpus_compute ---------------------------------------------------------------------------------


@library_answer
def corpus_bleu_output(payload: dict) -> dict:
    """NLTK's corpus BLEU, as a partial output."""
    return {"bleu": corpus_bleu_score(payload)[0]}


def corpus_bleu_comparison(payload: dict, expected: dict) -> Comparison:
    """nltk.translate.bleu_score.corpus_bleu with uniform weights 1/N and its default (method0) smoothing."""
    score, warned = corpus_bleu_score(payload)
    comparison = Comparison()
    comparison.close("bleu", expected["bleu"], score)
    # method0 warns for each zero precision it replaces: shown, not compared
    comparison.library["warnings"] = warned
    return comparison


def corpus_lengths_comparison(payload: dict, expected: dict) -> Comparison:
    """closest_ref_length per segment, summed, and brevity_penalty(r, c) on the corpus lengths."""
    from nltk.translate.bleu_score import brevity_penalty, closest_ref_length

    c = sum(len(h) for h in payload["hypotheses"])
    r = sum(closest_ref_length(refs, len(h)) for h, refs in zip(payload["hypotheses"], payload["references"]))
    comparison = Comparison()
    comparison.exact("candidate_length", expected["candidate_length"], c)
    comparison.exact("reference_length", expected["reference_length"], r)
    comparison.close("brevity_penalty", expected["brevity_penalty"], brevity_penalty(r, c))
    return comparison


# --- the cross-check: bleu_ngrams_count -----------------------------------------------------------------------------------


def precisions(payload: dict) -> list[list]:
    """modified_precision(references, hypothesis, n) per segment and order (unnormalised Fractions)."""
    from nltk.translate.bleu_score import modified_precision

    ngrams_orders = range(1, max_order(payload) + 1)
    return [
        [modified_precision(references, hypothesis, n) for n in ngrams_orders]
        for hypothesis, references in zip(payload["hypotheses"], payload["references"])
    ]


@library_answer
def corpus_totals_output(payload: dict) -> dict:
    """NLTK's answer where its denominators show: the totals summed over segments, per segment where the
    input's detail lists segments, and corpus_bleu's score (made from those totals) for the tools that have
    one (a field the tool's output lacks is never compared)."""
    per_segment = [[fraction.denominator for fraction in row] for row in precisions(payload)]
    answer = {"totals": [sum(column) for column in zip(*per_segment)], "bleu": corpus_bleu_score(payload)[0]}
    if payload.get("detail", "totals") != "totals":
        answer["segments"] = [{"totals": row} for row in per_segment]
    return answer


def modified_precision_comparison(payload: dict, expected: dict) -> Comparison:
    """modified_precision(references, hypothesis, n): numerator and denominator per segment and order."""
    comparison = Comparison()
    for segment, fractions in zip(expected["segments"], precisions(payload)):
        i = segment["segment"]
        comparison.exact(f"segments[{i}].matches", segment["matches"], [f.numerator for f in fractions])
        comparison.exact(f"segments[{i}].totals", segment["totals"], [f.denominator for f in fractions])
    return comparison


# --- the cross-check: bleu_sentence_components ----------------------------------------------------------------------------


def sentence_statistics_comparison(payload: dict, expected: dict) -> Comparison:
    """modified_precision(references, hypothesis, n) per order, closest_ref_length(references, len(hypothesis))."""
    from nltk.translate.bleu_score import closest_ref_length, modified_precision

    hypothesis, references = payload["hypothesis"], payload["references"]
    fractions = [modified_precision(references, hypothesis, n) for n in range(1, max_order(payload) + 1)]
    comparison = Comparison()
    comparison.exact("matches", expected["matches"], [f.numerator for f in fractions])
    comparison.exact("totals", expected["totals"], [f.denominator for f in fractions])
    comparison.exact("candidate_length", expected["candidate_length"], len(hypothesis))
    comparison.exact("reference_length", expected["reference_length"], closest_ref_length(references, len(hypothesis)))
    return comparison


@library_answer
def sentence_totals_output(payload: dict) -> dict:
    """NLTK's totals: modified_precision's denominators, max(1, l_n), per order."""
    from nltk.translate.bleu_score import modified_precision

    components_orders = range(1, max_order(payload) + 1)
    return {
        "totals": [
            modified_precision(payload["references"], payload["hypothesis"], n).denominator for n in components_orders
        ]
    }


# --- the cross-check: bleu_sentence_compute -------------------------------------------------------------------------------

SMOOTHING = {"none": "method0", "chen-cherry-1": "method1", "chen-cherry-2": "method2", "chen-cherry-3": "method3"}


def sentence_bleu_comparison(payload: dict, expected: dict) -> Comparison:
    """sentence_bleu with uniform weights 1/N and SmoothingFunction().method0-3; its brevity_penalty beside it.

    NLTK has no effective order: the input's effective_order is the contract's alone (the catalogue says
    where it changes the score).
    """
    from nltk.translate.bleu_score import brevity_penalty, closest_ref_length, modified_precision

    method = SMOOTHING[payload["smoothing"]]
    hypothesis, references = payload["hypothesis"], payload["references"]
    score, warned = sentence_bleu_score(payload)
    c = len(hypothesis)
    comparison = Comparison()
    r = closest_ref_length(references, c)
    comparison.close("brevity_penalty", expected["brevity_penalty"], brevity_penalty(r, c))
    comparison.close("bleu", expected["bleu"], score)
    # the denominators sentence_bleu divides by (modified_precision's, as the contract's totals)
    sentence_orders = range(1, max_order(payload) + 1)
    comparison.exact(
        "totals",
        expected["totals"],
        [modified_precision(references, hypothesis, n).denominator for n in sentence_orders],
    )
    comparison.library["smoothing_function"] = method
    # method0 warns for each zero precision it replaces: shown, not compared
    comparison.library["warnings"] = warned
    return comparison


def sentence_bleu_score(payload: dict) -> tuple[float, int]:
    """sentence_bleu with uniform weights 1/N and the input's smoothing's counterpart; and its warnings."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    n = max_order(payload)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        score = sentence_bleu(
            payload["references"],
            payload["hypothesis"],
            weights=(1 / n,) * n,
            smoothing_function=getattr(SmoothingFunction(), SMOOTHING[payload["smoothing"]]),
        )
    return score, len(caught)


@library_answer
def sentence_bleu_output(payload: dict) -> dict:
    """NLTK's sentence BLEU, as a partial output."""
    return {"bleu": sentence_bleu_score(payload)[0]}


# --- the cross-check: chrf_compute ----------------------------------------------------------------------------------------


def f_beta(precision: float, recall: float, beta: int) -> float:
    factor = beta * beta
    return (1 + factor) * precision * recall / (factor * precision + recall)


def chrf6_statistics_comparison(payload: dict, expected: dict) -> Comparison:
    """chrf_precision_recall_fscore_support per character order 1..6, and the contract's formula on NLTK's P and R.

    Per order: true positives against the contract's clipped matches, P and R where NLTK defines them (it
    returns epsilon for all three when an order has no match). Where every order matched, all six are
    effective orders of the contract, so the segment's score is F_beta of NLTK's averaged P and R: compared
    with the tool's exact segment score. NLTK has no lowercase option; the contract lowercases before taking
    n-grams, so lowering first is faithful.
    """
    from nltk.translate.chrf_score import _preprocess, chrf_precision_recall_fscore_support

    comparison = Comparison()
    for i, (hypothesis, reference) in enumerate(zip(payload["hypotheses"], payload["references"])):
        stats = chrf.segment_statistics(cased(payload, hypothesis), cased(payload, reference), CHRF6_CHAR_ORDER, 0)
        nltk_hyp, nltk_ref = _preprocess(cased(payload, hypothesis), True), _preprocess(cased(payload, reference), True)
        precisions, recalls = [], []
        for n, order in enumerate(stats, start=1):
            precision, recall, _, true_positives = chrf_precision_recall_fscore_support(nltk_ref, nltk_hyp, n)
            comparison.exact(f"segment[{i}].char{n}.matches", order.matches, true_positives)
            if true_positives and order.matches:
                comparison.close(
                    f"segment[{i}].char{n}.precision", Fraction(order.matches, order.hypothesis), precision
                )
                comparison.close(f"segment[{i}].char{n}.recall", Fraction(order.matches, order.reference), recall)
            if true_positives:
                precisions.append(precision)
                recalls.append(recall)
        if len(precisions) == CHRF6_CHAR_ORDER:
            comparison.close(
                f"segment[{i}].score / 100 (F of NLTK's P and R)",
                chrf6_exact_segment_score(hypothesis, reference, payload) / 100,
                f_beta(sum(precisions) / CHRF6_CHAR_ORDER, sum(recalls) / CHRF6_CHAR_ORDER, expected["beta"]),
            )
    return comparison


def chrf6_score_comparison(payload: dict, expected: dict) -> Comparison:
    """corpus_chrf(references, hypotheses, beta=beta) and sentence_chrf of each segment, on 0..1."""
    from nltk.translate.chrf_score import corpus_chrf, sentence_chrf

    hypotheses = [cased(payload, h) for h in payload["hypotheses"]]
    references = [cased(payload, r) for r in payload["references"]]
    beta = expected["beta"]
    comparison = Comparison()
    comparison.close(
        "score / 100", Fraction(expected["score_fraction"]) / 100, corpus_chrf(references, hypotheses, beta=beta)
    )
    for i, (hypothesis, reference) in enumerate(zip(payload["hypotheses"], payload["references"])):
        comparison.close(
            f"segment_scores[{i}] / 100",
            chrf6_exact_segment_score(hypothesis, reference, payload) / 100,
            sentence_chrf(references[i], hypotheses[i], beta=beta),
        )
    return comparison


@library_answer
def chrf6_whitespace_output(payload: dict) -> dict:
    """The contract's scores over the characters NLTK's whitespace removal leaves."""
    per_segment = whitespace_statistics(payload, CHRF6_CHAR_ORDER, CHRF6_WORD_ORDER)
    return {
        "score": rule_score(chrf.corpus_statistics(per_segment), payload),
        "segment_scores": [rule_score(rows, payload) for rows in per_segment],
    }


@library_answer
def chrf6_output(payload: dict) -> dict:
    """NLTK's corpus_chrf and sentence_chrf."""
    score, segments = chrf_floats(payload, CHRF6_CHAR_ORDER)
    return {"score": score, "segment_scores": segments}


def chrf6_outside_agreement(payload: dict) -> bool:
    """Some segment's hypothesis differs from its reference (after lowercasing, whitespace removed) or has fewer
    than 6 non-whitespace code points: outside the one domain where both metrics are certain to agree."""
    return outside_agreement(payload, CHRF6_CHAR_ORDER)


# --- the cross-check: chrf_plus_plus_compute ------------------------------------------------------------------------------


def chrf_plus_plus_statistics_comparison(payload: dict, expected: dict) -> Comparison:
    """chrf_precision_recall_fscore_support per character order: true positives, and P and R where NLTK defines them.

    NLTK returns epsilon for P and R when an order has no match (a ZeroDivisionError in its F); those are not
    compared. The contract's per-order counts come from the oracle's statistics of the same segment. NLTK has
    no lowercase option; the contract lowercases before tokenizing, so lowering first is faithful.
    """
    from nltk.translate.chrf_score import _preprocess, chrf_precision_recall_fscore_support

    comparison = Comparison()
    for i, (hypothesis, reference) in enumerate(zip(payload["hypotheses"], payload["references"])):
        hypothesis, reference = cased(payload, hypothesis), cased(payload, reference)
        stats = chrf.segment_statistics(hypothesis, reference, CHRF_PLUS_PLUS_CHAR_ORDER, 0)
        nltk_hyp, nltk_ref = _preprocess(hypothesis, True), _preprocess(reference, True)
        for n, order in enumerate(stats, start=1):
            precision, recall, _, true_positives = chrf_precision_recall_fscore_support(nltk_ref, nltk_hyp, n)
            comparison.exact(f"segment[{i}].char{n}.matches", order.matches, true_positives)
            if true_positives and order.matches:
                comparison.close(
                    f"segment[{i}].char{n}.precision", Fraction(order.matches, order.hypothesis), precision
                )
                comparison.close(f"segment[{i}].char{n}.recall", Fraction(order.matches, order.reference), recall)
    return comparison


def chrf_plus_plus_score_comparison(payload: dict, expected: dict) -> Comparison:
    """corpus_chrf(references, hypotheses, beta=beta) against the contract's chrF++ score, both on 0-1."""
    from nltk.translate.chrf_score import corpus_chrf

    hypotheses = [cased(payload, h) for h in payload["hypotheses"]]
    references = [cased(payload, r) for r in payload["references"]]
    comparison = Comparison()
    comparison.close(
        "score / 100",
        Fraction(expected["score_fraction"]) / 100,
        corpus_chrf(references, hypotheses, beta=expected["beta"]),
    )
    return comparison


def chrf_plus_plus_outside_agreement(payload: dict) -> bool:
    """Some segment's hypothesis differs from its reference (after lowercasing) or has fewer than 6 non-whitespace
    code points: outside the one domain where both metrics are certain to agree (every segment scoring 100)."""
    return any(
        cased(payload, h) != cased(payload, r)
        or len(chrf.remove_whitespace(cased(payload, h))) < CHRF_PLUS_PLUS_CHAR_ORDER
        for h, r in zip(payload["hypotheses"], payload["references"])
    )


@library_answer
def chrf_plus_plus_whitespace_output(payload: dict) -> dict:
    """The contract's corpus score with character n-grams over what NLTK's whitespace removal leaves."""
    return {
        "score": rule_score(
            chrf.corpus_statistics(
                whitespace_statistics(payload, CHRF_PLUS_PLUS_CHAR_ORDER, CHRF_PLUS_PLUS_WORD_ORDER)
            ),
            payload,
        )
    }


@library_answer
def chrf_plus_plus_output(payload: dict) -> dict:
    """NLTK's corpus_chrf (character n-grams only: it has no word n-grams)."""
    return {"score": chrf_floats(payload, CHRF_PLUS_PLUS_CHAR_ORDER)[0]}


# --- the cross-check: chrf_components -------------------------------------------------------------------------------------


def orders_statistics_comparison(payload: dict, expected: dict) -> Comparison:
    """chrf_precision_recall_fscore_support per character order against the tool's character rows.

    True positives against matches; P = matches / hypothesis_ngrams and R = matches / reference_ngrams where
    NLTK defines them (it returns epsilon for all three when an order has no match). NLTK has no word n-grams.
    """
    from nltk.translate.chrf_score import chrf_precision_recall_fscore_support

    char_order, _, whitespace = options(payload)
    if char_order == 0:
        return not_comparable("char_order 0: no character n-grams, and NLTK's chrF has no word n-grams")
    comparison = Comparison()
    for segment, (hypothesis, reference) in zip(expected["segments"], nltk_texts(payload, whitespace)):
        i = segment["segment"]
        for row in segment["statistics"][:char_order]:
            n = row["order"]
            precision, recall, _, true_positives = chrf_precision_recall_fscore_support(reference, hypothesis, n)
            comparison.exact(f"segments[{i}].char{n}.matches", row["matches"], true_positives)
            if true_positives and row["matches"]:
                comparison.close(
                    f"segments[{i}].char{n}.precision", Fraction(row["matches"], row["hypothesis_ngrams"]), precision
                )
                comparison.close(
                    f"segments[{i}].char{n}.recall", Fraction(row["matches"], row["reference_ngrams"]), recall
                )
    return comparison


def orders_score_comparison(payload: dict, expected: dict) -> Comparison:
    """corpus_chrf(references, hypotheses, max_len=char_order, beta=beta, ignore_whitespace=not whitespace) and
    sentence_chrf of each segment, on 0..1; word_order 0 only (NLTK's chrF has no word n-grams)."""
    from nltk.translate.chrf_score import corpus_chrf, sentence_chrf

    char_order, word_order, whitespace = options(payload)
    if word_order or not char_order:
        return not_comparable(
            f"char_order {char_order}, word_order {word_order}: NLTK's chrF has character "
            "n-grams of orders 1..max_len >= 1 only"
        )
    hypotheses = [cased(payload, h) for h in payload["hypotheses"]]
    references = [cased(payload, r) for r in payload["references"]]
    arguments = {"min_len": 1, "max_len": char_order, "beta": expected["beta"], "ignore_whitespace": not whitespace}
    comparison = Comparison()
    comparison.close(
        "score / 100", Fraction(expected["score_fraction"]) / 100, corpus_chrf(references, hypotheses, **arguments)
    )
    for i, (hypothesis, reference) in enumerate(zip(payload["hypotheses"], payload["references"])):
        comparison.close(
            f"segments[{i}].score / 100",
            orders_exact_segment_score(hypothesis, reference, payload) / 100,
            sentence_chrf(references[i], hypotheses[i], **arguments),
        )
    return comparison


def orders_outside_agreement(payload: dict) -> bool:
    """Word orders are asked for (NLTK's chrF has none), or some segment's hypothesis differs from its reference
    (after lowercasing, whitespace as the input says) or has fewer code points than char_order; unless one
    segment is scored on character unigrams alone and has a match (there NLTK's one F is the contract's F)."""
    char_order, word_order, whitespace = options(payload)
    return bool(word_order) or outside_agreement(payload, char_order, whitespace)


@library_answer
def orders_whitespace_output(payload: dict) -> dict:
    """The contract's rows and scores with character n-grams over what NLTK's whitespace removal leaves."""
    per_segment = whitespace_statistics(payload, *options(payload))
    corpus = chrf.corpus_statistics(per_segment)
    return {
        "statistics": row_dicts(corpus),
        "score": rule_score(corpus, payload),
        "segments": [{"statistics": row_dicts(rows), "score": rule_score(rows, payload)} for rows in per_segment],
    }


@library_answer
def orders_output(payload: dict) -> dict | None:
    """NLTK's corpus_chrf and sentence_chrf over character orders 1..char_order (it has no word n-grams, and
    no answer at all for char_order 0)."""
    char_order, _, whitespace = options(payload)
    if not char_order:
        return NOT_MODELLED
    score, segments = chrf_floats(payload, char_order, whitespace)
    return {"score": score, "segments": [{"score": segment} for segment in segments]}


CHECKS = {
    "bleu_brevity_penalty": [
        Check(
            "nltk/closest_ref_length+brevity_penalty:lengths",
            "nltk.translate.bleu_score.closest_ref_length([range(n) for n in lengths], c_i) per segment; "
            "brevity_penalty(r, c)",
            brevity_penalty_comparison,
        ),
    ],
    "bleu_corpus_compute": [
        Check(
            "nltk/corpus_bleu",
            "nltk.translate.bleu_score.corpus_bleu(references, hypotheses, weights=(1/N,)*N)",
            corpus_bleu_comparison,
        ),
        Check(
            "nltk/closest_ref_length+brevity_penalty",
            "nltk.translate.bleu_score.closest_ref_length / brevity_penalty",
            corpus_lengths_comparison,
        ),
    ],
    "bleu_ngrams_count": [
        Check(
            "nltk/modified_precision",
            "nltk.translate.bleu_score.modified_precision(references, hypothesis, n)",
            modified_precision_comparison,
        ),
    ],
    "bleu_sentence_components": [
        Check(
            "nltk/modified_precision+closest_ref_length",
            "nltk.translate.bleu_score.modified_precision(references, hypothesis, n) for n = 1..N; "
            "closest_ref_length(references, len(hypothesis))",
            sentence_statistics_comparison,
        ),
    ],
    "bleu_sentence_compute": [
        Check(
            "nltk/sentence_bleu:smoothed",
            "nltk.translate.bleu_score.sentence_bleu(references, hypothesis, weights=(1/N,)*N, "
            "smoothing_function=SmoothingFunction().method0|method1|method2|method3); brevity_penalty(r, c)",
            sentence_bleu_comparison,
        ),
    ],
    "chrf_compute": [
        Check(
            "nltk/chrf_statistics:chrf6",
            "nltk.translate.chrf_score.chrf_precision_recall_fscore_support(reference, hypothesis, n), n = 1..6",
            chrf6_statistics_comparison,
        ),
        Check(
            "nltk/corpus_chrf:chrf6",
            "nltk.translate.chrf_score.corpus_chrf(references, hypotheses, beta=beta) / sentence_chrf",
            chrf6_score_comparison,
        ),
    ],
    "chrf_plus_plus_compute": [
        Check(
            "nltk/chrf_statistics",
            "nltk.translate.chrf_score.chrf_precision_recall_fscore_support(reference, hypothesis, n)",
            chrf_plus_plus_statistics_comparison,
        ),
        Check(
            "nltk/corpus_chrf",
            "nltk.translate.chrf_score.corpus_chrf(references, hypotheses, beta=beta)",
            chrf_plus_plus_score_comparison,
        ),
    ],
    "chrf_components": [
        Check(
            "nltk/chrf_statistics:orders",
            "nltk.translate.chrf_score.chrf_precision_recall_fscore_support(reference, hypothesis, n), "
            "n = 1..char_order, after _preprocess(text, ignore_whitespace=not whitespace); char_order >= 1 only",
            orders_statistics_comparison,
        ),
        Check(
            "nltk/corpus_chrf:orders",
            "nltk.translate.chrf_score.corpus_chrf(references, hypotheses, max_len=char_order, beta=beta, "
            "ignore_whitespace=not whitespace) / sentence_chrf; word_order 0 and char_order >= 1 only",
            orders_score_comparison,
        ),
    ],
}

DIVERGENCES = {
    "bleu_corpus_compute": [
        Divergence(
            id="nltk-bleu-zero-precision-floor",
            shows="zero-precision-floor",
            checks=("nltk/corpus_bleu",),
            fields=("bleu",),
            what_differs="BLEU when some order has no match but unigrams matched: a tiny positive number (and a "
            "warning) instead of exactly 0",
            mechanism="corpus_bleu's default SmoothingFunction().method0 replaces a zero precision by "
            "sys.float_info.min (2.2e-308) and warns; with k such orders of N the score carries a factor "
            "(2.2e-308)^(k/N), e.g. 1.2e-77 for one order of four, not 0 (corpus_bleu returns 0 only when "
            "no unigram matched)",
            clause="it is exactly 0 when brevity_penalty is 0 or any order has m_n = 0 (including l_n = 0)",
            applies=some_zero_match_order_yet_unigram_match,
            library_output=corpus_bleu_output,
        ),
    ],
    "bleu_ngrams_count": [
        Divergence(
            id="nltk-bleu-short-segment-denominator",
            shows="missing-order-denominator-one",
            checks=("nltk/corpus_bleu", "nltk/modified_precision"),
            fields=("bleu", "totals", "segments[[]*[]].totals"),
            what_differs="the precision denominator of an order a segment is too short for: 1 instead of 0 "
            "(so corpus BLEU is lower when other segments have that order)",
            mechanism="modified_precision returns Fraction(numerator, max(1, count), _normalize=False) and "
            "corpus_bleu sums those denominators, so every hypothesis shorter than n adds 1 to l_n",
            clause="totals[n-1] sums max(0, len - n + 1) over all segments ... a hypothesis shorter than n "
            "contributes 0 to both",
            applies=some_segment_shorter_than_max_order,
            library_output=corpus_totals_output,
        ),
    ],
    "bleu_sentence_components": [
        Divergence(
            id="nltk-sentence-short-hypothesis-denominator",
            shows="missing-order-denominator-one",
            checks=("nltk/modified_precision+closest_ref_length", "nltk/sentence_bleu:smoothed"),
            fields=("totals",),
            what_differs="the n-gram total of an order the hypothesis is too short for: 1 instead of 0",
            mechanism="modified_precision returns Fraction(numerator, max(1, count), _normalize=False): an order "
            "with no hypothesis n-gram (fewer than n tokens, the empty hypothesis included) gets "
            "denominator 1 (its numerator is 0 on both sides)",
            clause="totals[n-1] is max(0, len - n + 1) for a hypothesis of len tokens (section 2.1.1); a hypothesis "
            "shorter than n gives 0 to both",
            applies=hypothesis_shorter_than_max_order,
            library_output=sentence_totals_output,
        ),
    ],
    "bleu_sentence_compute": [
        Divergence(
            id="nltk-smoothed-missing-order",
            shows="missing-order-denominator-one",
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
            library_output=sentence_bleu_output,
        ),
        Divergence(
            id="nltk-method2-missing-order-half",
            shows="missing-order-denominator-one",
            checks=("nltk/sentence_bleu:smoothed",),
            fields=("bleu",),
            what_differs="BLEU with chen-cherry-2 of a hypothesis shorter than max_order: each order it is too short "
            "for has p_n = 1/2 instead of 1, so the score is lower",
            mechanism="modified_precision's denominator max(1, count) is 1 for an order without hypothesis n-grams, "
            "and method2 adds 1 to both parts: Fraction(0 + 1, 1 + 1) = 1/2 where (m_n + 1) / (l_n + 1) "
            "is 1/1",
            clause="p_n = (m_n + 1) / (l_n + 1) for n >= 2",
            applies=add_one_on_a_missing_order,
            library_output=sentence_bleu_output,
        ),
        Divergence(
            id="nltk-method0-zero-precision",
            shows="zero-precision-floor",
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
            library_output=sentence_bleu_output,
        ),
    ],
    "chrf_compute": [
        Divergence(
            id="nltk-chrf6-whitespace-set",
            **catalogued("whitespace-set-without-information-separators"),
            checks=("nltk/chrf_statistics:chrf6", "nltk/corpus_chrf:chrf6"),
            fields=("segment[[]*[]].*", "score / 100", "segment_scores[[]*[]] / 100"),
            what_differs="character n-grams of a text holding U+001C-U+001F: NLTK keeps them as characters",
            mechanism="chrf_score._preprocess removes whitespace with nltk.redos.sub(r'\\s+', ...), backed by the "
            "third-party regex module whose \\s is Unicode White_Space, which excludes the information "
            "separators U+001C-U+001F (checked over every code point: the only difference from the list)",
            applies=text_with_information_separator,
            library_output=chrf6_whitespace_output,
        ),
        Divergence(
            id="nltk-chrf6-definition",
            shows="f-per-order-averaged",
            checks=("nltk/corpus_chrf:chrf6",),
            fields=("score / 100", "segment_scores[[]*[]] / 100"),
            what_differs="the score itself: NLTK's chrF is another formula over the same character n-grams; they agree "
            "only where every segment's hypothesis equals its reference and has all six orders",
            mechanism="corpus_chrf/sentence_chrf: F computed per order and averaged over the orders (not P and R "
            "averaged, then F), epsilon 1e-16 for P, R and F of an order without n-grams or matches (no "
            "effective order), the corpus score a macro average of segment scores (not summed counts); "
            "beta 3 by default (the crosscheck passes the contract's beta)",
            clause="chrP and chrR are the precisions and recalls of character n-grams n = 1..6 arithmetically averaged "
            "... Corpus score sums per-order counts over all segments",
            applies=chrf6_outside_agreement,
            library_output=chrf6_output,
        ),
    ],
    "chrf_plus_plus_compute": [
        Divergence(
            id="nltk-chrf-whitespace-set",
            **catalogued("whitespace-set-without-information-separators"),
            checks=("nltk/chrf_statistics", "nltk/corpus_chrf"),
            fields=("segment[[]*[]].char*", "score / 100"),
            what_differs="character n-grams of a text holding U+001C-U+001F: NLTK keeps them as characters",
            mechanism="chrf_score._preprocess removes whitespace with nltk.redos.sub(r'\\s+', ...), backed by the "
            "third-party regex module whose \\s is Unicode White_Space, which excludes the information "
            "separators U+001C-U+001F (Python's str.isspace and the contract include them)",
            applies=text_with_information_separator,
            library_output=chrf_plus_plus_whitespace_output,
        ),
        Divergence(
            id="nltk-chrf-definition",
            shows="f-per-order-averaged",
            checks=("nltk/corpus_chrf",),
            fields=("score / 100",),
            what_differs="the score itself: NLTK's chrF is a different metric from the contract's chrF++; they agree "
            "only where every segment's hypothesis equals its reference and has all six character orders",
            mechanism="corpus_chrf/sentence_chrf: character n-grams only (no word n-grams), F computed per order and "
            "averaged (not P and R averaged), epsilon 1e-16 for an order without n-grams or matches, the "
            "corpus score a macro average of segment scores, beta 3 by default (the crosscheck passes the "
            "contract's beta)",
            clause="character n-grams n = 1..6 and word n-grams n = 1..2 arithmetically averaged together ... Corpus "
            "score sums per-order counts over all segments",
            applies=chrf_plus_plus_outside_agreement,
            library_output=chrf_plus_plus_output,
        ),
    ],
    "chrf_components": [
        Divergence(
            id="nltk-chrf-orders-whitespace-set",
            **catalogued("whitespace-set-without-information-separators"),
            checks=("nltk/chrf_statistics:orders", "nltk/corpus_chrf:orders"),
            fields=("segments[[]*[]].*", "statistics.*", "score / 100"),
            what_differs="character n-grams of a text holding U+001C-U+001F with whitespace false: NLTK keeps them "
            "as characters",
            mechanism="chrf_score._preprocess(text, ignore_whitespace=True) removes nltk.redos.sub(r'\\s+', ...) "
            "matches, the regex module's Unicode White_Space, which lacks U+001C-U+001F; with "
            "ignore_whitespace=False it keeps the text whole, as the contract's whitespace true",
            applies=separator_with_whitespace_removed,
            library_output=orders_whitespace_output,
        ),
        Divergence(
            id="nltk-chrf-orders-definition",
            shows="f-per-order-averaged",
            checks=("nltk/corpus_chrf:orders",),
            fields=("score / 100", "segments[[]*[]].score / 100"),
            what_differs="the score itself: NLTK's chrF is another formula over the same character n-grams; they agree "
            "where every segment's hypothesis equals its reference and has all char_order orders, or one "
            "segment is scored on matched character unigrams alone",
            mechanism="corpus_chrf/sentence_chrf: F computed per order and averaged over the orders 1..max_len (not P "
            "and R averaged, then F), epsilon 1e-16 for P, R and F of an order without n-grams or matches "
            "(no effective order), the corpus score a macro average of segment scores (not summed rows)",
            clause="P and R are the precisions (matches / hypothesis_ngrams) and recalls (matches / reference_ngrams) "
            "of character orders 1..char_order and word orders 1..word_order arithmetically averaged together "
            "... score applies the rule above to the summed rows",
            applies=orders_outside_agreement,
            library_output=orders_output,
        ),
    ],
}


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------

NLTK_BLEU = "from nltk.translate.bleu_score import brevity_penalty, closest_ref_length, modified_precision"


def bleu_call(payload: dict) -> str:
    from conformance.implementations._calls import literal, python

    n = max_order(payload)
    if "hypothesis" in payload:
        method = SMOOTHING[payload.get("smoothing", "none")]
        data = [f"hypotheses = [{literal(payload['hypothesis'])}]", f"references = [{literal(payload['references'])}]"]
        score = (
            "sentence_bleu(references[0], hypotheses[0], weights=(1 / n,) * n, "
            f"smoothing_function=SmoothingFunction().{method})"
        )
        imports = [NLTK_BLEU, "from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu"]
    else:
        data = [f"hypotheses = {literal(payload['hypotheses'])}", f"references = {literal(payload['references'])}"]
        score = "corpus_bleu(references, hypotheses, weights=(1 / n,) * n)"
        imports = [NLTK_BLEU, "from nltk.translate.bleu_score import corpus_bleu"]
    return python(
        imports,
        [
            *data,
            f"n = {n}",
            "fractions = [[modified_precision(refs, h, k) for k in range(1, n + 1)] for h, refs in zip(hypotheses, "
            "references)]",
            "c = sum(len(h) for h in hypotheses)",
            "r = sum(closest_ref_length(refs, len(h)) for h, refs in zip(hypotheses, references))",
        ],
        f'{{"bleu": {score}, "brevity_penalty": brevity_penalty(r, c), '
        '"matches": [sum(f[k].numerator for f in fractions) for k in range(n)], '
        '"totals": [sum(f[k].denominator for f in fractions) for k in range(n)], '
        '"candidate_length": c, "reference_length": r}',
    )


def lengths_call(payload: dict) -> str:
    from conformance.implementations._calls import literal, python

    return python(
        ["from nltk.translate.bleu_score import brevity_penalty, closest_ref_length"],
        [
            f"candidate_lengths = {literal([int(c) for c in payload['candidate_lengths']])}",
            f"reference_lengths = {literal([[int(n) for n in lengths] for lengths in payload['reference_lengths']])}",
            "closest = [closest_ref_length([range(n) for n in lengths], c) "
            "for c, lengths in zip(candidate_lengths, reference_lengths)]",
        ],
        '{"brevity_penalty": brevity_penalty(sum(closest), sum(candidate_lengths)), '
        '"candidate_length": sum(candidate_lengths), "reference_length": sum(closest), '
        '"closest_reference_lengths": closest}',
    )


def chrf_call(segments_key: str):
    def write(payload: dict) -> str:
        from conformance.implementations._calls import literal, python
        from oracle.chrf_components import orders

        char_order = orders(payload)[0] if segments_key == "segments" else 6
        cased = ".lower()" if payload.get("lowercase") else ""
        segment = "{'score': s}" if segments_key == "segments" else "s"
        return python(
            ["from nltk.translate.chrf_score import corpus_chrf, sentence_chrf"],
            [
                f"hypotheses = [h{cased} for h in {literal(payload['hypotheses'])}]",
                f"references = [r{cased} for r in {literal(payload['references'])}]",
                f"options = dict(min_len=1, max_len={char_order}, beta={int(payload.get('beta', 2))}, "
                f"ignore_whitespace={literal(not payload.get('whitespace', False))})",
                "segment_scores = [sentence_chrf(r, h, **options) for h, r in zip(hypotheses, references)]",
            ],
            f'{{"score": corpus_chrf(references, hypotheses, **options), '
            f'"{segments_key}": [{segment} for s in segment_scores]}}',
        )

    return write


CALLS = {
    "bleu_corpus_compute": bleu_call,
    "bleu_ngrams_count": bleu_call,
    "bleu_sentence_components": bleu_call,
    "bleu_sentence_compute": bleu_call,
    "bleu_brevity_penalty": lengths_call,
    "chrf_compute": chrf_call("segment_scores"),
    "chrf_components": chrf_call("segments"),
}

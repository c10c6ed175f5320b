"""Cross-checks of chrf-compute: sacreBLEU's CHRF() (chrF, its defaults), NLTK's chrF, fastchrf's pairwise_chrf."""

from __future__ import annotations

from fractions import Fraction

from conformance.crosscheck.adapters import chrf as chrf_adapters
from conformance.crosscheck.adapters.bleu import library_answer
from conformance.crosscheck.adapters.chrf import (
    FASTCHRF_WHITESPACE_MECHANISM,
    cased,
    fastchrf_corpus_of_one,
    fastchrf_scores,
    fastchrf_sentence_scores,
    nltk_chrf_scores,
    nltk_whitespace_statistics,
    outside_nltk_agreement,
    related_chrf_inputs,
    rule_score,
    sacrebleu_corpus_chrf,
    segment_order_missing_from_reference,
    text_with_information_separator,
    torchmetrics_chrf_comparison,
    torchmetrics_chrf_divergences,
)
from conformance.crosscheck.comparison import Comparison
from conformance.crosscheck.model import Agreement, Check, Divergence
from oracle import chrf
from oracle.chrf_compute import CHAR_ORDER, TOOL, WORD_ORDER

INPUTS = related_chrf_inputs()


def exact_segment_score(hypothesis: str, reference: str, payload: dict) -> Fraction:
    return chrf_adapters.exact_segment_score(TOOL, hypothesis, reference, payload)


def sacrebleu_chrf(beta: int, lowercase: bool):
    return chrf_adapters.sacrebleu_chrf(CHAR_ORDER, WORD_ORDER, beta, lowercase)


def sacrebleu_chrf_scores(payload: dict, expected: dict) -> Comparison:
    """CHRF(beta=beta, lowercase=lowercase).corpus_score and sentence_score of each segment, on the percent scale."""
    return chrf_adapters.sacrebleu_scores(
        TOOL, sacrebleu_chrf(expected["beta"], expected["lowercase"]), payload, expected
    )


def f_beta(precision: float, recall: float, beta: int) -> float:
    factor = beta * beta
    return (1 + factor) * precision * recall / (factor * precision + recall)


def nltk_chrf_statistics(payload: dict, expected: dict) -> Comparison:
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
        stats = chrf.segment_statistics(cased(payload, hypothesis), cased(payload, reference), CHAR_ORDER, 0)
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
        if len(precisions) == CHAR_ORDER:
            comparison.close(
                f"segment[{i}].score / 100 (F of NLTK's P and R)",
                exact_segment_score(hypothesis, reference, payload) / 100,
                f_beta(sum(precisions) / CHAR_ORDER, sum(recalls) / CHAR_ORDER, expected["beta"]),
            )
    return comparison


def nltk_chrf_score(payload: dict, expected: dict) -> Comparison:
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
            exact_segment_score(hypothesis, reference, payload) / 100,
            sentence_chrf(references[i], hypotheses[i], beta=beta),
        )
    return comparison


def fastchrf_chrf_scores(payload: dict, expected: dict) -> Comparison:
    """fastchrf.pairwise_chrf's diagonal (char_order 6, beta, remove_whitespace=True) against each segment's
    exact score, and the corpus score of a one-segment corpus."""
    return fastchrf_scores(TOOL, payload, expected, CHAR_ORDER, False, "segment_scores[{}]")


def orders_missing_from_a_reference(payload: dict) -> bool:
    """Open point A4: a segment's reference lacks an order its hypothesis has, another segment's reference has it."""
    return segment_order_missing_from_reference(payload, CHAR_ORDER, WORD_ORDER)


def not_identical_long_segments(payload: dict) -> bool:
    """Some segment's hypothesis differs from its reference (after lowercasing, whitespace removed) or has fewer
    than 6 non-whitespace code points: outside the one domain where both metrics are certain to agree."""
    return outside_nltk_agreement(payload, CHAR_ORDER)


@library_answer
def sacrebleu_output(payload: dict) -> dict:
    """sacreBLEU's corpus score (its corpus sums)."""
    return {"score": sacrebleu_corpus_chrf(payload, CHAR_ORDER, WORD_ORDER)}


@library_answer
def nltk_whitespace_output(payload: dict) -> dict:
    """The contract's scores over the characters NLTK's whitespace removal leaves."""
    per_segment = nltk_whitespace_statistics(payload, CHAR_ORDER, WORD_ORDER)
    return {
        "score": rule_score(chrf.corpus_statistics(per_segment), payload),
        "segment_scores": [rule_score(rows, payload) for rows in per_segment],
    }


@library_answer
def nltk_output(payload: dict) -> dict:
    """NLTK's corpus_chrf and sentence_chrf."""
    score, segments = nltk_chrf_scores(payload, CHAR_ORDER)
    return {"score": score, "segment_scores": segments}


@library_answer
def fastchrf_output(payload: dict) -> dict:
    """fastchrf's sentence scores (and the corpus score of one segment), as its adapter answers."""
    segments = fastchrf_sentence_scores(payload, CHAR_ORDER)
    return {**fastchrf_corpus_of_one(segments), "segment_scores": segments}


def torchmetrics_orders(payload: dict) -> tuple[int, int, bool]:
    return CHAR_ORDER, WORD_ORDER, False


CHECKS = [
    Check(
        "sacrebleu/chrf:chrf6",
        "sacrebleu",
        "CHRF(beta=beta, lowercase=lowercase).corpus_score / sentence_score",
        sacrebleu_chrf_scores,
    ),
    Check(
        "nltk/chrf_statistics:chrf6",
        "nltk",
        "nltk.translate.chrf_score.chrf_precision_recall_fscore_support(reference, hypothesis, n), n = 1..6",
        nltk_chrf_statistics,
    ),
    Check(
        "nltk/corpus_chrf:chrf6",
        "nltk",
        "nltk.translate.chrf_score.corpus_chrf(references, hypotheses, beta=beta) / sentence_chrf",
        nltk_chrf_score,
    ),
    Check(
        "fastchrf/pairwise_chrf:chrf6",
        "fastchrf",
        "fastchrf.pairwise_chrf([hypotheses], [references], char_order=6, beta=beta, remove_whitespace=True, "
        "eps_smoothing=False), each segment against its own reference",
        fastchrf_chrf_scores,
    ),
    Check(
        "torchmetrics/chrf_score:chrf6",
        "torchmetrics",
        "torchmetrics.functional.text.chrf_score(hypotheses, [[r] for r in references], "
        "n_char_order=6, n_word_order=0, beta, "
        "lowercase, return_sentence_level_score=True)",
        torchmetrics_chrf_comparison(TOOL, torchmetrics_orders, "segment_scores[{}] / 100"),
    ),
]

DIVERGENCES = [
    Divergence(
        id="sacrebleu-chrf6-drops-unmatched-orders",
        libraries=("sacrebleu",),
        checks=("sacrebleu/chrf:chrf6",),
        fields=("score",),
        what_differs="corpus chrF score of a corpus where one segment's reference lacks a character order its "
        "hypothesis has while another segment's reference has it (open point A4; segment scores agree)",
        mechanism="CHRF._get_match_statistics returns a hypothesis count of 0 for an order whose reference "
        "n-grams are empty ('hyp_count if ref_ngrams else 0'); the corpus sums (sum_of_lists) then lack "
        "those hypothesis n-grams, raising the corpus precision of that order",
        clause="the sums count every hypothesis n-gram, also of an order the segment's reference lacks",
        applies=orders_missing_from_a_reference,
        library_output=sacrebleu_output,
    ),
    Divergence(
        id="nltk-chrf6-whitespace-set",
        libraries=("nltk",),
        checks=("nltk/chrf_statistics:chrf6", "nltk/corpus_chrf:chrf6"),
        fields=("segment[[]*[]].*", "score / 100", "segment_scores[[]*[]] / 100"),
        what_differs="character n-grams of a text holding U+001C-U+001F: NLTK keeps them as characters",
        mechanism="chrf_score._preprocess removes whitespace with nltk.redos.sub(r'\\s+', ...), backed by the "
        "third-party regex module whose \\s is Unicode White_Space, which excludes the information "
        "separators U+001C-U+001F (checked over every code point: the only difference from the list)",
        clause="every whitespace code point removed: U+0009-U+000D, U+001C-U+001F, U+0020, ...",
        applies=text_with_information_separator,
        library_output=nltk_whitespace_output,
    ),
    Divergence(
        id="nltk-chrf6-definition",
        libraries=("nltk",),
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
        applies=not_identical_long_segments,
        library_output=nltk_output,
    ),
    Divergence(
        id="fastchrf-chrf6-whitespace-set",
        libraries=("fastchrf",),
        checks=("fastchrf/pairwise_chrf:chrf6",),
        fields=("score", "segment_scores[[]*[]]"),
        what_differs="character n-grams of a text holding U+001C-U+001F: fastchrf keeps them as characters",
        mechanism=FASTCHRF_WHITESPACE_MECHANISM,
        clause="every whitespace code point removed: U+0009-U+000D, U+001C-U+001F, U+0020, ...",
        applies=text_with_information_separator,
        library_output=fastchrf_output,
    ),
    *torchmetrics_chrf_divergences(TOOL, "torchmetrics/chrf_score:chrf6", torchmetrics_orders, "segment_scores"),
]

AGREEMENTS = [
    Agreement(
        "chrF (char_order 6, word_order 0)",
        "sacreBLEU's CHRF() defaults are the contract's: six character orders, no word n-grams, whitespace "
        "removed with str.split() (exactly the contract's list), effective orders; segment scores agree on "
        "every input, the corpus score wherever no segment's reference lacks an order its hypothesis has",
        ("sacrebleu/chrf:chrf6",),
    ),
    Agreement(
        "chrF per-order statistics (NLTK)",
        "chrf_precision_recall_fscore_support's true positives are the contract's clipped matches (Counter "
        "intersection is min of counts) and its P and R the contract's per order; where every order matched, "
        "the contract's formula on NLTK's P and R is the tool's segment score",
        ("nltk/chrf_statistics:chrf6",),
    ),
    Agreement(
        "chrF sentence scores (fastchrf)",
        "pairwise_chrf without epsilon smoothing averages P and R over the effective orders, then takes "
        "F-beta: each segment's score is the contract's within 1e-9 wherever no text holds U+001C-U+001F",
        ("fastchrf/pairwise_chrf:chrf6",),
    ),
]

"""Cross-checks of chrf-plus-plus-compute: sacreBLEU's CHRF(word_order=2), NLTK's chrF."""

from __future__ import annotations

from fractions import Fraction

from conformance.crosscheck.adapters import chrf as chrf_adapters
from conformance.crosscheck.adapters.bleu import library_answer
from conformance.crosscheck.adapters.chrf import (
    cased,
    chrf_inputs,
    nltk_chrf_scores,
    nltk_whitespace_statistics,
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
from oracle.chrf_plus_plus_compute import CHAR_ORDER, TOOL, WORD_ORDER

INPUTS = chrf_inputs()


def exact_segment_score(hypothesis: str, reference: str, payload: dict) -> Fraction:
    return chrf_adapters.exact_segment_score(TOOL, hypothesis, reference, payload)


def sacrebleu_chrf(beta: int, lowercase: bool):
    return chrf_adapters.sacrebleu_chrf(CHAR_ORDER, WORD_ORDER, beta, lowercase)


def sacrebleu_chrf_scores(payload: dict, expected: dict) -> Comparison:
    """CHRF(word_order=2).corpus_score / sentence_score and its punctuation splitter, on the percent scale."""
    metric = sacrebleu_chrf(expected["beta"], expected["lowercase"])

    def word_tokens(comparison: Comparison, i: int, hypothesis: str, reference: str) -> None:
        tokens = expected["word_tokens"][i]
        comparison.exact(
            f"word_tokens[{i}].hypothesis",
            tokens["hypothesis"],
            metric._remove_punctuation(metric._preprocess_segment(hypothesis)),
        )
        comparison.exact(
            f"word_tokens[{i}].reference",
            tokens["reference"],
            metric._remove_punctuation(metric._preprocess_segment(reference)),
        )

    return chrf_adapters.sacrebleu_scores(TOOL, metric, payload, expected, word_tokens)


def nltk_chrf_statistics(payload: dict, expected: dict) -> Comparison:
    """chrf_precision_recall_fscore_support per character order: true positives, and P and R where NLTK defines them.

    NLTK returns epsilon for P and R when an order has no match (a ZeroDivisionError in its F); those are not
    compared. The contract's per-order counts come from the oracle's statistics of the same segment. NLTK has
    no lowercase option; the contract lowercases before tokenizing, so lowering first is faithful.
    """
    from nltk.translate.chrf_score import _preprocess, chrf_precision_recall_fscore_support

    comparison = Comparison()
    for i, (hypothesis, reference) in enumerate(zip(payload["hypotheses"], payload["references"])):
        hypothesis, reference = cased(payload, hypothesis), cased(payload, reference)
        stats = chrf.segment_statistics(hypothesis, reference, CHAR_ORDER, 0)
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


def nltk_chrf_score(payload: dict, expected: dict) -> Comparison:
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


def not_identical_long_segments(payload: dict) -> bool:
    """Some segment's hypothesis differs from its reference (after lowercasing) or has fewer than 6 non-whitespace
    code points: outside the one domain where both metrics are certain to agree (every segment scoring 100)."""
    return any(
        cased(payload, h) != cased(payload, r) or len(chrf.remove_whitespace(cased(payload, h))) < CHAR_ORDER
        for h, r in zip(payload["hypotheses"], payload["references"])
    )


def orders_missing_from_a_reference(payload: dict) -> bool:
    """Open point A4: a segment's reference lacks an order its hypothesis has, another segment has it."""
    return segment_order_missing_from_reference(payload, CHAR_ORDER, WORD_ORDER)


@library_answer
def sacrebleu_output(payload: dict) -> dict:
    """sacreBLEU's corpus chrF++ score (its corpus sums)."""
    return {"score": sacrebleu_corpus_chrf(payload, CHAR_ORDER, WORD_ORDER)}


@library_answer
def nltk_whitespace_output(payload: dict) -> dict:
    """The contract's corpus score with character n-grams over what NLTK's whitespace removal leaves."""
    return {
        "score": rule_score(
            chrf.corpus_statistics(nltk_whitespace_statistics(payload, CHAR_ORDER, WORD_ORDER)), payload
        )
    }


@library_answer
def nltk_output(payload: dict) -> dict:
    """NLTK's corpus_chrf (character n-grams only: it has no word n-grams)."""
    return {"score": nltk_chrf_scores(payload, CHAR_ORDER)[0]}


def torchmetrics_orders(payload: dict) -> tuple[int, int, bool]:
    return CHAR_ORDER, WORD_ORDER, False


CHECKS = [
    Check(
        "sacrebleu/chrf++",
        "sacrebleu",
        "CHRF(word_order=2, beta=beta, lowercase=lowercase).corpus_score / sentence_score / _remove_punctuation",
        sacrebleu_chrf_scores,
    ),
    Check(
        "nltk/chrf_statistics",
        "nltk",
        "nltk.translate.chrf_score.chrf_precision_recall_fscore_support(reference, hypothesis, n)",
        nltk_chrf_statistics,
    ),
    Check(
        "nltk/corpus_chrf",
        "nltk",
        "nltk.translate.chrf_score.corpus_chrf(references, hypotheses, beta=beta)",
        nltk_chrf_score,
    ),
    Check(
        "torchmetrics/chrf_score:chrf++",
        "torchmetrics",
        "torchmetrics.functional.text.chrf_score(hypotheses, [[r] for r in references], "
        "n_char_order=6, n_word_order=2, beta, "
        "lowercase, return_sentence_level_score=True)",
        torchmetrics_chrf_comparison(TOOL, torchmetrics_orders, "segment_scores[{}] / 100"),
    ),
]

DIVERGENCES = [
    Divergence(
        id="sacrebleu-chrf-drops-unmatched-orders",
        libraries=("sacrebleu",),
        checks=("sacrebleu/chrf++",),
        fields=("score",),
        what_differs="corpus chrF++ score of a corpus where one segment's reference lacks an n-gram order its "
        "hypothesis has (open point A4; segment scores agree)",
        mechanism="CHRF._get_match_statistics returns a hypothesis count of 0 for an order whose reference "
        "n-grams are empty ('hyp_count if ref_ngrams else 0'), so those hypothesis n-grams never reach "
        "the corpus precision (as in Popovic's chrF++.py)",
        clause="Corpus score sums per-order counts over all segments",
        applies=orders_missing_from_a_reference,
        library_output=sacrebleu_output,
    ),
    Divergence(
        id="nltk-chrf-whitespace-set",
        libraries=("nltk",),
        checks=("nltk/chrf_statistics", "nltk/corpus_chrf"),
        fields=("segment[[]*[]].char*", "score / 100"),
        what_differs="character n-grams of a text holding U+001C-U+001F: NLTK keeps them as characters",
        mechanism="chrf_score._preprocess removes whitespace with nltk.redos.sub(r'\\s+', ...), backed by the "
        "third-party regex module whose \\s is Unicode White_Space, which excludes the information "
        "separators U+001C-U+001F (Python's str.isspace and the contract include them)",
        clause="every whitespace code point removed: U+0009-U+000D, U+001C-U+001F, U+0020, ...",
        applies=text_with_information_separator,
        library_output=nltk_whitespace_output,
    ),
    Divergence(
        id="nltk-chrf-definition",
        libraries=("nltk",),
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
        applies=not_identical_long_segments,
        library_output=nltk_output,
    ),
    *torchmetrics_chrf_divergences(TOOL, "torchmetrics/chrf_score:chrf++", torchmetrics_orders, "segment_scores"),
]

AGREEMENTS = [
    Agreement(
        "chrF++ whitespace set",
        "sacreBLEU removes and splits on str.split()'s whitespace, which in Python 3 is exactly the "
        "contract's list (U+0009-U+000D, U+001C-U+001F, U+0020, U+0085, U+00A0, U+1680, U+2000-U+200A, "
        "U+2028, U+2029, U+202F, U+205F, U+3000; tests/test_sacrebleu_agreement.py proves it over every code "
        "point); U+200B and U+FEFF are kept by both",
        ("sacrebleu/chrf++",),
    ),
    Agreement(
        "chrF++ punctuation splitting",
        "CHRF._remove_punctuation is the contract's rule: one ASCII mark at most per word, a one-code-point "
        "word kept, U+00BF never split",
        ("sacrebleu/chrf++",),
    ),
    Agreement(
        "chrF++ case mapping",
        "sacreBLEU's lowercase is Python's str.lower, the oracle's mapping (final sigma included); it can "
        "differ from the contract's toLowerCase only where Unicode versions differ (open point A5), which "
        "the generated inputs avoid",
        ("sacrebleu/chrf++",),
    ),
    Agreement(
        "chrF++ orders absent from one side",
        "sacreBLEU averages P and R only over orders both sides have (effective order), as the contract "
        "does: segment scores agree on every input; only the corpus sum differs "
        "(sacrebleu-chrf-drops-unmatched-orders)",
        ("sacrebleu/chrf++",),
    ),
    Agreement(
        "multiple references (chrF++)",
        "sacreBLEU's CHRF scores each segment against its best-F reference; the contract takes exactly one "
        "reference per segment, so no contract input exercises it (out of scope, not a divergence)",
        (),
    ),
]

"""Cross-checks of bleu-sentence-components: sacreBLEU's segment statistics, NLTK's modified_precision and
closest_ref_length, on one segment."""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import (
    hypothesis_shorter_than_max_order,
    library_answer,
    max_order,
    sacrebleu_bleu,
    sacrebleu_segment,
    sentence_inputs,
    unsplittable,
)
from conformance.crosscheck.comparison import Comparison
from conformance.crosscheck.model import Agreement, Check, Divergence

INPUTS = sentence_inputs()


def sacrebleu_statistics(payload: dict, expected: dict) -> Comparison:
    """BLEU._extract_corpus_statistics of a one-segment corpus: [hyp_len, ref_len, correct..., total...]."""
    refused = unsplittable(payload)
    if refused:
        return refused
    n = max_order(payload)
    hypothesis, references = sacrebleu_segment(payload)
    # one reference stream per reference, each holding this segment's reference
    (row,) = sacrebleu_bleu(n, "none", False)._extract_corpus_statistics([hypothesis], [[r] for r in references])
    comparison = Comparison()
    comparison.exact("matches", expected["matches"], [int(v) for v in row[2 : 2 + n]])
    comparison.exact("totals", expected["totals"], [int(v) for v in row[2 + n :]])
    comparison.exact("candidate_length", expected["candidate_length"], int(row[0]))
    comparison.exact("reference_length", expected["reference_length"], int(row[1]))
    return comparison


def nltk_statistics(payload: dict, expected: dict) -> Comparison:
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
def nltk_totals_output(payload: dict) -> dict:
    """NLTK's totals: modified_precision's denominators, max(1, l_n), per order."""
    from nltk.translate.bleu_score import modified_precision

    orders = range(1, max_order(payload) + 1)
    return {"totals": [modified_precision(payload["references"], payload["hypothesis"], n).denominator for n in orders]}


CHECKS = [
    Check(
        "sacrebleu/statistics:sentence",
        "sacrebleu",
        "BLEU(tokenize='none')._extract_corpus_statistics([hypothesis], [[r] for r in references])",
        sacrebleu_statistics,
    ),
    Check(
        "nltk/modified_precision+closest_ref_length",
        "nltk",
        "nltk.translate.bleu_score.modified_precision(references, hypothesis, n) for n = 1..N; "
        "closest_ref_length(references, len(hypothesis))",
        nltk_statistics,
    ),
]

DIVERGENCES = [
    Divergence(
        id="nltk-sentence-short-hypothesis-denominator",
        libraries=("nltk",),
        checks=("nltk/modified_precision+closest_ref_length", "nltk/sentence_bleu:smoothed"),
        fields=("totals",),
        what_differs="the n-gram total of an order the hypothesis is too short for: 1 instead of 0",
        mechanism="modified_precision returns Fraction(numerator, max(1, count), _normalize=False): an order "
        "with no hypothesis n-gram (fewer than n tokens, the empty hypothesis included) gets "
        "denominator 1 (its numerator is 0 on both sides)",
        clause="totals[n-1] is max(0, len - n + 1) for a hypothesis of len tokens (section 2.1.1); a hypothesis "
        "shorter than n gives 0 to both",
        applies=hypothesis_shorter_than_max_order,
        library_output=nltk_totals_output,
    ),
]

AGREEMENTS = [
    Agreement(
        "sentence statistics",
        "sacreBLEU's segment statistics and NLTK's modified_precision numerators clip by the largest count "
        "in any single reference, as the contract does, with up to 8 references, empty ones included; "
        "both closest-length rules break a tie to the shorter reference and let an empty reference "
        "compete (length 0)",
        ("sacrebleu/statistics:sentence", "nltk/modified_precision+closest_ref_length"),
    ),
]

"""Cross-checks of bleu-ngrams-count: sacreBLEU's statistics and n-gram counters, NLTK's modified_precision."""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import (
    bleu_inputs,
    library_answer,
    max_order,
    nltk_corpus_bleu_score,
    sacrebleu_bleu,
    sacrebleu_streams,
    some_segment_shorter_than_max_order,
    unsplittable,
)
from conformance.crosscheck.comparison import Comparison
from conformance.crosscheck.model import Agreement, Check, Divergence

# per-segment and per-n-gram rows, as the libraries' own functions return them
INPUTS = bleu_inputs(detail="ngrams")


def sacrebleu_statistics(payload: dict, expected: dict) -> Comparison:
    """BLEU._extract_corpus_statistics: per segment [hyp_len, ref_len, correct..., total...]."""
    refused = unsplittable(payload)
    if refused:
        return refused
    n = max_order(payload)
    stats = sacrebleu_bleu(n, "none", False)._extract_corpus_statistics(*sacrebleu_streams(payload))
    comparison = Comparison()
    for row, segment in zip(stats, expected["segments"]):
        i = segment["segment"]
        comparison.exact(f"segments[{i}].candidate_length", segment["candidate_length"], int(row[0]))
        comparison.exact(f"segments[{i}].matches", segment["matches"], [int(v) for v in row[2 : 2 + n]])
        comparison.exact(f"segments[{i}].totals", segment["totals"], [int(v) for v in row[2 + n :]])
    return comparison


def sacrebleu_ngram_rows(payload: dict, expected: dict) -> Comparison:
    """The clipping table of detail "ngrams" against sacreBLEU's own n-gram counters.

    extract_all_word_ngrams counts the hypothesis n-grams order by order (a Counter keeps first occurrences in
    order, the contract's row order) and BLEU._extract_reference_info keeps the largest count over references.
    """
    from sacrebleu.metrics.helpers import extract_all_word_ngrams

    refused = unsplittable(payload)
    if refused:
        return refused
    n = max_order(payload)
    bleu = sacrebleu_bleu(n, "none", False)
    hypotheses, streams = sacrebleu_streams(payload)
    comparison = Comparison()
    for i, hypothesis in enumerate(hypotheses):
        hypothesis_counts, _ = extract_all_word_ngrams(hypothesis, 1, n)
        reference_counts = bleu._extract_reference_info([s[i] for s in streams if s[i] is not None])["ref_ngrams"]
        rows = [row for row in expected["ngrams"] if row["segment"] == i]
        comparison.exact(
            f"ngrams[segment {i}]",
            [(tuple(r["ngram"]), r["count"], r["max_reference_count"]) for r in rows],
            [(g, c, reference_counts.get(g, 0)) for g, c in hypothesis_counts.items()],
        )
    return comparison


def nltk_precisions(payload: dict) -> list[list]:
    """modified_precision(references, hypothesis, n) per segment and order (unnormalised Fractions)."""
    from nltk.translate.bleu_score import modified_precision

    orders = range(1, max_order(payload) + 1)
    return [
        [modified_precision(references, hypothesis, n) for n in orders]
        for hypothesis, references in zip(payload["hypotheses"], payload["references"])
    ]


@library_answer
def nltk_totals_output(payload: dict) -> dict:
    """NLTK's answer where its denominators show: the totals summed over segments, per segment where the
    input's detail lists segments, and corpus_bleu's score (made from those totals) for the tools that have
    one (a field the tool's output lacks is never compared)."""
    per_segment = [[fraction.denominator for fraction in row] for row in nltk_precisions(payload)]
    answer = {"totals": [sum(column) for column in zip(*per_segment)], "bleu": nltk_corpus_bleu_score(payload)[0]}
    if payload.get("detail", "totals") != "totals":
        answer["segments"] = [{"totals": row} for row in per_segment]
    return answer


def nltk_modified_precision(payload: dict, expected: dict) -> Comparison:
    """modified_precision(references, hypothesis, n): numerator and denominator per segment and order."""
    comparison = Comparison()
    for segment, fractions in zip(expected["segments"], nltk_precisions(payload)):
        i = segment["segment"]
        comparison.exact(f"segments[{i}].matches", segment["matches"], [f.numerator for f in fractions])
        comparison.exact(f"segments[{i}].totals", segment["totals"], [f.denominator for f in fractions])
    return comparison


CHECKS = [
    Check(
        "sacrebleu/statistics",
        "sacrebleu",
        "BLEU(tokenize='none')._extract_corpus_statistics(...)",
        sacrebleu_statistics,
    ),
    Check(
        "sacrebleu/ngram_rows",
        "sacrebleu",
        "extract_all_word_ngrams(hypothesis, 1, N) and BLEU._extract_reference_info(references)",
        sacrebleu_ngram_rows,
    ),
    Check(
        "nltk/modified_precision",
        "nltk",
        "nltk.translate.bleu_score.modified_precision(references, hypothesis, n)",
        nltk_modified_precision,
    ),
]

DIVERGENCES = [
    Divergence(
        id="nltk-bleu-short-segment-denominator",
        libraries=("nltk",),
        checks=("nltk/corpus_bleu", "nltk/modified_precision"),
        fields=("bleu", "totals", "segments[[]*[]].totals"),
        what_differs="the precision denominator of an order a segment is too short for: 1 instead of 0 "
        "(so corpus BLEU is lower when other segments have that order)",
        mechanism="modified_precision returns Fraction(numerator, max(1, count), _normalize=False) and "
        "corpus_bleu sums those denominators, so every hypothesis shorter than n adds 1 to l_n",
        clause="totals[n-1] sums max(0, len - n + 1) over all segments ... a hypothesis shorter than n "
        "contributes 0 to both",
        applies=some_segment_shorter_than_max_order,
        library_output=nltk_totals_output,
    ),
]

AGREEMENTS = [
    Agreement(
        "reference counting",
        "both clip by the largest count of the n-gram in any single reference (sacreBLEU "
        "BLEU._extract_reference_info, NLTK modified_precision), not the sum over references",
        ("sacrebleu/statistics", "sacrebleu/ngram_rows", "nltk/modified_precision"),
    ),
    Agreement(
        "clipping table rows",
        'detail "ngrams" rows (n-gram, count, max_reference_count) equal sacreBLEU\'s own counters row for '
        "row, in the same order (by order, then first occurrence)",
        ("sacrebleu/ngram_rows",),
    ),
]

"""BLEU sufficient statistics, shared by bleu-ngrams-count and bleu-corpus-compute.

Papineni et al. 2002, section 2.1 (footnote 2) and 2.1.1. An n-gram is a tuple
of tokens: tokens may contain spaces, so identity is by token sequence, never
by a joined string.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain

Ngram = tuple[str, ...]
DEFAULT_MAX_ORDER = 4  # the BLEU contracts: "max_order omitted means 4"


def ngrams(tokens: list[str], max_order: int) -> Iterator[Ngram]:
    """Every n-gram tokens[i:i+n] of orders n = 1..max_order: by n, then by position.

    zip of the n shifted token lists yields the n-grams as tuples.
    """
    return chain.from_iterable(zip(*(tokens[i:] for i in range(n))) for n in range(1, max_order + 1))


def ngram_counts(tokens: list[str], max_order: int) -> Counter[Ngram]:
    """count(g) for every n-gram g of orders 1..max_order; keys by n, then first occurrence."""
    return Counter(ngrams(tokens, max_order))


def max_reference_counts(
    hypothesis_counts: Counter[Ngram], references: list[list[str]], max_order: int
) -> dict[Ngram, int]:
    """max_reference_count(g) of each hypothesis n-gram g: its largest count in any single reference, not the sum.

    Only the hypothesis's n-grams are counted in each reference; an n-gram found in no
    reference is left out (its max_reference_count is 0).
    """
    maxima: dict[Ngram, int] = {}
    for reference in references:
        in_reference = Counter(filter(hypothesis_counts.__contains__, ngrams(reference, max_order)))
        for g, count in in_reference.items():
            if count > maxima.get(g, 0):
                maxima[g] = count
    return maxima


@dataclass(frozen=True)
class NgramRow:
    order: int
    ngram: Ngram
    count: int
    max_reference_count: int

    @property
    def clipped_count(self) -> int:
        return min(self.count, self.max_reference_count)


@dataclass(frozen=True)
class SegmentStatistics:
    candidate_length: int
    matches: list[int]  # matches[n-1]: sum of clipped counts of order n
    totals: list[int]  # totals[n-1]: max(0, len - n + 1)
    counts: Counter[Ngram]  # count(g) of each distinct hypothesis n-gram, by order then first occurrence
    reference_maxima: dict[Ngram, int]  # max_reference_count(g) of those found in some reference

    def rows(self) -> Iterator[NgramRow]:
        """One row per distinct hypothesis n-gram: by order, then first occurrence."""
        for g, count in self.counts.items():
            yield NgramRow(len(g), g, count, self.reference_maxima.get(g, 0))


def segment_statistics(hypothesis: list[str], references: list[list[str]], max_order: int) -> SegmentStatistics:
    counts = ngram_counts(hypothesis, max_order)
    reference_maxima = max_reference_counts(counts, references, max_order)
    # clipped_count(g) = min(count, max_reference_count), summed per order (0 for an n-gram in no reference)
    matches = [0] * max_order
    for g, max_reference_count in reference_maxima.items():
        matches[len(g) - 1] += min(counts[g], max_reference_count)
    # a hypothesis shorter than n contributes 0
    totals = [max(0, len(hypothesis) - n + 1) for n in range(1, max_order + 1)]
    return SegmentStatistics(len(hypothesis), matches, totals, counts, reference_maxima)


def corpus_sums(per_segment: list[SegmentStatistics], max_order: int) -> tuple[list[int], list[int]]:
    """Clipped matches and totals summed over all segments before any division (section 2.1.1)."""
    matches = [sum(s.matches[k] for s in per_segment) for k in range(max_order)]
    totals = [sum(s.totals[k] for s in per_segment) for k in range(max_order)]
    return matches, totals


def closest_length(candidate_length: int, reference_lengths: Iterable[int]) -> int:
    """The reference length closest to the candidate's; a tie goes to the shorter (section 2.2.2)."""
    return min(reference_lengths, key=lambda length: (abs(length - candidate_length), length))


def closest_ref_length(candidate_length: int, references: list[list[str]]) -> int:
    """The length of the reference closest to the candidate's; a tie goes to the shorter reference."""
    return closest_length(candidate_length, (len(ref) for ref in references))

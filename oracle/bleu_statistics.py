"""BLEU sufficient statistics, shared by bleu-ngrams-count and bleu-corpus-compute.

Papineni et al. 2002, section 2.1 (footnote 2) and 2.1.1. An n-gram is a tuple
of tokens: tokens may contain spaces, so identity is by token sequence, never
by a joined string.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

Ngram = tuple[str, ...]


def ngram_counts(tokens: list[str], n: int) -> Counter[Ngram]:
    """count(g) for every n-gram of one segment, keys in order of first occurrence."""
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def max_reference_counts(hypothesis_counts: Counter[Ngram], references: list[list[str]], n: int) -> dict[Ngram, int]:
    """max_reference_count(g) for each hypothesis n-gram g: its largest count in any single reference (not the sum)."""
    per_reference = [ngram_counts(reference, n) for reference in references]
    return {g: max(counts.get(g, 0) for counts in per_reference) for g in hypothesis_counts}


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
    rows: list[NgramRow]  # one per distinct hypothesis n-gram: by order, then first occurrence


def segment_statistics(hypothesis: list[str], references: list[list[str]], max_order: int) -> SegmentStatistics:
    matches, totals, rows = [], [], []
    for n in range(1, max_order + 1):
        counts = ngram_counts(hypothesis, n)
        ref_max = max_reference_counts(counts, references, n)
        order_rows = [NgramRow(n, g, c, ref_max[g]) for g, c in counts.items()]
        rows.extend(order_rows)
        matches.append(sum(min(c, ref_max[g]) for g, c in counts.items()))
        totals.append(max(0, len(hypothesis) - n + 1))
    return SegmentStatistics(len(hypothesis), matches, totals, rows)


def corpus_sums(per_segment: list[SegmentStatistics], max_order: int) -> tuple[list[int], list[int]]:
    """Clipped matches and totals summed over all segments before any division (section 2.1.1)."""
    matches = [sum(s.matches[k] for s in per_segment) for k in range(max_order)]
    totals = [sum(s.totals[k] for s in per_segment) for k in range(max_order)]
    return matches, totals


def closest_ref_length(candidate_length: int, references: list[list[str]]) -> int:
    """The reference length closest to the candidate's; a tie goes to the shorter reference."""
    return min((len(ref) for ref in references), key=lambda length: (abs(length - candidate_length), length))

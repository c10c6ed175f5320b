"""Identical references are merged before clipping (each distinct reference once, with its
multiplicity) and an n-gram's reference count is multiplied by it: a duplicated reference
doubles the clipping bound instead of leaving the largest count in any single reference alone."""

from collections import Counter

from independent import BleuSentenceComponents, BleuStatistics, Implementation

CLASS = "relation"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    def segment(self, hypothesis, references, max_order):
        self._multiplicity = Counter(map(tuple, references))
        distinct = [list(reference) for reference in self._multiplicity]
        self._weights = [self._multiplicity[tuple(reference)] for reference in distinct]
        return super().segment(hypothesis, distinct, max_order)

    def max_reference_count(self, key, reference_counts):
        return max(counts.get(key, 0) * weight for counts, weight in zip(reference_counts, self._weights))


execute = Implementation(sentence_components=BleuSentenceComponents(Statistics())).execute

"""Sorts the n-gram rows of each segment and order alphabetically instead of by first occurrence."""

from independent import BleuNgramsCount, BleuStatistics, Implementation

CLASS = "output-shape"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    def ngram_rows(self, segments):
        rows = super().ngram_rows(segments)
        return sorted(rows, key=lambda r: (r["segment"], r["order"], r["ngram"]))


execute = Implementation(ngrams_count=NgramsCount(BleuStatistics())).execute

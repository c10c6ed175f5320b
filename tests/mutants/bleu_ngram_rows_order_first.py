"""Orders the n-gram rows by order, then segment (the contract: by segment, then order, then first occurrence)."""

from independent import BleuNgramsCount, BleuStatistics, Implementation

CLASS = "output-shape"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    def ngram_rows(self, segments):
        return sorted(super().ngram_rows(segments), key=lambda r: r["order"])  # stable: keeps segment order within


execute = Implementation(ngrams_count=NgramsCount(BleuStatistics())).execute

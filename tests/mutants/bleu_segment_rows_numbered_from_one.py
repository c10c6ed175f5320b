"""Numbers the per-segment rows from 1 instead of 0."""

from independent import BleuNgramsCount, BleuStatistics, Implementation

CLASS = "output-shape"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    def segment_rows(self, segments):
        return [{**row, "segment": row["segment"] + 1} for row in super().segment_rows(segments)]


execute = Implementation(ngrams_count=NgramsCount(BleuStatistics())).execute

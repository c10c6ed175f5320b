"""An omitted max_order means 3 instead of 4."""

from independent import BleuCorpusCompute, BleuNgramsCount, BleuStatistics, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    default_max_order = 3


class CorpusCompute(BleuCorpusCompute):
    default_max_order = 3


execute = Implementation(
    ngrams_count=NgramsCount(BleuStatistics()), corpus_compute=CorpusCompute(BleuStatistics())
).execute

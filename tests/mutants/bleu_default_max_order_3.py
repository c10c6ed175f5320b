"""An omitted max_order means 3 instead of 4."""

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)
from independent import BleuCorpusCompute, BleuNgramsCount, BleuStatistics, Implementation


class NgramsCount(BleuNgramsCount):
    default_max_order = 3


class CorpusCompute(BleuCorpusCompute):
    default_max_order = 3


execute = Implementation(
    ngrams_count=NgramsCount(BleuStatistics()), corpus_compute=CorpusCompute(BleuStatistics())
).execute

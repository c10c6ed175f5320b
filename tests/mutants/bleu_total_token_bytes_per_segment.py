"""Applies max_total_token_bytes to each segment's tokens instead of to all of them."""

from independent import BleuCorpusCompute, BleuNgramsCount, Implementation
from independent.contract import utf8_bytes

from mutants._bleu_totals import MeasuredTotals

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class PerSegment(MeasuredTotals):
    def total_bytes(self, lists):
        return max(sum(map(utf8_bytes, tokens)) for tokens in lists)


class NgramsCount(PerSegment, BleuNgramsCount):
    pass


class CorpusCompute(PerSegment, BleuCorpusCompute):
    pass


execute = Implementation(ngrams_count=NgramsCount(), corpus_compute=CorpusCompute()).execute

"""Counts max_total_tokens over distinct tokens, not every occurrence."""

from independent import BleuCorpusCompute, BleuNgramsCount, Implementation

from mutants._bleu_totals import MeasuredTotals

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class Distinct(MeasuredTotals):
    def total_tokens(self, lists):
        return len({token for tokens in lists for token in tokens})


class NgramsCount(Distinct, BleuNgramsCount):
    pass


class CorpusCompute(Distinct, BleuCorpusCompute):
    pass


execute = Implementation(ngrams_count=NgramsCount(), corpus_compute=CorpusCompute()).execute

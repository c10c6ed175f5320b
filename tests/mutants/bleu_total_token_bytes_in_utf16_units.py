"""Measures max_total_token_bytes in UTF-16 code units (JavaScript's String.length), not UTF-8 bytes."""

from independent import BleuCorpusCompute, BleuNgramsCount, Implementation

from mutants._bleu_totals import MeasuredTotals

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class Utf16(MeasuredTotals):
    def total_bytes(self, lists):
        return sum(len(token.encode("utf-16-le")) // 2 for tokens in lists for token in tokens)


class NgramsCount(Utf16, BleuNgramsCount):
    pass


class CorpusCompute(Utf16, BleuCorpusCompute):
    pass


execute = Implementation(ngrams_count=NgramsCount(), corpus_compute=CorpusCompute()).execute

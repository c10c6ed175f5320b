"""Measures max_token_bytes in code points instead of UTF-8 bytes."""

from independent import BleuCorpusCompute, BleuNgramsCount, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    def token_size(self, token):
        return len(token)


class CorpusCompute(BleuCorpusCompute):
    def token_size(self, token):
        return len(token)


execute = Implementation(ngrams_count=NgramsCount(), corpus_compute=CorpusCompute()).execute

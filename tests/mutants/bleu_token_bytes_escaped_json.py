"""Measures max_token_bytes on the token as \\u-escaped JSON (Python's json.dumps), not its UTF-8 bytes."""

import json

from independent import BleuCorpusCompute, BleuNgramsCount, Implementation

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    def token_size(self, token):
        return len(json.dumps(token)) - 2


class CorpusCompute(BleuCorpusCompute):
    def token_size(self, token):
        return len(json.dumps(token)) - 2


execute = Implementation(ngrams_count=NgramsCount(), corpus_compute=CorpusCompute()).execute

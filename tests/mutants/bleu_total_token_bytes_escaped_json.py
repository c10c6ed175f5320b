"""Measures max_total_token_bytes on the tokens as escaped JSON (quotes, backslashes, controls widened)."""

import json

from independent import BleuCorpusCompute, BleuNgramsCount, Implementation

from mutants._bleu_totals import MeasuredTotals

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class Escaped(MeasuredTotals):
    def total_bytes(self, lists):
        return sum(
            len(json.dumps(token, ensure_ascii=False)[1:-1].encode("utf-8")) for tokens in lists for token in tokens
        )


class NgramsCount(Escaped, BleuNgramsCount):
    pass


class CorpusCompute(Escaped, BleuCorpusCompute):
    pass


execute = Implementation(ngrams_count=NgramsCount(), corpus_compute=CorpusCompute()).execute

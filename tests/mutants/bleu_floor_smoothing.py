"""Smooths zero matches (sacreBLEU "floor", epsilon 0.1) instead of returning exactly 0."""

import math

from independent import BleuCorpusCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def score(self, bp, matches, totals):
        if bp == 0.0:
            return 0.0
        log_sum = 0.0
        for m, total in zip(matches, totals):
            log_sum += math.log((m if m else 0.1) / total) if total else math.log(0.1)
        return bp * math.exp(log_sum / len(matches))


execute = Implementation(corpus_compute=CorpusCompute()).execute

"""Add-one smoothing of the precisions of orders n >= 2 (Lin and Och / NLTK method 2 style)."""

import math

from independent import BleuCorpusCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def score(self, bp, matches, totals):
        if bp == 0.0 or matches[0] == 0:
            return 0.0
        log_sum = math.log(matches[0] / totals[0])
        for m, total in zip(matches[1:], totals[1:]):
            log_sum += math.log((m + 1) / (total + 1))
        return bp * math.exp(log_sum / len(matches))


execute = Implementation(corpus_compute=CorpusCompute()).execute

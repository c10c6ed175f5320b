"""Forgets the 1/N weight: bleu = bp * exp(sum of ln p_n) (the product of the precisions)."""

import math

from independent import BleuCorpusCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def score(self, bp, matches, totals):
        if bp == 0.0 or 0 in matches:
            return 0.0
        return bp * math.exp(sum(math.log(m / total) for m, total in zip(matches, totals)))


execute = Implementation(corpus_compute=CorpusCompute()).execute

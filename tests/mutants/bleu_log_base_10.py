"""Takes log10 of the precisions but exponentiates with e (mixed bases)."""

import math

from independent import BleuCorpusCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def score(self, bp, matches, totals):
        if bp == 0.0 or 0 in matches:
            return 0.0
        return bp * math.exp(sum(math.log10(m / total) for m, total in zip(matches, totals)) / len(matches))


execute = Implementation(corpus_compute=CorpusCompute()).execute

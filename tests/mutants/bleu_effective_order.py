"""Uses effective order (sacreBLEU sentence-BLEU style): orders with no hypothesis n-grams are left out instead of making bleu 0."""

import math

from independent import BleuCorpusCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def score(self, bp, matches, totals):
        present = [(m, total) for m, total in zip(matches, totals) if total > 0]
        if bp == 0.0 or not present or any(m == 0 for m, _ in present):
            return 0.0
        return bp * math.exp(sum(math.log(m / total) for m, total in present) / len(present))


execute = Implementation(corpus_compute=CorpusCompute()).execute

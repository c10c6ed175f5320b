"""Only guards m_n = 0 when l_n > 0: an order with l_n = 0 gives 0/0 = NaN (as in JavaScript) instead of bleu 0."""

import math

from independent import BleuCorpusCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def score(self, bp, matches, totals):
        if bp == 0.0:
            return 0.0
        log_sum = 0.0
        for m, total in zip(matches, totals):
            if total == 0:
                return math.nan
            if m == 0:
                return 0.0
            log_sum += math.log(m / total)
        return bp * math.exp(log_sum / len(matches))


execute = Implementation(corpus_compute=CorpusCompute()).execute

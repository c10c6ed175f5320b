"""bleu-brevity-penalty: computes exp(1 - c/r) instead of exp(1 - r/c)."""

import math

from independent import BleuBrevityPenalty, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def brevity_penalty(self, c, r):
        if c > r:
            return 1.0
        if c == 0:
            return 0.0
        return math.exp(1 - c / r)


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

"""bleu-brevity-penalty: "1 if c >= r" (sacreBLEU 2.6), so c = r = 0 gives 1 where the contract says 0."""

import math

from independent import BleuBrevityPenalty, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def brevity_penalty(self, c, r):
        if c >= r:
            return 1.0
        if c == 0:
            return 0.0
        return math.exp(1 - r / c)


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

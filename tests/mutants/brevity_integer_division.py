"""bleu-brevity-penalty: r/c is an integer division (C/Java int / int), so exp(1 - r//c) is 1 for c <= r < 2c."""

import math

from independent import BleuBrevityPenalty, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def brevity_penalty(self, c, r):
        if c > r:
            return 1.0
        if c == 0:
            return 0.0
        return math.exp(1 - r // c)


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

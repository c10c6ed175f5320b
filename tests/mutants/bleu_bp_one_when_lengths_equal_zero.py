"""Brevity penalty written as "1 if c >= r": gives 1 when c = r = 0, where the contract says 0."""

import math

from independent import BleuCorpusCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def brevity_penalty(self, c, r):
        if c >= r:
            return 1.0
        if c == 0:
            return 0.0
        return math.exp(1 - r / c)


execute = Implementation(corpus_compute=CorpusCompute()).execute

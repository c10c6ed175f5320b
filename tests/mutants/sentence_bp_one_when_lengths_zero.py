"""bleu-sentence-compute: brevity penalty "1 if c >= r" (sacreBLEU 2.6): c = r = 0 gives 1 where the contract says 0."""

import math

from independent import BleuSentenceCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def brevity_penalty(self, c, r):
        if c >= r:
            return 1.0
        if c == 0:
            return 0.0
        return math.exp(1 - r / c)


execute = Implementation(sentence_compute=SentenceCompute()).execute

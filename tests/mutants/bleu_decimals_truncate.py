"""Rounds with Math.floor(x * 10^d) / 10^d (truncation) instead of toFixed's nearest."""

import math

from independent import BleuCorpusCompute, Implementation

CLASS = "rounding"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def rounded(self, value, payload):
        if "decimals" not in payload:
            return value
        scale = 10 ** int(payload["decimals"])
        return math.floor(value * scale) / scale


execute = Implementation(corpus_compute=CorpusCompute()).execute

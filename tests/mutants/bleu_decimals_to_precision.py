"""Rounds with toPrecision (significant digits) instead of toFixed (digits after the point)."""

from independent import BleuCorpusCompute, Implementation

CLASS = "precision-rounding"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def rounded(self, value, payload):
        if "decimals" not in payload or value == 0:
            return value
        return float(f"{value:.{max(1, int(payload['decimals']))}g}")


execute = Implementation(corpus_compute=CorpusCompute()).execute

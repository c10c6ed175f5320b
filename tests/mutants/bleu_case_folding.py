"""Compares tokens case-insensitively (lowercases them first); the contract says exact string equality."""

from independent import BleuStatistics, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    def segment(self, hypothesis, references, max_order):
        return super().segment([t.lower() for t in hypothesis], [[t.lower() for t in r] for r in references], max_order)


execute = Implementation(statistics=Statistics()).execute

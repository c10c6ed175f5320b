"""totals[n-1] adds len - n + 1 without max(0, ...): a hypothesis shorter than n contributes a negative total."""

from independent import BleuStatistics, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    def total(self, length, n):
        return length - n + 1


execute = Implementation(statistics=Statistics()).execute

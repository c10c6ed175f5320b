"""Clips an n-gram by the SUM of its counts over all references instead of its largest count in any single reference."""

from independent import BleuStatistics, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    def max_reference_count(self, key, reference_counts):
        return sum(counts.get(key, 0) for counts in reference_counts)


execute = Implementation(statistics=Statistics()).execute

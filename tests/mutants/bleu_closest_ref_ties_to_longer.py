"""Closest reference length: a tie goes to the LONGER reference."""

from independent import BleuCorpusCompute, BleuStatistics, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    def closest_ref_length(self, candidate_length, reference_lengths):
        return min(reference_lengths, key=lambda length: (abs(length - candidate_length), -length))


execute = Implementation(corpus_compute=BleuCorpusCompute(Statistics())).execute

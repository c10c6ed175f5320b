"""Reference length r sums the SHORTEST reference of each segment instead of the closest one."""

from independent import BleuCorpusCompute, BleuStatistics, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    def closest_ref_length(self, candidate_length, reference_lengths):
        return min(reference_lengths)


execute = Implementation(corpus_compute=BleuCorpusCompute(Statistics())).execute

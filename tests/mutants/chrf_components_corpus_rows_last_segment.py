"""The corpus rows are overwritten by each segment instead of summed, so they (and the score) are the last segment's."""

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def corpus_counts(self, segments):
        total = None
        for rows in segments:
            total = list(rows)
        return total


execute = execute_with(Components())

"""The corpus score is the mean of the segment scores (macro average) instead of the score of the summed rows."""

from fractions import Fraction

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def corpus_score(self, segments, corpus, beta):
        return sum((self.score(s, beta) for s in segments), Fraction(0)) / len(segments)


execute = execute_with(Components())

"""Scores chrF++ instead of chrF: word unigrams and bigrams enter the averages beside the six character orders."""

from dataclasses import replace

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def options(self, payload):
        return replace(super().options(payload), word_order=2)


execute = execute_with(Compute())

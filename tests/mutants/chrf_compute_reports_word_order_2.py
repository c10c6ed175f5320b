"""Reports word_order 2 (chrF++'s) in the output although no word n-grams are scored."""

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "output-shape"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def compute(self, payload):
        return {**super().compute(payload), "word_order": 2}


execute = execute_with(Compute())

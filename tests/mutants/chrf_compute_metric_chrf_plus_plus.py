"""Names the metric "chrF++" (copied from chrf-plus-plus-compute) instead of "chrF"; the scores are right."""

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "output-shape"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    metric = "chrF++"


execute = execute_with(Compute())

"""An omitted beta means 3 (chrF3) instead of 2."""

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    default_beta = 3


execute = execute_with(Compute())

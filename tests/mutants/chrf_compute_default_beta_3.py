"""An omitted beta means 3 (chrF3) instead of 2."""

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)
from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with


class Compute(ChrfCompute):
    default_beta = 3


execute = execute_with(Compute())

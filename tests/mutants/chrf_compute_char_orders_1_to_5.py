"""Averages character orders 1..5 (``range(1, 6)`` read as six orders) instead of 1..6."""

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    char_order = 5


execute = execute_with(Compute())

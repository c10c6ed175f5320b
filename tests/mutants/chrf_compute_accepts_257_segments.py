"""The segment limit is off by one: 257 segments are accepted (``> 257`` instead of ``> 256``)."""

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def max_segments(self):
        return super().max_segments() + 1


execute = execute_with(Compute())

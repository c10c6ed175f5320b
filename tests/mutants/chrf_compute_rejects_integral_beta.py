"""Strictly typed integers: beta 2.0 is rejected as invalid_input, though the contract says 4.0 is the integer 4."""

from independent.chrf_family import ChrfCompute
from independent.errors import Rejection

from mutants._chrf_family import execute_with

CLASS = "over-rejection"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def integer_option(self, payload, key, low, high):
        if key in payload and isinstance(payload[key], float):
            raise Rejection("invalid_input", f"{key} must be an integer, not a float")
        super().integer_option(payload, key, low, high)


execute = execute_with(Compute())

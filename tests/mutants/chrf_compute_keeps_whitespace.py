"""Whitespace is not removed: every code point of the text, spaces included, enters the character n-grams."""

from dataclasses import replace

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def options(self, payload):
        return replace(super().options(payload), whitespace=True)


execute = execute_with(Compute())

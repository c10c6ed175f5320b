"""Lowercases code point by code point, so a final capital sigma becomes "σ" instead of "ς" (no Final_Sigma)."""

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def lowercase(self, text):
        return "".join(ch.lower() for ch in text)


execute = execute_with(Compute())

"""Measures max_text_bytes in code points instead of UTF-8 bytes."""

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def text_bytes(self, texts):
        return sum(len(text) for text in texts)


execute = execute_with(Compute())

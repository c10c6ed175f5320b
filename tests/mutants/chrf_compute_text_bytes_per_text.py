"""Applies max_text_bytes to each text instead of to all texts together."""

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def text_bytes(self, texts):
        return max(super(Compute, self).text_bytes([text]) for text in texts)


execute = execute_with(Compute())

"""Measures max_text_bytes in UTF-16 code units (JavaScript's String.length), not UTF-8 bytes."""

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def text_bytes(self, texts):
        return sum(len(text.encode("utf-16-le", "surrogatepass")) // 2 for text in texts)


execute = execute_with(Compute())

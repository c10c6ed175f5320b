"""A lone surrogate counts 0 bytes towards max_text_bytes (dropped when encoding) instead of 3, so a text just
over the limit because of one gets invalid_input (lone surrogate) instead of limit_exceeded."""

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def text_bytes(self, texts):
        return sum(len(text.encode("utf-8", "ignore")) for text in texts)


execute = execute_with(Compute())

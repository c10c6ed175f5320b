"""The rows' order field is numbered from 0 (char 0..char_order-1, word 0..word_order-1) instead of from 1."""

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "output-shape"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def rows(self, counts, opts):
        return [{**row, "order": row["order"] - 1} for row in super().rows(counts, opts)]


execute = execute_with(Components())

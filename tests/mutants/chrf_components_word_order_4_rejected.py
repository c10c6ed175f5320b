"""word_order is checked against 0..3 (an exclusive bound of 4), so the largest allowed word_order, 4, is rejected."""

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "over-rejection"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    max_word_order = 3


execute = execute_with(Components())

"""char_order is checked against 0..9 (``char_order in range(10)``), so the largest allowed char_order,
10, is rejected."""

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "over-rejection"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    max_char_order = 9


execute = execute_with(Components())

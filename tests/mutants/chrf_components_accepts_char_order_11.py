"""char_order is checked against 0..11 (an off-by-one bound), so char_order 11 is accepted."""

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    max_char_order = 11


execute = execute_with(Components())

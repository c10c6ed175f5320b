"""The whitespace option is validated and echoed but ignored: whitespace is always removed from the character
n-grams."""

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)
from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with


class Components(ChrfComponents):
    def char_items(self, text, whitespace):
        return super().char_items(text, False)


execute = execute_with(Components())

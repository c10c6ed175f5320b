"""The whitespace option is validated and echoed but ignored: whitespace is always removed from the character
n-grams."""

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def char_items(self, text, whitespace):
        return super().char_items(text, False)


execute = execute_with(Components())

"""An order above a non-empty text's length counts the whole text as one n-gram of that order
(``range(max(1, len - n + 1))``) instead of none."""

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def ngram_list(self, items, n):
        if 0 < len(items) < n:
            return [tuple(items)]
        return super().ngram_list(items, n)


execute = execute_with(Components())

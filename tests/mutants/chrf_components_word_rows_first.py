"""The statistics rows list the word orders before the character orders (scores unchanged)."""

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "output-shape"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def rows(self, counts, opts):
        rows = super().rows(counts, opts)
        return [row for row in rows if row["unit"] == "word"] + [row for row in rows if row["unit"] == "char"]


execute = execute_with(Components())

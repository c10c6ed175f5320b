"""chrf-components: counts each order's hypothesis and reference n-grams in an Int16Array, so a text of
more than 32,767 characters (65,536 bytes allow 65,536) wraps to a negative count."""

from independent.chrf import Counts
from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with
from mutants._javascript import int16

CLASS = "integer-width"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def order_counts(self, hyp, ref, n):
        counts = super().order_counts(hyp, ref, n)
        return Counts(int16(counts.hypothesis), int16(counts.reference), counts.matches)

    def corpus_counts(self, segments):
        return [
            Counts(int16(c.hypothesis), int16(c.reference), int16(c.matches)) for c in super().corpus_counts(segments)
        ]

    def score(self, counts, beta):
        if any(c.hypothesis < 0 or c.reference < 0 for c in counts):  # a negative count: the precision is garbage
            counts = [Counts(abs(c.hypothesis), abs(c.reference), c.matches) for c in counts]
        return super().score(counts, beta)


execute = execute_with(Components())

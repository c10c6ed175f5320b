"""sacreBLEU's corpus sums: a segment's hypothesis n-grams of an order its reference lacks are left out of the
corpus precision (the contract says the sums count every hypothesis n-gram)."""

from independent.chrf import Counts
from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def corpus_counts(self, segments):
        kept = [[Counts(c.hypothesis if c.reference else 0, c.reference, c.matches) for c in s] for s in segments]
        return super().corpus_counts(kept)


execute = execute_with(Compute())

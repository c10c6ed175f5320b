"""sacreBLEU's corpus sums: a segment's hypothesis n-grams of an order its reference lacks are dropped from
the corpus rows (the contract says hypothesis_ngrams counts every hypothesis n-gram)."""

from independent.chrf import Counts
from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def corpus_counts(self, segments):
        kept = [[Counts(c.hypothesis if c.reference else 0, c.reference, c.matches) for c in s] for s in segments]
        return super().corpus_counts(kept)


execute = execute_with(Components())

"""bleu-sentence-compute: the method table swaps two entries: "chen-cherry-2" runs the NIST geometric
sequence (smoothing 3) and "chen-cherry-3" runs add-one (smoothing 2)."""

from independent import BleuSentenceCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)

METHODS = {
    "none": "none",
    "chen-cherry-1": "chen-cherry-1",
    "chen-cherry-2": "chen-cherry-3",
    "chen-cherry-3": "chen-cherry-2",
}


class SentenceCompute(BleuSentenceCompute):
    def precisions(self, matches, totals, method):
        return super().precisions(matches, totals, METHODS[method])


execute = Implementation(sentence_compute=SentenceCompute()).execute

"""Averages the precisions arithmetically: bleu = bp * mean(m_n / l_n)."""

from independent import BleuCorpusCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def score(self, bp, matches, totals):
        if bp == 0.0 or 0 in matches:
            return 0.0
        return bp * sum(m / total for m, total in zip(matches, totals)) / len(matches)


execute = Implementation(corpus_compute=CorpusCompute()).execute

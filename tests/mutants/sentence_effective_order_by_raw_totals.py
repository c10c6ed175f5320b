"""bleu-sentence-compute: effective order counts the orders with raw l_n > 0, not the smoothed denominator,
so chen-cherry-2 uses min(max_order, c) orders where the contract uses max_order."""

from independent import BleuSentenceCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def compute(self, payload):
        self._totals = None
        return super().compute(payload)

    def precisions(self, matches, totals, method):
        self._totals = totals
        return super().precisions(matches, totals, method)

    def orders_used(self, precisions, effective_order):
        if not effective_order:
            return len(precisions)
        used = 0
        while used < len(self._totals) and self._totals[used] > 0:
            used += 1
        return used


execute = Implementation(sentence_compute=SentenceCompute()).execute

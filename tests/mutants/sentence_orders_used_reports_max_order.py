"""bleu-sentence-compute: the score uses N' orders, but orders_used always reports max_order."""

from independent import BleuSentenceCompute, Implementation

CLASS = "output-shape"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def output(self, payload, bleu, bp, c, r, max_order, used, method, matches, totals):
        return super().output(payload, bleu, bp, c, r, max_order, max_order, method, matches, totals)


execute = Implementation(sentence_compute=SentenceCompute()).execute

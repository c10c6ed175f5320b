"""bleu-sentence-compute: divides by max(1, l_n) as NLTK 3.10 does, so an order with no n-grams gets
p_n = 0.1 (chen-cherry-1), 1/2^k (chen-cherry-3) or 1/2 (chen-cherry-2) instead of making bleu 0
or being left out."""

from independent import BleuSentenceCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def precisions(self, matches, totals, method):
        floored = [max(1, total) for total in totals]
        return super().precisions(matches, floored, method)


execute = Implementation(sentence_compute=SentenceCompute()).execute

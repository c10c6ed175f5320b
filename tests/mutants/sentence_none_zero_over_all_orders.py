"""bleu-sentence-compute: with "none", bleu is 0 when any m_n = 0 up to max_order, even an order effective
order leaves out (the contract looks at n <= N' only)."""

from independent import BleuSentenceCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def is_zero(self, c, matches, precisions, used, effective_order, method):
        return super().is_zero(c, matches, precisions, used, effective_order, method) or (
            method == "none" and 0 in matches
        )


execute = Implementation(sentence_compute=SentenceCompute()).execute

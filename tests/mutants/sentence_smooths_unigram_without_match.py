"""bleu-sentence-compute: no early 0 when m_1 = 0: smoothing 1 or 3 floors the unigram precision too, so a
hypothesis sharing no token with any reference scores above 0."""

from independent import BleuSentenceCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def is_zero(self, c, matches, precisions, used, effective_order, method):
        if method in ("chen-cherry-1", "chen-cherry-3") and c > 0:
            return not effective_order and any(p.denominator == 0 for p in precisions)
        return super().is_zero(c, matches, precisions, used, effective_order, method)


execute = Implementation(sentence_compute=SentenceCompute()).execute

"""bleu-sentence-compute: chen-cherry-1 adds epsilon 0.1 to every m_n, p_n = (m_n + 0.1) / l_n, instead of
using 0.1 / l_n only where m_n = 0."""

from independent import BleuSentenceCompute, Implementation
from independent.sentence import Precision

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def precisions(self, matches, totals, method):
        if method != "chen-cherry-1":
            return super().precisions(matches, totals, method)
        return [
            Precision(m + 0.1, total, (m + 0.1) / total if total else float("nan")) for m, total in zip(matches, totals)
        ]


execute = Implementation(sentence_compute=SentenceCompute()).execute

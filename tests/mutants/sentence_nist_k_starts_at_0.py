"""bleu-sentence-compute: chen-cherry-3's k starts at 0, so the first order with m_n = 0 gets 1 / l_n
instead of 1 / (2 l_n)."""

from independent import BleuSentenceCompute, Implementation
from independent.sentence import Precision

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def precisions(self, matches, totals, method):
        if method != "chen-cherry-3":
            return super().precisions(matches, totals, method)
        out = []
        k = 0
        for m, total in zip(matches, totals):
            if m == 0:
                out.append(Precision(1, 2**k * total, 1 / (2**k * total) if total else float("nan")))
                k += 1
            else:
                out.append(Precision(m, total, m / total if total else float("nan")))
        return out


execute = Implementation(sentence_compute=SentenceCompute()).execute

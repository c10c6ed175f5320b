"""bleu-sentence-compute: chen-cherry-2 adds one to the unigram precision too: p_1 = (m_1 + 1) / (l_1 + 1)."""

from independent import BleuSentenceCompute, Implementation
from independent.sentence import Precision

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def precisions(self, matches, totals, method):
        out = super().precisions(matches, totals, method)
        if method == "chen-cherry-2":
            m, total = matches[0], totals[0]
            out[0] = Precision(m + 1, total + 1, (m + 1) / (total + 1))
        return out


execute = Implementation(sentence_compute=SentenceCompute()).execute

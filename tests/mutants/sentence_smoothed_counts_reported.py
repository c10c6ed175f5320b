"""bleu-sentence-compute: chen-cherry-2 reports the smoothed m_n + 1 and l_n + 1 (n >= 2) in matches and
totals, as sacreBLEU's add-k does; the contract reports the raw counts."""

from independent import BleuSentenceCompute, Implementation

CLASS = "output-shape"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def output(self, payload, bleu, bp, c, r, max_order, used, method, matches, totals):
        if method == "chen-cherry-2":
            matches = matches[:1] + [m + 1 for m in matches[1:]]
            totals = totals[:1] + [total + 1 for total in totals[1:]]
        return super().output(payload, bleu, bp, c, r, max_order, used, method, matches, totals)


execute = Implementation(sentence_compute=SentenceCompute()).execute

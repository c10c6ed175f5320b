"""bleu-sentence-compute: rounds bleu with decimals but leaves brevity_penalty at full precision."""

from independent import BleuSentenceCompute, Implementation

CLASS = "rounding"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def output(self, payload, bleu, bp, c, r, max_order, used, method, matches, totals):
        output = super().output(payload, bleu, bp, c, r, max_order, used, method, matches, totals)
        output["brevity_penalty"] = bp
        return output


execute = Implementation(sentence_compute=SentenceCompute()).execute

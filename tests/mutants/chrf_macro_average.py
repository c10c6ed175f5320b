"""Corpus score is the mean of the segment scores (macro average) instead of the score of the summed counts."""

from fractions import Fraction

from independent import ChrfPlusPlus, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def compute(self, payload):
        output = super().compute(payload)
        hyps, refs = payload["hypotheses"], payload["references"]
        if output["lowercase"]:
            hyps, refs = [h.lower() for h in hyps], [r.lower() for r in refs]
        scores = [100 * self.f_score(self.segment_counts(h, r), output["beta"]) for h, r in zip(hyps, refs)]
        mean = sum(scores, Fraction(0)) / len(scores)
        output["score"] = self.six_decimals(mean)
        output["score_fraction"] = f"{mean.numerator}/{mean.denominator}"
        return output


execute = Implementation(chrf=Chrf()).execute

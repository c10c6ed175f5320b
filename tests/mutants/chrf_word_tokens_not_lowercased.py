"""Scores the lowercased text but reports word_tokens of the original text."""

from independent import ChrfPlusPlus, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def compute(self, payload):
        output = super().compute(payload)
        output["word_tokens"] = [
            {"hypothesis": self.words(h), "reference": self.words(r)}
            for h, r in zip(payload["hypotheses"], payload["references"])
        ]
        return output


execute = Implementation(chrf=Chrf()).execute

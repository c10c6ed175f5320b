"""Counts corpus word bigrams over the concatenated segments, adding bigrams across segment boundaries."""

from independent import ChrfPlusPlus, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def compute(self, payload):
        self._payload = payload
        return super().compute(payload)

    def corpus_counts(self, segments):
        total = super().corpus_counts(segments)
        payload = self._payload
        hyps = [w for h in payload["hypotheses"] for w in self.words(h.lower() if payload.get("lowercase") else h)]
        refs = [w for r in payload["references"] for w in self.words(r.lower() if payload.get("lowercase") else r)]
        total[-1] = self.order_counts(hyps, refs, 2)
        return total


execute = Implementation(chrf=Chrf()).execute

"""bleu-sentence-compute: treats smoothing as optional, "none" when omitted; the contract requires it."""

from independent import BleuSentenceCompute, Implementation

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    required = ("hypothesis", "references")

    def execute(self, payload):
        if isinstance(payload, dict) and "smoothing" not in payload:
            payload = {**payload, "smoothing": "none"}
        return super().execute(payload)


execute = Implementation(sentence_compute=SentenceCompute()).execute

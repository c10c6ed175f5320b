"""bleu-sentence-compute: accepts effective_order but ignores it: always uses every order up to max_order."""

from independent import BleuSentenceCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def compute(self, payload):
        return super().compute({key: value for key, value in payload.items() if key != "effective_order"})


execute = Implementation(sentence_compute=SentenceCompute()).execute

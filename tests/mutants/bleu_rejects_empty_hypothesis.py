"""Over-rejects: refuses a hypothesis with no tokens, which the schema allows (it scores 0)."""

from independent import BleuCorpusCompute, BleuNgramsCount, Implementation
from independent.errors import Rejection

CLASS = "over-rejection"  # the class of bug (benchmarks/bench_classes.py)


class NoEmpty:
    def validate(self, payload):
        super().validate(payload)
        if any(len(h) == 0 for h in payload["hypotheses"]):
            raise Rejection("invalid_input", "empty hypothesis")


class NgramsCount(NoEmpty, BleuNgramsCount):
    pass


class CorpusCompute(NoEmpty, BleuCorpusCompute):
    pass


execute = Implementation(ngrams_count=NgramsCount(), corpus_compute=CorpusCompute()).execute

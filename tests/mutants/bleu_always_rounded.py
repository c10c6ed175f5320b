"""Rounds bleu and brevity_penalty to 4 decimals even when decimals is omitted (a display habit)."""

from independent import BleuCorpusCompute, Implementation
from independent.bleu import to_fixed_number

CLASS = "rounding"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def rounded(self, value, payload):
        return to_fixed_number(value, int(payload.get("decimals", 4)))


execute = Implementation(corpus_compute=CorpusCompute()).execute

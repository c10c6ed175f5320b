"""Counts the hypothesis among the token lists that max_references_per_segment limits."""

from independent import BleuSentenceCompute, Implementation
from independent.fields import over_limit

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class Compute(BleuSentenceCompute):
    def check_limits(self, payload):
        if len(payload["references"]) + 1 > self.limits()["max_references_per_segment"]:
            raise over_limit("more than 8 references")
        super().check_limits(payload)


execute = Implementation(sentence_compute=Compute()).execute

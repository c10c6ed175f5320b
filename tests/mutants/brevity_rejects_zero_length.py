"""bleu-brevity-penalty: over-rejects: lengths must be >= 1 (an empty hypothesis or reference has length 0,
which the contract allows)."""

from independent import BleuBrevityPenalty, Implementation
from independent.errors import Rejection

CLASS = "over-rejection"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def check_lengths(self, name, lengths):
        super().check_lengths(name, lengths)
        if 0 in lengths:
            raise Rejection("invalid_input", f"{name}: lengths must be positive")


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

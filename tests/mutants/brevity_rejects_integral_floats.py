"""bleu-brevity-penalty: strictly typed integers (serde-style): rejects 12.0, which the contract says is the integer 12."""

from independent import BleuBrevityPenalty, Implementation
from independent.errors import Rejection

CLASS = "over-rejection"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def check_lengths(self, name, lengths):
        if isinstance(lengths, list) and any(isinstance(n, float) for n in lengths):
            raise Rejection("invalid_input", f"{name}: lengths must be written as integers")
        super().check_lengths(name, lengths)


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

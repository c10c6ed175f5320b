"""bleu-brevity-penalty: a tie between two closest reference lengths goes to the LONGER one."""

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)
from independent import BleuBrevityPenalty, Implementation


class BrevityPenalty(BleuBrevityPenalty):
    def closest(self, candidate, lengths):
        return min(lengths, key=lambda length: (abs(length - candidate), -length))


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

"""bleu-brevity-penalty: a tie between two closest reference lengths goes to the LONGER one."""

from independent import BleuBrevityPenalty, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def closest(self, candidate, lengths):
        return min(lengths, key=lambda length: (abs(length - candidate), -length))


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

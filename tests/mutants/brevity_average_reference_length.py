"""bleu-brevity-penalty: uses the (integer) average of a segment's reference lengths instead of the closest."""

from independent import BleuBrevityPenalty, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def closest(self, candidate, lengths):
        return sum(lengths) // len(lengths)


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

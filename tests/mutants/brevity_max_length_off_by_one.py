"""bleu-brevity-penalty: max_length off by one: rejects a length of exactly 1048576, which the limit allows."""

from independent import BleuBrevityPenalty, Implementation

CLASS = "over-rejection"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def too_long(self, length, max_length):
        return length >= max_length


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

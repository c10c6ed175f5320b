"""bleu-brevity-penalty: accepts decimals but never rounds: brevity_penalty stays at full precision."""

from independent import BleuBrevityPenalty, Implementation

CLASS = "rounding"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def rounded(self, value, payload):
        return value


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

"""bleu-brevity-penalty: accepts decimals but never rounds: brevity_penalty stays at full precision."""

CLASS = "rounding"  # the class of bug (benchmarks/bench_classes.py)
from independent import BleuBrevityPenalty, Implementation


class BrevityPenalty(BleuBrevityPenalty):
    def rounded(self, value, payload):
        return value


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

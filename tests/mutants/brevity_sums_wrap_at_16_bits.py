"""bleu-brevity-penalty: sums c and r in a 16-bit unsigned accumulator (a uint16 array), so they wrap at 65536;
lengths up to 1048576 over 1000 segments need 31 bits."""

from independent import BleuBrevityPenalty, Implementation

CLASS = "integer-width"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def total(self, values):
        acc = 0
        for value in values:
            acc = (acc + value) & 0xFFFF
        return acc


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

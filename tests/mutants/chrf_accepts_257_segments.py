"""Does not enforce the 256-segment limit."""

from independent import ChrfPlusPlus, Implementation

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def max_segments(self):
        return 10**9


execute = Implementation(chrf=Chrf()).execute

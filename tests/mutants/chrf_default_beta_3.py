"""An omitted beta means 3 (chrF3 habits) instead of 2."""

from independent import ChrfPlusPlus, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    default_beta = 3


execute = Implementation(chrf=Chrf()).execute

"""Does not reject texts holding a lone surrogate (the contract's validation rejects them)."""

from independent import ChrfPlusPlus, Implementation

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def check_surrogates(self, texts):
        pass


execute = Implementation(chrf=Chrf()).execute

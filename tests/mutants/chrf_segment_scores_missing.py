"""Leaves segment_scores out of the output."""

from independent import ChrfPlusPlus, Implementation

CLASS = "output-shape"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def compute(self, payload):
        output = super().compute(payload)
        del output["segment_scores"]
        return output


execute = Implementation(chrf=Chrf()).execute

"""Lowercases code point by code point, so a final capital sigma becomes "σ" instead of "ς" (no Final_Sigma)."""

from independent import ChrfPlusPlus, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def lowercase(self, text):
        return "".join(ch.lower() for ch in text)


execute = Implementation(chrf=Chrf()).execute

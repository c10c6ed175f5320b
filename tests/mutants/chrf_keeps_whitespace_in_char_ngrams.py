"""Keeps the spaces in character n-grams (chrF with whitespace, which chrF++ leaves out)."""

from independent import ChrfPlusPlus, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def characters(self, text):
        return list(text)


execute = Implementation(chrf=Chrf()).execute

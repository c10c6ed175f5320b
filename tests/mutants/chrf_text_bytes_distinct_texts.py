"""Sums max_text_bytes over the distinct texts (a text repeated counts once)."""

from independent import ChrfPlusPlus, Implementation

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def text_bytes(self, texts):
        return super().text_bytes(list(set(texts)))


execute = Implementation(chrf=Chrf()).execute

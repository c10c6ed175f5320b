"""Measures max_text_bytes in code points instead of UTF-8 bytes."""

from independent import ChrfPlusPlus, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def text_bytes(self, texts):
        return sum(len(text) for text in texts)


execute = Implementation(chrf=Chrf()).execute

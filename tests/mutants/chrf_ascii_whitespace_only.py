"""Splits and strips only ASCII whitespace (" \\t\\n\\r\\f\\v"), as a byte-oriented tokenizer would."""

from independent import ChrfPlusPlus, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)

ASCII_SPACE = frozenset(" \t\n\r\f\v")


class Chrf(ChrfPlusPlus):
    def characters(self, text):
        return [ch for ch in text if ch not in ASCII_SPACE]

    def split_words(self, text):
        return "".join(" " if ch in ASCII_SPACE else ch for ch in text).split()


execute = Implementation(chrf=Chrf()).execute

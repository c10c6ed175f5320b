"""Splits a punctuation mark off BOTH ends of a word ("(hi)" gives "(", "hi", ")"); the contract splits at most one."""

from independent import ChrfPlusPlus, Implementation
from independent.chrf import PUNCTUATION

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def separate_punctuation(self, word):
        if len(word) > 2 and word[0] in PUNCTUATION and word[-1] in PUNCTUATION:
            return [word[0], word[1:-1], word[-1]]
        return super().separate_punctuation(word)


execute = Implementation(chrf=Chrf()).execute

"""Treats every Unicode punctuation character (category P*) as a mark to split, not only the 32 ASCII ones."""

import unicodedata

from independent import ChrfPlusPlus, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


def is_mark(ch):
    return unicodedata.category(ch).startswith("P") or ch in "$+<=>^`|~"


class Chrf(ChrfPlusPlus):
    def separate_punctuation(self, word):
        if len(word) == 1:
            return [word]
        if is_mark(word[-1]):
            return [word[:-1], word[-1]]
        if is_mark(word[0]):
            return [word[0], word[1:]]
        return [word]


execute = Implementation(chrf=Chrf()).execute

"""Takes chrF++'s character n-grams over grapheme clusters instead of code points: a letter or a
punctuation mark with its combining marks, a ZWJ sequence, an emoji with its modifier or variation
selector and a pair of regional indicators each count as one character."""

import unicodedata

from independent import ChrfPlusPlus, Implementation
from independent.chrf import WHITESPACE

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)

ZWJ = "\u200d"


def regional_indicator(ch):
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def extends(ch):
    """Joins the cluster before it: combining marks, ZWJ, variation selectors, emoji modifiers."""
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or ch == ZWJ
        or 0xFE00 <= ord(ch) <= 0xFE0F
        or 0x1F3FB <= ord(ch) <= 0x1F3FF
    )


def clusters(text):
    """An approximation of extended grapheme clusters (UAX #29), enough for the usual cases."""
    found = []
    for ch in text:
        if found and ch not in WHITESPACE and found[-1][-1] not in WHITESPACE:
            last = found[-1]
            pair = regional_indicator(ch) and regional_indicator(last[-1]) and sum(map(regional_indicator, last)) % 2
            if extends(ch) or last.endswith(ZWJ) or pair:
                found[-1] = last + ch
                continue
        found.append(ch)
    return found


class Chrf(ChrfPlusPlus):
    def characters(self, text):
        return [cluster for cluster in clusters(text) if cluster not in WHITESPACE]


execute = Implementation(chrf=Chrf()).execute

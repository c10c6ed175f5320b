"""chrF and chrF++ (Popovic 2015, 2017): the one engine of the chrF tools.

Preparation (lowercasing, whitespace removal, word tokens), statistics per segment
(character and word n-gram counts, clipped matches per order), aggregation over the
corpus, and the exact F-beta score with its six-decimal rounding. A tool module maps
its contract's options onto these functions and shapes its output.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

# The Unicode version of str.lower() here; toLowerCase follows the runtime's own version
# (an open point for the code points whose mapping differs between versions).
UNICODE_VERSION = unicodedata.unidata_version

# "every whitespace code point removed: U+0009-U+000D, U+001C-U+001F, U+0020, U+0085, U+00A0,
# U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000" -- exactly this list, written
# out rather than borrowed from str.isspace or a regex \s (JavaScript's \s differs from it).
WHITESPACE_CODE_POINTS = frozenset(
    [
        *range(0x0009, 0x000D + 1),
        *range(0x001C, 0x001F + 1),
        0x0020,
        0x0085,
        0x00A0,
        0x1680,
        *range(0x2000, 0x200A + 1),
        0x2028,
        0x2029,
        0x202F,
        0x205F,
        0x3000,
    ]
)
WHITESPACE = frozenset(map(chr, WHITESPACE_CODE_POINTS))
_DELETE_WHITESPACE = dict.fromkeys(WHITESPACE_CODE_POINTS)  # a str.translate table mapping each to None
_WHITESPACE_RUN = re.compile("[" + "".join(f"\\U{cp:08x}" for cp in sorted(WHITESPACE_CODE_POINTS)) + "]+")

# "the 32 ASCII punctuation characters !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


# --- Preparation ----------------------------------------------------------------


def lowercase(text: str) -> str:
    """String.prototype.toLowerCase: full default case mapping, Final_Sigma included."""
    return text.lower()


def remove_whitespace(text: str) -> str:
    """Character n-grams are taken over the text with every whitespace code point removed."""
    return text.translate(_DELETE_WHITESPACE)


def word_tokens(text: str) -> list[str]:
    """separate_punctuation of chrF++.py: at most one ASCII mark split off each word."""
    tokens: list[str] = []
    for word in _WHITESPACE_RUN.split(text):
        if not word:
            continue
        if len(word) == 1:  # a word of one code point is kept
            tokens.append(word)
        elif word[-1] in PUNCTUATION:
            tokens += [word[:-1], word[-1]]
        elif word[0] in PUNCTUATION:
            tokens += [word[0], word[1:]]
        else:
            tokens.append(word)
    return tokens


NGram = TypeVar("NGram", str, tuple[str, ...])  # a character n-gram or a word n-gram


def char_ngram_counts(text: str, n: int) -> Counter[str]:
    return Counter(text[i : i + n] for i in range(len(text) - n + 1))


def word_ngram_counts(tokens: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


# --- Statistics per segment ---------------------------------------------------------


@dataclass(frozen=True)
class OrderStatistics:
    hypothesis: int  # n-grams of this order in the hypothesis
    reference: int  # n-grams of this order in the reference
    matches: int  # sum over reference n-grams of min(reference count, hypothesis count)

    def __add__(self, other: OrderStatistics) -> OrderStatistics:
        return OrderStatistics(
            self.hypothesis + other.hypothesis, self.reference + other.reference, self.matches + other.matches
        )


def order_statistics(hyp: Counter[NGram], ref: Counter[NGram]) -> OrderStatistics:
    # sum over reference n-grams of min(reference count, hypothesis count)
    matches = sum(min(count, hyp[g]) for g, count in ref.items() if g in hyp)
    return OrderStatistics(sum(hyp.values()), sum(ref.values()), matches)


def segment_statistics(
    hypothesis: str, reference: str, char_order: int, word_order: int, whitespace: bool = False
) -> list[OrderStatistics]:
    """Character orders 1..char_order, then word orders 1..word_order.

    Character n-grams are taken over the text with every whitespace code point removed, or
    with ``whitespace`` over the whole text; word tokens never depend on it.
    """
    if whitespace:
        hyp_chars, ref_chars = hypothesis, reference
    else:
        hyp_chars, ref_chars = remove_whitespace(hypothesis), remove_whitespace(reference)
    hyp_words, ref_words = word_tokens(hypothesis), word_tokens(reference)
    stats = [
        order_statistics(char_ngram_counts(hyp_chars, n), char_ngram_counts(ref_chars, n))
        for n in range(1, char_order + 1)
    ]
    stats += [
        order_statistics(word_ngram_counts(hyp_words, n), word_ngram_counts(ref_words, n))
        for n in range(1, word_order + 1)
    ]
    return stats


# --- Aggregation ------------------------------------------------------------------------


def corpus_statistics(per_segment: list[list[OrderStatistics]]) -> list[OrderStatistics]:
    """ "Corpus score sums per-order counts over all segments" -- every hypothesis n-gram included."""
    total = per_segment[0]
    for stats in per_segment[1:]:
        total = [a + b for a, b in zip(total, stats)]
    return total


# --- Score ----------------------------------------------------------------------------


def f_score(stats: list[OrderStatistics], beta: int) -> Fraction:
    """Popovic 2017 eq. (1) on the 0..1 scale, over the effective orders only.

    An order enters the averages only when both sides have at least one n-gram of it;
    if none does, or both averages are 0, the score is 0.
    """
    effective = [s for s in stats if s.hypothesis > 0 and s.reference > 0]
    if not effective:
        return Fraction(0)
    precision = sum((Fraction(s.matches, s.hypothesis) for s in effective), Fraction(0)) / len(effective)
    recall = sum((Fraction(s.matches, s.reference) for s in effective), Fraction(0)) / len(effective)
    if precision == 0 and recall == 0:
        return Fraction(0)
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)


def six_decimals(value: Fraction) -> str:
    """The exact value rounded to six decimals, ties to even (Fraction rounding is half-even)."""
    micro = round(value * 1_000_000)
    return f"{micro // 1_000_000}.{micro % 1_000_000:06d}"


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"

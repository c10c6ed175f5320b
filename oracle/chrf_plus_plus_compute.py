"""chrf-plus-plus-compute@1.0.0: exact chrF++ (Popovic 2015, 2017).

Character n-grams n = 1..6 and word n-grams n = 1..2, counted per segment,
summed over the corpus, and scored in exact rational arithmetic. Reads top to
bottom like the contract's semantics.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from oracle.errors import INVALID_INPUT, LIMIT_EXCEEDED, ContractError
from oracle.validation import Rule, Schema, equal_segment_counts, has_lone_surrogate, utf8_length

TOOL_ID = "chrf-plus-plus-compute"
VERSION = "1.0.0"
CHAR_ORDER = 6
WORD_ORDER = 2
DEFAULT_BETA = 2  # "beta omitted means 2"
DEFAULT_LOWERCASE = False  # "lowercase omitted means false"

# The Unicode version of str.lower() here; toLowerCase follows the runtime's own version
# (an open point for the code points whose mapping differs between versions).
UNICODE_VERSION = unicodedata.unidata_version

# "every whitespace code point removed: U+0009-U+000D, U+001C-U+001F, U+0020, U+0085, U+00A0,
# U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000" -- exactly this list, written
# out rather than borrowed from str.isspace or a regex \s (JavaScript's \s differs from it).
WHITESPACE_CODE_POINTS = frozenset(
    [*range(0x0009, 0x000D + 1), *range(0x001C, 0x001F + 1), 0x0020, 0x0085, 0x00A0, 0x1680,
     *range(0x2000, 0x200A + 1), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
)
WHITESPACE = frozenset(map(chr, WHITESPACE_CODE_POINTS))
_DELETE_WHITESPACE = dict.fromkeys(WHITESPACE_CODE_POINTS)  # a str.translate table mapping each to None
_WHITESPACE_RUN = re.compile("[" + "".join(f"\\U{cp:08x}" for cp in sorted(WHITESPACE_CODE_POINTS)) + "]+")

# "the 32 ASCII punctuation characters !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def check_text_limits(payload: dict, limits: dict) -> None:
    """"total UTF-8 bytes of all texts at most 65536", then "lone surrogates"."""
    texts = [("hypotheses", i, t) for i, t in enumerate(payload["hypotheses"])]
    texts += [("references", i, t) for i, t in enumerate(payload["references"])]
    total = sum(utf8_length(t) for _, _, t in texts)
    if total > limits["max_text_bytes"]:
        raise ContractError(
            LIMIT_EXCEEDED,
            f"input: hypotheses and references total {total} UTF-8 bytes, more than max_text_bytes {limits['max_text_bytes']}",
        )
    for field, i, text in texts:
        if has_lone_surrogate(text):
            raise ContractError(INVALID_INPUT, f"{field}[{i}]: contains a lone surrogate")


# "Validation order: plain object, unknown keys, missing keys, hypotheses then references
# (array, at most 256 segments, at least one, strings), equal segment counts, total UTF-8
# bytes of all texts at most 65536, lone surrogates, beta, lowercase."
VALIDATION = [
    Schema("hypotheses"),
    Schema("references"),
    Rule("equal segment counts", equal_segment_counts),
    Rule("text bytes, then lone surrogates", check_text_limits),
    Schema("beta"),
    Schema("lowercase"),
]


# --- Tokenization -----------------------------------------------------------


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


def char_ngram_counts(text: str, n: int) -> Counter:
    return Counter(text[i : i + n] for i in range(len(text) - n + 1))


def word_ngram_counts(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


# --- Statistics ---------------------------------------------------------------


@dataclass(frozen=True)
class OrderStatistics:
    hypothesis: int  # n-grams of this order in the hypothesis
    reference: int  # n-grams of this order in the reference
    matches: int  # sum over reference n-grams of min(reference count, hypothesis count)

    def __add__(self, other: "OrderStatistics") -> "OrderStatistics":
        return OrderStatistics(self.hypothesis + other.hypothesis, self.reference + other.reference,
                               self.matches + other.matches)


def order_statistics(hyp: Counter, ref: Counter) -> OrderStatistics:
    # sum over reference n-grams of min(reference count, hypothesis count)
    matches = sum(min(count, hyp[g]) for g, count in ref.items() if g in hyp)
    return OrderStatistics(sum(hyp.values()), sum(ref.values()), matches)


def segment_statistics(hypothesis: str, reference: str) -> list[OrderStatistics]:
    """Eight orders: character 1..6, then word 1..2."""
    hyp_chars, ref_chars = remove_whitespace(hypothesis), remove_whitespace(reference)
    hyp_words, ref_words = word_tokens(hypothesis), word_tokens(reference)
    stats = [order_statistics(char_ngram_counts(hyp_chars, n), char_ngram_counts(ref_chars, n))
             for n in range(1, CHAR_ORDER + 1)]
    stats += [order_statistics(word_ngram_counts(hyp_words, n), word_ngram_counts(ref_words, n))
              for n in range(1, WORD_ORDER + 1)]
    return stats


def corpus_statistics(per_segment: list[list[OrderStatistics]]) -> list[OrderStatistics]:
    """"Corpus score sums per-order counts over all segments" -- every hypothesis n-gram included."""
    total = per_segment[0]
    for stats in per_segment[1:]:
        total = [a + b for a, b in zip(total, stats)]
    return total


def f_score(stats: list[OrderStatistics], beta: int) -> Fraction:
    """Popovic 2017 eq. (1) on the 0..1 scale, over the effective orders only.

    An order enters the averages only when both sides have at least one n-gram of it;
    if none does, or both averages are 0, the score is 0.
    """
    effective = [s for s in stats if s.hypothesis > 0 and s.reference > 0]
    if not effective:
        return Fraction(0)
    precision = sum(Fraction(s.matches, s.hypothesis) for s in effective) / len(effective)
    recall = sum(Fraction(s.matches, s.reference) for s in effective) / len(effective)
    if precision == 0 and recall == 0:
        return Fraction(0)
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)


# --- Output -----------------------------------------------------------------


def six_decimals(value: Fraction) -> str:
    """The exact value rounded to six decimals, ties to even (Fraction rounding is half-even)."""
    micro = round(value * 1_000_000)
    return f"{micro // 1_000_000}.{micro % 1_000_000:06d}"


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def compute(payload: dict, limits: dict) -> dict:
    beta = int(payload.get("beta", DEFAULT_BETA))
    lowercase = payload.get("lowercase", DEFAULT_LOWERCASE)
    hypotheses, references = list(payload["hypotheses"]), list(payload["references"])
    if lowercase:
        # String.prototype.toLowerCase: full default case mapping, Final_Sigma included.
        hypotheses = [h.lower() for h in hypotheses]
        references = [r.lower() for r in references]

    per_segment = [segment_statistics(h, r) for h, r in zip(hypotheses, references)]
    corpus = 100 * f_score(corpus_statistics(per_segment), beta)
    segment_scores = [six_decimals(100 * f_score(stats, beta)) for stats in per_segment]

    return {
        "metric": "chrF++",
        "char_order": CHAR_ORDER,
        "word_order": WORD_ORDER,
        "beta": beta,
        "lowercase": lowercase,
        "segment_count": len(per_segment),
        "score": six_decimals(corpus),
        "score_fraction": fraction_text(corpus),
        "segment_scores": segment_scores,
        "word_tokens": [
            {"hypothesis": word_tokens(h), "reference": word_tokens(r)} for h, r in zip(hypotheses, references)
        ],
    }

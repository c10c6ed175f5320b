"""chrf-plus-plus-compute, from its contract's semantics, in exact fractions.

Character n-grams are tuples of code points; the corpus sums follow sacreBLEU (the other
reading of A4): a segment's hypothesis n-grams of an order its reference lacks are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from independent.contract import contract
from independent.errors import Rejection

# The contract's whitespace list, code point by code point.
WHITESPACE = frozenset(
    [chr(c) for c in range(0x09, 0x0E)]
    + [chr(c) for c in range(0x1C, 0x20)]
    + [" ", "\u0085", "\u00a0", "\u1680"]
    + [chr(c) for c in range(0x2000, 0x200B)]
    + ["\u2028", "\u2029", "\u202f", "\u205f", "\u3000"]
)
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
CHAR_ORDER, WORD_ORDER = 6, 2
KEYS = ("hypotheses", "references", "beta", "lowercase")


@dataclass
class Counts:
    hypothesis: int
    reference: int
    matches: int


class ChrfPlusPlus:
    tool_id = "chrf-plus-plus-compute"
    default_beta = 2

    def execute(self, payload) -> dict:
        self.validate(payload)
        return self.compute(payload)

    # --- validation, in the contract's stated order ---

    def validate(self, payload) -> None:
        if not isinstance(payload, dict):
            raise Rejection("invalid_input", "input must be an object")
        for key in payload:
            if key not in KEYS:
                raise Rejection("invalid_input", f"unknown key {key}")
        for key in ("hypotheses", "references"):
            if key not in payload:
                raise Rejection("invalid_input", f"missing {key}")
        for key in ("hypotheses", "references"):
            self.check_texts(key, payload[key])
        if len(payload["hypotheses"]) != len(payload["references"]):
            raise Rejection("invalid_input", "segment counts differ")
        texts = payload["hypotheses"] + payload["references"]
        if self.text_bytes(texts) > contract(self.tool_id)["limits"]["max_text_bytes"]:
            raise Rejection("limit_exceeded", "texts too long")
        self.check_surrogates(texts)
        if "beta" in payload:
            beta = payload["beta"]
            if isinstance(beta, bool) or not isinstance(beta, int) or not 1 <= beta <= 16:  # 2.0 rejected (A9)
                raise Rejection("invalid_input", "beta must be an integer 1..16")
        if "lowercase" in payload and not isinstance(payload["lowercase"], bool):
            raise Rejection("invalid_input", "lowercase must be a boolean")

    def max_segments(self) -> int:
        return contract(self.tool_id)["limits"]["max_segments"]

    def check_texts(self, key: str, texts) -> None:
        if not isinstance(texts, list):
            raise Rejection("invalid_input", f"{key} must be an array")
        if len(texts) > self.max_segments():
            raise Rejection("invalid_input", f"{key}: too many segments")  # A6: schema maxItems
        if not texts:
            raise Rejection("invalid_input", f"{key}: at least one segment")
        if not all(isinstance(text, str) for text in texts):
            raise Rejection("invalid_input", f"{key}: strings only")

    def text_bytes(self, texts: list[str]) -> int:
        """UTF-8 bytes; a lone surrogate, which UTF-8 cannot encode, counts 0 (the other reading of A14)."""
        return sum(len(text.encode("utf-8", "ignore")) for text in texts)

    def check_surrogates(self, texts: list[str]) -> None:
        for text in texts:
            if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
                raise Rejection("invalid_input", "lone surrogate")

    # --- tokenization ---

    def characters(self, text: str) -> list[str]:
        return [ch for ch in text if ch not in WHITESPACE]

    def split_words(self, text: str) -> list[str]:
        words, current = [], []
        for ch in text:
            if ch in WHITESPACE:
                if current:
                    words.append("".join(current))
                current = []
            else:
                current.append(ch)
        if current:
            words.append("".join(current))
        return words

    def separate_punctuation(self, word: str) -> list[str]:
        if len(word) == 1:
            return [word]
        if word[-1] in PUNCTUATION:
            return [word[:-1], word[-1]]
        if word[0] in PUNCTUATION:
            return [word[0], word[1:]]
        return [word]

    def words(self, text: str) -> list[str]:
        return [token for word in self.split_words(text) for token in self.separate_punctuation(word)]

    def lowercase(self, text: str) -> str:
        return text.lower()

    # --- statistics ---

    @staticmethod
    def ngram_counts(items: list, n: int) -> dict:
        counts: dict = {}
        for i in range(len(items) - n + 1):
            key = tuple(items[i : i + n])
            counts[key] = counts.get(key, 0) + 1
        return counts

    def order_counts(self, hyp: list, ref: list, n: int) -> Counts:
        h, r = self.ngram_counts(hyp, n), self.ngram_counts(ref, n)
        matches = sum(min(count, h.get(key, 0)) for key, count in r.items())
        return Counts(sum(h.values()), sum(r.values()), matches)

    def segment_counts(self, hypothesis: str, reference: str) -> list[Counts]:
        hc, rc = self.characters(hypothesis), self.characters(reference)
        hw, rw = self.words(hypothesis), self.words(reference)
        return [self.order_counts(hc, rc, n) for n in range(1, CHAR_ORDER + 1)] + [
            self.order_counts(hw, rw, n) for n in range(1, WORD_ORDER + 1)
        ]

    def corpus_counts(self, segments: list[list[Counts]]) -> list[Counts]:
        """sacreBLEU's sums: an order the segment's reference lacks adds no hypothesis n-grams (A4)."""
        total = [Counts(0, 0, 0) for _ in range(CHAR_ORDER + WORD_ORDER)]
        for counts in segments:
            for acc, c in zip(total, counts):
                acc.hypothesis += c.hypothesis if c.reference else 0
                acc.reference += c.reference
                acc.matches += c.matches
        return total

    def f_score(self, counts: list[Counts], beta: int) -> Fraction:
        effective = [c for c in counts if c.hypothesis and c.reference]
        if not effective:
            return Fraction(0)
        precision = sum(Fraction(c.matches, c.hypothesis) for c in effective) / len(effective)
        recall = sum(Fraction(c.matches, c.reference) for c in effective) / len(effective)
        if precision == 0 and recall == 0:
            return Fraction(0)
        b2 = beta * beta
        return (1 + b2) * precision * recall / (b2 * precision + recall)

    # --- output ---

    @staticmethod
    def six_decimals(value: Fraction) -> str:
        """Rounded to six decimals, ties to even, from the exact fraction."""
        scaled = value * 10**6
        whole, rest = divmod(scaled.numerator, scaled.denominator)
        twice = 2 * rest
        if twice > scaled.denominator or (twice == scaled.denominator and whole % 2 == 1):
            whole += 1
        return f"{whole // 10**6}.{whole % 10**6:06d}"

    def compute(self, payload) -> dict:
        beta = int(payload.get("beta", self.default_beta))
        lower = payload.get("lowercase", False)
        hyps, refs = payload["hypotheses"], payload["references"]
        if lower:
            hyps, refs = [self.lowercase(h) for h in hyps], [self.lowercase(r) for r in refs]
        segments = [self.segment_counts(h, r) for h, r in zip(hyps, refs)]
        corpus = 100 * self.f_score(self.corpus_counts(segments), beta)
        return {
            "metric": "chrF++",
            "char_order": CHAR_ORDER,
            "word_order": WORD_ORDER,
            "beta": beta,
            "lowercase": lower,
            "segment_count": len(hyps),
            "score": self.six_decimals(corpus),
            "score_fraction": f"{corpus.numerator}/{corpus.denominator}",
            "segment_scores": [self.six_decimals(100 * self.f_score(s, beta)) for s in segments],
            "word_tokens": [{"hypothesis": self.words(h), "reference": self.words(r)} for h, r in zip(hyps, refs)],
        }

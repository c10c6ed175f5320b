"""chrf-compute and chrf-components, from their contracts' semantics, in exact fractions.

Both reuse the chrF++ tokenization and F-score of independent.chrf, but their contracts decide
the points chrF++ leaves open, so here every reading is the stated one:

* the corpus sums count every hypothesis n-gram, also of an order the segment's reference lacks;
* more than 256 segments and more than 65536 text bytes are limit_exceeded;
* a lone surrogate counts 3 bytes (the size of its U+FFFD replacement);
* an integer is any number with no fractional part: 4.0 is 4, infinity is not an integer.

Where the contracts leave the way open it differs from the oracle: the per-order statistics
are counted from sorted n-gram lists (a merge of two runs of equal n-grams) instead of
counters, the kept-whitespace character list is the text's code points one by one, and the
corpus rows are built by transposing the segments' rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby

from independent.chrf import ChrfPlusPlus, Counts
from independent.contract import contract, utf8_bytes
from independent.errors import Rejection

VERSION = "1.0.0"


@dataclass(frozen=True)
class Options:
    char_order: int
    word_order: int
    whitespace: bool
    beta: int
    lowercase: bool


def integral(value) -> bool:
    """A number with no fractional part, as JSON Schema defines an integer (true is not one)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and value.is_integer()  # inf and nan are not


class ChrfFamily(ChrfPlusPlus):
    """What chrf-compute and chrf-components share: validation up to the options, statistics, score."""

    tool_id = ""
    keys: tuple[str, ...] = ("hypotheses", "references", "beta", "lowercase")
    default_beta = 2

    def execute(self, payload) -> dict:
        self.validate(payload)
        return self.compute(payload)

    # --- validation, in the stated order ---

    def validate(self, payload) -> None:
        if not isinstance(payload, dict):
            raise Rejection("invalid_input", "input must be an object")
        unknown = [key for key in payload if key not in self.keys]
        if unknown:
            raise Rejection("invalid_input", f"unknown key {unknown[0]!r}")
        missing = [key for key in ("hypotheses", "references") if key not in payload]
        if missing:
            raise Rejection("invalid_input", f"missing {missing[0]}")
        self.check_texts("hypotheses", payload["hypotheses"])
        self.check_texts("references", payload["references"])
        if len(payload["hypotheses"]) != len(payload["references"]):
            raise Rejection("invalid_input", "hypotheses and references differ in length")
        texts = [*payload["hypotheses"], *payload["references"]]
        if self.text_bytes(texts) > self.limit("max_text_bytes"):
            raise Rejection("limit_exceeded", "more than max_text_bytes UTF-8 bytes")
        self.check_surrogates(texts)
        self.check_options(payload)

    def limit(self, name: str) -> int:
        return contract(self.tool_id, VERSION)["limits"][name]

    def max_segments(self) -> int:
        return self.limit("max_segments")

    def check_texts(self, key: str, texts) -> None:
        if not isinstance(texts, list):
            raise Rejection("invalid_input", f"{key} is not an array")
        if len(texts) > self.max_segments():
            raise Rejection("limit_exceeded", f"{key}: more than max_segments")
        if len(texts) == 0:
            raise Rejection("invalid_input", f"{key} is empty")
        for text in texts:
            if not isinstance(text, str):
                raise Rejection("invalid_input", f"{key}: every segment must be a string")

    def text_bytes(self, texts: list[str]) -> int:
        """UTF-8 bytes; a lone surrogate counts 3, as WTF-8 encodes it."""
        return sum(utf8_bytes(text) for text in texts)

    def integer_option(self, payload, key: str, low: int, high: int) -> None:
        if key in payload:
            value = payload[key]
            if not integral(value) or value < low or value > high:
                raise Rejection("invalid_input", f"{key} must be an integer {low}..{high}")

    def boolean_option(self, payload, key: str) -> None:
        if key in payload and type(payload[key]) is not bool:
            raise Rejection("invalid_input", f"{key} must be true or false")

    def check_options(self, payload) -> None:
        self.integer_option(payload, "beta", 1, 16)
        self.boolean_option(payload, "lowercase")

    def options(self, payload) -> Options:
        raise NotImplementedError

    # --- statistics ---

    def char_items(self, text: str, whitespace: bool) -> list[str]:
        if whitespace:
            return [*text]
        return self.characters(text)

    def ngram_list(self, items: list, n: int) -> list[tuple]:
        """The n-grams of ``items``, sorted; none when the sequence is shorter than n."""
        return sorted(tuple(items[start : start + n]) for start in range(len(items) - n + 1))

    def order_counts(self, hyp: list, ref: list, n: int) -> Counts:
        """Clipped matches by merging the two sorted n-gram lists run by run."""
        hyp_runs = [(key, len(list(run))) for key, run in groupby(self.ngram_list(hyp, n))]
        ref_runs = [(key, len(list(run))) for key, run in groupby(self.ngram_list(ref, n))]
        matches, i, j = 0, 0, 0
        while i < len(hyp_runs) and j < len(ref_runs):
            if hyp_runs[i][0] == ref_runs[j][0]:
                matches += min(hyp_runs[i][1], ref_runs[j][1])
                i, j = i + 1, j + 1
            elif hyp_runs[i][0] < ref_runs[j][0]:
                i += 1
            else:
                j += 1
        return Counts(sum(c for _, c in hyp_runs), sum(c for _, c in ref_runs), matches)

    def statistics(self, hypothesis: str, reference: str, opts: Options) -> list[Counts]:
        """Character orders 1..char_order, then word orders 1..word_order."""
        hyp_chars = self.char_items(hypothesis, opts.whitespace)
        ref_chars = self.char_items(reference, opts.whitespace)
        rows = [self.order_counts(hyp_chars, ref_chars, n) for n in range(1, opts.char_order + 1)]
        if opts.word_order:
            hyp_words, ref_words = self.words(hypothesis), self.words(reference)
            rows += [self.order_counts(hyp_words, ref_words, n) for n in range(1, opts.word_order + 1)]
        return rows

    def corpus_counts(self, segments: list[list[Counts]]) -> list[Counts]:
        """Sums over all segments, every hypothesis n-gram included."""
        return [
            Counts(sum(c.hypothesis for c in order), sum(c.reference for c in order), sum(c.matches for c in order))
            for order in zip(*segments)
        ]

    def score(self, counts: list[Counts], beta: int) -> Fraction:
        return 100 * self.f_score(counts, beta)

    def corpus_score(self, segments: list[list[Counts]], corpus: list[Counts], beta: int) -> Fraction:
        """The rule applied to the summed rows (not a mean of the segment scores)."""
        return self.score(corpus, beta)

    def prepared(self, payload, opts: Options) -> tuple[list[str], list[str]]:
        hyps, refs = list(payload["hypotheses"]), list(payload["references"])
        if opts.lowercase:
            hyps, refs = [self.lowercase(h) for h in hyps], [self.lowercase(r) for r in refs]
        return hyps, refs

    def measured(self, payload) -> tuple[Options, list[list[Counts]], list[Counts]]:
        opts = self.options(payload)
        hyps, refs = self.prepared(payload, opts)
        segments = [self.statistics(h, r, opts) for h, r in zip(hyps, refs)]
        return opts, segments, self.corpus_counts(segments)

    @staticmethod
    def fraction(value: Fraction) -> str:
        return f"{value.numerator}/{value.denominator}"


class ChrfCompute(ChrfFamily):
    """chrf-compute@1.0.0: chrF, character orders 1..6, whitespace removed, no word n-grams."""

    tool_id = "chrf-compute"
    char_order, word_order = 6, 0
    metric = "chrF"

    def options(self, payload) -> Options:
        return Options(
            self.char_order,
            self.word_order,
            False,
            int(payload.get("beta", self.default_beta)),
            payload.get("lowercase", False),
        )

    def compute(self, payload) -> dict:
        opts, segments, corpus = self.measured(payload)
        total = self.corpus_score(segments, corpus, opts.beta)
        return {
            "metric": self.metric,
            "char_order": 6,
            "word_order": 0,
            "beta": opts.beta,
            "lowercase": opts.lowercase,
            "segment_count": len(segments),
            "score": self.six_decimals(total),
            "score_fraction": self.fraction(total),
            "segment_scores": [self.six_decimals(self.score(s, opts.beta)) for s in segments],
        }


class ChrfComponents(ChrfFamily):
    """chrf-components@1.0.0: orders 0..10 and 0..4, whitespace kept or removed, per-order rows."""

    tool_id = "chrf-components"
    keys = ("hypotheses", "references", "char_order", "word_order", "whitespace", "beta", "lowercase")
    default_char_order, default_word_order = 6, 0
    max_char_order, max_word_order = 10, 4

    def check_options(self, payload) -> None:
        self.integer_option(payload, "char_order", 0, self.max_char_order)
        self.integer_option(payload, "word_order", 0, self.max_word_order)
        char_order, word_order = self.orders(payload)
        if char_order + word_order < 1:  # after the defaults
            raise Rejection("invalid_input", "char_order + word_order must be at least 1")
        self.boolean_option(payload, "whitespace")
        self.integer_option(payload, "beta", 1, 16)
        self.boolean_option(payload, "lowercase")

    def orders(self, payload) -> tuple[int, int]:
        return (
            int(payload.get("char_order", self.default_char_order)),
            int(payload.get("word_order", self.default_word_order)),
        )

    def options(self, payload) -> Options:
        char_order, word_order = self.orders(payload)
        return Options(
            char_order=char_order,
            word_order=word_order,
            whitespace=payload.get("whitespace", False),
            beta=int(payload.get("beta", self.default_beta)),
            lowercase=payload.get("lowercase", False),
        )

    def rows(self, counts: list[Counts], opts: Options) -> list[dict]:
        labels = [("char", n) for n in range(1, opts.char_order + 1)] + [
            ("word", n) for n in range(1, opts.word_order + 1)
        ]
        return [
            {
                "unit": unit,
                "order": order,
                "hypothesis_ngrams": c.hypothesis,
                "reference_ngrams": c.reference,
                "matches": c.matches,
            }
            for (unit, order), c in zip(labels, counts)
        ]

    def compute(self, payload) -> dict:
        opts, segments, corpus = self.measured(payload)
        total = self.corpus_score(segments, corpus, opts.beta)
        return {
            "char_order": opts.char_order,
            "word_order": opts.word_order,
            "whitespace": opts.whitespace,
            "beta": opts.beta,
            "lowercase": opts.lowercase,
            "segment_count": len(segments),
            "statistics": self.rows(corpus, opts),
            "score": self.six_decimals(total),
            "score_fraction": self.fraction(total),
            "segments": [
                {"segment": i, "statistics": self.rows(s, opts), "score": self.six_decimals(self.score(s, opts.beta))}
                for i, s in enumerate(segments)
            ],
        }


__all__ = ["ChrfCompute", "ChrfComponents", "ChrfFamily", "Options"]

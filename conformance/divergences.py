"""The catalogue of mechanisms: every known way a library computes something other than the contract, named by
what it does, once, whichever libraries show it.

A mechanism's model is the oracle's own computation with that one mechanism changed (``variant``), never a
library's answer: an order without hypothesis n-grams given the denominator 1, a brevity penalty of 1 for
c = r = 0, a whitespace set lacking U+001C-U+001F, ... Changes compose: the model of two mechanisms is the
oracle with both changed. A library module says which mechanisms it shows (``SHOWS``, a tuple of ids); the
libraries of a mechanism are read from there (``libraries``).

A failing answer is named (``name_failure``) by the smallest set of mechanisms whose model reproduces the
answer on every field the model changes, and the unchanged oracle does not: the set explaining the most of
the fields where the answer differs from the contract's, all of them looked at (not only the first). A value
near the model's but not it, or a mechanism whose model changes nothing on the input, names nothing.
"""

from __future__ import annotations

import functools
import itertools
import math
import struct
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Any

from conformance.javascript import INHERITED_METHODS, PROTO
from conformance.termination import CUT

INFORMATION_SEPARATORS = "\u001c\u001d\u001e\u001f"
EPSILON_F = 1e-16  # the F of an order without a match where F per order is averaged
FLOOR_AND_EXP = ("chen-cherry-1", "chen-cherry-3")  # the smoothings that replace a zero precision, p_1's too
RATIO_EPSILONS = (1e-15, 1e-9)  # added to each ratio's numerator and denominator (ratio-epsilons)
SEARCH_SEED = 9999  # the distance and length a closest-reference search starts from (closest-reference-search-...)
# Where the judge's float bound (about 1e-13 relative) fails a value the cross-check's 1e-9 calls the same, models
# are compared within this: above the few ulps by which a model's arrangement of a formula and a library's
# differ (8e-15 measured, unmatched orders' logarithms included), below any difference the judge fails.
FINE_TOLERANCE = 5e-14


@dataclass(frozen=True)
class Mechanism:
    id: str  # what it does, never a library's name
    family: str  # "bleu" (the BLEU tools, lengths included) or "chrf" (the chrF tools)
    what_differs: str  # what a reader sees
    description: str  # how the computation departs, in the contract's terms
    clause: str  # the contract text it departs from
    out_of_bounds: bool = False  # its answers leave the output_schema's bounds (a NaN, 1 + 2^-51)
    # a crash: its model raises (``Raises``) the exception so named where the input triggers it (several names
    # joined by " or ": the libraries showing it raise one of them)
    raises: str = ""
    # its model holds within this relative error (0: within the cross-check's 1e-9): arithmetic in float32, whose
    # logarithm and exponential each library takes from its own math library, is modelled up to a few ulps
    tolerance: float = 0.0

    @property
    def libraries(self) -> tuple[str, ...]:
        return shown_by().get(self.id, ())


MECHANISMS = (
    Mechanism(
        "missing-order-denominator-one",
        "bleu",
        "an order the hypothesis is too short for counts one n-gram: its total is 1 instead of 0, a corpus "
        "precision divides by those ones, and a smoothing scores the order as an unmatched one (the smoothed "
        "missing order) where the contract's score is 0",
        "each segment's precision denominator is max(1, l_n): 0 / 1 for an order without hypothesis n-grams",
        "totals[n-1] is max(0, len - n + 1) ... bleu is exactly 0 ... when effective_order is false and some "
        "order n <= max_order has smoothed denominator 0",
    ),
    Mechanism(
        "zero-precision-floor",
        "bleu",
        "unsmoothed BLEU where some order has no match but unigrams matched: a tiny positive number (about "
        "(2.2e-308)^(k/N)) instead of exactly 0",
        "each precision 0 is replaced by the smallest normal double, 2.2e-308; the score is 0 only when no "
        "unigram matched",
        "it is exactly 0 when brevity_penalty is 0 or any order has m_n = 0",
    ),
    Mechanism(
        "ratio-epsilons",
        "bleu",
        "unsmoothed BLEU where some order has no match: a small positive number (an unmatched order's precision "
        "is about 1e-15 / l_n, one without n-grams 1e-6) instead of 0; elsewhere slightly below the contract's "
        "(four tokens matching exactly: 0.99999999923 instead of 1)",
        "every ratio is offset against a division by zero: each precision is (m_n + 1e-15) / (l_n + 1e-9), never "
        "0, whatever the smoothing and with every order used, and the brevity penalty's length ratio is "
        "(c + 1e-15) / (r + 1e-9), exp(1 - 1/ratio) below 1 (c = r included); the score is 0 only where that "
        "penalty underflows (c = 0)",
        "it is exactly 0 when brevity_penalty is 0 or any order has m_n = 0 (including l_n = 0). No smoothing is "
        "applied",
    ),
    Mechanism(
        "brevity-penalty-one-when-both-empty",
        "bleu",
        "brevity penalty of an empty candidate against an empty reference: 1 instead of 0",
        "the brevity penalty starts at 1 and is recomputed only when c < r, so c = r = 0 keeps 1",
        "brevity_penalty is 1 when c > r, 0 when c = 0 (even if r = 0)",
    ),
    Mechanism(
        "add-k-reported-in-counts",
        "bleu",
        "the matches and totals reported with chen-cherry-2: m_n + 1 and l_n + 1 for n >= 2 (the score agrees)",
        "add-one smoothing is applied to the count lists in place and those lists are reported (not when no "
        "unigram matched)",
        "matches and totals are the raw m_n and l_n, never smoothed",
    ),
    Mechanism(
        "percent-scale-rounding",
        "bleu",
        "BLEU where every precision and the brevity penalty are 1: 1.0000000000000004 (1 + 2^-51), above the "
        "output_schema's maximum 1",
        "the score is computed on the percent scale, exp(sum of ln(100 m_n / l_n) / N), then divided by 100: "
        "exp(ln 100) rounds to 100.00000000000004",
        "Scores are on the 0-1 scale",
        out_of_bounds=True,
    ),
    Mechanism(
        "first-listed-closest-reference",
        "bleu",
        "BLEU of a segment with two references equally close to its hypothesis's length, the longer listed "
        "first: the longer is taken",
        "r takes the first closest reference in list order, not the shorter of a tie",
        "r is the length of the reference closest to c, ties going to the shorter",
    ),
    Mechanism(
        "smoothed-score-zero-on-a-zero-match",
        "bleu",
        "BLEU with chen-cherry-2 where some order has no match: 0 instead of the add-one score",
        "the score is 0 whenever some raw m_n is 0, before one is added to the orders n >= 2",
        "p_n = (m_n + 1) / (l_n + 1) for n >= 2",
    ),
    Mechanism(
        "single-precision-weights",
        "bleu",
        "BLEU of a max_order N not a power of two: about 2e-8 relative off the contract's",
        "the weight 1/N is rounded to single precision (float32) before it multiplies each ln(p_n)",
        "bleu = brevity_penalty * exp((1/N') * sum of ln(p_n))",
    ),
    Mechanism(
        "single-precision-arithmetic",
        "bleu",
        "BLEU computed in single precision (float32): about 1e-8 to 1e-7 relative off the contract's",
        "every step of the score is float32: each precision m_n / l_n, its logarithm, the weight 1/N, their sum, "
        "the exponential and the brevity penalty exp(1 - r/c) (a float32 tensor's arithmetic, modelled within "
        "1e-6 relative: each math library rounds its float32 logarithm and exponential its own way)",
        "bleu = brevity_penalty * exp((1/N') * sum of ln(p_n))",
        tolerance=1e-6,
    ),
    Mechanism(
        "single-precision-reciprocal-precisions",
        "bleu",
        "unsmoothed BLEU where some m_n / l_n is not a float32: about 1e-8 relative off the contract's",
        "each unsmoothed precision is computed in single precision (float32) as m_n times the float32 reciprocal "
        "of l_n, rounded to float32; the logarithms, their sum and the exponential stay in double",
        "Arithmetic is IEEE-754 double: each p_n is one division of the exact values shown",
    ),
    Mechanism(
        "space-joined-ngram-keys",
        "bleu",
        "BLEU of tokens holding a space: n-grams that differ as token sequences count as one, e.g. "
        '("a", "a a") matching ("a a", "a")',
        "each n-gram is counted under its tokens joined with one space",
        "Tokens are compared by exact string equality",
    ),
    Mechanism(
        "tokens-split-at-whitespace",
        "bleu",
        "BLEU of tokens holding whitespace: more tokens and other n-grams (a candidate_length of 2 for the one token "
        '"a b"), a token of whitespace alone none',
        "each segment's tokens are joined with spaces and split again at whitespace (Python's str.split(): each "
        "run of Unicode whitespace, U+001C-U+001F and U+0085 included, separates; whitespace at the ends is dropped)",
        "Tokens are compared by exact string equality",
    ),
    Mechanism(
        "inherited-property-name-nan",
        "bleu",
        "BLEU of a hypothesis holding a token named like a method every JavaScript object inherits "
        "(constructor, toString, ...): NaN (written null) instead of a number",
        "n-grams are counted in plain JavaScript objects: the inherited method is read as the count, and the "
        "clipped count is NaN",
        "m_n sums min(count, largest count in any single reference) over the distinct hypothesis n-grams",
        out_of_bounds=True,
    ),
    Mechanism(
        "proto-unigram-never-counted",
        "bleu",
        "BLEU of a hypothesis and a reference both holding the token __proto__: that unigram never matches",
        "n-grams are counted in plain JavaScript objects, whose __proto__ setter ignores a number: the "
        "unigram __proto__ is never a key",
        "m_n sums min(count, largest count in any single reference) over the distinct hypothesis n-grams",
    ),
    Mechanism(
        "shortest-reference-length",
        "bleu",
        "the reference length r of a segment whose references differ in length: the shortest's, not the one "
        "closest to the hypothesis (so the brevity penalty and BLEU differ too)",
        "r sums each segment's shortest reference length, whatever the hypothesis's length",
        "r is the length of the reference closest to c, ties going to the shorter",
    ),
    Mechanism(
        "zero-match-order-skipped",
        "bleu",
        "BLEU where some order has no match but unigrams matched: positive (the other orders' geometric mean, "
        "weights unchanged) instead of 0",
        "an order with m_n = 0 (or no n-grams) adds nothing to the sum of w_n ln(p_n), as if p_n were 1, its weight "
        "1/N kept: the score is 0 only when no unigram matched",
        "it is exactly 0 when brevity_penalty is 0 or any order has m_n = 0",
    ),
    Mechanism(
        "closest-reference-search-seeded-at-9999",
        "bleu",
        "the reference length of a segment whose references all lie more than 9999 tokens from its hypothesis's "
        "length: 9999 instead of the closest one's",
        "the closest reference is searched from a starting pair (distance 9999, length 9999) that a reference "
        "replaces only when it is closer, or as close and shorter",
        "r is the length of the reference closest to c, ties going to the shorter",
    ),
    Mechanism(
        "ngram-counts-fixed-at-order-four",
        "bleu",
        "max_order above 4: an IndexError instead of an answer",
        "the n-grams are counted up to order 4 whatever max_order (the count lists hold four orders), and the score "
        "reads the orders up to max_order from them",
        "For each order n = 1..max_order (max_order omitted means 4) the clipped matches m_n and totals l_n",
        raises="IndexError",
    ),
    Mechanism(
        "empty-candidate-division-by-zero",
        "bleu",
        "an empty candidate (c = 0) against references of some length (r > 0): a division by zero instead of an answer",
        "the brevity penalty exp(1 - r/c) is computed whenever c < r, c = 0 included, where r/c divides by zero "
        "(r = 0 is answered before it)",
        "brevity_penalty is 1 when c > r, 0 when c = 0 (even if r = 0)",
        raises="ZeroDivisionError",
    ),
    Mechanism(
        "zero-reference-length-answers-zeros",
        "bleu",
        "a reference length r = 0: BLEU, the brevity penalty and the candidate length all 0, whatever the "
        "candidate (the contract's brevity penalty is 1 for c > 0, its BLEU may be 1)",
        "when the summed reference length is 0 nothing is computed: the answer is a fixed one of zeros (BLEU 0, "
        "brevity penalty 0, c = r = 0)",
        "brevity_penalty is 1 when c > r, 0 when c = 0 (even if r = 0) ... candidate_length c is the total "
        "hypothesis token count",
    ),
    Mechanism(
        "length-ratio-division-by-zero",
        "bleu",
        "an empty candidate (c = 0) or an empty reference length (r = 0): a ZeroDivisionError instead of an answer",
        "the brevity penalty is computed from the ratio c / r as exp(1 - 1 / (c / r)): the ratio divides by r, its "
        "inverse by c, with no case for either being 0",
        "brevity_penalty is 1 when c > r, 0 when c = 0 (even if r = 0)",
        raises="ZeroDivisionError",
    ),
    Mechanism(
        "score-averaged-over-four-orders",
        "bleu",
        "BLEU of a max_order N other than 4: below 4 an IndexError instead of an answer; above 4 the geometric mean "
        "of orders 1..4 alone (an order above 4 without a match no longer makes it 0)",
        "the counts and totals are those of orders 1..N, but the score is computed with the default order 4: for "
        "N < 4 it reads the count lists past their end, for N > 4 it averages ln(p_n) over n = 1..4 only "
        "(smoothing, add-one included, applied to those four orders)",
        "bleu = brevity_penalty * exp((1/N) * sum of ln(m_n / l_n)) with N = max_order",
        raises="IndexError",
    ),
    Mechanism(
        "add-k-reported-in-counts-without-a-match",
        "bleu",
        "the matches and totals reported with chen-cherry-2, also when nothing matched: m_n + 1 and l_n + 1 for "
        "n >= 2 whenever the hypothesis has a unigram (the score agrees)",
        "add-one smoothing is applied to the count lists in place and those lists are reported, whenever the "
        "hypothesis has a unigram, also when no unigram matched (no early return)",
        "matches and totals are the raw m_n and l_n, never smoothed",
    ),
    Mechanism(
        "smoothed-score-when-nothing-matched",
        "bleu",
        "BLEU with chen-cherry-1 or chen-cherry-3 of a hypothesis that matched nothing (every order with n-grams): "
        "positive instead of 0",
        "the floor and exp smoothings replace every zero precision, the unigrams' too, also when no n-gram matched "
        "(no early return with 0)",
        "bleu is exactly 0 when c = 0, when m_1 = 0 (no hypothesis token occurs in any reference; sacreBLEU returns "
        "early, ...)",
    ),
    Mechanism(
        "empty-reference-dropped",
        "bleu",
        "r of a segment with an empty reference among others: the closest of the non-empty ones (so the brevity "
        "penalty and BLEU differ too); a segment whose references are all empty: an EOFError or RuntimeError "
        "instead of an answer",
        "a reference without tokens is removed from its segment's references before the closest length is chosen; "
        "a segment left with none raises",
        "reference_length r sums, per segment, the reference length closest to the hypothesis length, ties going to "
        "the shorter reference",
        raises="EOFError or RuntimeError",
    ),
    Mechanism(
        "empty-reference-string-raises",
        "chrf",
        "a corpus holding a reference that is the empty string: a RuntimeError instead of an answer",
        "a reference that is the empty string is dropped from its segment's references, and a segment left with "
        "none raises (the chrF tools give each segment one reference)",
        "A text may be empty; it has no n-grams.",
        raises="RuntimeError",
    ),
    Mechanism(
        "whitespace-set-without-information-separators",
        "chrf",
        "character n-grams of a text holding U+001C-U+001F (whitespace removed): they are kept as characters",
        "whitespace is removed by Unicode White_Space (a regex \\s, Rust's char::is_whitespace), which lacks "
        "the information separators U+001C-U+001F",
        "every whitespace code point removed: U+0009-U+000D, U+001C-U+001F, U+0020, ...",
    ),
    Mechanism(
        "only-spaces-removed-inside",
        "chrf",
        "character n-grams of a text holding a tab, a line break or another whitespace but U+0020 between other "
        "characters: it is kept as a character",
        "the text is stripped at both ends (Python's str.strip), then only the space U+0020 is removed inside it",
        "every whitespace code point removed: U+0009-U+000D, U+001C-U+001F, U+0020, ...",
    ),
    Mechanism(
        "single-precision-chrf-arithmetic",
        "chrf",
        "the chrF score computed in single precision (float32): about 1e-7 relative off the contract's",
        "the precisions, recalls and F-beta are float32 tensors' arithmetic; its model is each score as the "
        "float32 nearest on the 0..1 scale, holding within 1e-6 relative (what float32 arithmetic can move it)",
        "score = 100 * F_beta, exact: on the six-decimal grid",
        tolerance=1e-6,
    ),
    Mechanism(
        "hypothesis-count-dropped-without-reference-order",
        "chrf",
        "the hypothesis n-grams of an order a segment's reference lacks: 0 instead of their count, in that "
        "segment's row and the corpus sums (so the corpus score is higher where another segment has the order)",
        "a segment's row reports no hypothesis n-grams for an order whose reference has none",
        "hypothesis_ngrams counts every hypothesis n-gram, also of an order the segment's reference lacks",
    ),
    Mechanism(
        "f-per-order-averaged",
        "chrf",
        "the chrF score itself: F computed per order and averaged (an order without a match F = 1e-16), the "
        "corpus score the mean of the segment scores",
        "F-beta is computed for each order and averaged over every order 1..char_order (not P and R averaged "
        "over the effective orders, then F); the corpus score is the mean of the segments' (not summed rows)",
        "An order enters the averages only when both sides have at least one n-gram of that order ... Corpus "
        "score sums per-order counts over all segments",
    ),
    Mechanism(
        "precision-recall-averaged-over-every-order",
        "chrf",
        "chrF of a text shorter than char_order (or any order without n-grams on a side): lower, that order "
        'counted as precision and recall 0 ("cat" against "cats": 34.431138 instead of 68.862275)',
        "chrP and chrR are averaged over every order 1..char_order, dividing by char_order: an order without "
        "n-grams on a side adds nothing to the sums but still counts (not the effective orders alone)",
        "An order enters the averages only when both sides have at least one n-gram of that order",
    ),
    Mechanism(
        "f-score-division-by-zero",
        "chrf",
        "chrF of a segment or corpus without any match (an empty text included): a ZeroDivisionError instead of 0",
        "F-beta = (1 + beta^2) chrP chrR / (beta^2 chrP + chrR) is divided out with no case for chrP = chrR = 0",
        "if none does, or both averages are 0, the score is 0",
        raises="ZeroDivisionError",
    ),
    Mechanism(
        "kept-whitespace-ends-stripped",
        "chrf",
        "chrF with whitespace kept of a text with leading or trailing whitespace: those characters are not "
        "n-grams (fewer n-grams, another score)",
        "with whitespace kept, each text's leading and trailing whitespace is removed first (Python's str.strip, "
        "the contract's whitespace set); inner whitespace is kept",
        "whitespace true (omitted means false) keeps every code point of the text, whitespace included",
    ),
)
BY_ID = {mechanism.id: mechanism for mechanism in MECHANISMS}


@functools.cache
def shown_by() -> dict[str, tuple[str, ...]]:
    """mechanism id -> the libraries whose modules say they show it (``SHOWS``)."""
    from conformance.implementations import implementations

    found: dict[str, list[str]] = {}
    for name, library in implementations().items():
        for mechanism_id in getattr(library.module, "SHOWS", ()):
            if mechanism_id not in BY_ID:
                raise ValueError(f"{name} shows {mechanism_id!r}, which the catalogue of mechanisms lacks")
            found.setdefault(mechanism_id, []).append(name)
    return {key: tuple(names) for key, names in found.items()}


# --- the models: the oracle with some mechanisms changed ----------------------------------------------------


class Raises(Exception):
    """A model whose answer is an exception: the library raises the one named ``name`` (its type's name)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def _ratio_crash(changes: frozenset[str], c: int, r: int) -> None:
    """The length ratio c / r and its inverse, divided out as the change says: Raises where one divides by 0."""
    if "length-ratio-division-by-zero" in changes and (c == 0 or r == 0):
        raise Raises("ZeroDivisionError")
    if "empty-candidate-division-by-zero" in changes and c == 0 < r:
        raise Raises("ZeroDivisionError")


def variant(tool, payload: dict, changes: frozenset[str]) -> dict:
    """The tool's output for the input, computed as the oracle does but with ``changes`` (mechanism ids)."""
    return Models(tool, payload)(changes)


# what the n-gram counts of the BLEU models (the rows of the chrF models) depend on: models agreeing on these
# share them
COUNTING = frozenset(
    {
        "space-joined-ngram-keys",
        "proto-unigram-never-counted",
        "missing-order-denominator-one",
        "empty-reference-dropped",
        "tokens-split-at-whitespace",
    }
)
CHRF_ROWS = frozenset(
    {
        "kept-whitespace-ends-stripped",
        "whitespace-set-without-information-separators",
        "only-spaces-removed-inside",
        "hypothesis-count-dropped-without-reference-order",
    }
)


class Models:
    """The models of one input, each computed once: ``models(changes)`` is ``variant(tool, payload, changes)``
    (its answer is shared: not to be changed). Naming a failure tries up to thousands of groups of mechanisms on
    one input, which may be as large as the contract allows: the oracle's answer (and its validation) is computed
    once, and the n-gram counts (chrF rows) once for each way of counting the groups use, not once a group."""

    def __init__(self, tool, payload: dict):
        self.tool, self.payload = tool, payload
        self.family = _family(tool)
        self.parts: dict[Any, Any] = {}  # what models share, by what it depends on
        self._answers: dict[frozenset[str], Any] = {}

    def __call__(self, changes: frozenset[str]) -> dict:
        if changes not in self._answers:
            try:
                self._answers[changes] = self._model(changes)
            except Exception as exc:  # noqa: BLE001 - kept, and raised again at each ask: the model raises
                self._answers[changes] = exc
        found = self._answers[changes]
        if isinstance(found, Exception):
            raise found
        return found

    def share(self, key: Any, compute: Any) -> Any:
        """``compute()``, once for each ``key``."""
        if key not in self.parts:
            self.parts[key] = compute()
        return self.parts[key]

    def _model(self, changes: frozenset[str]) -> dict:
        import copy

        if any(BY_ID[change].family != self.family for change in changes):
            raise ValueError(f"a mechanism of another family than {self.family}")
        expected = copy.deepcopy(self.share("oracle", lambda: self.tool.execute(self.payload)))
        if self.family == "chrf":  # scores as floats, also unchanged: a library's float is compared with the exact
            return _chrf_variant(self.tool, self.payload, expected, changes, self)
        if "candidate_lengths" in self.payload:
            return _lengths_variant(self.payload, expected, changes)
        return _bleu_variant(self.payload, expected, changes, self)


def _lengths_variant(payload: dict, expected: dict, changes: frozenset[str]) -> dict:
    if "shortest-reference-length" in changes:
        expected["closest_reference_lengths"] = [min(lengths) for lengths in payload["reference_lengths"]]
        expected["reference_length"] = sum(expected["closest_reference_lengths"])
    c, r = expected["candidate_length"], expected["reference_length"]
    _ratio_crash(changes, c, r)
    bp = _brevity_penalty(c, r, changes)
    expected["brevity_penalty"] = _rounded(payload, bp)
    if "zero-reference-length-answers-zeros" in changes and r == 0:
        expected["candidate_length"] = 0
    return expected


def _brevity_penalty(c: int, r: int, changes: frozenset[str]) -> float:
    """The brevity penalty as the oracle computes it, or as the changes say."""
    from oracle.bleu_score import brevity_penalty

    if "zero-reference-length-answers-zeros" in changes and r == 0:
        return 0.0
    if "brevity-penalty-one-when-both-empty" in changes and c == r == 0:
        return 1.0
    if "ratio-epsilons" in changes:
        ratio = (c + RATIO_EPSILONS[0]) / (r + RATIO_EPSILONS[1])
        return math.exp(1 - 1 / ratio) if ratio < 1 else 1.0
    if "single-precision-arithmetic" in changes and 0 < c < r:
        return _single(math.exp(_single(1 - _single(r / c))))
    return brevity_penalty(c, r)


def _epsilon_precisions(matches: list[int], totals: list[int]) -> list[tuple[Any, Any]]:
    """Each precision (m_n + 1e-15) / (l_n + 1e-9): never 0, never a division by 0."""
    numerator, denominator = RATIO_EPSILONS
    return [(m + numerator, total + denominator) for m, total in zip(matches, totals)]


def _ngrams(tokens: list[str], n: int, spaced: bool) -> Counter:
    grams = (tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
    return Counter(" ".join(gram) if spaced else gram for gram in grams)


def _segment_counts(hypothesis: list[str], references: list[list[str]], n: int, changes: frozenset[str]):
    """(matches, totals) of one segment per order, counted as the changes say."""
    spaced = "space-joined-ngram-keys" in changes
    matches, totals = [], []
    for order in range(1, n + 1):
        counts = _ngrams(hypothesis, order, spaced)
        if "proto-unigram-never-counted" in changes and order == 1:
            counts.pop(PROTO if spaced else (PROTO,), None)
        best: Counter = Counter()
        for reference in references:
            best |= _ngrams(reference, order, spaced)
        matches.append(sum(min(count, best[gram]) for gram, count in counts.items()))
        total = max(0, len(hypothesis) - order + 1)
        totals.append(max(1, total) if "missing-order-denominator-one" in changes else total)
    return matches, totals


def _closest(c: int, references: list[list[str]], changes: frozenset[str]) -> int:
    lengths = [len(reference) for reference in references]
    if "shortest-reference-length" in changes:
        return min(lengths)
    if "closest-reference-search-seeded-at-9999" in changes:
        return min([(SEARCH_SEED, SEARCH_SEED)] + [(abs(c - length), length) for length in lengths])[1]
    if "first-listed-closest-reference" in changes:
        distances = [abs(c - length) for length in lengths]
        return lengths[distances.index(min(distances))]
    return min(lengths, key=lambda length: (abs(c - length), length))


def _single(value: float) -> float:
    return struct.unpack("f", struct.pack("f", value))[0]


def _score(bp: float, precisions: list[tuple[Any, int]], changes: frozenset[str]) -> float:
    """bp * exp((1/N) * sum of ln(p_n)) as the oracle computes it, or with the weight or the scale the changes
    say."""
    from oracle.bleu_score import geometric_mean_score

    n = len(precisions)
    if "zero-match-order-skipped" in changes:  # an order without a match adds nothing, every weight still 1/N
        return bp * math.exp(sum(math.log(num / den) for num, den in precisions if num and den) / n)
    if "percent-scale-rounding" in changes:
        return bp * math.exp(sum(math.log(100.0 * num / den) for num, den in precisions) / n) / 100
    if "single-precision-arithmetic" in changes:  # each operation rounded to float32
        weight, log_sum = _single(1 / n), 0.0
        for numerator, denominator in precisions:
            log_sum = _single(log_sum + _single(weight * _single(math.log(_single(numerator / denominator)))))
        return _single(bp * _single(math.exp(log_sum)))
    if "single-precision-weights" in changes:
        weight = _single(1 / n)
        log_sum = 0.0
        for numerator, denominator in precisions:
            log_sum += weight * math.log(numerator / denominator)
        return bp * math.exp(log_sum)
    return geometric_mean_score(bp, precisions)


def _single_precision_quotients(precisions: list[tuple[Any, int]]) -> list[tuple[Any, int]]:
    """Each precision with n-grams (denominator > 0) replaced by fl32(num * fl32(1 / den)), over 1 (a float32
    times a count below 2^24 is exact in double, so rounding the double product to float32 is the float32
    product)."""
    return [(_single(num * _single(1 / den)), 1) if den > 0 else (num, den) for num, den in precisions]


def _floored(precisions: list[tuple[Any, int]]) -> list[tuple[Any, int]]:
    """Each precision 0 (a numerator 0 over n-grams there are) replaced by the smallest normal double."""
    return [(sys.float_info.min, 1) if num == 0 and den > 0 else (num, den) for num, den in precisions]


def _bleu_variant(payload: dict, expected: dict, changes: frozenset[str], models: Models) -> dict:
    from oracle.bleu_score import SMOOTHING_METHODS, orders_used, smoothed_precisions
    from oracle.bleu_statistics import DEFAULT_MAX_ORDER

    sentence = "hypothesis" in payload
    n = int(payload.get("max_order", DEFAULT_MAX_ORDER))
    if "ngram-counts-fixed-at-order-four" in changes and n > 4:
        raise Raises("IndexError")
    if "score-averaged-over-four-orders" in changes and n < 4:
        raise Raises("IndexError")
    scored = 4 if "score-averaged-over-four-orders" in changes else n  # the orders the score is computed from
    pairs = (
        [(payload["hypothesis"], payload["references"])]
        if sentence
        else list(zip(payload["hypotheses"], payload["references"]))
    )
    if "tokens-split-at-whitespace" in changes:
        pairs = [(" ".join(h).split(), [" ".join(ref).split() for ref in refs]) for h, refs in pairs]
    if "empty-reference-dropped" in changes:
        pairs = [(h, [reference for reference in refs if reference]) for h, refs in pairs]
        if not all(refs for _, refs in pairs):
            raise Raises(BY_ID["empty-reference-dropped"].raises)
    counting = changes & COUNTING
    rows = models.share(("counts", counting), lambda: [_segment_counts(h, refs, n, counting) for h, refs in pairs])
    matches = [sum(row[0][k] for row in rows) for k in range(n)]
    totals = [sum(row[1][k] for row in rows) for k in range(n)]
    c = sum(len(h) for h, _ in pairs)
    r = sum(_closest(len(h), refs, changes) for h, refs in pairs)
    if "brevity_penalty" in expected:
        _ratio_crash(changes, c, r)
    bp = _brevity_penalty(c, r, changes)
    method = payload.get("smoothing", "none") if payload.get("smoothing") in SMOOTHING_METHODS else "none"
    effective = bool(payload.get("effective_order", False))
    inherited = sentence and bool(INHERITED_METHODS.intersection(payload["hypothesis"]))
    if "inherited-property-name-nan" in changes and inherited:
        bleu: float | None = None
    elif "ratio-epsilons" in changes:  # every order used, no zero rule: 0 only where the penalty underflows
        bleu = 0.0 if bp == 0 else _score(bp, _epsilon_precisions(matches, totals), changes)
    elif sentence:
        precisions = smoothed_precisions(matches[:scored], totals[:scored], method)
        if "single-precision-reciprocal-precisions" in changes and method == "none":
            precisions = _single_precision_quotients(precisions)
        if "zero-precision-floor" in changes and method == "none":
            precisions = _floored(precisions)
        used = orders_used(precisions, effective)
        skipped = "zero-match-order-skipped" in changes  # an order without a match (or n-grams) left out
        # floor and exp smoothing also the unigrams when nothing matched (no early return)
        unmatched_smoothed = "smoothed-score-when-nothing-matched" in changes and method in FLOOR_AND_EXP
        zero = (
            c == 0
            or (matches[0] == 0 and not unmatched_smoothed)
            or (not effective and not skipped and any(den == 0 for _, den in precisions))
            or (method == "none" and not skipped and "zero-precision-floor" not in changes and 0 in matches[:used])
            or ("smoothed-score-zero-on-a-zero-match" in changes and method == "chen-cherry-2" and 0 in matches)
        )
        bleu = 0.0 if zero or bp == 0 else _score(bp, precisions[:used], changes)
    else:
        precisions = list(zip(matches[:scored], totals[:scored]))
        if "single-precision-reciprocal-precisions" in changes:
            precisions = _single_precision_quotients(precisions)
        if "zero-precision-floor" in changes:
            zero = bp == 0 or matches[0] == 0
            precisions = _floored(precisions)
        elif "zero-match-order-skipped" in changes:
            zero = bp == 0 or matches[0] == 0
        else:
            zero = bp == 0 or 0 in matches[:scored]
        bleu = 0.0 if zero else _score(bp, precisions, changes)
    if "zero-reference-length-answers-zeros" in changes and r == 0:
        bleu, c = 0.0, 0
    reported_matches, reported_totals = list(matches), list(totals)
    added = ("add-k-reported-in-counts" in changes and matches[0] > 0) or (
        "add-k-reported-in-counts-without-a-match" in changes and totals[0] > 0
    )
    if added and method == "chen-cherry-2" and n >= 2:  # one added to the orders 2..N the score is computed from
        reported_matches = [m + (1 <= k < scored) for k, m in enumerate(matches)]
        reported_totals = [t + (1 <= k < scored) for k, t in enumerate(totals)]
    found = {
        "bleu": bleu if bleu is None else _rounded(payload, bleu),
        "brevity_penalty": _rounded(payload, bp),
        "matches": reported_matches,
        "totals": reported_totals,
        "candidate_length": c,
        "reference_length": r,
    }
    for key, value in found.items():
        if key in expected:
            expected[key] = value
    if isinstance(expected.get("segments"), list):
        for segment, (segment_matches, segment_totals) in zip(expected["segments"], rows):
            if "matches" in segment:
                segment["matches"], segment["totals"] = segment_matches, segment_totals
    return expected


def _rounded(payload: dict, value: float) -> float:
    from oracle.jsnumber import round_to_fixed

    return round_to_fixed(value, int(payload["decimals"])) if "decimals" in payload else value


def _chrf_options(tool, payload: dict) -> tuple[int, int, bool]:
    from oracle.registry import module_name

    name = module_name(tool.id)
    if name == "chrf_components":
        from oracle.chrf_components import orders

        char_order, word_order = orders(payload)
        return char_order, word_order, bool(payload.get("whitespace", False))
    return 6, (2 if name == "chrf_plus_plus_compute" else 0), False


def _chrf_rows(tool, payload: dict, changes: frozenset[str]) -> list[list]:
    """Each segment's rows (n-gram counts per order), counted as the oracle does with the changes."""
    from oracle import chrf

    char_order, word_order, whitespace = _chrf_options(tool, payload)
    per_segment = []
    for hypothesis, reference in zip(payload["hypotheses"], payload["references"]):
        h, r = _cased(payload, hypothesis), _cased(payload, reference)
        if "kept-whitespace-ends-stripped" in changes and whitespace:
            h, r = h.strip(), r.strip()
        spaces_only = "only-spaces-removed-inside" in changes
        if ("whitespace-set-without-information-separators" in changes or spaces_only) and not whitespace:
            kept_h, kept_r = _remove_white_space(h, spaces_only), _remove_white_space(r, spaces_only)
            rows = chrf.segment_statistics(kept_h, kept_r, char_order, 0, whitespace=True)
            rows += chrf.segment_statistics(h, r, 0, word_order) if word_order else []
        else:
            rows = chrf.segment_statistics(h, r, char_order, word_order, whitespace)
        if "hypothesis-count-dropped-without-reference-order" in changes:
            rows = [
                chrf.OrderStatistics(row.hypothesis if row.reference else 0, row.reference, row.matches) for row in rows
            ]
        per_segment.append(rows)
    return per_segment


def _chrf_variant(tool, payload: dict, expected: dict, changes: frozenset[str], models: Models) -> dict:
    """chrF scores as floats on 0..100 (and rows), computed as the oracle does with the changes."""
    from oracle import chrf

    beta = int(payload.get("beta", 2))
    if "empty-reference-string-raises" in changes and "" in payload["references"]:
        raise Raises(BY_ID["empty-reference-string-raises"].raises)
    counting = changes & CHRF_ROWS
    per_segment = models.share(("rows", counting), lambda: _chrf_rows(tool, payload, counting))
    corpus = models.share(("corpus", counting), lambda: chrf.corpus_statistics(per_segment))
    if "f-per-order-averaged" in changes:
        segment_scores = [_f_per_order(rows, beta) for rows in per_segment]
        score = sum(segment_scores) / len(segment_scores)
    elif {"precision-recall-averaged-over-every-order", "f-score-division-by-zero"} & changes:
        segment_scores = [_f_of_averages(rows, beta, changes) for rows in per_segment]
        score = _f_of_averages(corpus, beta, changes)
    else:
        segment_scores = [float(100 * chrf.f_score(rows, beta)) for rows in per_segment]
        score = float(100 * chrf.f_score(corpus, beta))
    if "single-precision-chrf-arithmetic" in changes:  # each score a float32 on the 0..1 scale
        segment_scores = [_single(value / 100) * 100 for value in segment_scores]
        score = _single(score / 100) * 100
    found: dict[str, Any] = {"score": score}
    if "segment_scores" in expected:
        found["segment_scores"] = segment_scores
    if "statistics" in expected:
        found["statistics"] = _row_dicts(corpus)
    if isinstance(expected.get("segments"), list):
        found["segments"] = [
            {**segment, "score": value, **({"statistics": _row_dicts(rows)} if "statistics" in segment else {})}
            for segment, value, rows in zip(expected["segments"], segment_scores, per_segment)
        ]
    for key in ("score_fraction",):
        expected.pop(key, None)  # the exact fraction of another computation is not modelled
    expected.update(found)
    return expected


def _f_of_averages(rows: list, beta: int, changes: frozenset[str]) -> float:
    """F-beta of chrP and chrR, on 0..100, averaged over the effective orders or (the change) every order;
    Raises ZeroDivisionError where both averages are 0 and the change divides them out regardless."""
    every = "precision-recall-averaged-over-every-order" in changes
    effective = [row for row in rows if row.hypothesis and row.reference]
    count = len(rows) if every else len(effective)
    precision = sum(row.matches / row.hypothesis for row in effective) / count if count else 0.0
    recall = sum(row.matches / row.reference for row in effective) / count if count else 0.0
    if precision == 0 and recall == 0:
        if "f-score-division-by-zero" in changes:
            raise Raises("ZeroDivisionError")
        return 0.0
    factor = beta * beta
    return 100 * (1 + factor) * precision * recall / (factor * precision + recall)


def _f_per_order(rows: list, beta: int) -> float:
    """F-beta of each order (EPSILON_F where it has no match or no n-grams on a side), averaged, on 0..100."""
    factor = beta * beta
    scores = []
    for row in rows:
        if not row.matches or not row.hypothesis or not row.reference:
            scores.append(EPSILON_F)
            continue
        precision, recall = row.matches / row.hypothesis, row.matches / row.reference
        scores.append((1 + factor) * precision * recall / (factor * precision + recall))
    return 100 * sum(scores) / len(scores)


def _row_dicts(rows: list) -> list[dict]:
    return [{"hypothesis_ngrams": s.hypothesis, "reference_ngrams": s.reference, "matches": s.matches} for s in rows]


def _cased(payload: dict, text: str) -> str:
    from oracle import chrf

    return chrf.lowercase(text) if payload.get("lowercase", False) else text


def _remove_white_space(text: str, spaces_only: bool = False) -> str:
    """Whitespace removed by Unicode White_Space (the contract's list but U+001C-U+001F), or stripped at the ends
    and only U+0020 removed inside (``spaces_only``)."""
    from oracle import chrf

    if spaces_only:
        return text.strip().replace(" ", "")
    return "".join(ch for ch in text if ch not in chrf.WHITESPACE or ch in INFORMATION_SEPARATORS)


# --- naming a failure ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Named:
    """The mechanisms a failing answer shows (one, or several at once), as a report names them."""

    mechanisms: tuple[Mechanism, ...]
    fields: tuple[str, ...]  # the differing fields they explain

    @property
    def id(self) -> str:
        return " + ".join(mechanism.id for mechanism in self.mechanisms)

    @property
    def libraries(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(name for m in self.mechanisms for name in m.libraries))

    @property
    def what_differs(self) -> str:
        return "; ".join(mechanism.what_differs for mechanism in self.mechanisms)

    @property
    def mechanism(self) -> str:
        return "; ".join(mechanism.description for mechanism in self.mechanisms)


def same(a: Any, b: Any, tolerance: float | None = None) -> bool:
    """The cross-check's agreement (numbers within 1e-9 relative), or two numbers within ``tolerance`` relative."""
    from conformance.crosscheck.comparison import agrees

    if a is None or b is None:
        return a is b
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))
    if tolerance is not None and numbers:
        return math.isclose(a, b, rel_tol=tolerance, abs_tol=0.0)
    if tolerance is not None and isinstance(a, list) and isinstance(b, list):  # segment scores: item by item
        return len(a) == len(b) and all(same(x, y, tolerance) for x, y in zip(a, b))
    return agrees(a, b) or agrees(b, a)


def _family(tool) -> str:
    properties = tool.contract.output_schema.get("properties", {})
    return "chrf" if "score" in properties or "segment_scores" in properties else "bleu"


def name_failure(
    tool, payload: Any, output: Any, field: str = "", out_of_bounds: bool = False, implementation: str = ""
) -> Named | None:
    """The mechanisms whose model reproduces ``output`` (a target's answer, partial or whole) on every field the
    model changes, explaining the most of the fields where it differs from the contract's (``field``, the first
    differing one, must be among them), or None. ``out_of_bounds``: ``field`` holds a value outside the
    output_schema's bounds, which the model must give exactly. Where two groups explain as much, those of the
    mechanisms the library ``implementation`` shows come first (then the catalogue's order): two models may
    agree on an input (F per order and chrP, chrR over every order, where one order has n-grams)."""
    if not isinstance(payload, dict) or not isinstance(output, dict) or CUT.is_set():
        return None  # (a signal while the reports are being written: they are written at once, names left out)
    models = Models(tool, payload)
    try:
        expected = models(frozenset())  # the oracle's (chrF scores as floats)
    except Exception:  # noqa: BLE001 - an input the oracle rejects is not named
        return None
    fields = [key for key in output if key in expected]
    differing = {key for key in fields if not same(expected[key], output[key])}
    tolerance = None
    if field in fields and field not in differing and not out_of_bounds:
        # the judge's float bound saw a difference below the cross-check's 1e-9: every number looked at finer
        tolerance = FINE_TOLERANCE
        differing = {key for key in fields if not same(expected[key], output[key], tolerance)}
    if out_of_bounds and field:
        differing.add(field)
    if field and field not in differing or not differing:
        return None
    family = _family(tool)
    shown = _shown(implementation)
    ordered = sorted(MECHANISMS, key=lambda m: m.id not in shown)  # stable: the catalogue's order otherwise
    # out of bounds, a group holds a mechanism whose answers leave the bounds, and may hold others beside it (the
    # orders a score is computed from, say)
    candidates = [m for m in ordered if m.family == family]
    best: tuple[int, int, int, tuple[Mechanism, ...]] | None = None
    # the mechanisms whose model alone changes something the answer shows (out of bounds, a rounding may be all
    # a model changes: every such mechanism); a pair may hold two that change nothing alone (a floor of the zero
    # precisions, say, which only another mechanism's denominators give), a group of three at most two
    pool = [
        m
        for m in candidates
        if (out_of_bounds and m.out_of_bounds) or _changes_something(models, expected, fields, m, tolerance)
    ]
    for size in (1, 2, 3):
        for group in itertools.combinations(candidates, size):
            if sum(m not in pool for m in group) > (0, 2, 2)[size - 1]:
                continue
            if out_of_bounds and not _leaves_the_bounds(models, group, field):
                continue
            explained = _explained(models, output, expected, fields, differing, group, field, out_of_bounds, tolerance)
            if explained is None:
                continue
            # the most fields, with the fewest mechanisms, the fewest of them modelled only within a precision; then
            # (answers rounded to ``decimals``, where models far apart round alike) the least departure
            key = (len(explained), -size, -sum(m.tolerance > 0 for m in group))
            if best is None or key > best[:3] or key == best[:3] and _departs_less(tool, payload, group, best[3]):
                best = (*key, group)
        if best is not None and best[0] == len(differing):
            break
    if best is None:
        return None
    group = best[3]
    explained = _explained(models, output, expected, fields, differing, group, field, out_of_bounds, tolerance) or set()
    return Named(group, tuple(sorted(explained)))


def _departs_less(tool, payload: dict, group: tuple[Mechanism, ...], other: tuple[Mechanism, ...]) -> bool:
    """Of two groups explaining a rounded answer alike, whether ``group``'s model departs less from the contract's
    unrounded values than ``other``'s: sacreBLEU's 0.49999999999999994 (percent-scale-rounding) and an epsilon
    model's 2.2e-8 both round to the answer's 0, the first is the nearer cause."""
    if "decimals" not in payload:
        return False
    unrounded = Models(tool, {key: value for key, value in payload.items() if key != "decimals"})
    try:
        expected = unrounded(frozenset())
        return _departure(expected, unrounded(frozenset(m.id for m in group))) < _departure(
            expected, unrounded(frozenset(m.id for m in other))
        )
    except Exception:  # noqa: BLE001 - a model that cannot take the input does not depart less
        return False


def _departure(expected: Any, model: Any) -> float:
    """How far the model's numbers are from the contract's, each relative to the contract's."""
    if isinstance(expected, dict) and isinstance(model, dict):
        return sum(_departure(expected[key], model[key]) for key in expected if key in model)
    if isinstance(expected, list) and isinstance(model, list):
        return sum(_departure(a, b) for a, b in zip(expected, model)) + abs(len(expected) - len(model))
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (expected, model))
    if not numbers or expected == model:
        return 0.0 if numbers or expected == model else 1.0
    return abs(model - expected) / max(abs(expected), abs(model)) if math.isfinite(model) else math.inf


def _leaves_the_bounds(models: Models, group: tuple[Mechanism, ...], field: str) -> bool:
    """Out of bounds, the group's mechanisms whose answers leave the bounds are what changes the field: without
    them its model gives another value there (the others may only say which orders a score is computed from)."""
    if not any(m.out_of_bounds for m in group):
        return False
    try:
        model = models(frozenset(m.id for m in group))
        within = models(frozenset(m.id for m in group if not m.out_of_bounds))
    except Exception:  # noqa: BLE001 - a model that cannot take the input explains nothing
        return False
    return field in model and not _exactly(model[field], within.get(field))


def _changes_something(
    models: Models, expected: dict, fields: list[str], mechanism: Mechanism, tolerance: float | None = None
) -> bool:
    try:
        model = models(frozenset({mechanism.id}))
    except Exception:  # noqa: BLE001 - a model that cannot take the input changes nothing
        return False
    return any(key in model and not same(expected[key], model[key], tolerance) for key in fields)


def _explained(
    models: Models, output, expected, fields, differing, group, field, out_of_bounds, tolerance=None
) -> set[str] | None:
    """The differing fields the group's model explains, or None when it does not hold (changes nothing the
    answer shows, gives another value on a field it changes, or leaves the first differing field unexplained)."""
    try:
        model = models(frozenset(m.id for m in group))
    except Exception:  # noqa: BLE001 - a model that cannot take the input explains nothing
        return None
    changed = {key for key in fields if key in model and not same(expected[key], model[key], tolerance)}
    loose = max([tolerance or 0.0, *(m.tolerance for m in group)]) or tolerance  # the model's own precision
    if loose != tolerance and not all(_a_float32(output[key]) for key in changed):
        return None  # float32 arithmetic answers float32 values
    if out_of_bounds and field in model and _exactly(model[field], output[field]):
        changed.add(field)
    if not changed:
        return None
    for key in changed:
        if out_of_bounds and key == field:
            if not _exactly(model[key], output[key]):
                return None
        elif not same(model[key], output[key], loose):
            return None
    explained = changed & differing
    if not explained or (field and field not in explained):
        return None
    # every mechanism of the group is needed: without it, fewer fields are explained or it no longer holds
    if len(group) > 1:
        for mechanism in group:
            rest = tuple(m for m in group if m is not mechanism)
            alone = _explained(models, output, expected, fields, differing, rest, field, out_of_bounds, tolerance)
            if alone is not None and alone >= explained:
                return None
    return explained


def _a_float32(value: Any) -> bool:
    """A float32 (a score on 0..1), or one on the percent scale a float32 on 0..1 becomes (x 100); a list of them."""
    if isinstance(value, list):
        return all(_a_float32(item) for item in value)
    if not isinstance(value, float):
        return False
    return _single(value) == value or _single(value / 100) * 100 == value


def _exactly(model: Any, answer: Any) -> bool:
    if model is None or answer is None:
        return model is answer
    if isinstance(model, (int, float)) and isinstance(answer, (int, float)):
        return model == answer or (math.isnan(model) and math.isnan(answer))
    return model == answer


# --- naming a crash ------------------------------------------------------------------------------------------


def name_crash(tool, payload: Any, fault: str, implementation: str = "") -> Named | None:
    """The mechanisms whose model raises what a library raised on an input the oracle answers (``fault``: "raised
    NAME", the exception's type name): a crash mechanism alone, or with one other mechanism its model needs (the
    reference length it divides by, say); None when no model raises it. Where several hold, those the library
    ``implementation`` shows come first (then the catalogue's order)."""
    name = fault.removeprefix("raised ").strip() if fault.startswith("raised ") else ""
    if not name or not isinstance(payload, dict) or CUT.is_set():
        return None
    models = Models(tool, payload)
    try:
        models(frozenset())
    except Exception:  # noqa: BLE001 - an input the oracle rejects is not named
        return None
    family = _family(tool)
    shown = _shown(implementation)
    ordered = sorted(MECHANISMS, key=lambda m: m.id not in shown)  # stable: the catalogue's order otherwise
    crashes = [m for m in ordered if m.family == family and name in m.raises.split(" or ")]
    others = [m for m in ordered if m.family == family and not m.raises]
    for group in [(crash,) for crash in crashes] + [(crash, other) for crash in crashes for other in others]:
        if _model_raises(models, group, name):
            return Named(group, ())
    return None


def _shown(implementation: str) -> set[str]:
    """The mechanisms the library ``implementation`` says it shows (its module's ``SHOWS``)."""
    from conformance.implementations import implementations

    found = implementations().get(implementation) if implementation else None
    return set(getattr(found.module, "SHOWS", ())) if found is not None else set()


def _model_raises(models: Models, group: tuple[Mechanism, ...], name: str) -> bool:
    try:
        models(frozenset(m.id for m in group))
    except Raises as raised:
        return name in raised.name.split(" or ")
    except Exception:  # noqa: BLE001 - a model that cannot take the input explains nothing
        return False
    return False

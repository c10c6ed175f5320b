"""The families crossing representation boundaries draw what they claim.

Each check recomputes the claimed property from the drawn inputs alone (token and character
counts, n-grams, joined strings, exact scores from the independent implementation), so a
generator that drifts off its boundary fails here rather than silently losing its power.
"""

from __future__ import annotations

import functools
import math
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import oracle
from conformance.strategies import draw_examples, families, keys

TESTS_DIR = Path(__file__).resolve().parent
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

import independent  # noqa: E402
from independent.chrf import ChrfPlusPlus  # noqa: E402

SEED = 7
VERSION = "1.0.0"
CORPUS_BLEU = ("bleu-ngrams-count", "bleu-corpus-compute")
SENTENCE_BLEU = ("bleu-sentence-components", "bleu-sentence-compute")
CHRF_TOOLS = ("chrf-plus-plus-compute", "chrf-compute", "chrf-components")
ALL_TOOLS = (*CORPUS_BLEU, *SENTENCE_BLEU, "bleu-brevity-penalty", *CHRF_TOOLS)
# Object.prototype's own property names, written out from ECMA-262 and Annex B (not from the strategies)
INHERITED = {
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
    "__proto__",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
}


@functools.cache
def drawn(tool_id: str, family_name: str, count: int) -> tuple:
    family = next(f for f in families(tool_id, VERSION) if f.name == family_name)
    return tuple(draw_examples(family.strategy, count, seed=SEED))


def limits(tool_id: str) -> dict:
    return oracle.load_contract(tool_id, VERSION)["limits"]


def sides(tool_id: str, payload: dict) -> tuple[list[list[str]], list[list[str]]]:
    """(hypothesis token lists, reference token lists) of either input form."""
    if tool_id in SENTENCE_BLEU:
        return [payload["hypothesis"]], list(payload["references"])
    return payload["hypotheses"], [r for refs in payload["references"] for r in refs]


def ngrams(tokens: list[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


# --- 1. integer widths -------------------------------------------------------------------


@pytest.mark.parametrize("tool_id", CORPUS_BLEU + SENTENCE_BLEU)
def test_wide_token_counts_cross_2_15_on_each_side_within_the_strictest_limits(tool_id):
    limit = limits(tool_id)
    crossed = set()
    for generated in drawn(tool_id, "boundary/wide-counts", 10):
        hypotheses, references = sides(tool_id, generated.input)
        hypothesis_tokens = sum(map(len, hypotheses))
        reference_tokens = sum(map(len, references))
        # A1: within max_total_tokens even counting the references; bytes far under their limit
        assert hypothesis_tokens + reference_tokens <= limit["max_total_tokens"], generated.description
        every = [t for tokens in hypotheses + references for t in tokens]
        assert sum(len(t.encode("utf-8")) for t in every) <= limit["max_total_token_bytes"]
        big, small = max(hypothesis_tokens, reference_tokens), min(hypothesis_tokens, reference_tokens)
        assert big >= 2**15 - 1 and small <= 1000, generated.description
        if big >= 2**15:
            crossed.add("hypothesis" if hypothesis_tokens > reference_tokens else "reference")
    assert crossed == {"hypothesis", "reference"}


def test_wide_lengths_cross_2_15_2_16_and_2_20_on_each_side():
    limit = limits("bleu-brevity-penalty")
    crossed = set()
    for generated in drawn("bleu-brevity-penalty", "boundary/wide-lengths", 40):
        payload = generated.input
        every = payload["candidate_lengths"] + [n for lengths in payload["reference_lengths"] for n in lengths]
        assert max(every) <= limit["max_length"] and len(payload["candidate_lengths"]) <= limit["max_segments"]
        c, r = sum(payload["candidate_lengths"]), sum(lengths[0] for lengths in payload["reference_lengths"])
        for boundary in (2**15, 2**16, 2**20):
            if c >= boundary > r:
                crossed.add(("candidate", boundary))
            if r >= boundary > c:
                crossed.add(("reference", boundary))
    assert crossed == {(side, b) for side in ("candidate", "reference") for b in (2**15, 2**16, 2**20)}


@pytest.mark.parametrize("tool_id", CHRF_TOOLS)
def test_wide_texts_cross_2_15_characters_and_words_within_the_byte_limit(tool_id):
    tokenizer = ChrfPlusPlus()
    seen = set()
    for generated in drawn(tool_id, "boundary/wide-counts", 12):
        texts = generated.input["hypotheses"] + generated.input["references"]
        assert sum(len(t.encode("utf-8")) for t in texts) <= limits(tool_id)["max_text_bytes"]
        big = max(texts, key=len)
        characters, words = len(tokenizer.characters(big)), len(tokenizer.words(big))
        assert max(characters, words) >= 2**15 - 1, generated.description
        seen |= {name for name, count in (("characters", characters), ("words", words)) if count >= 2**15}
        seen |= {"characters>65535"} if characters >= 2**16 else set()
        seen |= {"big-" + ("hypothesis" if big in generated.input["hypotheses"] else "reference")}
    assert seen == {"characters", "words", "characters>65535", "big-hypothesis", "big-reference"}


# --- 2. identity by a derived key ----------------------------------------------------------


def collisions(hypothesis_ngrams: set, reference_ngrams: set, separators) -> set[str]:
    """Separators under which a hypothesis n-gram no reference has joins like a reference n-gram."""
    found = set()
    for separator in separators:
        joined = {separator.join(g) for g in reference_ngrams}
        if any(separator.join(g) in joined for g in hypothesis_ngrams - reference_ngrams):
            found.add(separator)
    return found


@pytest.mark.parametrize("tool_id", CORPUS_BLEU + SENTENCE_BLEU)
def test_bleu_ngrams_collide_under_a_joined_key(tool_id):
    separators = ("", " ", ",", "|", "_", "\u0000")
    used = set()
    for generated in drawn(tool_id, "valid/joined-key-collisions", 40):
        hypotheses, references = sides(tool_id, generated.input)
        max_order = generated.input["max_order"]
        per_order = [
            collisions(
                {g for h in hypotheses for g in ngrams(h, n)},
                {g for r in references for g in ngrams(r, n)},
                separators + tuple(keys.SEPARATORS),
            )
            for n in range(2, max_order + 1)
        ]
        assert any(per_order), generated.description
        used |= set().union(*per_order)
    assert {"", " ", ","} <= used


@pytest.mark.parametrize(
    "tool_id, family_name",
    [(t, "valid/last-token-neighbours") for t in CORPUS_BLEU + SENTENCE_BLEU]
    + [(t, "boundary/large-vocabulary") for t in CORPUS_BLEU],
)
def test_last_token_neighbours_collide_in_a_packed_double(tool_id, family_name):
    """Every case has n-grams of order >= 5 one token off a reference n-gram whose ids, packed into
    one double ((id_1 * V + id_2) * V + ...), are equal: a packed key merges them."""
    for generated in drawn(tool_id, family_name, 8 if "large" in family_name else 20):
        (hypothesis,), (reference, *_) = sides(tool_id, generated.input)
        vocabulary = list(dict.fromkeys(hypothesis + reference))
        assert len(vocabulary) >= 300
        ids = {token: i for i, token in enumerate(vocabulary)}
        size = float(len(vocabulary))

        def packed(ngram):
            value = 0.0
            for token in ngram:
                value = value * size + ids[token]
            return value

        order = generated.input["max_order"]
        assert order >= 5
        reference_ngrams = set(ngrams(reference, order))
        neighbours = [
            g
            for g in ngrams(hypothesis, order)
            if g not in reference_ngrams and g[:-1] + (reference[reference.index(g[-1]) - 1],) in reference_ngrams
        ]
        assert neighbours, generated.description
        reference_keys = {packed(g) for g in reference_ngrams}
        if order >= 7 or len(vocabulary) >= 1500:
            assert any(packed(g) in reference_keys for g in neighbours), generated.description


@pytest.mark.parametrize("tool_id", ("chrf-plus-plus-compute", "chrf-components"))
def test_word_ngrams_collide_under_a_joined_key(tool_id):
    tokenizer = ChrfPlusPlus()
    punctuation = 0
    for generated in drawn(tool_id, "valid/joined-word-ngrams", 40):
        payload = generated.input
        word_order = payload.get("word_order", 2)
        hypothesis, reference = tokenizer.words(payload["hypotheses"][0]), tokenizer.words(payload["references"][0])
        found = set().union(
            *(
                collisions(
                    set(ngrams(hypothesis, n)), set(ngrams(reference, n)), ("", ",", "-", "_", ".", "'", "/", ":", "|")
                )
                for n in range(2, word_order + 1)
            )
        )
        assert found, generated.description
        punctuation += any(t in (".", "..") for t in hypothesis + reference)
    assert punctuation, "the punctuation rule's splits are drawn"


# --- 3. names a runtime treats specially ------------------------------------------------------


@pytest.mark.parametrize("tool_id", ALL_TOOLS)
def test_property_named_keys_break_only_the_unknown_key_rule(tool_id):
    known = set(oracle.load_contract(tool_id, VERSION)["input_schema"]["properties"])
    names = set()
    for generated in drawn(tool_id, "invalid/property-named-keys", 30):
        unknown = set(generated.input) - known
        assert len(unknown) == 1 and unknown <= INHERITED | {"prototype", "length"}, generated.description
        names |= unknown
        valid = {k: v for k, v in generated.input.items() if k in known}
        oracle.execute(tool_id, VERSION, valid)  # without the key the input is answered
    assert "__proto__" in names and len(names) >= 5


def test_numeric_tokens_follow_words_so_an_object_would_reorder_the_rows():
    def array_index(token: str) -> bool:  # ECMA-262: a canonical numeric string of an integer below 2^32 - 1
        return token.isdigit() and str(int(token)) == token and int(token) < 2**32 - 1

    reordered = 0
    for generated in drawn("bleu-ngrams-count", "valid/numeric-tokens", 40):
        for hypothesis in generated.input["hypotheses"]:
            first_seen = list(dict.fromkeys(hypothesis))
            object_order = sorted((t for t in first_seen if array_index(t)), key=int) + [
                t for t in first_seen if not array_index(t)
            ]
            reordered += object_order != first_seen
            assert not array_index(hypothesis[0]), "a word token comes first"
    assert reordered >= 20


# --- 4. rounding across magnitudes ---------------------------------------------------------------


def penalty(c: int, r: int) -> float:
    return 1.0 if c > r else math.exp(1 - r / c)


def test_penalty_decades_span_1e_12_to_1_with_every_decimals():
    decades, decimals, differs = set(), set(), 0
    for generated in drawn("bleu-brevity-penalty", "valid/decimals-across-magnitudes", 60):
        payload = generated.input
        c = sum(payload["candidate_lengths"])
        r = sum(lengths[0] for lengths in payload["reference_lengths"])
        value = penalty(c, r)
        decades.add(math.floor(math.log10(value)))
        decimals.add(payload["decimals"])
        fixed = round(value, payload["decimals"])  # digits after the point
        significant = float(f"{value:.{payload['decimals']}g}")  # significant digits
        differs += fixed != significant
    assert len(decades & set(range(-12, 1))) >= 10 and min(decades) <= -11 and -4 in decades
    assert len(decimals) >= 12 and min(decimals) >= 1
    assert differs >= 40


@pytest.mark.parametrize("tool_id", ("bleu-corpus-compute", "bleu-sentence-compute"))
def test_bleu_decades_reach_1e_3_and_below(tool_id):
    decades = set()
    for generated in drawn(tool_id, "valid/decimals-across-magnitudes", 60):
        value = oracle.execute(tool_id, VERSION, {k: v for k, v in generated.input.items() if k != "decimals"})["bleu"]
        if value > 0:
            decades.add(math.floor(math.log10(value)))
    assert len(decades) >= 8 and min(decades) <= -9 and max(decades) >= -2 and decades & {-3, -4}  # about 1e-3


@pytest.mark.parametrize("tool_id", CHRF_TOOLS)
def test_ties_are_exact_six_decimal_ties_below_1_and_on_both_sides_of_50(tool_id):
    regions = set()
    for generated in drawn(tool_id, "valid/six-decimal-ties", 40):
        output = independent.execute(tool_id, VERSION, generated.input)
        numerator, denominator = map(int, output["score_fraction"].split("/"))
        scaled = Fraction(numerator, denominator) * 2 * 10**6  # halfway: an odd number of half-millionths
        assert scaled.denominator == 1 and scaled.numerator % 2 == 1, generated.description
        score = Fraction(numerator, denominator)
        regions.add("below-1" if score < 1 else "below-50" if score < 50 else "above-50")
    assert regions == {"below-1", "below-50", "above-50"}

"""Identity by a derived key, and names a runtime treats specially.

The contracts compare n-grams by their elements. An implementation that keys them by a derived
value instead (the tokens joined by "" or by a separator a token may hold, or one number packing
token ids) merges n-grams that differ:

- joined keys: two n-grams whose tokens join to the same string with a different split
  (("ab", "c") against ("a", "bc"); ("a,b", "c") against ("a", "b,c") for `[a, b].join()`), for
  every separator in SEPARATORS, and in chrF++ the splits its punctuation rule makes (one mark
  split off a word: "a.." gives ("a.", "."), "a ..." gives ("a", ".."), ("..", "."));
- packed keys: orders 5-8 over hundreds or thousands of distinct tokens, where a reference
  n-gram and a hypothesis n-gram differ only in their last token, whose id is the next one
  (adjacent tokens swapped): past 2^53 a double packing the ids cannot tell them apart.

Names: keys named like the properties every JavaScript object inherits are unknown input keys
(each input schema has additionalProperties false: invalid_input), and numeric-string tokens
follow word tokens where rows are ordered by first occurrence (a plain object lists
integer-like keys first, ascending).
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from conformance.javascript import NOT_INHERITED, OBJECT_PROTOTYPE_NAMES, PROTO
from conformance.strategies.base import EXPECT_OUTPUT, INVALID_INPUT, Family, aimed, case, composite

Tokens = list[str]

# Separators a joined key may use: "" (a + b), space, `[a, b].join()`'s comma, and other usual ones.
SEPARATORS = ("", " ", ",", "|", "_", "-", "/", ":", ";", ".", "\t", "\u0000", "\u001f", "+", "#")
# Letters only, so a token built from them never starts or ends with a punctuation mark.
ATOMS = ("a", "b", "c", "ab", "bc", "the", "cat", "x", "de")


@composite
def joined_pair(draw, order: int, separators: tuple[str, ...] = SEPARATORS) -> tuple[Tokens, Tokens, str]:
    """Two different n-grams of ``order`` tokens that join with the drawn separator to one string.

    ``order + 1`` atoms; each n-gram merges one adjacent pair of atoms (around the separator)
    into a token, at two different places."""
    separator = draw(st.sampled_from(separators))
    atoms = [draw(st.sampled_from(ATOMS)) for _ in range(order + 1)]
    first, second = draw(st.lists(st.integers(0, order - 1), min_size=2, max_size=2, unique=True))

    def merged_at(i: int) -> Tokens:
        return atoms[:i] + [atoms[i] + separator + atoms[i + 1]] + atoms[i + 2 :]

    return merged_at(first), merged_at(second), separator


# --- BLEU: joined keys ---------------------------------------------------------------


def joined_key_collisions(options: st.SearchStrategy[dict]) -> Family:
    """Reference and hypothesis n-grams (orders 2..8) that join to one string: one pair joined by
    "" (a + b), one by " ", one by "," (`join()`'s default) and one by another separator, in every case."""

    @composite
    def build(draw):
        order = draw(st.integers(2, 8))
        separators = ("", " ", ",", draw(st.sampled_from(SEPARATORS[3:])))
        hypothesis, reference, shown = [], [], []
        for separator in separators:
            reference_ngram, hypothesis_ngram, _ = draw(joined_pair(order, (separator,)))
            context = draw(st.lists(st.sampled_from(("on", "mat", "dog")), min_size=1, max_size=2))
            hypothesis += hypothesis_ngram + context
            reference += reference_ngram + draw(st.permutations(context))
            shown.append(f"{hypothesis_ngram!r} vs {reference_ngram!r} by {separator!r}")
        references = [reference]
        if draw(st.booleans()):  # another reference, never holding a hypothesis n-gram of the pairs
            references.append(draw(st.sampled_from((list(reference), ["dog"]))))
        chosen = {key: value for key, value in draw(options).items() if value is not None}
        chosen["max_order"] = draw(st.integers(order, 8))
        for feature in (
            "joined-key-collision",
            "joined-by-empty",
            "joined-by-space",
            "joined-by-comma",
            "joined-by-other",
        ):
            aimed(feature)
        if order >= 5:
            aimed("collision-order>=5")
        payload = {"hypotheses": [hypothesis], "references": [references], **chosen}
        return case(
            payload, EXPECT_OUTPUT, f"{order}-grams joining to the same string, different n-grams: " + "; ".join(shown)
        )

    return Family(
        "valid/joined-key-collisions",
        "valid",
        build(),
        "n-grams of orders 2..8 that join to one string with another split (by '', ' ', ',', '|', NUL...)",
        aims=(
            "joined-key-collision",
            "joined-by-empty",
            "joined-by-space",
            "joined-by-comma",
            "joined-by-other",
            "collision-order>=5",
        ),
    )


# --- BLEU: packed keys -----------------------------------------------------------------


def vocabulary(size: int) -> Tokens:
    """``size`` distinct tokens whose names sort in their order (so sorted and first-seen ids agree)."""
    return [f"t{i:04d}" for i in range(size)]


@composite
def last_token_neighbours(draw, sizes: tuple[int, ...]) -> tuple[Tokens, Tokens, int, int]:
    """(hypothesis, reference, max_order, vocabulary size): the reference lists the vocabulary in
    order; the hypothesis is the reference with adjacent tokens swapped at spaced positions, so its
    n-gram ending at a swap differs from the reference's only in the last token, the id next to it."""
    max_order = draw(st.integers(5, 8))
    size = draw(st.sampled_from(sizes))
    reference = vocabulary(size)
    hypothesis = list(reference)
    # a few examples, each of hundreds of tokens: the swaps at fixed spacing (no draw)
    step = max_order + 1 + size % 7
    for i in range(max_order, size - 1, step):
        hypothesis[i], hypothesis[i + 1] = hypothesis[i + 1], hypothesis[i]
    return hypothesis, reference, max_order, size


# A double packing ids in base V (the vocabulary size) rounds past 2^53: from a few hundred ids at
# orders 7-8 (valid: small inputs), from a few thousand at orders 5-6 (boundary: large inputs).
# A packing in a fixed base (2^16, 2^20 per token) rounds from order 4 whatever the vocabulary.
HUNDREDS, THOUSANDS = (300, 500, 900), (1600, 2500, 3000)


def last_token_family(options: dict, sizes: tuple[int, ...] = HUNDREDS) -> Family:
    """``options``: fixed, so the family has max_order x sizes examples at most."""
    category = "valid" if sizes == HUNDREDS else "boundary"
    name = f"{category}/last-token-neighbours" if sizes == HUNDREDS else "boundary/large-vocabulary"

    @composite
    def build(draw):
        hypothesis, reference, max_order, size = draw(last_token_neighbours(sizes))
        chosen = {**options, "max_order": max_order}
        aimed("orders-7-8" if max_order >= 7 else "orders-5-6")
        aimed("vocabulary>=1000" if size >= 1000 else "vocabulary-hundreds")
        payload = {"hypotheses": [hypothesis], "references": [[reference]], **chosen}
        return case(
            payload,
            EXPECT_OUTPUT,
            f"max_order {max_order} over {size} distinct tokens; adjacent tokens swapped every few "
            "positions, so hypothesis n-grams differ from reference n-grams only in their last token",
        )

    size_aim = "vocabulary>=1000" if sizes == THOUSANDS else "vocabulary-hundreds"
    return Family(
        name,
        category,
        build(),
        f"orders 5..8 over {min(sizes)}-{max(sizes)} distinct tokens; n-grams differing only in the last token",
        aims=("orders-5-6", "orders-7-8", size_aim),
    )


# --- chrF++: joined word n-grams ------------------------------------------------------

WORD_SEPARATORS = ("", "", ",", "-", "_", "'", ".", "/", ":", "|")  # never whitespace: words hold none
# Texts whose word tokens (by the contract's punctuation rule: at most one mark split off a word)
# give bigrams joining by "" alike with no bigram in common: "a.." -> ("a.", ".") against
# "a ..." -> ("a", ".."), ("..", "."); "ab." -> ("ab", ".") against "a b.." -> ("a", "b."), ("b.", ".").
PUNCTUATION_SPLITS = (("a..", "a ..."), ("ab.", "a b.."), ("x ab.", "x a b.."))


def joined_word_ngrams(word_orders: st.SearchStrategy[int], extra: Callable[[int], st.SearchStrategy[dict]]) -> Family:
    """Hypothesis and reference word n-grams that join to one string with a different split.

    ``extra(order)``: the tool's options for word n-grams of ``order`` (chrF++ has bigrams only)."""

    @composite
    def build(draw):
        order = draw(word_orders)
        if draw(st.integers(0, 3)) == 0:
            hypothesis_words, reference_words = draw(st.sampled_from(PUNCTUATION_SPLITS))
            order = 2
            how = f"the punctuation rule splits {hypothesis_words!r} and {reference_words!r} into tokens joining alike"
            aimed("punctuation-split-collision")
        else:
            reference_ngram, hypothesis_ngram, separator = draw(joined_pair(order, WORD_SEPARATORS))
            hypothesis_words, reference_words = " ".join(hypothesis_ngram), " ".join(reference_ngram)
            how = f"word {order}-grams {hypothesis_ngram!r} and {reference_ngram!r} join by {separator!r} alike"
            aimed("joined-by-empty" if separator == "" else "joined-by-mark")
        context = st.sampled_from(("", "on ", "the mat "))
        hypothesis = draw(context) + hypothesis_words + " " + draw(context)
        reference = draw(context) + reference_words + " " + draw(context)
        aimed("word-ngram-collision")
        payload = {"hypotheses": [hypothesis.strip()], "references": [reference.strip()], **draw(extra(order))}
        return case(payload, EXPECT_OUTPUT, how + ": different word n-grams")

    return Family(
        "valid/joined-word-ngrams",
        "valid",
        build(),
        "word n-grams joining to one string with another split ('ab c' vs 'a bc', 'a..' vs 'a ...')",
        aims=("word-ngram-collision", "joined-by-empty", "joined-by-mark", "punctuation-split-collision"),
    )


# --- names a runtime treats specially ---------------------------------------------------

# Names a JavaScript object treats specially: a plain object inherits the first ten from
# Object.prototype (`"constructor" in {}` is true; `__proto__` is an accessor; the setter twins
# __defineSetter__ and __lookupSetter__ are left to their getters); `prototype` and `length` are own
# properties of functions and arrays, the maps an implementation may use instead.
PROPERTY_NAMES = (
    PROTO,
    *(name for name in OBJECT_PROTOTYPE_NAMES if name not in (PROTO, "__defineSetter__", "__lookupSetter__")),
    *NOT_INHERITED,
)
PROPERTY_VALUES: tuple[object, ...] = (None, True, 1, 0, "x", [], {}, {"a": 1}, ["the"])


def property_named_keys(valid_inputs: st.SearchStrategy[dict]) -> Family:
    """A valid input plus one unknown key named like an inherited property: invalid_input
    (every input schema has additionalProperties false, and the contracts reject unknown keys)."""

    @composite
    def build(draw):
        payload = dict(draw(valid_inputs))
        key = draw(st.sampled_from(PROPERTY_NAMES))
        payload[key] = draw(st.sampled_from(PROPERTY_VALUES))
        aimed("unknown-key-__proto__" if key == "__proto__" else "unknown-key-inherited")
        return case(payload, INVALID_INPUT, f"unknown key {key!r} (a name every JavaScript object inherits)")

    return Family(
        "invalid/property-named-keys",
        "invalid",
        build(),
        "an unknown key named like an inherited object property: __proto__, constructor, toString, ...",
        aims=("unknown-key-__proto__", "unknown-key-inherited"),
    )


# Integer-like ("7", "1990", "0", "4294967294": array indices a plain object lists first) and
# numeric strings that are not array indices ("01", "-1", "1.5", "4294967295").
NUMERIC_TOKENS = ("7", "1990", "0", "42", "4294967294", "01", "-1", "1.5", "1e3", "+1", "007", "4294967295")
LEADING_WORDS = ("the", "cat", "sat", "on", "a", "mat")


def is_array_index(token: str) -> bool:
    return token.isascii() and token.isdigit() and (token == "0" or token[0] != "0") and int(token) < 2**32 - 1


def numeric_tokens_family(options: st.SearchStrategy[dict]) -> Family:
    """Word tokens first, then numeric strings, in hypotheses whose n-gram rows follow first occurrence."""

    @composite
    def build(draw):
        hypotheses, references = [], []
        for _ in range(draw(st.integers(1, 3))):
            words = draw(st.lists(st.sampled_from(LEADING_WORDS), min_size=1, max_size=4))
            numbers = draw(st.lists(st.sampled_from(NUMERIC_TOKENS), min_size=1, max_size=5))
            tail = draw(st.permutations(numbers + draw(st.lists(st.sampled_from(LEADING_WORDS), max_size=3))))
            hypotheses.append(words + tail)
            references.append(
                [draw(st.permutations(words + numbers[:1])), draw(st.lists(st.sampled_from(NUMERIC_TOKENS)))]
            )
        chosen = {key: value for key, value in draw(options).items() if value is not None}
        if any(is_array_index(token) for hypothesis in hypotheses for token in hypothesis):
            aimed("integer-like-after-words")
        if any(token in ("01", "-1", "4294967295") for hypothesis in hypotheses for token in hypothesis):
            aimed("numeric-not-index")
        payload = {"hypotheses": hypotheses, "references": references, **chosen}
        return case(payload, EXPECT_OUTPUT, f"numeric-string tokens after word tokens: {hypotheses!r}")

    return Family(
        "valid/numeric-tokens",
        "valid",
        build(),
        "numeric-string tokens ('7', '1990', '01', '-1') after word tokens: rows in first-occurrence order",
        aims=("integer-like-after-words", "numeric-not-index"),
    )

"""Generated cases for chrf-components: the chrF families under every (char_order, word_order)
including the extremes 0 and 10 / 4, whitespace kept and removed (every whitespace code point of
the contract and its near-misses on both settings), orders above the text length, and the
options' rules (orders out of range, both orders 0, a non-boolean whitespace)."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies import aiming, chrf, keys, limit_forms, magnitudes, widths
from conformance.strategies.aiming import integral_float, option
from conformance.strategies.alphabets import contract_whitespace
from conformance.strategies.base import (
    EXPECT_OUTPUT,
    INVALID_INPUT,
    LIMIT_EXCEEDED,
    Family,
    aimed,
    case,
    composite,
    limits,
)

UNKNOWN_KEYS = ("metric", "Beta", "lowercase ", "tokenize", "", "charOrder", "word_orders", "__proto__", "constructor")


@composite
def orders(draw) -> dict:
    """char_order 0..10 and word_order 0..4, not both 0 after the defaults (6 and 0), each may be omitted."""
    while True:
        chosen = {
            "char_order": draw(st.one_of(st.none(), st.integers(0, 10), st.sampled_from((0, 10)))),
            "word_order": draw(st.one_of(st.none(), st.integers(0, 4), st.sampled_from((0, 4)))),
            "whitespace": draw(st.one_of(st.none(), st.booleans())),
        }
        char_order = 6 if chosen["char_order"] is None else chosen["char_order"]
        word_order = 0 if chosen["word_order"] is None else chosen["word_order"]
        if char_order + word_order >= 1:
            return {key: value for key, value in chosen.items() if value is not None}
        draw(st.just(None))  # one more draw, so shrinking can leave this loop


def with_orders(family: Family) -> Family:
    """A chrF family's cases with drawn orders and whitespace added."""
    return Family(
        family.name,
        family.category,
        st.tuples(family.strategy, orders()).map(
            lambda pair: case({**pair[0].input, **pair[1]}, pair[0].expect, f"{pair[0].description}; {pair[1]}")
        ),
        family.summary,
        aims=family.aims,
    )


def order_extremes() -> st.SearchStrategy:
    """Every corner of the orders on texts shorter and longer than the orders."""

    @composite
    def build(draw):
        char_order, word_order = draw(st.sampled_from(((0, 1), (0, 4), (1, 0), (10, 0), (10, 4), (1, 1), (6, 2))))
        hypotheses = [draw(st.sampled_from(("a", "ab cd", "the cat sat on the mat", "", "abcdefghijk lmn")))]
        references = [draw(st.sampled_from(("a", "abcd", "the cat sat on a mat", "", "abcdefghijk lmn")))]
        payload = {
            "hypotheses": hypotheses,
            "references": references,
            "char_order": char_order,
            "word_order": word_order,
            "whitespace": draw(st.booleans()),
        }
        return case(
            payload,
            EXPECT_OUTPUT,
            f"char_order {char_order}, word_order {word_order} on {hypotheses[0]!r} vs {references[0]!r}",
        )

    return build()


BAD_OPTIONS = (
    ("char_order", (-1, 11, 100, 2.5, "6", True, None, [6])),
    ("word_order", (-1, 5, 2.5, "2", False, None, [2])),
    ("whitespace", ("true", 1, 0, None, [True])),
)


def bad_options() -> st.SearchStrategy:
    @composite
    def build(draw):
        payload = draw(chrf.ordinary_texts())
        rule = draw(st.sampled_from(("char_order", "word_order", "whitespace", "no-orders")))
        aimed(OPTION_RULES[rule])
        if rule == "no-orders":  # "char_order + word_order below 1 after the defaults"
            payload.update(
                draw(
                    st.sampled_from(
                        ({"char_order": 0}, {"char_order": 0, "word_order": 0}, {"char_order": 0.0, "word_order": 0})
                    )
                )
            )
            return case(payload, INVALID_INPUT, f"no order at all: {payload}")
        key, values = next(option for option in BAD_OPTIONS if option[0] == rule)
        payload[key] = draw(st.sampled_from(values))
        return case(payload, INVALID_INPUT, f"{key} is {payload[key]!r}")

    return build()


def kept_whitespace_and_words(whitespace: tuple[str, ...]) -> st.SearchStrategy:
    """whitespace true with word orders: every whitespace code point between words (it stays in
    the character n-grams; word tokens never depend on it)."""

    @composite
    def build(draw):
        words = draw(st.lists(st.sampled_from(chrf.WORDS), min_size=2, max_size=5))
        separators = [draw(st.sampled_from(whitespace)) for _ in range(len(words) - 1)]
        hypothesis = chrf.join_words(words, separators)
        reference = " ".join(draw(st.permutations(words)))
        payload = {
            "hypotheses": [hypothesis],
            "references": [reference],
            "whitespace": True,
            "word_order": draw(st.integers(1, 4)),
            "char_order": draw(st.integers(0, 10)),
        }
        shown = ", ".join(f"U+{ord(ch):04X}" for ch in separators)
        return case(payload, EXPECT_OUTPUT, f"whitespace kept, words separated by {shown}")

    return build()


def order_bounds() -> st.SearchStrategy:
    @composite
    def build(draw):
        payload = draw(chrf.ordinary_texts())
        key, value = draw(
            st.sampled_from(
                (("char_order", 11), ("char_order", 11), ("word_order", 5), ("char_order", -1), ("word_order", -1))
            )
        )
        payload[key] = value
        return case(payload, INVALID_INPUT, f"{key} {value}: one past its bound")

    return build()


def families(tool_id: str, version: str) -> list[Family]:
    whitespace = contract_whitespace(tool_id, version)
    return aiming.with_aims(
        [
            *(with_orders(family) for family in chrf.valid_families(tool_id, version)),
            Family(
                "valid/kept-whitespace-and-words",
                "valid",
                kept_whitespace_and_words(contract_whitespace(tool_id, version)),
                "whitespace true with word orders: every whitespace code point of the contract between words",
            ),
            Family(
                "valid/order-extremes",
                "valid",
                order_extremes(),
                "char_order 0, 1, 10 and word_order 0, 1, 4 on texts shorter and longer than the orders",
            ),
            Family(
                "valid/integers-as-floats",
                "valid",
                chrf.integers_as_floats({"char_order": 6.0, "word_order": 2.0}),
                "beta and the orders written 2.0: integers",
            ),
            *(
                with_orders(family)
                for family in chrf.boundary_families(tool_id, version, segments_expect=LIMIT_EXCEEDED)
            ),
            limit_forms.chrf_text_family(tool_id, version),  # the default orders: three cases, all drawn at quick
            Family(
                "invalid/surrogate-bytes",
                "invalid",
                chrf.surrogate_bytes(tool_id, version),
                "a lone surrogate counting 3 bytes at the byte limit and one past it",
            ),
            Family(
                "invalid/order-bounds",
                "invalid",
                order_bounds(),
                "char_order 11 or -1, word_order 5 or -1: one past each bound",
            ),
            *chrf.invalid_families(tool_id, version, unknown_keys=UNKNOWN_KEYS, segments_expect=LIMIT_EXCEEDED),
            Family(
                "invalid/options",
                "invalid",
                bad_options(),
                "char_order outside 0..10, word_order outside 0..4, both orders 0, whitespace not a boolean",
                aims=tuple(OPTION_RULES.values()),
            ),
            *representation_families(tool_id, version),
        ],
        {
            "valid/kept-whitespace-and-words": {
                "a whitespace code point other than U+0020 between words": lambda g: any(
                    ch in whitespace and ch != " " for ch in g.input["hypotheses"][0]
                ),
                "word_order 4": option("word_order", 4),
                "char_order 0": option("char_order", 0),
            },
            "valid/order-extremes": {
                "char_order 0": option("char_order", 0),
                "char_order 10": option("char_order", 10),
                "word_order 0": option("word_order", 0),
                "word_order 4": option("word_order", 4),
                "whitespace kept": option("whitespace", True),
                "whitespace removed": option("whitespace", False),
                "a text shorter than the character order": lambda g: (
                    0 < len(g.input["hypotheses"][0]) < g.input["char_order"]
                ),
            },
            "valid/integers-as-floats": {
                **chrf.INTEGERS_AS_FLOATS_FEATURES,
                "char_order written as a float": integral_float("char_order"),
                "word_order written as a float": integral_float("word_order"),
            },
            "invalid/surrogate-bytes": chrf.SURROGATE_BYTES_FEATURES,
            "invalid/order-bounds": {
                "char_order 11": option("char_order", 11),
                "char_order -1": option("char_order", -1),
                "word_order 5": option("word_order", 5),
                "word_order -1": option("word_order", -1),
            },
        },
    )


OPTION_RULES = {  # each rule invalid/options breaks, and the aimed feature it gives
    "char_order": "char_order out of range or of the wrong type",
    "word_order": "word_order out of range or of the wrong type",
    "whitespace": "whitespace not a boolean",
    "no-orders": "no order at all (char_order + word_order below 1)",
}


# The orders of the wide texts, one setting per unit: the defaults; every order, whitespace kept.
WIDE_ORDERS = {"one-word": {}, "words": {"char_order": 10, "word_order": 4, "whitespace": True}}


def representation_families(tool_id: str, version: str) -> list[Family]:
    """Counts past 2^15, word n-grams joining alike, exact ties (whitespace removed: it keeps the tie), names."""

    def word_orders(order: int) -> st.SearchStrategy[dict[str, int]]:
        return st.fixed_dictionaries({"word_order": st.integers(order, 4), "char_order": st.integers(0, 10)})

    without_whitespace = orders().map(lambda chosen: {k: v for k, v in chosen.items() if k != "whitespace"})
    return [
        widths.wide_texts_family(limits(tool_id, version)["max_text_bytes"], WIDE_ORDERS),
        keys.joined_word_ngrams(st.integers(2, 4), word_orders),
        magnitudes.six_decimal_ties(without_whitespace),
        keys.property_named_keys(chrf.ordinary_texts()),
    ]

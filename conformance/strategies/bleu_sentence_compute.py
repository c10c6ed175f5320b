"""Generated cases for bleu-sentence-compute: the one-segment BLEU families under every smoothing
method x effective_order x decimals, and the options' rules (smoothing required, one of four names;
effective_order a boolean)."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies import aiming, bleu, bleu_sentence, magnitudes
from conformance.strategies.aiming import integral_float, option
from conformance.strategies.base import (
    EXPECT_OUTPUT,
    INVALID_INPUT,
    Family,
    GeneratedCase,
    case,
    composite,
    input_schema,
)

METHODS = ("none", "chen-cherry-1", "chen-cherry-2", "chen-cherry-3")
OPTIONS = st.fixed_dictionaries(
    {
        "max_order": bleu.MAX_ORDERS,
        "smoothing": st.sampled_from(METHODS),
        "effective_order": st.one_of(st.none(), st.booleans()),
        "decimals": st.one_of(st.none(), st.integers(0, 15)),
    }
)


def every_combination() -> st.SearchStrategy:
    """Each smoothing x effective_order x decimals on hypotheses shorter and longer than max_order."""

    @composite
    def build(draw):
        hypothesis, references, how = draw(bleu.derived_segment())
        options = {
            "smoothing": draw(st.sampled_from(METHODS)),
            "effective_order": draw(st.booleans()),
            "decimals": draw(st.one_of(st.none(), st.integers(0, 15))),
            "max_order": draw(st.integers(1, 8)),
        }
        payload = bleu_sentence.with_options(hypothesis, references, options)
        return case(payload, EXPECT_OUTPUT, f"{options}; the hypothesis {how}")

    return build()


def zero_match_orders() -> st.SearchStrategy:
    """Matches up to order L = 0..4 only, at max_order 4..8 and at least 4 tokens: the first
    zero-match order at 1 (m_1 = 0), 2, 3, 4 or 5, so chen-cherry-3's k runs 1, 2, 3, ... there."""

    @composite
    def build(draw: st.DrawFn) -> GeneratedCase:
        longest = draw(st.integers(0, 4))
        reference = [f"w{i}" for i in range(12)]
        hypothesis: list[str] = []
        while len(hypothesis) < 4:
            start = draw(st.integers(0, len(reference) - longest))
            hypothesis += reference[start : start + longest] + ["x"]
        # chen-cherry-3 half the time: its counter is what the family is for
        smoothing = draw(st.one_of(st.just("chen-cherry-3"), st.sampled_from(METHODS)))
        options = {
            "smoothing": smoothing,
            "effective_order": draw(st.one_of(st.none(), st.booleans())),
            "max_order": draw(st.integers(4, 8)),
            "decimals": draw(st.one_of(st.none(), st.integers(0, 15))),
        }
        payload = bleu_sentence.with_options(hypothesis, [reference], options)
        return case(payload, EXPECT_OUTPUT, f"the first zero-match order is {longest + 1}; {options}")

    return build()


def short_hypotheses(method: str) -> st.SearchStrategy:
    """Hypotheses shorter than max_order that copy the start of the reference (m_1 > 0): orders
    without n-grams, with and mostly without effective_order, under one smoothing method."""

    @composite
    def build(draw):
        max_order = draw(st.integers(2, 8))
        reference = [f"w{i}" for i in range(draw(st.integers(max_order, 10)))]
        length = draw(st.integers(1, max_order - 1))
        start = draw(st.integers(0, len(reference) - length))
        options = {
            "smoothing": method,
            "max_order": max_order,
            "effective_order": draw(st.sampled_from((True, True, True, False, None))),
        }
        payload = bleu_sentence.with_options(reference[start : start + length], [reference], options)
        return case(
            payload,
            EXPECT_OUTPUT,
            f"a hypothesis of {length} reference tokens, shorter than max_order {max_order}; {options}",
        )

    return build()


def bad_options() -> st.SearchStrategy:
    """smoothing missing (it is required) or not one of the four names, effective_order not a boolean,
    decimals out of range: half of the cases leave smoothing out."""

    @composite
    def build(draw):
        payload = {**draw(bleu_sentence.ordinary_segment()), "smoothing": draw(st.sampled_from(METHODS))}
        if draw(st.booleans()):
            del payload["smoothing"]
            return case(payload, INVALID_INPUT, "smoothing is missing (it is required)")
        what = draw(st.sampled_from((BAD_SMOOTHING, BAD_EFFECTIVE_ORDER, BAD_DECIMALS)))(payload, draw)
        return case(payload, INVALID_INPUT, what)

    return build()


BAD_SMOOTHING = bleu.bad_option(
    "smoothing", ("floor", "add-k", "exp", "method1", "Chen-Cherry-1", "chen-cherry-4", "", None, 1, True, ["none"])
)
BAD_EFFECTIVE_ORDER = bleu.bad_option("effective_order", (1, 0, "true", "false", None, [True]))
BAD_DECIMALS = bleu.bad_option("decimals", (-1, 16, 100, 2.5, "6", True, None, [6]))


def families(tool_id: str, version: str) -> list[Family]:
    required = tuple(input_schema(tool_id, version)["required"])  # smoothing is required
    return aiming.with_aims(
        [
            *bleu_sentence.valid_families(OPTIONS),
            Family(
                "valid/every-combination",
                "valid",
                every_combination(),
                "each smoothing method x effective_order x decimals x max_order",
            ),
            Family(
                "valid/zero-match-orders",
                "valid",
                zero_match_orders(),
                "the first zero-match order at 1..5 under every method: the NIST k counter at k = 1, 2, 3",
            ),
            *(
                Family(
                    f"valid/short-hypotheses-{method}",
                    "valid",
                    short_hypotheses(method),
                    f"hypotheses shorter than max_order under {method}, mostly with effective_order",
                )
                for method in METHODS
            ),
            *bleu_sentence.boundary_families(tool_id, version, OPTIONS),
            *bleu_sentence.invalid_families(
                tool_id, version, OPTIONS, (BAD_SMOOTHING, BAD_EFFECTIVE_ORDER, BAD_DECIMALS), required
            ),
            Family(
                "invalid/options",
                "invalid",
                bad_options(),
                "smoothing missing or not one of the four names, effective_order not a boolean, decimals out of range",
            ),
            *bleu_sentence.representation_families(
                tool_id,
                version,
                OPTIONS,
                st.builds(
                    lambda segment, smoothing: {**segment, "smoothing": smoothing},
                    bleu_sentence.ordinary_segment(),
                    st.sampled_from(METHODS),
                ),
                {"smoothing": "chen-cherry-1", "max_order": 8},
            ),
            bleu_sentence.one_segment_family(magnitudes.bleu_magnitudes(OPTIONS)),
        ],
        AIMED_FEATURES,
    )


def _first_zero_match_order(generated) -> int:
    return bleu_sentence.longest_match(generated) + 1


EVERY_METHOD: aiming.Features = {f"smoothing {method}": option("smoothing", method) for method in METHODS}
EFFECTIVE_ORDER: aiming.Features = {
    "effective_order true": option("effective_order", True),
    "effective_order false or omitted": lambda g: g.input.get("effective_order") in (False, None),
}
AIMED_FEATURES: dict[str, aiming.Features] = {
    "valid/integers-as-floats": {"decimals written as a float": integral_float("decimals")},
    "valid/every-combination": {
        **EVERY_METHOD,
        **EFFECTIVE_ORDER,
        "decimals given": lambda g: "decimals" in g.input,
        "max_order 1": option("max_order", 1),
        "max_order 8": option("max_order", 8),
    },
    "valid/zero-match-orders": {
        **{
            f"the first zero-match order {n}": (lambda n: lambda g: _first_zero_match_order(g) == n)(n)
            for n in range(1, 6)
        },
        "under chen-cherry-3": option("smoothing", "chen-cherry-3"),
    },
    **{
        f"valid/short-hypotheses-{method}": {
            **EFFECTIVE_ORDER,
            "a one-token hypothesis": lambda g: len(g.input["hypothesis"]) == 1,
            "max_order 8": option("max_order", 8),
        }
        for method in METHODS
    },
    "invalid/options": {
        "smoothing missing": lambda g: "smoothing" not in g.input,
        "smoothing not one of the four names": lambda g: "smoothing" in g.input and g.input["smoothing"] not in METHODS,
        "effective_order not a boolean": lambda g: (
            "effective_order" in g.input and not isinstance(g.input["effective_order"], bool)
        ),
        "decimals out of range or of the wrong type": lambda g: "decimals" in g.input,
    },
}

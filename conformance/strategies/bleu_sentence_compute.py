"""Generated cases for bleu-sentence-compute: the one-segment BLEU families under every smoothing
method x effective_order x decimals, and the options' rules (smoothing required, one of four names;
effective_order a boolean)."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies import bleu, bleu_sentence
from conformance.strategies.base import EXPECT_OUTPUT, Family, case, input_schema

METHODS = ("none", "chen-cherry-1", "chen-cherry-2", "chen-cherry-3")
OPTIONS = st.fixed_dictionaries({
    "max_order": bleu.MAX_ORDERS,
    "smoothing": st.sampled_from(METHODS),
    "effective_order": st.one_of(st.none(), st.booleans()),
    "decimals": st.one_of(st.none(), st.integers(0, 15)),
})


def every_combination() -> st.SearchStrategy:
    """Each smoothing x effective_order x decimals on hypotheses shorter and longer than max_order."""

    @st.composite
    def build(draw):
        hypothesis, references, how = draw(bleu.derived_segment())
        options = {"smoothing": draw(st.sampled_from(METHODS)), "effective_order": draw(st.booleans()),
                   "decimals": draw(st.sampled_from((None, 0, 1, 6, 15))), "max_order": draw(st.integers(1, 8))}
        payload = bleu_sentence.with_options(hypothesis, references, options)
        return case(payload, EXPECT_OUTPUT, f"{options}; the hypothesis {how}")

    return build()


BAD_SMOOTHING = bleu.bad_option("smoothing", ("floor", "add-k", "exp", "method1", "Chen-Cherry-1", "chen-cherry-4",
                                              "", None, 1, True, ["none"]))
BAD_EFFECTIVE_ORDER = bleu.bad_option("effective_order", (1, 0, "true", "false", None, [True]))
BAD_DECIMALS = bleu.bad_option("decimals", (-1, 16, 100, 2.5, "6", True, None, [6]))


def families(tool_id: str, version: str) -> list[Family]:
    required = tuple(input_schema(tool_id, version)["required"])  # smoothing is required
    return [
        *bleu_sentence.valid_families(OPTIONS),
        Family("valid/every-combination", "valid", every_combination(),
               "each smoothing method x effective_order x decimals x max_order"),
        *bleu_sentence.boundary_families(tool_id, version, OPTIONS),
        *bleu_sentence.invalid_families(tool_id, version, OPTIONS, (BAD_SMOOTHING, BAD_EFFECTIVE_ORDER, BAD_DECIMALS),
                                        required),
    ]

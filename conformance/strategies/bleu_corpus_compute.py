"""Generated cases for bleu-corpus-compute: the shared BLEU families, every decimals
value and the brevity penalty's cases."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies import aiming, bleu, magnitudes
from conformance.strategies.aiming import option
from conformance.strategies.base import EXPECT_OUTPUT, Family, case, composite

OPTIONS = st.fixed_dictionaries({"max_order": bleu.MAX_ORDERS, "decimals": st.one_of(st.none(), st.integers(0, 15))})


def decimals_family(values: st.SearchStrategy[int]) -> st.SearchStrategy:
    @composite
    def build(draw):
        hypothesis, references, how = draw(bleu.derived_segment())
        decimals = draw(values)
        # a second segment of known matches keeps the score away from 0 most of the time
        payload = {
            "hypotheses": [hypothesis, ["the", "cat", "sat", "on", "the", "mat"]],
            "references": [references, [["the", "cat", "sat", "on", "a", "mat", "."]]],
            "max_order": draw(st.one_of(st.none(), st.integers(1, 4))),
            "decimals": decimals,
        }
        if payload["max_order"] is None:
            del payload["max_order"]
        return case(payload, EXPECT_OUTPUT, f"decimals {decimals}; the first hypothesis {how}")

    return build()


def _brevity_below_one(generated) -> bool:
    """c < r over the two segments (the second has c = 6, r = 7)."""
    hypothesis, references = generated.input["hypotheses"][0], generated.input["references"][0]
    closest = min((len(r) for r in references), key=lambda n: (abs(n - len(hypothesis)), n))
    return len(hypothesis) + 6 < closest + 7


BAD_DECIMALS = bleu.bad_option("decimals", (-1, 16, 100, 2.5, "6", True, None, [6]))


def families(tool_id: str, version: str) -> list[Family]:
    return aiming.with_aims(
        [
            *bleu.valid_families(OPTIONS),
            Family(
                "valid/every-decimals",
                "valid",
                decimals_family(st.integers(0, 15)),
                "each decimals value 0..15 on scores with a brevity penalty",
            ),
            *bleu.boundary_families(tool_id, version, OPTIONS, OPTIONS),
            Family("boundary/decimals", "boundary", decimals_family(st.sampled_from((0, 15))), "decimals 0 and 15"),
            *bleu.invalid_families(tool_id, version, OPTIONS, (BAD_DECIMALS,)),
            *representation_families(tool_id, version),
        ],
        {
            "valid/every-decimals": {
                "decimals 0": option("decimals", 0),
                "decimals 15": option("decimals", 15),
                "decimals 1 to 14": lambda g: g.input["decimals"] in range(1, 15),
                "a brevity penalty below 1 (c < r)": _brevity_below_one,
            },
            "boundary/decimals": {"decimals 0": option("decimals", 0), "decimals 15": option("decimals", 15)},
        },
    )


def representation_families(tool_id: str, version: str) -> list[Family]:
    """Inputs crossing representation boundaries: widths, derived keys, special names, magnitudes."""
    return [
        *bleu.representation_families(tool_id, version, OPTIONS, {"decimals": 15}, ({"max_order": 8}, {})),
        magnitudes.bleu_magnitudes(OPTIONS),
    ]

"""The cross-check's side of this tool: its generated inputs (``INPUTS``), the conditions on an input that
the libraries' divergence entries share, and the agreements several libraries were checked on. Each library's
calls, checks and divergences live in its own module, conformance/implementations/.
"""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.crosscheck.model import Agreement
from conformance.strategies.base import composite

MAX_LENGTH = 1048576  # "every length at most 1048576"


@composite
def length_inputs(draw) -> dict:
    """1-5 segments of 1-8 reference lengths; a candidate length drawn freely, equal to one of its references'
    (c_i = r_i), or one off one (a tie between two references when both neighbours are there).

    Lengths are 0-8 (so c = 0, r = 0, c = r and ties are frequent), in one input in ten 0-1048576.
    decimals is left out: it is the contract's own rounding (toFixed), which neither library has.
    """
    length = st.integers(0, MAX_LENGTH) if draw(st.integers(0, 9)) == 9 else st.integers(0, 8)
    segments = draw(st.integers(1, 5))
    reference_lengths = [draw(st.lists(length, min_size=1, max_size=8)) for _ in range(segments)]
    candidate_lengths = []
    for lengths in reference_lengths:
        shape = draw(st.sampled_from(("free", "equal", "one off")))
        if shape == "free":
            candidate_lengths.append(draw(length))
        else:
            nearest = draw(st.sampled_from(lengths)) + (draw(st.sampled_from((-1, 1))) if shape == "one off" else 0)
            candidate_lengths.append(min(max(nearest, 0), MAX_LENGTH))
    return {"candidate_lengths": candidate_lengths, "reference_lengths": reference_lengths}


INPUTS = length_inputs()


def zero_candidate_and_reference_length(payload: dict) -> bool:
    """c = 0 and r = 0: every candidate length is 0 and every segment has a reference length 0 (the closest)."""
    return all(c == 0 for c in payload["candidate_lengths"]) and all(
        0 in lengths for lengths in payload["reference_lengths"]
    )


AGREEMENTS = [
    Agreement(
        "closest length from lengths",
        "sacreBLEU's _get_closest_ref_len and NLTK's closest_ref_length pick the contract's length per "
        "segment (ties to the shorter, 0 competing like any other, lengths up to 1048576)",
        ("sacrebleu/closest_ref_len+bp", "nltk/closest_ref_length+brevity_penalty:lengths"),
    ),
    Agreement(
        "brevity penalty formula",
        "both compute exp(1 - r/c) as one double division and one exp, as the oracle does: the values are "
        "identical, not merely close; c = r > 0 gives 1 on every side, and NLTK's brevity_penalty gives 0 "
        "for c = 0 whatever r",
        ("sacrebleu/closest_ref_len+bp", "nltk/closest_ref_length+brevity_penalty:lengths"),
    ),
]

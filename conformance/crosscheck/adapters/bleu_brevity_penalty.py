"""Cross-checks of bleu-brevity-penalty: sacreBLEU's closest length and compute_bleu's brevity penalty, NLTK's
closest_ref_length and brevity_penalty, from lengths alone."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.crosscheck.adapters.bleu import library_answer, sacrebleu_bleu
from conformance.crosscheck.comparison import Comparison
from conformance.crosscheck.model import Agreement, Check, Divergence
from conformance.strategies.base import composite
from oracle.bleu_statistics import DEFAULT_MAX_ORDER

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


def sacrebleu_lengths_and_bp(payload: dict) -> tuple[list[int], int, int, float]:
    """BLEU._get_closest_ref_len(c_i, lengths) per segment, c, r, and BLEU.compute_bleu(...).bp of the sums.

    compute_bleu computes the brevity penalty from sys_len and ref_len before anything else; it is given
    zero counts (its early return keeps that bp). Lengths go in as Python ints: a length written 4.0 is
    the integer 4 (it formats them with :d, which a float fails).
    """
    from sacrebleu.metrics import BLEU

    metric = sacrebleu_bleu(DEFAULT_MAX_ORDER, "none", False)
    candidates = [int(c) for c in payload["candidate_lengths"]]
    closest = [
        metric._get_closest_ref_len(c, [int(n) for n in lengths])
        for c, lengths in zip(candidates, payload["reference_lengths"])
    ]
    c, r = sum(candidates), sum(closest)
    zeros = [0] * DEFAULT_MAX_ORDER
    return closest, c, r, BLEU.compute_bleu(list(zeros), list(zeros), c, r).bp


@library_answer
def sacrebleu_bp_output(payload: dict) -> dict:
    """sacreBLEU's brevity penalty of the summed lengths, as a partial output."""
    return {"brevity_penalty": sacrebleu_lengths_and_bp(payload)[3]}


def sacrebleu_brevity_penalty(payload: dict, expected: dict) -> Comparison:
    """BLEU._get_closest_ref_len(c_i, lengths) per segment, summed, and BLEU.compute_bleu(...).bp of the sums."""
    closest, c, r, bp = sacrebleu_lengths_and_bp(payload)
    comparison = Comparison()
    comparison.exact("closest_reference_lengths", expected["closest_reference_lengths"], closest)
    comparison.exact("candidate_length", expected["candidate_length"], c)
    comparison.exact("reference_length", expected["reference_length"], r)
    comparison.close("brevity_penalty", expected["brevity_penalty"], bp)
    return comparison


def nltk_brevity_penalty(payload: dict, expected: dict) -> Comparison:
    """closest_ref_length(references, c_i) per segment, summed, and brevity_penalty(r, c).

    closest_ref_length reads only len() of each reference: a reference of length n is given as range(n).
    """
    from nltk.translate.bleu_score import brevity_penalty, closest_ref_length

    closest = [
        closest_ref_length([range(n) for n in lengths], c)
        for c, lengths in zip(payload["candidate_lengths"], payload["reference_lengths"])
    ]
    c, r = sum(payload["candidate_lengths"]), sum(closest)
    comparison = Comparison()
    comparison.exact("closest_reference_lengths", expected["closest_reference_lengths"], closest)
    comparison.exact("candidate_length", expected["candidate_length"], c)
    comparison.exact("reference_length", expected["reference_length"], r)
    comparison.close("brevity_penalty", expected["brevity_penalty"], brevity_penalty(r, c))
    return comparison


def zero_candidate_and_reference_length(payload: dict) -> bool:
    """c = 0 and r = 0: every candidate length is 0 and every segment has a reference length 0 (the closest)."""
    return all(c == 0 for c in payload["candidate_lengths"]) and all(
        0 in lengths for lengths in payload["reference_lengths"]
    )


CHECKS = [
    Check(
        "sacrebleu/closest_ref_len+bp",
        "sacrebleu",
        "BLEU._get_closest_ref_len(c_i, lengths) per segment; BLEU.compute_bleu(zeros, zeros, c, r).bp",
        sacrebleu_brevity_penalty,
    ),
    Check(
        "nltk/closest_ref_length+brevity_penalty:lengths",
        "nltk",
        "nltk.translate.bleu_score.closest_ref_length([range(n) for n in lengths], c_i) per segment; "
        "brevity_penalty(r, c)",
        nltk_brevity_penalty,
    ),
]

DIVERGENCES = [
    Divergence(
        id="sacrebleu-bp-zero-lengths",
        libraries=("sacrebleu",),
        checks=("sacrebleu/closest_ref_len+bp",),
        fields=("brevity_penalty",),
        what_differs="brevity penalty when c = r = 0: 1 instead of 0",
        mechanism="BLEU.compute_bleu sets bp = 1.0 and replaces it (by exp(1 - r/c), or 0.0 when sys_len is 0) "
        "only when sys_len < ref_len, so sys_len = ref_len = 0 keeps 1.0",
        clause="brevity_penalty is 1 when c > r, 0 when c = 0 (even if r = 0)",
        applies=zero_candidate_and_reference_length,
        library_output=sacrebleu_bp_output,
    ),
]

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

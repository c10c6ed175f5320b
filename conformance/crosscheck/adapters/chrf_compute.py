"""The cross-check's side of this tool: its generated inputs (``INPUTS``), the conditions on an input that
the libraries' divergence entries share, and the agreements several libraries were checked on. Each library's
calls, checks and divergences live in its own module, conformance/implementations/.
"""

from __future__ import annotations

from fractions import Fraction

from conformance.crosscheck.adapters import chrf as chrf_adapters
from conformance.crosscheck.adapters.chrf import (
    related_chrf_inputs,
    segment_order_missing_from_reference,
)
from conformance.crosscheck.model import Agreement
from oracle.chrf_compute import CHAR_ORDER, TOOL, WORD_ORDER

INPUTS = related_chrf_inputs()


def exact_segment_score(hypothesis: str, reference: str, payload: dict) -> Fraction:
    return chrf_adapters.exact_segment_score(TOOL, hypothesis, reference, payload)


def orders_missing_from_a_reference(payload: dict) -> bool:
    """Open point A4: a segment's reference lacks an order its hypothesis has, another segment's reference has it."""
    return segment_order_missing_from_reference(payload, CHAR_ORDER, WORD_ORDER)


AGREEMENTS = [
    Agreement(
        "chrF (char_order 6, word_order 0)",
        "sacreBLEU's CHRF() defaults are the contract's: six character orders, no word n-grams, whitespace "
        "removed with str.split() (exactly the contract's list), effective orders; segment scores agree on "
        "every input, the corpus score wherever no segment's reference lacks an order its hypothesis has",
        ("sacrebleu/chrf:chrf6",),
    ),
    Agreement(
        "chrF per-order statistics (NLTK)",
        "chrf_precision_recall_fscore_support's true positives are the contract's clipped matches (Counter "
        "intersection is min of counts) and its P and R the contract's per order; where every order matched, "
        "the contract's formula on NLTK's P and R is the tool's segment score",
        ("nltk/chrf_statistics:chrf6",),
    ),
    Agreement(
        "chrF sentence scores (fastchrf)",
        "pairwise_chrf without epsilon smoothing averages P and R over the effective orders, then takes "
        "F-beta: each segment's score is the contract's within 1e-9 wherever no text holds U+001C-U+001F",
        ("fastchrf/pairwise_chrf:chrf6",),
    ),
]

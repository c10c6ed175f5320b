"""The cross-check's side of this tool: its generated inputs (``INPUTS``), the conditions on an input that
the libraries' divergence entries share, and the agreements several libraries were checked on. Each library's
calls, checks and divergences live in its own module, conformance/implementations/.
"""

from __future__ import annotations

from fractions import Fraction

from conformance.crosscheck.adapters import chrf as chrf_adapters
from conformance.crosscheck.adapters.chrf import (
    chrf_inputs,
    segment_order_missing_from_reference,
)
from conformance.crosscheck.model import Agreement
from oracle.chrf_plus_plus_compute import CHAR_ORDER, TOOL, WORD_ORDER

INPUTS = chrf_inputs()


def exact_segment_score(hypothesis: str, reference: str, payload: dict) -> Fraction:
    return chrf_adapters.exact_segment_score(TOOL, hypothesis, reference, payload)


def orders_missing_from_a_reference(payload: dict) -> bool:
    """Open point A4: a segment's reference lacks an order its hypothesis has, another segment has it."""
    return segment_order_missing_from_reference(payload, CHAR_ORDER, WORD_ORDER)


AGREEMENTS = [
    Agreement(
        "chrF++ whitespace set",
        "sacreBLEU removes and splits on str.split()'s whitespace, which in Python 3 is exactly the "
        "contract's list (U+0009-U+000D, U+001C-U+001F, U+0020, U+0085, U+00A0, U+1680, U+2000-U+200A, "
        "U+2028, U+2029, U+202F, U+205F, U+3000; tests/test_sacrebleu_agreement.py proves it over every code "
        "point); U+200B and U+FEFF are kept by both",
        ("sacrebleu/chrf++",),
    ),
    Agreement(
        "chrF++ punctuation splitting",
        "CHRF._remove_punctuation is the contract's rule: one ASCII mark at most per word, a one-code-point "
        "word kept, U+00BF never split",
        ("sacrebleu/chrf++",),
    ),
    Agreement(
        "chrF++ case mapping",
        "sacreBLEU's lowercase is Python's str.lower, the oracle's mapping (final sigma included); it can "
        "differ from the contract's toLowerCase only where Unicode versions differ (open point A5), which "
        "the generated inputs avoid",
        ("sacrebleu/chrf++",),
    ),
    Agreement(
        "chrF++ orders absent from one side",
        "sacreBLEU averages P and R only over orders both sides have (effective order), as the contract "
        "does: segment scores agree on every input; only the corpus sum differs "
        "(sacrebleu-chrf-drops-unmatched-orders)",
        ("sacrebleu/chrf++",),
    ),
    Agreement(
        "multiple references (chrF++)",
        "sacreBLEU's CHRF scores each segment against its best-F reference; the contract takes exactly one "
        "reference per segment, so no contract input exercises it (out of scope, not a divergence)",
        (),
    ),
]

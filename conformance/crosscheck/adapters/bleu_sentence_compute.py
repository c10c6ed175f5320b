"""The cross-check's side of this tool: its generated inputs (``INPUTS``), the conditions on an input that
the libraries' divergence entries share, and the agreements several libraries were checked on. Each library's
calls, checks and divergences live in its own module, conformance/implementations/.
"""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.crosscheck.adapters.bleu import (
    max_order,
    sentence_inputs,
    sentence_statistics,
)
from conformance.crosscheck.model import Agreement
from oracle.bleu_score import SMOOTHING_METHODS

# every smoothing with effective_order true, false and omitted
INPUTS = sentence_inputs(smoothing=st.sampled_from(SMOOTHING_METHODS), effective_order=st.none() | st.booleans())


def effective_order(payload: dict) -> bool:
    return bool(payload.get("effective_order", False))  # "(omitted means false)"


# --- conditions ---------------------------------------------------------------------------


def unigrams_matched(payload: dict) -> bool:
    return sentence_statistics(payload).matches[0] > 0


def add_k_past_the_early_return(payload: dict) -> bool:
    """smoothing chen-cherry-2 (add-k), max_order >= 2 and some unigram matched (compute_bleu does not return
    early), so add-k changes the counts of orders 2..N."""
    return payload["smoothing"] == "chen-cherry-2" and max_order(payload) >= 2 and unigrams_matched(payload)


def floor_or_exp_on_a_missing_order(payload: dict) -> bool:
    """smoothing chen-cherry-1 or chen-cherry-3, a hypothesis shorter than max_order, and some unigram matched
    (else both sides score 0): an order has l_n = 0."""
    return (
        payload["smoothing"] in ("chen-cherry-1", "chen-cherry-3")
        and len(payload["hypothesis"]) < max_order(payload)
        and unigrams_matched(payload)
    )


def add_one_on_a_missing_order(payload: dict) -> bool:
    """smoothing chen-cherry-2, a hypothesis shorter than max_order, and some unigram matched: an order n >= 2
    has l_n = 0."""
    return (
        payload["smoothing"] == "chen-cherry-2"
        and len(payload["hypothesis"]) < max_order(payload)
        and unigrams_matched(payload)
    )


def unsmoothed_zero_precision(payload: dict) -> bool:
    """smoothing none, some unigram matched and some order n <= max_order with m_n = 0 (l_n = 0 included)."""
    return payload["smoothing"] == "none" and unigrams_matched(payload) and 0 in sentence_statistics(payload).matches


SACREBLEU_CHECKS = ("sacrebleu/compute_bleu:smoothed", "sacrebleu/sentence_score:smoothed")

AGREEMENTS = [
    Agreement(
        "no unigram matched (sentence)",
        "compute_bleu returns score 0 early when no count is positive (before any smoothing, with its real "
        "brevity penalty and the raw counts) and NLTK returns 0 when p_1's numerator is 0: the contract's "
        "'exactly 0 when c = 0, when m_1 = 0' for every smoothing",
        (*SACREBLEU_CHECKS, "nltk/sentence_bleu:smoothed"),
    ),
    Agreement(
        "NIST geometric sequence (chen-cherry-3)",
        "sacreBLEU's smooth_mteval (doubled before use, from 1) and NLTK's incvnt (from 1) give the first "
        "zero-match order 1 / (2 l_n), the next 1 / (4 l_n), then 1 / (8 l_n): the contract's k = 1, 2, 3, "
        "whichever order the matches stop at",
        (*SACREBLEU_CHECKS, "nltk/sentence_bleu:smoothed"),
    ),
    Agreement(
        "effective order (sacreBLEU)",
        "compute_bleu(effective_order=True) stops at the first order with total 0 and averages over the "
        "orders before it, the contract's N' = min(max_order, c); under add-k the totals of orders >= 2 "
        "are l_n + 1 > 0, so every order is used (N' = max_order), as the contract says",
        SACREBLEU_CHECKS,
    ),
    Agreement(
        "hypothesis shorter than max_order, effective_order false (sacreBLEU)",
        "compute_bleu's loop stops at the first total 0 and leaves the remaining precisions 0.0, which "
        "my_log maps to -9999999999: the score is exactly 0.0, the contract's 0, for every smoothing but "
        "add-k (whose totals are never 0 there, and whose scores agree)",
        SACREBLEU_CHECKS,
    ),
    Agreement(
        "floor and add-k values",
        "sacreBLEU's 100 * 0.1 / l_n (floor, smooth_value 0.1) and (m_n + 1) / (l_n + 1) (add-k, k = 1), "
        "NLTK's (0 + 0.1) / l_n (method1) and Fraction(m_n + 1, l_n + 1) (method2, l_n > 0) are the "
        "contract's p_n: scores agree within 1e-9 relative wherever every order has n-grams",
        (*SACREBLEU_CHECKS, "nltk/sentence_bleu:smoothed"),
    ),
]

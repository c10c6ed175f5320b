"""pytorch-ignite (Python on PyTorch, PyPI ``pytorch-ignite``, extra ``.[ignite]``; needs torch, which is not
installed by default): ``ignite.metrics.nlp.Bleu(ngram, smooth, average)``, fed with ``update((candidates,
references))`` and read with ``compute()``.

It takes token lists (any tokens, compared exactly) and gives the score only: a partial answer of
bleu-corpus-compute (``average="micro"``: NLTK's corpus_bleu, counts summed over the segments) and of
bleu-sentence-compute (one segment, the default ``average="macro"``). Its smoothings map to the contract's
where the definitions are the same: ``no_smooth`` is "none", ``smooth1`` (epsilon 0.1 over the order's
n-gram count) "chen-cherry-1", ``smooth2`` ((m_n + 1) / (l_n + 1) for n >= 2) "chen-cherry-2";
``nltk_smooth2`` is not (it divides by max(1, l_n), so an order without n-grams gets 1/2 where the contract
has 1), and it has no chen-cherry-3 nor an effective order.

Where it departs: ``smooth1`` divides by max(1, l_n), so an order the hypothesis is too short for counts
0.1 / 1 where the contract's score is 0 (missing-order-denominator-one); and the macro average counts into
float32 tensors, where ``no_smooth`` divides the float m_n by the float32 tensor l_n, which torch computes as
m_n times the float32 reciprocal of l_n, rounded to float32 (single-precision-reciprocal-precisions: 6/7 gives
0.8571429252624512, not the nearest float32 0.8571428656578064; the micro average counts in float64).
``decimals`` rounds its float with toFixed (``implementations.rounded``). No chrF.
"""

from __future__ import annotations

from typing import Any

from conformance.crosscheck.adapters.bleu import max_order
from conformance.implementations import Implementation, NotApplicable, Partial, rounded
from conformance.implementations._shared import no_chrf, no_effective_order

IMPLEMENTATION = Implementation(
    name="pytorch-ignite",
    language="Python (PyTorch)",
    distribution="pytorch-ignite",
    requires=("ignite", "torch"),
    counterpart="m = ignite.metrics.nlp.Bleu(ngram=N, smooth=S, average='macro'|'micro'); "
    "m.update((candidates, references)); m.compute()",
    extra="ignite",
    install="pip install '.[ignite]' (it brings torch: install the CPU wheel of torch first to avoid a CUDA build)",
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = ("missing-order-denominator-one", "single-precision-reciprocal-precisions")

NOT_EXPRESSIBLE_OTHERWISE = "ignite's Bleu.compute() returns the score only: no counts, totals or lengths"
NOT_EXPRESSIBLE = no_chrf("pytorch-ignite")

# the contract's smoothing -> Bleu's smooth, where the two definitions are the same
SMOOTH = {"none": "no_smooth", "chen-cherry-1": "smooth1", "chen-cherry-2": "smooth2"}


def score(hypotheses: list, references: list, n: int, smooth: str, average: str) -> float:
    """Bleu(ngram=n, smooth=smooth, average=average), one update with every segment, compute() as a float (a
    tensor for the macro average, a float or the int 0 for the micro one)."""
    from ignite.metrics.nlp import Bleu

    metric = Bleu(ngram=n, smooth=smooth, average=average)
    metric.update((hypotheses, references))
    value: Any = metric.compute()  # Tensor | float: Any where ignite is absent too (typed where installed)
    return float(value)


def bleu_corpus_compute(payload: dict) -> Partial:
    bleu = score(payload["hypotheses"], payload["references"], max_order(payload), "no_smooth", "micro")
    return Partial({"bleu": rounded(payload, bleu)})


def bleu_sentence_compute(payload: dict) -> Partial:
    if payload["smoothing"] not in SMOOTH:
        raise NotApplicable("smoothing chen-cherry-3: ignite's Bleu has no NIST geometric smoothing")
    no_effective_order(payload, "ignite's Bleu")
    bleu = score(
        [payload["hypothesis"]], [payload["references"]], max_order(payload), SMOOTH[payload["smoothing"]], "macro"
    )
    return Partial({"bleu": rounded(payload, bleu)})


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------


def bleu_call(payload: dict) -> str:
    from conformance.implementations._calls import literal, python

    if "hypothesis" in payload:
        hypotheses, references = [payload["hypothesis"]], [payload["references"]]
        smooth, average = SMOOTH.get(payload["smoothing"], "no_smooth"), "macro"
    else:
        hypotheses, references = payload["hypotheses"], payload["references"]
        smooth, average = "no_smooth", "micro"
    return python(
        ["from ignite.metrics.nlp import Bleu"],
        [
            f"candidates = {literal(hypotheses)}",
            f"references = {literal(references)}",
            f"metric = Bleu(ngram={max_order(payload)}, smooth={literal(smooth)}, average={literal(average)})",
            "metric.update((candidates, references))",
        ],
        '{"bleu": float(metric.compute())}',
    )


CALLS = {"bleu_corpus_compute": bleu_call, "bleu_sentence_compute": bleu_call}

"""torchmetrics (Python on PyTorch, PyPI ``torchmetrics``, extra ``.[torchmetrics]``; needs torch, which is
not installed by default: a CUDA build of several GB). ``torchmetrics.functional.text.bleu_score`` and
``chrf_score`` return tensors in torch's default dtype (float32): the adapter reads them with ``.item()`` and
adds no arithmetic of its own, so the matrix shows what a user gets.

``bleu_score(preds, target, n_gram, smooth)`` takes strings and splits them with ``str.split()``: the tokens
are joined with spaces (a token holding whitespace is not applicable). It gives the score only: a partial
answer of bleu-corpus-compute and bleu-sentence-compute (one segment) holding ``bleu``; ``smooth`` (add one
to orders n >= 2, Lin and Och) is the contract's chen-cherry-2, no smoothing "none"; it has no effective
order. ``chrf_score(preds, target, n_char_order, n_word_order, beta, lowercase, whitespace,
return_sentence_level_score=True)`` gives the corpus and sentence scores on 0..1: partial answers of
chrf-compute, chrf-plus-plus-compute and chrf-components (each segment's ``score``).
"""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import TORCHMETRICS_SMOOTH, max_order, torchmetrics_bleu, whitespace_token
from conformance.crosscheck.adapters.chrf import torchmetrics_chrf
from conformance.implementations import Implementation, LibraryFloat, NotApplicable, Partial, rounded

IMPLEMENTATION = Implementation(
    name="torchmetrics",
    language="Python (PyTorch)",
    distribution="torchmetrics",
    requires=("torchmetrics", "torch"),
    counterpart="torchmetrics.functional.text.bleu_score(preds, target, n_gram, smooth) / "
    "chrf_score(preds, target, n_char_order, n_word_order, beta, lowercase, "
    "whitespace, return_sentence_level_score=True)",
)

NOT_EXPRESSIBLE_OTHERWISE = "torchmetrics' bleu_score returns the score only: no counts, totals or lengths"


def splittable(payload: dict) -> None:
    path = whitespace_token(payload)
    if path:
        raise NotApplicable("a token holds whitespace: torchmetrics splits each segment with str.split()", path)


def bleu_corpus_compute(payload: dict) -> Partial:
    splittable(payload)
    bleu = torchmetrics_bleu(payload["hypotheses"], payload["references"], max_order(payload), False)
    return Partial({"bleu": rounded(payload, bleu)})


def bleu_sentence_compute(payload: dict) -> Partial:
    if payload["smoothing"] not in TORCHMETRICS_SMOOTH:
        raise NotApplicable(
            "smoothing chen-cherry-1 or chen-cherry-3: torchmetrics' smooth is add-one (chen-cherry-2) or none"
        )
    if payload.get("effective_order", False):
        raise NotApplicable("effective_order true: torchmetrics has no effective order")
    splittable(payload)
    bleu = torchmetrics_bleu(
        [payload["hypothesis"]], [payload["references"]], max_order(payload), TORCHMETRICS_SMOOTH[payload["smoothing"]]
    )
    return Partial({"bleu": rounded(payload, bleu)})


def chrf_partial(payload: dict, char_order: int, word_order: int, whitespace: bool, segments_key: str) -> Partial:
    if char_order < 1:
        raise NotApplicable("char_order 0: torchmetrics' chrf_score takes n_char_order >= 1")
    score, segments = torchmetrics_chrf(payload, char_order, word_order, whitespace)
    floats = [LibraryFloat(s, scale=1) for s in segments]
    per_segment = (
        floats if segments_key == "segment_scores" else [{"segment": i, "score": s} for i, s in enumerate(floats)]
    )
    return Partial({"score": LibraryFloat(score, scale=1), segments_key: per_segment})


def chrf_compute(payload: dict) -> Partial:
    return chrf_partial(payload, 6, 0, False, "segment_scores")


def chrf_plus_plus_compute(payload: dict) -> Partial:
    return chrf_partial(payload, 6, 2, False, "segment_scores")


def chrf_components(payload: dict) -> Partial:
    from oracle.chrf_components import orders

    char_order, word_order = orders(payload)
    return chrf_partial(payload, char_order, word_order, payload.get("whitespace", False), "segments")

"""pycocoevalcap (Python, PyPI ``pycocoevalcap``, extra ``.[pycocoevalcap]``): the image-captioning BLEU,
``Bleu(n).compute_score(gts, res)`` with ``gts`` id -> list of reference strings and ``res`` id -> a list
holding the one hypothesis string.

It splits each string on whitespace (``str.split()``) and counts clipped n-grams as the contract does; the
reference length is the closest one, ties going to the shorter (``min((abs(l - c), l))``, its default
option "closest"), summed over the segments. It returns BLEU-1..BLEU-n of the corpus (the counts summed,
then divided) and the same per segment: the corpus score is a partial answer of bleu-corpus-compute, a
segment's score (one segment, smoothing "none", no effective order) of bleu-sentence-compute. Only the score:
no counts or lengths. An input is expressible where joining each segment's tokens with single spaces and
splitting gives them back (no token holding whitespace).

Where it departs: every ratio is offset against a division by zero (ratio-epsilons): each precision is
(m_n + 1e-15) / (l_n + 1e-9) and the length ratio (c + 1e-15) / (r + 1e-9), so an order without a match
gives a small positive score where the contract's is 0 (about 1.26e-4 for "a b c d" against "a b d c"), and a
perfect match scores slightly below 1 (0.99999999923 for four tokens). And it counts n-grams up to order 4
whatever n (``cook_test`` and ``cook_refs`` are called with their default n=4): Bleu(n) for n above 4 raises
IndexError (ngram-counts-fixed-at-order-four), which is its answer to a max_order of 5 to 8. ``decimals``
rounds its float with toFixed (``implementations.rounded``). No chrF.
"""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import max_order
from conformance.implementations import Implementation, NotApplicable, Partial, rounded
from conformance.implementations._shared import no_chrf, no_effective_order

IMPLEMENTATION = Implementation(
    name="pycocoevalcap",
    language="Python",
    distribution="pycocoevalcap",
    requires=("pycocoevalcap",),
    counterpart="pycocoevalcap.bleu.bleu.Bleu(n).compute_score(gts, res)",
    extra="pycocoevalcap",
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = ("ratio-epsilons", "ngram-counts-fixed-at-order-four")

NOT_EXPRESSIBLE_OTHERWISE = "Bleu.compute_score returns BLEU-1..BLEU-n scores only: no counts, totals or lengths"
NOT_EXPRESSIBLE = no_chrf("pycocoevalcap's Bleu")
WHITESPACE_TOKEN = "a token holding whitespace: pycocoevalcap splits strings on whitespace"


def joined(tokens: list[str]) -> str:
    """A segment as pycocoevalcap takes it; NotApplicable unless splitting it gives the tokens back."""
    text = " ".join(tokens)
    if text.split() != list(tokens):
        raise NotApplicable(WHITESPACE_TOKEN, text[:80])
    return text


def scores(hypotheses: list, references: list, n: int) -> tuple[float, list[float]]:
    """(BLEU-n of the corpus, BLEU-n of each segment), as Bleu(n).compute_score gives them."""
    from pycocoevalcap.bleu.bleu import Bleu

    res = {i: [joined(hypothesis)] for i, hypothesis in enumerate(hypotheses)}
    gts = {i: [joined(reference) for reference in refs] for i, refs in enumerate(references)}
    corpus, per_segment = Bleu(n).compute_score(gts, res, verbose=0)
    return corpus[n - 1], per_segment[n - 1]


def bleu_corpus_compute(payload: dict) -> Partial:
    corpus, _ = scores(payload["hypotheses"], payload["references"], max_order(payload))
    return Partial({"bleu": rounded(payload, corpus)})


def bleu_sentence_compute(payload: dict) -> Partial:
    if payload["smoothing"] != "none":
        raise NotApplicable("smoothing other than none: pycocoevalcap's Bleu has no smoothing method")
    no_effective_order(payload, "pycocoevalcap's Bleu")
    _, per_segment = scores([payload["hypothesis"]], [payload["references"]], max_order(payload))
    return Partial({"bleu": rounded(payload, per_segment[0])})


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------


def compute_call(payload: dict) -> str:
    from conformance.implementations._calls import literal, python

    sentence = "hypothesis" in payload
    hypotheses = [payload["hypothesis"]] if sentence else payload["hypotheses"]
    references = [payload["references"]] if sentence else payload["references"]
    n = max_order(payload)
    return python(
        ["from pycocoevalcap.bleu.bleu import Bleu"],
        [
            f"res = {literal({i: [' '.join(h)] for i, h in enumerate(hypotheses)})}",
            f"gts = {literal({i: [' '.join(r) for r in refs] for i, refs in enumerate(references)})}",
            f"score, scores = Bleu({n}).compute_score(gts, res, verbose=0)",
        ],
        f'{{"bleu": scores[{n - 1}][0]}}' if sentence else f'{{"bleu": score[{n - 1}]}}',
    )


CALLS = {"bleu_corpus_compute": compute_call, "bleu_sentence_compute": compute_call}

"""bleu-mp (Python, PyPI ``bleu-mp``): ``bleu_mp.compute_bleu(pred_corpus, target_corpus, max_order, smooth,
n_worker)``, tensorflow/nmt's ``compute_bleu`` (the code behind Hugging Face evaluate's "bleu" metric) with a
multi-process path; ``n_worker=1`` keeps it in one process, which sums the same counts.

It takes token lists, so every token is expressible, and returns (bleu, precisions as floats, brevity
penalty, length ratio, candidate length, reference length): partial answers of bleu-corpus-compute and of
bleu-sentence-compute (one segment, ``smoothing`` "none": its ``smooth`` adds 1 to every order, p_1
included, which is none of the contract's methods; no effective order). The counts (matches, totals) are
not expressed. ``decimals`` rounds its floats with toFixed (``implementations.rounded``). No chrF.

Where it departs: r sums each segment's shortest reference length, not the closest
(``shortest-reference-length``), and the brevity penalty divides out the ratio c / r, so an empty
candidate or a reference length 0 raises ZeroDivisionError (``length-ratio-division-by-zero``).
"""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import max_order
from conformance.implementations import Implementation, Partial
from conformance.implementations._shared import compute_bleu_sentence, no_chrf, score_and_lengths, segments_of

IMPLEMENTATION = Implementation(
    name="bleu-mp",
    language="Python",
    distribution="bleu-mp",
    requires=("bleu_mp",),
    counterpart="bleu_mp.compute_bleu(hypotheses, references, max_order, smooth=False, n_worker=1)",
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = ("shortest-reference-length", "length-ratio-division-by-zero")

NOT_EXPRESSIBLE_OTHERWISE = (
    "bleu_mp.compute_bleu reports the score, float precisions, brevity penalty, length ratio and two "
    "lengths: no matches or totals, no per-segment lengths"
)
NOT_EXPRESSIBLE = no_chrf("bleu-mp")


def computed(payload: dict, hypotheses: list, references: list) -> Partial:
    from bleu_mp import compute_bleu

    bleu, _precisions, brevity_penalty, _ratio, candidate_length, reference_length = compute_bleu(
        hypotheses, references, max_order=max_order(payload), smooth=False, n_worker=1
    )
    return score_and_lengths(payload, bleu, brevity_penalty, candidate_length, reference_length)


def bleu_corpus_compute(payload: dict) -> Partial:
    return computed(payload, payload["hypotheses"], payload["references"])


def bleu_sentence_compute(payload: dict) -> Partial:
    return computed(payload, *compute_bleu_sentence(payload, "bleu-mp"))


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------


def compute_call(payload: dict) -> str:
    from conformance.implementations._calls import literal, python

    hypotheses, references = segments_of(payload)
    return python(
        ["from bleu_mp import compute_bleu"],
        [
            f"hypotheses = {literal(hypotheses)}",
            f"references = {literal(references)}",
            f"bleu, precisions, bp, ratio, c, r = compute_bleu(hypotheses, references, max_order={max_order(payload)}, "
            "smooth=False, n_worker=1)",
        ],
        '{"bleu": bleu, "brevity_penalty": bp, "candidate_length": c, "reference_length": r}',
    )


CALLS = {"bleu_corpus_compute": compute_call, "bleu_sentence_compute": compute_call}

"""bleuscore (Rust, PyPI ``bleuscore``): ``bleuscore.compute(references, predictions, max_order, smooth,
ref_len_method)``.

Its public API returns the corpus score, the precisions as floats, the brevity penalty and the two
lengths, and tokenizes every text with 13a itself: it takes strings, not tokens. An input is
expressible only where joining each segment's tokens with single spaces and tokenizing with its
own ``tokenizer_13a`` gives back the same tokens (no token holding whitespace or a character 13a
splits off or rewrites). Its answers are partial: bleu, brevity_penalty and the two lengths of
bleu-corpus-compute and of bleu-sentence-compute (one segment, ``smoothing`` "none": its ``smooth``
adds 1 to every order, p_1 included, which is none of the contract's methods); its float precisions
are not the counts (matches, totals), which are not expressed. It has no effective order;
``decimals`` rounds its floats with toFixed (``implementations.rounded``). No chrF.
"""

from __future__ import annotations

from typing import cast

from conformance.crosscheck.adapters.bleu import max_order
from conformance.implementations import Implementation, NotApplicable, Partial
from conformance.implementations._shared import compute_bleu_sentence, no_chrf, score_and_lengths, segments_of

IMPLEMENTATION = Implementation(
    name="bleuscore",
    language="Rust",
    distribution="bleuscore",
    requires=("bleuscore",),
    counterpart="bleuscore.compute(references, predictions, max_order, smooth=False, ref_len_method='closest')",
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = ("brevity-penalty-one-when-both-empty",)

NOT_EXPRESSIBLE_OTHERWISE = (
    "bleuscore.compute reports the score, float precisions, brevity penalty and two "
    "lengths: no matches or totals, no per-segment lengths"
)
NOT_EXPRESSIBLE = no_chrf("bleuscore")
NOT_13A_STABLE = "a token 13a tokenization does not leave unchanged: bleuscore takes strings and tokenizes them itself"


def joined(tokens: list[str]) -> str:
    """A segment as bleuscore takes it; NotApplicable unless its 13a tokenizer gives the tokens back."""
    from bleuscore import tokenizer_13a

    text = " ".join(tokens)
    if tokenizer_13a(text) != list(tokens):
        raise NotApplicable(NOT_13A_STABLE, text[:80])
    return text


def computed(payload: dict, hypotheses: list, references: list) -> Partial:
    import bleuscore

    result = bleuscore.compute(
        [[joined(r) for r in refs] for refs in references],
        [joined(h) for h in hypotheses],
        max_order=max_order(payload),
        smooth=False,
        ref_len_method="closest",
    )
    # bleuscore's stub types every value of the result as float | list[float] | int: the score and the brevity
    # penalty are floats, the lengths ints
    bleu, brevity_penalty = cast(float, result["bleu"]), cast(float, result["brevity_penalty"])
    lengths = cast(int, result["translation_length"]), cast(int, result["reference_length"])
    return score_and_lengths(payload, bleu, brevity_penalty, *lengths)


def bleu_corpus_compute(payload: dict) -> Partial:
    return computed(payload, payload["hypotheses"], payload["references"])


def bleu_sentence_compute(payload: dict) -> Partial:
    return computed(payload, *compute_bleu_sentence(payload, "bleuscore"))


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------


def compute_call(payload: dict) -> str:
    from conformance.implementations._calls import literal, python

    hypotheses, references = segments_of(payload)
    return python(
        ["import bleuscore"],
        [
            f"predictions = {literal([' '.join(h) for h in hypotheses])}",
            f"references = {literal([[' '.join(r) for r in refs] for refs in references])}",
            f"result = bleuscore.compute(references, predictions, max_order={max_order(payload)}, smooth=False, "
            "ref_len_method='closest')",
        ],
        '{"bleu": result["bleu"], "brevity_penalty": result["brevity_penalty"], '
        '"candidate_length": result["translation_length"], "reference_length": result["reference_length"]}',
    )


CALLS = {"bleu_corpus_compute": compute_call, "bleu_sentence_compute": compute_call}

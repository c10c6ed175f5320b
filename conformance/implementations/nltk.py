"""NLTK (Python) through its public API in ``nltk.translate.bleu_score``: ``corpus_bleu`` and
``sentence_bleu`` (uniform weights 1/N, ``SmoothingFunction().method0-3``), ``modified_precision``
(whose numerator and denominator are the counts corpus_bleu sums), ``closest_ref_length`` and
``brevity_penalty``.

NLTK takes token lists, so every token is expressible. It has no effective order and no
per-n-gram table, so those inputs are not applicable; ``decimals`` rounds its floats with toFixed
(``implementations.rounded``).

``nltk.translate.chrf_score.corpus_chrf`` and ``sentence_chrf(reference, hypothesis, min_len=1,
max_len=N, beta, ignore_whitespace)`` give chrF scores on 0..1 (its own definition: F per order
averaged, epsilon smoothing, a macro-averaged corpus score, its own whitespace set; the failure
groups show where that departs from the contracts): partial answers of chrf-compute and
chrf-components (character orders only: it has no word n-grams) holding the scores, the exact
fraction and the statistics not expressed. It has no lowercase option: the texts are lowercased
with the contracts' toLowerCase (str.lower, as the oracle reads it) before it sees them.
"""

from __future__ import annotations

import warnings

from conformance.crosscheck.adapters.bleu import max_order
from conformance.crosscheck.adapters.bleu_sentence_compute import NLTK_SMOOTHING
from conformance.crosscheck.adapters.chrf import cased
from conformance.implementations import Implementation, LibraryFloat, NotApplicable, Partial, rounded

IMPLEMENTATION = Implementation(
    name="nltk",
    language="Python",
    distribution="nltk",
    requires=("nltk",),
    counterpart="nltk.translate.bleu_score.corpus_bleu / sentence_bleu / modified_precision / "
    "closest_ref_length / brevity_penalty",
)

NOT_EXPRESSIBLE = {"chrf_plus_plus_compute": "NLTK's chrf_score has no word n-grams"}


def segment_counts(references: list, hypothesis: list, n: int) -> tuple[list[int], list[int]]:
    """modified_precision's numerator and denominator per order, as corpus_bleu sums them."""
    from nltk.translate.bleu_score import modified_precision

    fractions = [modified_precision(references, hypothesis, order) for order in range(1, n + 1)]
    return [f.numerator for f in fractions], [f.denominator for f in fractions]


def corpus_statistics(payload: dict) -> dict:
    """matches and totals summed over segments, c and r as corpus_bleu sums them (len, closest_ref_length)."""
    from nltk.translate.bleu_score import closest_ref_length

    n = max_order(payload)
    matches, totals, c, r = [0] * n, [0] * n, 0, 0
    for hypothesis, references in zip(payload["hypotheses"], payload["references"]):
        m, t = segment_counts(references, hypothesis, n)
        matches, totals = [a + b for a, b in zip(matches, m)], [a + b for a, b in zip(totals, t)]
        c += len(hypothesis)
        r += closest_ref_length(references, len(hypothesis))
    return {"max_order": n, "matches": matches, "totals": totals, "candidate_length": c, "reference_length": r}


def quietly(function, *args, **kwargs):
    """NLTK warns for each zero precision method0 replaces: silenced, the value is what counts."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def bleu_corpus_compute(payload: dict) -> dict:
    from nltk.translate.bleu_score import brevity_penalty, corpus_bleu

    stats = corpus_statistics(payload)
    n = stats["max_order"]
    bleu = quietly(corpus_bleu, payload["references"], payload["hypotheses"], weights=(1 / n,) * n)
    return {
        "bleu": rounded(payload, bleu),
        "brevity_penalty": rounded(payload, brevity_penalty(stats["reference_length"], stats["candidate_length"])),
        **stats,
    }


def bleu_ngrams_count(payload: dict) -> dict:
    detail = payload.get("detail", "totals")
    if detail == "ngrams":
        raise NotApplicable("detail ngrams: NLTK has no public per-n-gram clipping table")
    n = max_order(payload)
    stats = corpus_statistics(payload)
    output = {"max_order": n, "matches": stats["matches"], "totals": stats["totals"]}
    if detail == "segments":
        output["segments"] = []
        for i, (hypothesis, references) in enumerate(zip(payload["hypotheses"], payload["references"])):
            m, t = segment_counts(references, hypothesis, n)
            output["segments"].append({"segment": i, "candidate_length": len(hypothesis), "matches": m, "totals": t})
    return output


def sentence_statistics(payload: dict) -> dict:
    return corpus_statistics(
        {"hypotheses": [payload["hypothesis"]], "references": [payload["references"]], "max_order": max_order(payload)}
    )


def bleu_sentence_components(payload: dict) -> dict:
    return sentence_statistics(payload)


def bleu_sentence_compute(payload: dict) -> dict:
    from nltk.translate.bleu_score import SmoothingFunction, brevity_penalty, sentence_bleu

    if payload.get("effective_order", False):
        raise NotApplicable("effective_order true: NLTK has no effective order")
    stats = sentence_statistics(payload)
    n = stats["max_order"]
    smoothing = getattr(SmoothingFunction(), NLTK_SMOOTHING[payload["smoothing"]])
    bleu = quietly(
        sentence_bleu, payload["references"], payload["hypothesis"], weights=(1 / n,) * n, smoothing_function=smoothing
    )
    # uniform weights 1/N over all N orders: the orders_used it was given
    return {
        "bleu": rounded(payload, bleu),
        "brevity_penalty": rounded(payload, brevity_penalty(stats["reference_length"], stats["candidate_length"])),
        **stats,
        "orders_used": n,
        "smoothing": payload["smoothing"],
    }


def bleu_brevity_penalty(payload: dict) -> dict:
    """closest_ref_length per segment (it reads only len() of each reference: a range of that length is one)
    and brevity_penalty on the sums, as corpus_bleu does."""
    from nltk.translate.bleu_score import brevity_penalty, closest_ref_length

    closest = [
        closest_ref_length([range(int(length)) for length in lengths], c)  # 4.0 is the integer 4
        for c, lengths in zip(payload["candidate_lengths"], payload["reference_lengths"])
    ]
    c, r = sum(payload["candidate_lengths"]), sum(closest)
    return {
        "brevity_penalty": rounded(payload, brevity_penalty(r, c)),
        "candidate_length": c,
        "reference_length": r,
        "closest_reference_lengths": closest,
    }


# --- chrF: corpus_chrf and sentence_chrf, floats on 0..1 ---------------------------------------------------


def chrf_scores(payload: dict, char_order: int, whitespace: bool = False) -> tuple[LibraryFloat, list[LibraryFloat]]:
    """(corpus_chrf, each segment's sentence_chrf) of the (lowercased where asked) texts, the input's beta."""
    from nltk.translate.chrf_score import corpus_chrf, sentence_chrf

    options = {
        "min_len": 1,
        "max_len": char_order,
        "beta": int(payload.get("beta", 2)),
        "ignore_whitespace": not whitespace,
    }
    hypotheses = [cased(payload, h) for h in payload["hypotheses"]]
    references = [cased(payload, r) for r in payload["references"]]
    return (
        LibraryFloat(corpus_chrf(references, hypotheses, **options), scale=1),
        [LibraryFloat(sentence_chrf(r, h, **options), scale=1) for h, r in zip(hypotheses, references)],
    )


def chrf_compute(payload: dict) -> Partial:
    score, segments = chrf_scores(payload, 6)
    return Partial({"score": score, "segment_scores": segments})


def chrf_components(payload: dict) -> Partial:
    from oracle.chrf_components import orders

    char_order, word_order = orders(payload)
    if word_order:
        raise NotApplicable("word_order above 0: NLTK's chrf_score has no word n-grams")
    score, segments = chrf_scores(payload, char_order, payload.get("whitespace", False))
    return Partial({"score": score, "segments": [{"segment": i, "score": s} for i, s in enumerate(segments)]})

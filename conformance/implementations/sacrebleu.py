"""sacreBLEU (Python) through its public API: ``BLEU(tokenize="none", ...)`` ``corpus_score`` and
``sentence_score``, whose ``BLEUScore`` carries the score (0-100), bp, counts, totals, sys_len and ref_len.

sacreBLEU takes each segment as one string and splits it with ``str.split()``, so the tokens are
joined with single spaces: a token holding whitespace has no faithful conversion. It rounds nothing
the way ``decimals`` asks (toFixed) and does not report the effective order it used, so those inputs
are not applicable. Its CHRF gives a float score: the chrF tools' exact ``score_fraction`` and
six-decimal ``score`` (ties to even) are not its values.
"""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import (max_order, sacrebleu_bleu, sacrebleu_quiet, sacrebleu_segment,
                                                  sacrebleu_streams, whitespace_token)
from conformance.crosscheck.adapters.bleu_sentence_compute import SACREBLEU_SMOOTHING
from conformance.implementations import Implementation, NotApplicable, float_score_only

IMPLEMENTATION = Implementation(
    name="sacrebleu", language="Python", distribution="sacrebleu", requires=("sacrebleu",),
    counterpart="sacrebleu.metrics.BLEU(tokenize='none', smooth_method=..., max_ngram_order=N)"
                ".corpus_score / .sentence_score")

FLOAT_SCORE_ONLY = float_score_only("sacreBLEU's CHRF")
NOT_EXPRESSIBLE = {
    "bleu_brevity_penalty": "no public function takes lengths: BLEU.compute_bleu takes r already chosen, "
                            "and the closest reference lengths are not reported",
    "chrf_compute": FLOAT_SCORE_ONLY,
    "chrf_plus_plus_compute": FLOAT_SCORE_ONLY + "; nor are the word tokens it scored",
    "chrf_components": FLOAT_SCORE_ONLY + "; its statistics have no public accessor",
}


def splittable(payload: dict) -> None:
    """NotApplicable when a token would not survive sacreBLEU's str.split()."""
    path = whitespace_token(payload)
    if path:
        raise NotApplicable("a token holds whitespace: sacreBLEU splits each segment with str.split()", path)


def not_rounding(payload: dict) -> None:
    if "decimals" in payload:
        raise NotApplicable("decimals: sacreBLEU has no toFixed rounding of its scores")


def corpus(payload: dict, smooth_method: str = "none"):
    splittable(payload)
    with sacrebleu_quiet():
        return sacrebleu_bleu(max_order(payload), smooth_method, False).corpus_score(*sacrebleu_streams(payload))


def counts(score, n: int) -> dict:
    return {"max_order": n, "matches": list(score.counts), "totals": list(score.totals)}


def bleu_corpus_compute(payload: dict) -> dict:
    not_rounding(payload)
    score = corpus(payload)
    return {"bleu": score.score / 100, "brevity_penalty": score.bp, "candidate_length": score.sys_len,
            "reference_length": score.ref_len, **counts(score, max_order(payload))}


def bleu_ngrams_count(payload: dict) -> dict:
    detail = payload.get("detail", "totals")
    if detail == "ngrams":
        raise NotApplicable("detail ngrams: sacreBLEU has no public per-n-gram clipping table")
    n = max_order(payload)
    output = counts(corpus(payload), n)
    if detail == "segments":
        output["segments"] = [
            {"segment": i, "candidate_length": score.sys_len, "matches": list(score.counts),
             "totals": list(score.totals)}
            for i, score in enumerate(sentence({"hypothesis": h, "references": refs, "max_order": n}, "none")
                                      for h, refs in zip(payload["hypotheses"], payload["references"]))]
    return output


def sentence(payload: dict, smooth_method: str, smooth_value: float | None = None):
    splittable(payload)
    with sacrebleu_quiet():
        return sacrebleu_bleu(max_order(payload), smooth_method, False, smooth_value).sentence_score(
            *sacrebleu_segment(payload))


def bleu_sentence_components(payload: dict) -> dict:
    score = sentence(payload, "none")
    return {**counts(score, max_order(payload)), "candidate_length": score.sys_len, "reference_length": score.ref_len}


def bleu_sentence_compute(payload: dict) -> dict:
    not_rounding(payload)
    if payload.get("effective_order", False):
        raise NotApplicable("effective_order true: sacreBLEU does not report the effective order it used "
                            "(orders_used)")
    n = max_order(payload)
    score = sentence(payload, *SACREBLEU_SMOOTHING[payload["smoothing"]])
    # effective_order false: sacreBLEU's mean runs over all max_ngram_order orders, the orders_used it was given
    return {"bleu": score.score / 100, "brevity_penalty": score.bp, "candidate_length": score.sys_len,
            "reference_length": score.ref_len, **counts(score, n), "orders_used": n,
            "smoothing": payload["smoothing"]}

"""sacreBLEU (Python) through its public API: ``BLEU(tokenize="none", ...)`` ``corpus_score`` and
``sentence_score``, whose ``BLEUScore`` carries the score (0-100), bp, counts, totals, sys_len and ref_len.

sacreBLEU takes each segment as one string and splits it with ``str.split()``, so the tokens are
joined with single spaces: a token holding whitespace has no faithful conversion. It does not
report the effective order it used, so that input is not applicable. With ``decimals`` its float is
rounded with the contract's toFixed (``implementations.rounded``).

Its ``CHRF(char_order, word_order, beta, lowercase, whitespace)`` gives the chrF tools' scores as
floats on 0..100 (``corpus_score``, and ``sentence_score`` per segment): partial answers holding
``score`` and ``segment_scores`` (chrf-components: each segment's ``score``); the exact ``score_fraction``, the word tokens and the statistics rows
have no public accessor and are not expressed. Its whitespace removal (``str.split()``) is exactly the
contracts' list and its lowercasing (``str.lower``) the oracle's, so no input needs converting.
"""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import (
    max_order,
    sacrebleu_bleu,
    sacrebleu_quiet,
    sacrebleu_segment,
    sacrebleu_streams,
    whitespace_token,
)
from conformance.crosscheck.adapters.bleu_sentence_compute import SACREBLEU_SMOOTHING
from conformance.crosscheck.adapters.chrf import sacrebleu_chrf
from conformance.implementations import Implementation, LibraryFloat, NotApplicable, Partial, rounded

IMPLEMENTATION = Implementation(
    name="sacrebleu",
    language="Python",
    distribution="sacrebleu",
    requires=("sacrebleu",),
    counterpart="sacrebleu.metrics.BLEU(tokenize='none', smooth_method=..., max_ngram_order=N)"
    ".corpus_score / .sentence_score",
)

NOT_EXPRESSIBLE = {
    "bleu_brevity_penalty": "no public function takes lengths: BLEU.compute_bleu takes r already chosen, "
    "and the closest reference lengths are not reported",
}


def splittable(payload: dict) -> None:
    """NotApplicable when a token would not survive sacreBLEU's str.split()."""
    path = whitespace_token(payload)
    if path:
        raise NotApplicable("a token holds whitespace: sacreBLEU splits each segment with str.split()", path)


def corpus(payload: dict, smooth_method: str = "none"):
    splittable(payload)
    with sacrebleu_quiet():
        return sacrebleu_bleu(max_order(payload), smooth_method, False).corpus_score(*sacrebleu_streams(payload))


def counts(score, n: int) -> dict:
    return {"max_order": n, "matches": list(score.counts), "totals": list(score.totals)}


def bleu_corpus_compute(payload: dict) -> dict:
    score = corpus(payload)
    return {
        "bleu": rounded(payload, score.score / 100),
        "brevity_penalty": rounded(payload, score.bp),
        "candidate_length": score.sys_len,
        "reference_length": score.ref_len,
        **counts(score, max_order(payload)),
    }


def bleu_ngrams_count(payload: dict) -> dict:
    detail = payload.get("detail", "totals")
    if detail == "ngrams":
        raise NotApplicable("detail ngrams: sacreBLEU has no public per-n-gram clipping table")
    n = max_order(payload)
    output = counts(corpus(payload), n)
    if detail == "segments":
        output["segments"] = [
            {
                "segment": i,
                "candidate_length": score.sys_len,
                "matches": list(score.counts),
                "totals": list(score.totals),
            }
            for i, score in enumerate(
                sentence({"hypothesis": h, "references": refs, "max_order": n}, "none")
                for h, refs in zip(payload["hypotheses"], payload["references"])
            )
        ]
    return output


def sentence(payload: dict, smooth_method: str, smooth_value: float | None = None):
    splittable(payload)
    with sacrebleu_quiet():
        return sacrebleu_bleu(max_order(payload), smooth_method, False, smooth_value).sentence_score(
            *sacrebleu_segment(payload)
        )


def bleu_sentence_components(payload: dict) -> dict:
    score = sentence(payload, "none")
    return {**counts(score, max_order(payload)), "candidate_length": score.sys_len, "reference_length": score.ref_len}


def bleu_sentence_compute(payload: dict) -> dict:
    if payload.get("effective_order", False):
        raise NotApplicable("effective_order true: sacreBLEU does not report the effective order it used (orders_used)")
    n = max_order(payload)
    score = sentence(payload, *SACREBLEU_SMOOTHING[payload["smoothing"]])
    # effective_order false: sacreBLEU's mean runs over all max_ngram_order orders, the orders_used it was given
    return {
        "bleu": rounded(payload, score.score / 100),
        "brevity_penalty": rounded(payload, score.bp),
        "candidate_length": score.sys_len,
        "reference_length": score.ref_len,
        **counts(score, n),
        "orders_used": n,
        "smoothing": payload["smoothing"],
    }


# --- chrF: CHRF(...).corpus_score and sentence_score, floats on 0..100 ------------------------------------


def chrf_scores(payload: dict, char_order: int, word_order: int, whitespace: bool = False) -> tuple[dict, list]:
    """({"score": the corpus score}, each segment's sentence score), LibraryFloats on 0..100."""
    metric = sacrebleu_chrf(
        char_order, word_order, int(payload.get("beta", 2)), payload.get("lowercase", False), whitespace
    )
    hypotheses, references = payload["hypotheses"], payload["references"]
    corpus_score = metric.corpus_score(hypotheses, [references])
    return {"score": LibraryFloat(corpus_score.score)}, [
        LibraryFloat(metric.sentence_score(h, [r]).score) for h, r in zip(hypotheses, references)
    ]


def chrf_compute(payload: dict) -> Partial:
    fields, segments = chrf_scores(payload, 6, 0)
    return Partial({**fields, "segment_scores": segments})


def chrf_plus_plus_compute(payload: dict) -> Partial:
    fields, segments = chrf_scores(payload, 6, 2)
    return Partial({**fields, "segment_scores": segments})


def chrf_components(payload: dict) -> Partial:
    from oracle.chrf_components import orders

    char_order, word_order = orders(payload)
    whitespace = payload.get("whitespace", False)
    fields, segments = chrf_scores(payload, char_order, word_order, whitespace)
    return Partial({**fields, "segments": [{"segment": i, "score": score} for i, score in enumerate(segments)]})

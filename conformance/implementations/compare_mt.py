"""compare-mt (Python, PyPI ``compare-mt``) through the scorers of ``compare_mt.scorers``: ``BleuScorer(weights)``,
``SentBleuScorer()`` and ``ChrFScorer(case_insensitive)``, each taking a corpus of token lists with one
reference per segment (``score_corpus(ref, out)``, ``score_sentence(ref, out)``, and BleuScorer's
``cache_stats(ref, out)``: per segment the two lengths and each order's (numerator, denominator)).

BLEU: every token is expressible, a segment with more than one reference is not. ``BleuScorer``'s corpus
score (on 0..100) is a partial answer of bleu-corpus-compute and, for one segment with ``smoothing``
"none", of bleu-sentence-compute (its ``score_sentence`` raises NotImplementedError: the sentence score is
the one-segment corpus's); the counts summed from ``cache_stats`` answer bleu-ngrams-count (not its
per-n-gram table) and bleu-sentence-components. ``SentBleuScorer`` is NLTK's sentence_bleu with
SmoothingFunction().method2 and four orders: bleu-sentence-compute with chen-cherry-2 and max_order 4.
No brevity penalty is reported, no effective order. ``decimals`` rounds its floats with toFixed.

Where it departs: each order's denominator is max(1, l_n) per segment (``missing-order-denominator-one``),
and an order without a match adds ln 1 = 0 to the weighted sum instead of making the score 0
(``zero-match-order-skipped``).

chrF: ``ChrFScorer`` is NLTK's ``corpus_chrf`` (orders 1..6, beta 2, whitespace ignored) of the tokens
joined by spaces, on 0..100; a text is given as compare-mt reads a line, ``text.split(" ")``, which joins
back to the text. Partial answers of chrf-compute (beta 2; ``segment_scores`` from ``score_sentence``,
which does not lowercase, so with ``lowercase`` only the corpus score) and of chrf-components with
char_order 6, word_order 0, whitespace false and beta 2: NLTK's chrF (``f-per-order-averaged``, its
whitespace set).
"""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import max_order
from conformance.implementations import Implementation, LibraryFloat, NotApplicable, Partial, rounded
from conformance.implementations._shared import no_effective_order

IMPLEMENTATION = Implementation(
    name="compare-mt",
    language="Python",
    distribution="compare-mt",
    requires=("compare_mt", "six"),
    counterpart="compare_mt.scorers.BleuScorer(weights).score_corpus(ref, out) / cache_stats(ref, out), "
    "SentBleuScorer().score_sentence(ref, out), ChrFScorer(case_insensitive).score_corpus(ref, out)",
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = (
    "missing-order-denominator-one",
    "zero-match-order-skipped",
    "whitespace-set-without-information-separators",
    "f-per-order-averaged",
)

NOT_EXPRESSIBLE = {
    "bleu_brevity_penalty": "compare-mt's BleuScorer reports no brevity penalty",
    "chrf_plus_plus_compute": "compare-mt's ChrFScorer has no word n-grams",
}
ONE_REFERENCE = "a segment with more than one reference: compare-mt's scorers take one reference per segment"
SCALE = 100  # compare_mt.scorers.global_scorer_scale: BLEU and chrF on 0..100
CHRF_ORDER, CHRF_BETA = 6, 2  # ChrFScorer's max_len and beta


# --- BLEU -------------------------------------------------------------------------------------------------------


def single_references(references: list[list[list[str]]]) -> list[list[str]]:
    """Each segment's one reference (compare-mt's ``ref`` corpus); NotApplicable where a segment has several."""
    if any(len(refs) != 1 for refs in references):
        raise NotApplicable(ONE_REFERENCE)
    return [refs[0] for refs in references]


def bleu_scorer(payload: dict):
    from compare_mt.scorers import BleuScorer

    n = max_order(payload)
    return BleuScorer(weights=(1 / n,) * n)


def counts(payload: dict, hypotheses: list, references: list) -> dict:
    """cache_stats summed as score_cached_corpus sums them: the counts, the lengths and the segments' rows."""
    stats = bleu_scorer(payload).cache_stats(single_references(references), hypotheses)
    n = max_order(payload)
    segments = [
        {
            "segment": i,
            "candidate_length": out_length,
            "matches": [num for num, _ in precisions],
            "totals": [denom for _, denom in precisions],
        }
        for i, (_ref_length, out_length, precisions) in enumerate(stats)
    ]
    return {
        "max_order": n,
        "matches": [sum(s["matches"][k] for s in segments) for k in range(n)],
        "totals": [sum(s["totals"][k] for s in segments) for k in range(n)],
        "candidate_length": sum(out_length for _, out_length, _ in stats),
        "reference_length": sum(ref_length for ref_length, _, _ in stats),
        "segments": segments,
    }


def corpus_bleu(payload: dict, hypotheses: list, references: list) -> Partial:
    score, _ = bleu_scorer(payload).score_corpus(single_references(references), hypotheses)
    found = counts(payload, hypotheses, references)
    found.pop("segments")
    found.pop("max_order")
    return Partial({"bleu": rounded(payload, score / SCALE), **found})


def bleu_corpus_compute(payload: dict) -> Partial:
    return corpus_bleu(payload, payload["hypotheses"], payload["references"])


def bleu_sentence_compute(payload: dict) -> Partial:
    from compare_mt.scorers import SentBleuScorer

    no_effective_order(payload, "compare-mt")
    smoothing = payload["smoothing"]
    if smoothing == "none":
        return corpus_bleu(payload, [payload["hypothesis"]], [payload["references"]])
    if smoothing != "chen-cherry-2":
        raise NotApplicable("smoothing chen-cherry-1 or -3: compare-mt's sentence BLEU is chen-cherry-2 (method2)")
    if max_order(payload) != 4:
        raise NotApplicable("chen-cherry-2 with max_order other than 4: SentBleuScorer scores four orders")
    (reference,) = single_references([payload["references"]])
    score, _ = SentBleuScorer().score_sentence(reference, payload["hypothesis"])
    return Partial({"bleu": rounded(payload, score / SCALE)})


def bleu_ngrams_count(payload: dict) -> dict:
    detail = payload.get("detail", "totals")
    if detail == "ngrams":
        raise NotApplicable("detail ngrams: compare-mt has no public per-n-gram clipping table")
    found = counts(payload, payload["hypotheses"], payload["references"])
    output = {key: found[key] for key in ("max_order", "matches", "totals")}
    if detail == "segments":
        output["segments"] = found["segments"]
    return output


def bleu_sentence_components(payload: dict) -> dict:
    found = counts(payload, [payload["hypothesis"]], [payload["references"]])
    found.pop("segments")
    return found


# --- chrF -------------------------------------------------------------------------------------------------------


def tokens(text: str) -> list[str]:
    """A text as compare-mt reads a line (corpus_utils.iterate_tokens): split on single spaces."""
    return text.split(" ")


def chrf_floats(payload: dict) -> tuple[LibraryFloat, list[LibraryFloat] | None]:
    """ChrFScorer's corpus score and (not lowercase) each segment's score_sentence, 0..100."""
    from compare_mt.scorers import ChrFScorer

    if int(payload.get("beta", CHRF_BETA)) != CHRF_BETA:
        raise NotApplicable("beta other than 2: compare-mt's ChrFScorer is chrF2")
    lowercase = bool(payload.get("lowercase", False))
    scorer = ChrFScorer(case_insensitive=lowercase)
    ref, out = [tokens(r) for r in payload["references"]], [tokens(h) for h in payload["hypotheses"]]
    score, _ = scorer.score_corpus(ref, out)
    if lowercase:  # score_sentence does not lowercase: no segment scores to give
        return LibraryFloat(score, scale=SCALE), None
    return LibraryFloat(score, scale=SCALE), [LibraryFloat(scorer.score_sentence(r, o)[0]) for r, o in zip(ref, out)]


def chrf_compute(payload: dict) -> Partial:
    score, segment_scores = chrf_floats(payload)
    return Partial({"score": score, **({"segment_scores": segment_scores} if segment_scores is not None else {})})


def chrf_components(payload: dict) -> Partial:
    from oracle.chrf_components import orders

    if orders(payload) != (CHRF_ORDER, 0) or payload.get("whitespace", False):
        raise NotApplicable("orders other than char_order 6, word_order 0, or whitespace kept: ChrFScorer fixes them")
    score, segment_scores = chrf_floats(payload)
    if segment_scores is None:
        return Partial({"score": score})
    return Partial({"score": score, "segments": [{"segment": i, "score": s} for i, s in enumerate(segment_scores)]})


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------


def stats_lines(payload: dict) -> list[str]:
    """The corpus (one reference per segment), the scorer and its cache_stats."""
    from conformance.implementations._calls import literal

    sentence = "hypothesis" in payload
    out = [payload["hypothesis"]] if sentence else payload["hypotheses"]
    ref = [refs[0] for refs in ([payload["references"]] if sentence else payload["references"])]
    n = max_order(payload)
    return [
        f"out = {literal(out)}",
        f"ref = {literal(ref)}",
        f"scorer = BleuScorer(weights=(1 / {n},) * {n})",
        "stats = scorer.cache_stats(ref, out)",
        f"matches = [sum(s[2][k][0] for s in stats) for k in range({n})]",
        f"totals = [sum(s[2][k][1] for s in stats) for k in range({n})]",
    ]


COUNTS = '"matches": matches, "totals": totals'
LENGTHS = '"candidate_length": sum(s[1] for s in stats), "reference_length": sum(s[0] for s in stats)'


def bleu_call(payload: dict) -> str:
    from conformance.implementations._calls import literal, python

    if payload.get("smoothing") == "chen-cherry-2":
        return python(
            ["from compare_mt.scorers import SentBleuScorer"],
            [f"out = {literal(payload['hypothesis'])}", f"ref = {literal(payload['references'][0])}"],
            '{"bleu": SentBleuScorer().score_sentence(ref, out)[0] / 100}',
        )
    return python(
        ["from compare_mt.scorers import BleuScorer"],
        stats_lines(payload),
        f'{{"bleu": scorer.score_corpus(ref, out)[0] / 100, {COUNTS}, {LENGTHS}}}',
    )


def counts_call(payload: dict) -> str:
    from conformance.implementations._calls import python

    segments = (
        ', "segments": [{"segment": i, "candidate_length": s[1], "matches": [m for m, _ in s[2]], '
        '"totals": [t for _, t in s[2]]} for i, s in enumerate(stats)]'
        if payload.get("detail") == "segments"
        else ""
    )
    lengths = f", {LENGTHS}" if "hypothesis" in payload else ""
    return python(
        ["from compare_mt.scorers import BleuScorer"],
        stats_lines(payload),
        f'{{"max_order": len(scorer.weights), {COUNTS}{lengths}{segments}}}',
    )


def chrf_call(segments_key: str):
    def write(payload: dict) -> str:
        from conformance.implementations._calls import literal, python

        lowercase = bool(payload.get("lowercase", False))
        segment = "{'score': s}" if segments_key == "segments" else "s"
        lines = [
            f"out = [h.split(' ') for h in {literal(payload['hypotheses'])}]",
            f"ref = [r.split(' ') for r in {literal(payload['references'])}]",
            f"scorer = ChrFScorer(case_insensitive={lowercase})",
        ]
        segments = (
            ""
            if lowercase
            else f', "{segments_key}": [{segment} for s in (scorer.score_sentence(r, o)[0] for r, o in zip(ref, out))]'
        )
        return python(
            ["from compare_mt.scorers import ChrFScorer"],
            lines,
            f'{{"score": scorer.score_corpus(ref, out)[0]{segments}}}',
        )

    return write


CALLS = {
    "bleu_corpus_compute": bleu_call,
    "bleu_sentence_compute": bleu_call,
    "bleu_ngrams_count": counts_call,
    "bleu_sentence_components": counts_call,
    "chrf_compute": chrf_call("segment_scores"),
    "chrf_components": chrf_call("segments"),
}

"""subword-nmt's chrF (Python, PyPI ``subword-nmt``): the module ``subword_nmt.chrF``, whose ``main`` scores a
corpus with ``extract_ngrams(text, max_length, spaces)``, ``get_correct(ngrams_ref, ngrams_test, correct, total)``
and ``f1(correct, total_hyp, total_ref, max_length, beta)``; the adapter calls those three as ``main`` does (its
command line prints the score with four decimals only), a segment's score being ``f1`` of that segment's counts.

Character n-grams only, of orders 1..max_length, the text's whitespace removed with ``str.split`` (the contract's
set), or with ``spaces`` kept: chrf-compute and chrf-components with word_order 0 (``whitespace`` is ``spaces``),
partial answers holding the corpus score and each segment's (0..1 floats). No word n-grams (no chrF++), no
lowercasing. Where it departs: ``f1`` averages precision and recall over every order 1..max_length, an order
without n-grams on a side counting 0 (precision-recall-averaged-over-every-order); it divides by chrP and chrR with
no case for both being 0, so a segment or corpus without any match raises ZeroDivisionError
(f-score-division-by-zero); and ``spaces`` strips each text's ends (kept-whitespace-ends-stripped).
"""

from __future__ import annotations

from conformance.implementations import Implementation, LibraryFloat, NotApplicable, Partial

IMPLEMENTATION = Implementation(
    name="subword-nmt",
    language="Python",
    distribution="subword-nmt",
    requires=("subword_nmt",),
    counterpart="subword_nmt.chrF: extract_ngrams(text, max_length, spaces), get_correct(...), "
    "f1(correct, total_hyp, total_ref, max_length, beta)",
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = ("precision-recall-averaged-over-every-order", "f-score-division-by-zero", "kept-whitespace-ends-stripped")

NOT_EXPRESSIBLE_OTHERWISE = "subword-nmt's chrF has no BLEU"
NOT_EXPRESSIBLE = {"chrf_plus_plus_compute": "subword-nmt's chrF has no word n-grams (no chrF++)"}


def counts(hypothesis: str, reference: str, order: int, spaces: bool) -> tuple[list, list, list]:
    """(correct, total_hyp, total_ref) of one segment per order, as chrF.main counts them."""
    from subword_nmt.chrF import extract_ngrams, get_correct

    ngrams_ref = extract_ngrams(reference, max_length=order, spaces=spaces)
    ngrams_test = extract_ngrams(hypothesis, max_length=order, spaces=spaces)
    correct, total = get_correct(ngrams_ref, ngrams_test, [0] * order, [0] * order)
    total_ref = [0] * order
    for rank in ngrams_ref:  # main's own loop over the reference n-grams
        for chain in ngrams_ref[rank]:
            total_ref[rank] += ngrams_ref[rank][chain]
    return correct, total, total_ref


def scores(payload: dict, order: int, spaces: bool) -> tuple[float, list[float]]:
    """f1 of the summed counts (the corpus score) and of each segment's, on 0..1."""
    from subword_nmt.chrF import f1

    if payload.get("lowercase", False):
        raise NotApplicable("lowercase true: subword-nmt's chrF has no lowercasing")
    beta = int(payload.get("beta", 2))
    rows = [counts(h, r, order, spaces) for h, r in zip(payload["hypotheses"], payload["references"])]
    summed = [[sum(row[k][i] for row in rows) for i in range(order)] for k in range(3)]
    corpus = f1(*summed, order, beta)[0]
    return corpus, [f1(*row, order, beta)[0] for row in rows]


def chrf_compute(payload: dict) -> Partial:
    corpus, segments = scores(payload, 6, False)
    return Partial({"score": LibraryFloat(corpus, scale=1), "segment_scores": [LibraryFloat(s, 1) for s in segments]})


def chrf_components(payload: dict) -> Partial:
    from oracle.chrf_components import orders

    char_order, word_order = orders(payload)
    if word_order:
        raise NotApplicable("word_order above 0: subword-nmt's chrF has no word n-grams")
    corpus, segments = scores(payload, char_order, bool(payload.get("whitespace", False)))
    return Partial(
        {
            "score": LibraryFloat(corpus, scale=1),
            "segments": [{"segment": i, "score": LibraryFloat(s, 1)} for i, s in enumerate(segments)],
        }
    )


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------


def chrf_call(segments_key: str):
    """The call for a chrF tool whose segment scores are ``segments_key`` ("segment_scores" or "segments")."""

    def write(payload: dict) -> str:
        from conformance.implementations._calls import literal, python
        from oracle.chrf_components import orders

        order = orders(payload)[0] if segments_key == "segments" else 6
        spaces = literal(bool(payload.get("whitespace", False)))
        segment = "{'score': s}" if segments_key == "segments" else "s"
        return python(
            ["from subword_nmt.chrF import extract_ngrams, f1, get_correct"],
            [
                f"hypotheses = {literal(payload['hypotheses'])}",
                f"references = {literal(payload['references'])}",
                f"order, beta = {order}, {int(payload.get('beta', 2))}",
                "rows = []",
                "for hypothesis, reference in zip(hypotheses, references):",
                f"    ngrams_ref = extract_ngrams(reference, max_length=order, spaces={spaces})",
                f"    ngrams_test = extract_ngrams(hypothesis, max_length=order, spaces={spaces})",
                "    correct, total = get_correct(ngrams_ref, ngrams_test, [0] * order, [0] * order)",
                "    total_ref = [0] * order",
                "    for rank in ngrams_ref:",
                "        for chain in ngrams_ref[rank]:",
                "            total_ref[rank] += ngrams_ref[rank][chain]",
                "    rows.append((correct, total, total_ref))",
                "summed = [[sum(row[k][i] for row in rows) for i in range(order)] for k in range(3)]",
                "score = f1(*summed, order, beta)[0]",
                "segment_scores = [f1(*row, order, beta)[0] for row in rows]",
            ],
            f'{{"score": score, "{segments_key}": [{segment} for s in segment_scores]}}',
        )

    return write


CALLS = {"chrf_compute": chrf_call("segment_scores"), "chrf_components": chrf_call("segments")}

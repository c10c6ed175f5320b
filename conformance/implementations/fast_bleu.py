"""fast-bleu (C++, PyPI ``fast-bleu``): ``fast_bleu.BLEU(references, weights, smoothing_func).get_score(hypotheses)``.

It scores every hypothesis against one fixed reference set (shared by all hypotheses) and returns
the scores only, with NLTK's method0 or method1 smoothing. So it expresses bleu-sentence-compute's
``bleu`` (the references as its reference set, the hypothesis alone, uniform weights 1/N over
max_order N >= 2: it asserts 2 <= N) with smoothing "none" (method0) or "chen-cherry-1"
(method1), effective order false; the counts and lengths are not expressed. ``decimals`` rounds
its float with toFixed (``implementations.rounded``). The corpus tools would need one reference set per
segment: not expressible, nor is chrF.
"""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import max_order
from conformance.implementations import Implementation, NotApplicable, Partial, rounded

IMPLEMENTATION = Implementation(name="fast-bleu", language="C++", distribution="fast-bleu", requires=("fast_bleu",),
                                counterpart="fast_bleu.BLEU(references, {N: (1/N,)*N}, smoothing_func).get_score([hypothesis])")

NOT_EXPRESSIBLE_OTHERWISE = ("fast_bleu.BLEU scores each hypothesis against one reference set shared by all "
                             "and returns the score only: no counts, totals or lengths")
NOT_EXPRESSIBLE = {name: "fast-bleu has no chrF" for name in ("chrf_compute", "chrf_plus_plus_compute",
                                                               "chrf_components")}
SMOOTHING_FUNCTIONS = {"none": 0, "chen-cherry-1": 1}  # its method_0 and method_1, "the same as NLTK"


def bleu_sentence_compute(payload: dict) -> Partial:
    from fast_bleu import BLEU

    n = max_order(payload)
    if n < 2:
        raise NotApplicable("max_order 1: fast_bleu.BLEU asserts a maximum order of at least 2")
    if payload["smoothing"] not in SMOOTHING_FUNCTIONS:
        raise NotApplicable("smoothing chen-cherry-2 or chen-cherry-3: fast-bleu has only NLTK's method0 and method1")
    if payload.get("effective_order", False):
        raise NotApplicable("effective_order true: fast-bleu has no effective order")
    scorer = BLEU(payload["references"], {n: (1 / n,) * n}, smoothing_func=SMOOTHING_FUNCTIONS[payload["smoothing"]])
    return Partial({"bleu": rounded(payload, scorer.get_score([payload["hypothesis"]])[n][0])})

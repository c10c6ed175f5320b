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

from conformance.crosscheck.adapters.bleu_sentence_compute import fast_bleu_inexpressible, fast_bleu_score
from conformance.implementations import Implementation, NotApplicable, Partial, rounded

IMPLEMENTATION = Implementation(
    name="fast-bleu",
    language="C++",
    distribution="fast-bleu",
    requires=("fast_bleu",),
    counterpart="fast_bleu.BLEU(references, {N: (1/N,)*N}, smoothing_func).get_score([hypothesis])",
)

NOT_EXPRESSIBLE_OTHERWISE = (
    "fast_bleu.BLEU scores each hypothesis against one reference set shared by all "
    "and returns the score only: no counts, totals or lengths"
)
NOT_EXPRESSIBLE = {
    name: "fast-bleu has no chrF" for name in ("chrf_compute", "chrf_plus_plus_compute", "chrf_components")
}


def bleu_sentence_compute(payload: dict) -> Partial:
    reason = fast_bleu_inexpressible(payload)
    if reason:
        raise NotApplicable(reason)
    return Partial({"bleu": rounded(payload, fast_bleu_score(payload))})

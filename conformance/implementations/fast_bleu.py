"""fast-bleu (C++, PyPI ``fast-bleu``): ``fast_bleu.BLEU(references, weights, smoothing_func).get_score(hypotheses)``.

It scores every hypothesis against one fixed reference set (shared by all hypotheses) and returns
the scores only, with NLTK's method0 or method1 smoothing: no tool's output (counts, totals,
lengths) can be built from it, so no tool is expressible.
"""

from __future__ import annotations

from conformance.implementations import Implementation

IMPLEMENTATION = Implementation(name="fast-bleu", language="C++", distribution="fast-bleu", requires=("fast_bleu",),
                                counterpart="fast_bleu.BLEU(references, weights, smoothing_func).get_score(hypotheses)")

NOT_EXPRESSIBLE_OTHERWISE = ("fast_bleu.BLEU scores each hypothesis against one reference set shared by all "
                             "and returns the score only: no counts, totals or lengths")
NOT_EXPRESSIBLE = {name: "fast-bleu has no chrF" for name in ("chrf_compute", "chrf_plus_plus_compute",
                                                               "chrf_components")}

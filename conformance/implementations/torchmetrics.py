"""torchmetrics (Python on PyTorch, PyPI ``torchmetrics``, extra ``.[torchmetrics]``; needs torch, which is
not installed by default: a CUDA build of several GB). ``torchmetrics.functional.text.bleu_score`` and
``chrf_score`` return one tensor score (chrF optionally with sentence scores), computed in floats.

No tool's output can be built from a lone score (the contracts report counts, totals and lengths, or
an exact score_fraction), so no tool is expressible; the row says "not run" where torch is absent.
"""

from __future__ import annotations

from conformance.implementations import Implementation

IMPLEMENTATION = Implementation(name="torchmetrics", language="Python (PyTorch)", distribution="torchmetrics",
                                requires=("torchmetrics", "torch"),
                                counterpart="torchmetrics.functional.text.bleu_score / chrf_score")

NOT_EXPRESSIBLE_OTHERWISE = ("torchmetrics returns one float tensor score: no counts, totals or lengths, no exact "
                             "score_fraction")

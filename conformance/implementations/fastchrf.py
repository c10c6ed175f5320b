"""fastchrf (Rust, PyPI ``fastchrf``): ``pairwise_chrf`` and ``aggregate_chrf`` (hypotheses x references
batches, char_order, beta, remove_whitespace, eps_smoothing).

Both return float sentence scores only: the chrF tools' exact score_fraction, six-decimal score
(ties to even) and corpus score are not its values, and it has no word n-grams (chrF++) and no
BLEU, so no tool is expressible.
"""

from __future__ import annotations

from conformance.implementations import Implementation, float_score_only

IMPLEMENTATION = Implementation(name="fastchrf", language="Rust", distribution="fastchrf", requires=("fastchrf",),
                                counterpart="fastchrf.aggregate_chrf(hypotheses, references, char_order, beta)")

NOT_EXPRESSIBLE_OTHERWISE = "fastchrf has no BLEU"
NOT_EXPRESSIBLE = {
    "chrf_compute": float_score_only("fastchrf") + " (sentence scores only, no corpus score)",
    "chrf_plus_plus_compute": "fastchrf has no word n-grams",
    "chrf_components": "fastchrf returns float sentence scores only: no statistics, no exact score_fraction",
}

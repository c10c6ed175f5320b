"""bleuscore (Rust, PyPI ``bleuscore``): ``bleuscore.compute(references, predictions, max_order, smooth,
ref_len_method)``.

Its public API returns the corpus score, the precisions as floats, the brevity penalty and the two
lengths, and tokenizes every text with 13a itself: no tool's output can be built from it without
inventing the counts (matches, totals) or the per-segment lengths every contract reports, so no
tool is expressible.
"""

from __future__ import annotations

from conformance.implementations import Implementation

IMPLEMENTATION = Implementation(name="bleuscore", language="Rust", distribution="bleuscore", requires=("bleuscore",),
                                counterpart="bleuscore.compute(references, predictions, max_order, smooth, "
                                            "ref_len_method='closest')")

NOT_EXPRESSIBLE_OTHERWISE = ("bleuscore.compute reports the score, float precisions, brevity penalty and two "
                             "lengths of 13a-tokenized text: no matches or totals, no per-segment lengths, "
                             "no pre-tokenized input")
NOT_EXPRESSIBLE = {name: "bleuscore has no chrF" for name in ("chrf_compute", "chrf_plus_plus_compute",
                                                               "chrf_components")}

"""The cross-check's side of this tool: its generated inputs (``INPUTS``), the conditions on an input that
the libraries' divergence entries share, and the agreements several libraries were checked on. Each library's
calls, checks and divergences live in its own module, conformance/implementations/.
"""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import (
    bleu_inputs,
)
from conformance.crosscheck.model import Agreement

# per-segment and per-n-gram rows, as the libraries' own functions return them
INPUTS = bleu_inputs(detail="ngrams")


AGREEMENTS = [
    Agreement(
        "reference counting",
        "both clip by the largest count of the n-gram in any single reference (sacreBLEU "
        "BLEU._extract_reference_info, NLTK modified_precision), not the sum over references",
        ("sacrebleu/statistics", "sacrebleu/ngram_rows", "nltk/modified_precision"),
    ),
    Agreement(
        "clipping table rows",
        'detail "ngrams" rows (n-gram, count, max_reference_count) equal sacreBLEU\'s own counters row for '
        "row, in the same order (by order, then first occurrence)",
        ("sacrebleu/ngram_rows",),
    ),
]

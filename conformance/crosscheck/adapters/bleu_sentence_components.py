"""The cross-check's side of this tool: its generated inputs (``INPUTS``), the conditions on an input that
the libraries' divergence entries share, and the agreements several libraries were checked on. Each library's
calls, checks and divergences live in its own module, conformance/implementations/.
"""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import (
    sentence_inputs,
)
from conformance.crosscheck.model import Agreement

INPUTS = sentence_inputs()


AGREEMENTS = [
    Agreement(
        "sentence statistics",
        "sacreBLEU's segment statistics and NLTK's modified_precision numerators clip by the largest count "
        "in any single reference, as the contract does, with up to 8 references, empty ones included; "
        "both closest-length rules break a tie to the shorter reference and let an empty reference "
        "compete (length 0)",
        ("sacrebleu/statistics:sentence", "nltk/modified_precision+closest_ref_length"),
    ),
]

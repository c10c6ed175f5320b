"""The cross-check's side of this tool: its generated inputs (``INPUTS``), the conditions on an input that
the libraries' divergence entries share, and the agreements several libraries were checked on. Each library's
calls, checks and divergences live in its own module, conformance/implementations/.
"""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import (
    bleu_inputs,
)
from conformance.crosscheck.model import Agreement

INPUTS = bleu_inputs()


AGREEMENTS = [
    Agreement(
        "closest reference length",
        "sacreBLEU BLEU._get_closest_ref_len and NLTK closest_ref_length both break a tie to the shorter "
        "reference, as the contract does",
        ("sacrebleu/corpus_score:smooth=none", "nltk/closest_ref_length+brevity_penalty"),
    ),
    Agreement(
        "zero matches, logarithm guard",
        "with smooth_method='none' sacreBLEU's my_log(0) = -9999999999 makes exp(...) exactly 0.0, the "
        "contract's 0; a hypothesis shorter than n stops compute_bleu's loop with that precision 0, also 0",
        ("sacrebleu/corpus_score:smooth=none",),
    ),
    Agreement(
        "empty hypotheses",
        "NLTK corpus_bleu returns 0 when no unigram matched (every hypothesis empty included) and "
        "brevity_penalty returns 0 for hyp_len 0; sacreBLEU's statistics and score (0) agree too, only its "
        "brevity penalty departs (sacrebleu-bp-empty-candidate)",
        ("nltk/corpus_bleu", "nltk/closest_ref_length+brevity_penalty", "sacrebleu/statistics"),
    ),
    Agreement(
        "percent scale",
        "sacreBLEU's BLEU is 100 x the contract's within 1e-9 relative (it adds ln(100 m/l)); chrF++ scores "
        "are on 0..100 on both sides",
        ("sacrebleu/corpus_score:smooth=none", "sacrebleu/chrf++"),
    ),
    Agreement(
        "tokens holding whitespace (BLEU)",
        "sacreBLEU takes one string per segment and splits it with str.split(), so such a token has no "
        "faithful conversion: those inputs are 'not comparable' for sacreBLEU; NLTK takes token lists and "
        "is compared on them",
        ("nltk/corpus_bleu",),
    ),
]

"""An independent correct implementation of the tools, written from the contracts.

It never imports the oracle, and it differs from it wherever the contracts allow:

* floats: ln(m) - ln(l) instead of ln(m/l), s/N instead of (1/N)*s, brevity penalty as
  exp((c - r)/c); toFixed from exact fractions instead of decimal quantisation;
* n-grams are keyed by a tuple of token indices into a per-segment vocabulary;
* A1: max_total_tokens / max_total_token_bytes count hypothesis tokens only;
* A2: the output size is measured on Python's default json.dumps form (", " and ": "
  separators, non-ASCII \\u-escaped), not compact JSON;
* A3: lone surrogates in BLEU tokens are accepted;
* A4: the chrF++ corpus sums drop a segment's hypothesis n-grams of an order its reference
  lacks (sacreBLEU, chrF++.py);
* A6: every schema violation is invalid_input, even where it mirrors a named limit;
* A9: strictly typed integers: 4.0 for max_order, decimals or beta is rejected;
* A10: BLEU reference sets beyond the last hypothesis are ignored, not rejected;
* A14: a lone surrogate counts 0 bytes towards chrF++'s max_text_bytes.

The three draft tools (bleu-sentence-components, bleu-brevity-penalty, bleu-sentence-compute)
decide those points in their contracts, so there it follows them: limits are limit_exceeded,
lone surrogates are rejected, the token totals count every token, 4.0 is the integer 4. It
validates by hand in their stated order, takes its own float path where they leave room
(ldexp for the NIST 2^-k, s/N'; r/c stays one division, as they state) and an integer-only
toFixed. They get their own statistics object, so a faulty variant of the published tools'
shared statistics leaves them alone.

The harness must pass it with zero failures (tests/test_power.py). The faulty
implementations in tests/mutants/ each subclass one part of it with one bug.
"""

from __future__ import annotations

from typing import Any

from independent.bleu import BleuCorpusCompute, BleuNgramsCount, BleuStatistics
from independent.brevity import BleuBrevityPenalty
from independent.chrf import ChrfPlusPlus
from independent.chrf_family import ChrfComponents, ChrfCompute
from independent.errors import Rejection
from independent.sentence import BleuSentenceComponents, BleuSentenceCompute

__all__ = [
    "Implementation",
    "execute",
    "Rejection",
    "BleuStatistics",
    "BleuNgramsCount",
    "BleuCorpusCompute",
    "ChrfPlusPlus",
    "BleuSentenceComponents",
    "BleuBrevityPenalty",
    "BleuSentenceCompute",
]


class Implementation:
    """Every tool; a faulty variant swaps in one buggy tool object.

    ``statistics`` is shared by the two published BLEU tools only; the sentence tools take
    their own (pass a tool object built with a faulty one to change them).
    """

    def __init__(
        self,
        ngrams_count=None,
        corpus_compute=None,
        chrf=None,
        statistics=None,
        sentence_components=None,
        brevity_penalty=None,
        sentence_compute=None,
    ):
        statistics = statistics or BleuStatistics()
        self.tools = {
            ("bleu-ngrams-count", "1.0.0"): ngrams_count or BleuNgramsCount(statistics),
            ("bleu-corpus-compute", "1.0.0"): corpus_compute or BleuCorpusCompute(statistics),
            ("chrf-plus-plus-compute", "1.0.0"): chrf or ChrfPlusPlus(),
            ("bleu-sentence-components", "1.0.0"): sentence_components or BleuSentenceComponents(),
            ("bleu-brevity-penalty", "1.0.0"): brevity_penalty or BleuBrevityPenalty(),
            ("bleu-sentence-compute", "1.0.0"): sentence_compute or BleuSentenceCompute(),
            ("chrf-compute", "1.0.0"): ChrfCompute(),
            ("chrf-components", "1.0.0"): ChrfComponents(),
        }

    def execute(self, tool_id: str, version: str, payload: Any) -> dict:
        tool = self.tools.get((tool_id, version))
        if tool is None:
            raise Rejection("not_found", f"no tool {tool_id}@{version}")
        return tool.execute(payload)


execute = Implementation().execute

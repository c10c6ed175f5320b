"""bleu-corpus-compute: keeps candidate_length, reference_length and the corpus sums of matches and
totals in an Int16Array, so they wrap past 32,767 (50,000 tokens need 16 bits unsigned, 17 signed)."""

import math

from independent import BleuCorpusCompute, Implementation

from mutants._javascript import int16

CLASS = "integer-width"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def compute(self, payload):
        max_order = self.max_order(payload)
        matches, totals = self.corpus(self.segments(payload), max_order)
        matches, totals = [int16(m) for m in matches], [int16(t) for t in totals]
        c = int16(sum(len(h) for h in payload["hypotheses"]))
        r = int16(self.reference_length(payload))
        bp = self.brevity_penalty(c, r) if c >= 0 else math.nan
        if any(m < 0 for m in matches) or any(t <= 0 for t, m in zip(totals, matches) if m > 0):
            bleu = math.nan  # ln of a negative count
        else:
            bleu = self.score(bp, matches, totals)
        # JSON.stringify writes NaN as null
        return {
            "bleu": None if math.isnan(bleu) else self.rounded(bleu, payload),
            "brevity_penalty": None if math.isnan(bp) else self.rounded(bp, payload),
            "candidate_length": c,
            "reference_length": r,
            "max_order": max_order,
            "matches": matches,
            "totals": totals,
        }


execute = Implementation(corpus_compute=CorpusCompute()).execute

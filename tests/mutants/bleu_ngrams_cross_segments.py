"""Counts n-grams over the whole corpus joined into one token stream, so n-grams cross segment boundaries."""

from independent import BleuNgramsCount, BleuStatistics, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    def compute(self, payload):
        joined = {
            "hypotheses": [[t for h in payload["hypotheses"] for t in h]],
            "references": [[[t for refs in payload["references"] for t in refs[0]]]],
            **{k: v for k, v in payload.items() if k not in ("hypotheses", "references")},
        }
        output = super().compute(joined)
        if "segments" in output:  # keep one row per input segment, as the schema expects
            output["segments"] = self.segment_rows(self.segments(payload))
        return output


execute = Implementation(ngrams_count=NgramsCount(BleuStatistics())).execute

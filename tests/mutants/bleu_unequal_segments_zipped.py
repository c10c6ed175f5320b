"""Does not check that hypotheses and references have equal segment counts: zips them, dropping the extras."""

from independent import BleuCorpusCompute, BleuNgramsCount, Implementation

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class Zipping:
    def check_segment_counts(self, payload):
        pass


class NgramsCount(Zipping, BleuNgramsCount):
    def compute(self, payload):
        n = min(len(payload["hypotheses"]), len(payload["references"]))
        return super().compute(
            {**payload, "hypotheses": payload["hypotheses"][:n], "references": payload["references"][:n]}
        )


class CorpusCompute(Zipping, BleuCorpusCompute):
    def compute(self, payload):
        n = min(len(payload["hypotheses"]), len(payload["references"]))
        return super().compute(
            {**payload, "hypotheses": payload["hypotheses"][:n], "references": payload["references"][:n]}
        )


execute = Implementation(ngrams_count=NgramsCount(), corpus_compute=CorpusCompute()).execute

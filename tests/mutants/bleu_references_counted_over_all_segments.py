"""Applies max_references_per_segment to the references of all segments together."""

from independent import BleuCorpusCompute, BleuNgramsCount, Implementation, Rejection

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class AllSegments:
    def check_segment_counts(self, payload):
        super().check_segment_counts(payload)
        if sum(map(len, payload["references"])) > self.limits()["max_references_per_segment"]:
            raise Rejection("invalid_input", "too many references")


class NgramsCount(AllSegments, BleuNgramsCount):
    pass


class CorpusCompute(AllSegments, BleuCorpusCompute):
    pass


execute = Implementation(ngrams_count=NgramsCount(), corpus_compute=CorpusCompute()).execute

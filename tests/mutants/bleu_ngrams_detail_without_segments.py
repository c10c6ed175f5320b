"""detail "ngrams" returns the n-gram rows but not the per-segment rows it also requires."""

from independent import BleuNgramsCount, BleuStatistics, Implementation

CLASS = "output-shape"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    def compute(self, payload):
        output = super().compute(payload)
        if payload.get("detail") == "ngrams":
            output.pop("segments")
        return output


execute = Implementation(ngrams_count=NgramsCount(BleuStatistics())).execute

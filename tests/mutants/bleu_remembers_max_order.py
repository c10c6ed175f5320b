"""An omitted max_order means the max_order of the previous request (a default kept between
requests, in the tool object) instead of 4."""

from independent import BleuNgramsCount, BleuStatistics, Implementation

CLASS = "state"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    def max_order(self, payload) -> int:
        if "max_order" in payload:
            self.default_max_order = int(payload["max_order"])  # "the last one asked for"
        return self.default_max_order


execute = Implementation(ngrams_count=NgramsCount(BleuStatistics())).execute

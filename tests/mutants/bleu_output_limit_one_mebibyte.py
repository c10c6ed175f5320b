"""Measures the output-size limit of bleu-ngrams-count (compact JSON) against 1 MiB (1,048,576 bytes) instead of 1,000,000."""

import json

from independent import BleuNgramsCount, BleuStatistics, Implementation
from independent.bleu import Rejection

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    def check_output_size(self, output):
        compact = json.dumps(output, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        if len(compact) > 1_048_576:
            raise Rejection("limit_exceeded", "output too large; ask for a coarser detail")


execute = Implementation(ngrams_count=NgramsCount(BleuStatistics())).execute

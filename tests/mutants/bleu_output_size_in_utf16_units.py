"""Measures max_output_bytes in UTF-16 code units of the compact JSON (String.length), not UTF-8 bytes."""

import json

from independent import BleuNgramsCount, Implementation

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    def output_size(self, output):
        return len(json.dumps(output, ensure_ascii=False, separators=(",", ":")).encode("utf-16-le")) // 2


execute = Implementation(ngrams_count=NgramsCount()).execute

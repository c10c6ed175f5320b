"""Measures max_text_bytes on the texts as escaped JSON (JSON.stringify's escapes), not as given."""

import json

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def text_bytes(self, texts):
        return sum(len(json.dumps(text, ensure_ascii=False)[1:-1].encode("utf-8")) for text in texts)


execute = execute_with(Compute())

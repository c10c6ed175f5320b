"""Measures max_token_bytes on the token as escaped JSON (JSON.stringify's escapes), not its UTF-8 bytes."""

import json

from independent import BleuSentenceCompute, Implementation

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class Compute(BleuSentenceCompute):
    def token_size(self, token):
        return len(json.dumps(token, ensure_ascii=False)[1:-1].encode("utf-8"))


execute = Implementation(sentence_compute=Compute()).execute

"""bleu-sentence-compute: treats the schema's maxItems 8 and maxLength 128 as schema violations (invalid_input),
where the contract names them limits (limit_exceeded): 9 references answer invalid_input."""

from independent import BleuSentenceCompute, Implementation
from independent.errors import Rejection

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def check_limits(self, payload):
        if len(payload["references"]) > 8 or any(len(t) > 128 for t in self.every_token(payload)):
            raise Rejection("invalid_input", "the schema's maxItems or maxLength")
        super().check_limits(payload)


execute = Implementation(sentence_compute=SentenceCompute()).execute

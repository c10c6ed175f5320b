"""bleu-sentence-compute: checks the limits right after hypothesis and references, before max_order, smoothing,
effective_order and decimals (the stated order checks every field first), so 9 references with an unknown
smoothing answer limit_exceeded instead of invalid_input."""

from independent import BleuSentenceCompute, Implementation
from independent.fields import check_integer, check_object, invalid
from independent.sentence import SMOOTHING

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    def validate(self, payload):
        check_object(payload, self.keys, self.required)
        self.check_tokens("hypothesis", payload["hypothesis"])
        self.check_references(payload["references"])
        self.check_limits(payload)
        if "max_order" in payload:
            check_integer("max_order", payload["max_order"], 1, 8)
        if not isinstance(payload["smoothing"], str) or payload["smoothing"] not in SMOOTHING:
            raise invalid("smoothing must be one of " + ", ".join(SMOOTHING))
        if "effective_order" in payload and not isinstance(payload["effective_order"], bool):
            raise invalid("effective_order must be a boolean")
        if "decimals" in payload:
            check_integer("decimals", payload["decimals"], 0, 15)


execute = Implementation(sentence_compute=SentenceCompute()).execute

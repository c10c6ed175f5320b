"""bleu-sentence-components: strictly typed max_order (serde-style): rejects 2.0, which the contract says is
the integer 2."""

from independent import BleuSentenceComponents, Implementation
from independent.errors import Rejection

CLASS = "over-rejection"  # the class of bug (benchmarks/bench_classes.py)


class Components(BleuSentenceComponents):
    def check_fields(self, payload):
        if isinstance(payload.get("max_order"), float):
            raise Rejection("invalid_input", "max_order must be written as an integer")
        super().check_fields(payload)


execute = Implementation(sentence_components=Components()).execute

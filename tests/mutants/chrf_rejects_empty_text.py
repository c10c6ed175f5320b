"""Over-rejects: refuses an empty hypothesis string, which the schema allows (it scores 0)."""

from independent import ChrfPlusPlus, Implementation
from independent.errors import Rejection

CLASS = "over-rejection"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def validate(self, payload):
        super().validate(payload)
        if any(h == "" for h in payload["hypotheses"]):
            raise Rejection("invalid_input", "empty hypothesis")


execute = Implementation(chrf=Chrf()).execute

"""Ignores unknown keys (e.g. "char_order": 4) instead of rejecting them."""

from independent import ChrfPlusPlus, Implementation
from independent.chrf import KEYS

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def validate(self, payload):
        if isinstance(payload, dict):
            payload = {k: v for k, v in payload.items() if k in KEYS}
        super().validate(payload)


execute = Implementation(chrf=Chrf()).execute

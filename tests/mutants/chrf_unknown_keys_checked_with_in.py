"""chrF++: tells known input keys by `key in KNOWN` on a plain object literal, so a key named like an
inherited property ("constructor", "toString", "__proto__", ...) passes as known and is ignored."""

from independent import ChrfPlusPlus, Implementation
from independent.chrf import KEYS

from mutants._javascript import OBJECT_PROTOTYPE_NAMES

CLASS = "in-key-check"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def validate(self, payload):
        if isinstance(payload, dict):
            payload = {k: v for k, v in payload.items() if k in KEYS or k not in OBJECT_PROTOTYPE_NAMES}
        super().validate(payload)


execute = Implementation(chrf=Chrf()).execute

"""Accepts any truthy lowercase value ("true", 1) instead of requiring a JSON boolean."""

from independent import ChrfPlusPlus, Implementation

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def validate(self, payload):
        if isinstance(payload, dict) and "lowercase" in payload:
            payload = {**payload, "lowercase": bool(payload["lowercase"])}
        super().validate(payload)

    def compute(self, payload):
        if "lowercase" in payload:
            payload = {**payload, "lowercase": bool(payload["lowercase"])}
        return super().compute(payload)


execute = Implementation(chrf=Chrf()).execute

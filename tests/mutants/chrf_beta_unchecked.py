"""Does not check beta's range: accepts beta 0 or 17 (and scores with it)."""

from independent import ChrfPlusPlus, Implementation

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def validate(self, payload):
        if isinstance(payload, dict) and isinstance(payload.get("beta"), int) and not isinstance(payload["beta"], bool):
            payload = {**payload, "beta": 2}
        super().validate(payload)


execute = Implementation(chrf=Chrf()).execute

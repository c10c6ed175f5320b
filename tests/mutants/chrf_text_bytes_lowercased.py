"""Measures max_text_bytes on the lowercased texts when lowercase is true, not on the texts as given."""

from independent import ChrfPlusPlus, Implementation

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    lowercasing = False

    def validate(self, payload):
        self.lowercasing = isinstance(payload, dict) and payload.get("lowercase") is True
        super().validate(payload)

    def text_bytes(self, texts):
        return super().text_bytes([text.lower() for text in texts] if self.lowercasing else texts)


execute = Implementation(chrf=Chrf()).execute

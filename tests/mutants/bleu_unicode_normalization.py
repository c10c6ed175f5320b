"""Normalises tokens to NFC before comparing; the contract says no Unicode normalization."""

import unicodedata

from independent import BleuStatistics, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    def segment(self, hypothesis, references, max_order):
        nfc = lambda tokens: [unicodedata.normalize("NFC", t) for t in tokens]  # noqa: E731
        return super().segment(nfc(hypothesis), [nfc(r) for r in references], max_order)


execute = Implementation(statistics=Statistics()).execute

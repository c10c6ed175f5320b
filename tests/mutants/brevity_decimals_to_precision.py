"""bleu-brevity-penalty: rounds with toPrecision(decimals) (significant digits) instead of toFixed
(digits after the point), and with toFixed(0) for decimals 0 (toPrecision(0) throws): the same for
a penalty in [0.1, 1), wrong below 0.1."""

from independent import BleuBrevityPenalty, Implementation
from independent.fields import as_int

from mutants._javascript import to_precision

CLASS = "precision-rounding"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def rounded(self, value, payload):
        if "decimals" not in payload or as_int(payload["decimals"]) == 0:
            return super().rounded(value, payload)
        return to_precision(value, as_int(payload["decimals"]))


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

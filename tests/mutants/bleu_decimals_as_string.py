"""Returns the toFixed STRING ("0.485308") instead of a JSON number."""

from independent import BleuCorpusCompute, Implementation
from independent.bleu import to_fixed_number

CLASS = "output-shape"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def rounded(self, value, payload):
        if "decimals" not in payload:
            return value
        digits = int(payload["decimals"])
        return f"{to_fixed_number(value, digits):.{digits}f}"


execute = Implementation(corpus_compute=CorpusCompute()).execute

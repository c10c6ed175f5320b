"""bleu-corpus-compute: rounds bleu and brevity_penalty with toPrecision(decimals) (significant digits)
instead of toFixed, and with toFixed(0) for decimals 0 (toPrecision(0) throws): the same for values in
[0.1, 1), wrong for a BLEU of 1e-3 or a penalty of exp(-7)."""

from independent import BleuCorpusCompute, Implementation

from mutants._javascript import to_precision

CLASS = "precision-rounding"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def rounded(self, value, payload):
        if "decimals" not in payload or int(payload["decimals"]) == 0:
            return super().rounded(value, payload)
        return to_precision(value, int(payload["decimals"]))


execute = Implementation(corpus_compute=CorpusCompute()).execute

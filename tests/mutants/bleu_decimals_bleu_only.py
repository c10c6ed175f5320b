"""Rounds bleu with decimals but leaves brevity_penalty at full precision."""

from independent import BleuCorpusCompute, Implementation

CLASS = "rounding"  # the class of bug (benchmarks/bench_classes.py)


class CorpusCompute(BleuCorpusCompute):
    def compute(self, payload):
        output = super().compute(payload)
        if "decimals" in payload:
            output["brevity_penalty"] = self.brevity_penalty(output["candidate_length"], output["reference_length"])
        return output


execute = Implementation(corpus_compute=CorpusCompute()).execute

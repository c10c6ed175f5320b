"""bleu-brevity-penalty: no equal-segment-count check: the two lists are zipped, the longer one cut short."""

from independent import BleuBrevityPenalty, Implementation

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def check_segment_counts(self, payload):
        pass

    def compute(self, payload):
        n = min(len(payload["candidate_lengths"]), len(payload["reference_lengths"]))
        return super().compute(
            {
                **payload,
                "candidate_lengths": payload["candidate_lengths"][:n],
                "reference_lengths": payload["reference_lengths"][:n],
            }
        )


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

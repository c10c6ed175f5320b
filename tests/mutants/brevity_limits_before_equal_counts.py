"""bleu-brevity-penalty: checks the limits before equal segment counts (the stated order is the other way),
so 1001 candidate lengths against 1000 reference lists answer limit_exceeded instead of invalid_input."""

from independent import BleuBrevityPenalty, Implementation
from independent.fields import check_integer, check_object, invalid

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def validate(self, payload):
        check_object(payload, self.keys, self.required)
        self.check_lengths("candidate_lengths", payload["candidate_lengths"])
        references = payload["reference_lengths"]
        if not isinstance(references, list) or not references:
            raise invalid("reference_lengths must be an array of at least one array")
        for i, lengths in enumerate(references):
            self.check_lengths(f"reference_lengths[{i}]", lengths)
        if "decimals" in payload:
            check_integer("decimals", payload["decimals"], 0, 15)
        self.check_limits(payload)
        self.check_segment_counts(payload)


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

"""bleu-brevity-penalty: treats the schema's maxItems and maximum as schema violations (invalid_input), where
the contract names them limits (limit_exceeded): 9 reference lengths answer invalid_input."""

from independent import BleuBrevityPenalty, Implementation
from independent.errors import Rejection

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class BrevityPenalty(BleuBrevityPenalty):
    def check_limits(self, payload):
        try:
            super().check_limits(payload)
        except Rejection as error:
            raise Rejection("invalid_input", str(error)) from None


execute = Implementation(brevity_penalty=BrevityPenalty()).execute

"""bleu-brevity-penalty, from its contract's semantics: lengths only.

Validation is hand-written in the contract's stated order: the fields in schema order, then
equal segment counts, then the limits (limit_exceeded, the schema's maxItems 1000 and 8 and
maximum 1048576 among them). The closest length is found by a scan of the sorted lengths, and
toFixed works in integers.
"""

from __future__ import annotations

import math

from independent.contract import contract
from independent.fields import as_int, check_integer, check_object, invalid, is_json_integer, over_limit, to_fixed


class BleuBrevityPenalty:
    tool_id = "bleu-brevity-penalty"
    keys = ("candidate_lengths", "reference_lengths", "decimals")
    required = ("candidate_lengths", "reference_lengths")

    def execute(self, payload) -> dict:
        self.validate(payload)
        return self.compute(payload)

    def limits(self) -> dict:
        return contract(self.tool_id)["limits"]

    # --- validation, in the stated order ---

    def validate(self, payload) -> None:
        check_object(payload, self.keys, self.required)
        self.check_lengths("candidate_lengths", payload["candidate_lengths"])
        references = payload["reference_lengths"]
        if not isinstance(references, list) or not references:
            raise invalid("reference_lengths must be an array of at least one array")
        for i, lengths in enumerate(references):
            self.check_lengths(f"reference_lengths[{i}]", lengths)
        if "decimals" in payload:
            check_integer("decimals", payload["decimals"], 0, 15)
        self.check_segment_counts(payload)
        self.check_limits(payload)

    def check_lengths(self, name: str, lengths) -> None:
        """An array of at least one integer >= 0 (the maximum and maxItems are limits, checked later)."""
        if not isinstance(lengths, list) or not lengths:
            raise invalid(f"{name} must be an array of at least one length")
        for length in lengths:
            if not is_json_integer(length):
                raise invalid(f"{name}: lengths are integers")
            if length < 0:
                raise invalid(f"{name}: a negative length")

    def check_segment_counts(self, payload) -> None:
        if len(payload["candidate_lengths"]) != len(payload["reference_lengths"]):
            raise invalid("candidate_lengths and reference_lengths differ in length")

    def check_limits(self, payload) -> None:
        limits = self.limits()
        if len(payload["candidate_lengths"]) > limits["max_segments"]:
            raise over_limit("more than max_segments segments")
        if any(len(lengths) > limits["max_references_per_segment"] for lengths in payload["reference_lengths"]):
            raise over_limit("more than max_references_per_segment reference lengths")
        every = payload["candidate_lengths"] + [n for lengths in payload["reference_lengths"] for n in lengths]
        if any(self.too_long(n, limits["max_length"]) for n in every):
            raise over_limit("a length over max_length")

    def too_long(self, length, max_length: int) -> bool:
        return length > max_length

    # --- the penalty ---

    def closest(self, candidate: int, lengths: list[int]) -> int:
        """Smallest absolute difference, ties to the shorter."""
        best = None
        for length in sorted(lengths):
            if best is None or abs(length - candidate) < abs(best - candidate):
                best = length
        return best

    def total(self, values: list[int]) -> int:
        return sum(values)

    def brevity_penalty(self, c: int, r: int) -> float:
        if c > r:
            return 1.0
        if c == 0:
            return 0.0
        return math.exp(1.0 - r / c)  # "where r/c is one IEEE-754 double division"

    def rounded(self, value: float, payload) -> float:
        return to_fixed(value, as_int(payload["decimals"])) if "decimals" in payload else value

    def compute(self, payload) -> dict:
        candidates = [as_int(n) for n in payload["candidate_lengths"]]
        references = [[as_int(n) for n in lengths] for lengths in payload["reference_lengths"]]
        closest = [self.closest(c, lengths) for c, lengths in zip(candidates, references)]
        c, r = self.total(candidates), self.total(closest)
        return {
            "brevity_penalty": self.rounded(self.brevity_penalty(c, r), payload),
            "candidate_length": c,
            "reference_length": r,
            "closest_reference_lengths": closest,
        }

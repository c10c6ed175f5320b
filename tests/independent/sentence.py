"""bleu-sentence-components and bleu-sentence-compute, from their contracts' semantics.

One segment: its statistics come from the same ``BleuStatistics`` as the corpus tools (n-grams
as tuples of vocabulary indices). Validation is hand-written in the contracts' stated order:
the fields, each in schema order, then the limits (limit_exceeded, the schema's maxItems 8 and
maxLength 128 among them). The floats take another path than the oracle's where the contract
leaves room: 2^-k / l_n by ldexp (the same double as the one division), s / N' instead of
(1/N') * s, and an integer-only toFixed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from independent.bleu import BleuStatistics
from independent.contract import contract
from independent.fields import as_int, check_integer, check_object, invalid, lone_surrogate_in, over_limit, to_fixed


class SentenceTool:
    tool_id = ""
    keys: tuple[str, ...] = ("hypothesis", "references", "max_order")
    required: tuple[str, ...] = ("hypothesis", "references")
    default_max_order = 4

    def __init__(self, statistics: BleuStatistics | None = None):
        self.statistics = statistics or BleuStatistics()

    def execute(self, payload) -> dict:
        self.validate(payload)
        return self.compute(payload)

    def limits(self) -> dict:
        return contract(self.tool_id)["limits"]

    # --- validation, in the stated order ---

    def validate(self, payload) -> None:
        check_object(payload, self.keys, self.required)
        self.check_fields(payload)
        self.check_limits(payload)

    def check_fields(self, payload) -> None:
        self.check_tokens("hypothesis", payload["hypothesis"])
        self.check_references(payload["references"])
        if "max_order" in payload:
            check_integer("max_order", payload["max_order"], 1, 8)

    def check_tokens(self, name: str, tokens) -> None:
        """An array of non-empty strings free of lone surrogates (maxLength is a limit, checked later)."""
        if not isinstance(tokens, list):
            raise invalid(f"{name} must be an array")
        for token in tokens:
            if not isinstance(token, str):
                raise invalid(f"{name}: tokens are strings")
            if token == "":
                raise invalid(f"{name}: an empty token")
        for token in tokens:
            if self.has_lone_surrogate(token):
                raise invalid(f"{name}: a lone surrogate")

    def check_references(self, references) -> None:
        """An array of at least one token array (maxItems is a limit, checked later)."""
        if not isinstance(references, list):
            raise invalid("references must be an array")
        if not references:
            raise invalid("references: at least one reference")
        for reference in references:
            if not isinstance(reference, list):
                raise invalid("references: each reference is an array of tokens")
        for k, reference in enumerate(references):
            self.check_tokens(f"references[{k}]", reference)

    def has_lone_surrogate(self, token: str) -> bool:
        return lone_surrogate_in(token)

    def token_size(self, token: str) -> int:
        return len(token.encode("utf-8"))

    @staticmethod
    def every_token(payload) -> list[str]:
        return payload["hypothesis"] + [token for reference in payload["references"] for token in reference]

    def counted_tokens(self, payload) -> list[str]:
        """Both totals count the hypothesis tokens and every reference token, each occurrence."""
        return self.every_token(payload)

    def check_limits(self, payload) -> None:
        limits = self.limits()
        if len(payload["references"]) > limits["max_references_per_segment"]:
            raise over_limit("more than 8 references")
        if any(self.token_size(token) > limits["max_token_bytes"] for token in self.every_token(payload)):
            raise over_limit("a token is longer than max_token_bytes")
        counted = self.counted_tokens(payload)
        if len(counted) > limits["max_total_tokens"]:
            raise over_limit("too many tokens")
        if sum(map(self.token_size, counted)) > limits["max_total_token_bytes"]:
            raise over_limit("too many token bytes")

    # --- statistics ---

    def max_order(self, payload) -> int:
        return as_int(payload["max_order"]) if "max_order" in payload else self.default_max_order

    def reference_length(self, payload) -> int:
        return self.statistics.closest_ref_length(
            len(payload["hypothesis"]), [len(reference) for reference in payload["references"]]
        )


class BleuSentenceComponents(SentenceTool):
    tool_id = "bleu-sentence-components"

    def compute(self, payload) -> dict:
        max_order = self.max_order(payload)
        segment = self.statistics.segment(payload["hypothesis"], payload["references"], max_order)
        return {
            "max_order": max_order,
            "matches": segment.matches,
            "totals": segment.totals,
            "candidate_length": segment.candidate_length,
            "reference_length": self.reference_length(payload),
        }


SMOOTHING = ("none", "chen-cherry-1", "chen-cherry-2", "chen-cherry-3")
EPSILON = 0.1


@dataclass
class Precision:
    """p_n = numerator / denominator; the value is computed once, by the method."""

    numerator: float
    denominator: int
    value: float


class BleuSentenceCompute(SentenceTool):
    tool_id = "bleu-sentence-compute"
    keys = ("hypothesis", "references", "max_order", "smoothing", "effective_order", "decimals")
    required = ("hypothesis", "references", "smoothing")
    default_effective_order = False

    def check_fields(self, payload) -> None:
        super().check_fields(payload)
        if not isinstance(payload["smoothing"], str) or payload["smoothing"] not in SMOOTHING:
            raise invalid("smoothing must be one of " + ", ".join(SMOOTHING))
        if "effective_order" in payload and not isinstance(payload["effective_order"], bool):
            raise invalid("effective_order must be a boolean")
        if "decimals" in payload:
            check_integer("decimals", payload["decimals"], 0, 15)

    # --- the score ---

    def brevity_penalty(self, c: int, r: int) -> float:
        if c > r:
            return 1.0
        if c == 0:
            return 0.0
        return math.exp(1.0 - r / c)  # r/c one double division, as bleu-brevity-penalty states

    def precisions(self, matches: list[int], totals: list[int], method: str) -> list[Precision]:
        """Chen and Cherry 2014 section 2, as the contract states each method."""
        out = []
        k = 1
        for n, (m, total) in enumerate(zip(matches, totals), start=1):
            if method == "chen-cherry-2" and n >= 2:
                out.append(Precision(m + 1, total + 1, (m + 1) / (total + 1)))
            elif method == "chen-cherry-1" and m == 0:
                out.append(Precision(EPSILON, total, EPSILON / total if total else math.nan))
            elif method == "chen-cherry-3" and m == 0:
                # 1 / (2^k l_n): 1/l_n scaled by 2^-k is exact in the normal range, so equally one rounding
                out.append(Precision(1, total << k, math.ldexp(1 / total, -k) if total else math.nan))
                k += 1
            else:
                out.append(Precision(m, total, m / total if total else math.nan))
        return out

    def orders_used(self, precisions: list[Precision], effective_order: bool) -> int:
        if not effective_order:
            return len(precisions)
        used = 0
        while used < len(precisions) and precisions[used].denominator > 0:
            used += 1
        return used

    def is_zero(
        self, c: int, matches: list[int], precisions: list[Precision], used: int, effective_order: bool, method: str
    ) -> bool:
        if c == 0 or matches[0] == 0:
            return True
        if not effective_order and any(p.denominator == 0 for p in precisions):
            return True
        return method == "none" and 0 in matches[:used]

    def score(self, bp: float, precisions: list[Precision], used: int) -> float:
        log_sum = 0.0
        for p in precisions[:used]:
            log_sum += math.log(p.value)
        return bp * math.exp(log_sum / used)

    def rounded(self, value: float, payload) -> float:
        return to_fixed(value, as_int(payload["decimals"])) if "decimals" in payload else value

    def compute(self, payload) -> dict:
        max_order = self.max_order(payload)
        method = payload["smoothing"]
        effective_order = payload.get("effective_order", self.default_effective_order)
        segment = self.statistics.segment(payload["hypothesis"], payload["references"], max_order)
        c, r = segment.candidate_length, self.reference_length(payload)
        bp = self.brevity_penalty(c, r)
        precisions = self.precisions(segment.matches, segment.totals, method)
        used = self.orders_used(precisions, effective_order)
        if self.is_zero(c, segment.matches, precisions, used, effective_order, method):
            bleu = 0.0
        else:
            bleu = self.score(bp, precisions, used)
        return self.output(payload, bleu, bp, c, r, max_order, used, method, segment.matches, segment.totals)

    def output(self, payload, bleu, bp, c, r, max_order, used, method, matches, totals) -> dict:
        return {
            "bleu": self.rounded(bleu, payload),
            "brevity_penalty": self.rounded(bp, payload),
            "candidate_length": c,
            "reference_length": r,
            "max_order": max_order,
            "orders_used": used,
            "smoothing": method,
            "matches": matches,
            "totals": totals,
        }

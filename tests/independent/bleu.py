"""bleu-ngrams-count and bleu-corpus-compute, from their contracts' semantics.

An n-gram is a tuple of indices into the segment's vocabulary (so tokens holding spaces
can never collide), and the floats take another path than the oracle's.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction

from independent.contract import check_schema, contract, utf8_bytes
from independent.errors import Rejection


@dataclass
class Row:
    order: int
    ngram: list[str]
    count: int
    max_reference_count: int
    clipped_count: int


@dataclass
class Segment:
    candidate_length: int
    matches: list[int]
    totals: list[int]
    rows: list[Row]


class BleuStatistics:
    """Per-segment clipped counts (Papineni 2002, section 2.1 and footnote 2)."""

    def count(self, ids: list[int], n: int) -> dict[tuple[int, ...], int]:
        """Occurrences of each n-gram; dict order is the order of first occurrence."""
        found: dict[tuple[int, ...], int] = {}
        for start in range(len(ids) - n + 1):
            key = tuple(ids[start : start + n])
            found[key] = found.get(key, 0) + 1
        return found

    def max_reference_count(self, key: tuple[int, ...], reference_counts: list[dict]) -> int:
        return max(counts.get(key, 0) for counts in reference_counts)

    def clip(self, count: int, max_reference_count: int) -> int:
        return min(count, max_reference_count)

    def total(self, length: int, n: int) -> int:
        return max(0, length - n + 1)

    def segment(self, hypothesis: list[str], references: list[list[str]], max_order: int) -> Segment:
        vocabulary: dict[str, int] = {}
        words: list[str] = []

        def ids(tokens: list[str]) -> list[int]:
            out = []
            for token in tokens:
                if token not in vocabulary:
                    vocabulary[token] = len(words)
                    words.append(token)
                out.append(vocabulary[token])
            return out

        hyp = ids(hypothesis)
        refs = [ids(reference) for reference in references]
        matches, totals, rows = [], [], []
        for n in range(1, max_order + 1):
            reference_counts = [self.count(ref, n) for ref in refs]
            matched = 0
            for key, count in self.count(hyp, n).items():
                ref_max = self.max_reference_count(key, reference_counts)
                clipped = self.clip(count, ref_max)
                matched += clipped
                rows.append(Row(n, [words[i] for i in key], count, ref_max, clipped))
            matches.append(matched)
            totals.append(self.total(len(hyp), n))
        return Segment(len(hypothesis), matches, totals, rows)

    def closest_ref_length(self, candidate_length: int, reference_lengths: list[int]) -> int:
        """Closest to the hypothesis length, ties to the shorter reference."""
        best = reference_lengths[0]
        for length in reference_lengths[1:]:
            if abs(length - candidate_length) < abs(best - candidate_length) or (
                abs(length - candidate_length) == abs(best - candidate_length) and length < best
            ):
                best = length
        return best


class BleuTool:
    tool_id = ""
    default_max_order = 4

    def __init__(self, statistics: BleuStatistics | None = None):
        self.statistics = statistics or BleuStatistics()

    def execute(self, payload) -> dict:
        self.validate(payload)
        return self.compute(payload)

    def limits(self) -> dict:
        return contract(self.tool_id)["limits"]

    def validate(self, payload) -> None:
        check_schema(self.tool_id, payload)
        for key in ("max_order", "decimals"):  # strictly typed, like serde: 4.0 is not an integer (A9)
            if isinstance(payload.get(key), float):
                raise Rejection("invalid_input", f"{key} must be written as an integer")
        self.check_segment_counts(payload)
        self.check_tokens(payload)

    def check_segment_counts(self, payload) -> None:
        """Every hypothesis needs its references; reference sets beyond the last hypothesis are
        ignored (the other reading of A10)."""
        if len(payload["hypotheses"]) > len(payload["references"]):
            raise Rejection("invalid_input", "a hypothesis has no references")

    def token_size(self, token: str) -> int:
        return utf8_bytes(token)

    def check_tokens(self, payload) -> None:
        """Every token within max_token_bytes; the totals over hypothesis tokens only (A1)."""
        limits = self.limits()
        every_token = [t for h in payload["hypotheses"] for t in h]
        every_token += [t for refs in payload["references"][: len(payload["hypotheses"])] for r in refs for t in r]
        for token in every_token:
            if self.token_size(token) > limits["max_token_bytes"]:
                raise Rejection("limit_exceeded", "a token is longer than max_token_bytes")
        hypothesis_tokens = [t for h in payload["hypotheses"] for t in h]
        if len(hypothesis_tokens) > limits["max_total_tokens"]:
            raise Rejection("limit_exceeded", "too many tokens")
        if sum(map(utf8_bytes, hypothesis_tokens)) > limits["max_total_token_bytes"]:
            raise Rejection("limit_exceeded", "too many token bytes")

    def max_order(self, payload) -> int:
        return int(payload.get("max_order", self.default_max_order))

    def segments(self, payload) -> list[Segment]:
        max_order = self.max_order(payload)
        return [
            self.statistics.segment(h, refs, max_order) for h, refs in zip(payload["hypotheses"], payload["references"])
        ]

    @staticmethod
    def corpus(segments: list[Segment], max_order: int) -> tuple[list[int], list[int]]:
        matches, totals = [0] * max_order, [0] * max_order
        for segment in segments:
            for k in range(max_order):
                matches[k] += segment.matches[k]
                totals[k] += segment.totals[k]
        return matches, totals


class BleuNgramsCount(BleuTool):
    tool_id = "bleu-ngrams-count"

    def compute(self, payload) -> dict:
        max_order = self.max_order(payload)
        detail = payload.get("detail", "totals")
        segments = self.segments(payload)
        matches, totals = self.corpus(segments, max_order)
        output = {"max_order": max_order, "matches": matches, "totals": totals}
        if detail != "totals":
            output["segments"] = self.segment_rows(segments)
        if detail == "ngrams":
            output["ngrams"] = self.ngram_rows(segments)
        self.check_output_size(output)
        return output

    def segment_rows(self, segments: list[Segment]) -> list[dict]:
        return [
            {"segment": i, "candidate_length": s.candidate_length, "matches": s.matches, "totals": s.totals}
            for i, s in enumerate(segments)
        ]

    def ngram_rows(self, segments: list[Segment]) -> list[dict]:
        return [
            {
                "segment": i,
                "order": r.order,
                "ngram": r.ngram,
                "count": r.count,
                "max_reference_count": r.max_reference_count,
                "clipped_count": r.clipped_count,
            }
            for i, s in enumerate(segments)
            for r in s.rows
        ]

    def output_size(self, output: dict) -> int:
        """Python's default serialisation (another reading of A2)."""
        return len(json.dumps(output).encode("ascii"))

    def check_output_size(self, output: dict) -> None:
        if self.output_size(output) > self.limits()["max_output_bytes"]:
            raise Rejection("limit_exceeded", "output too large; ask for a coarser detail")


def to_fixed_number(x: float, digits: int) -> float:
    """Number(x.toFixed(digits)): the n with n/10^d - x nearest zero, the larger on a tie."""
    scaled = Fraction(x) * 10**digits
    n = math.floor(scaled)
    if scaled - n >= Fraction(1, 2):
        n += 1
    return float(Fraction(n, 10**digits))


class BleuCorpusCompute(BleuTool):
    tool_id = "bleu-corpus-compute"

    def brevity_penalty(self, c: int, r: int) -> float:
        if c > r:
            return 1.0
        if c == 0:
            return 0.0
        return math.exp((c - r) / c)

    def score(self, bp: float, matches: list[int], totals: list[int]) -> float:
        if bp == 0.0 or 0 in matches:
            return 0.0
        log_sum = 0.0
        for m, total in zip(matches, totals):
            log_sum += math.log(m) - math.log(total)
        return bp * math.exp(log_sum / len(matches))

    def reference_length(self, payload) -> int:
        return sum(
            self.statistics.closest_ref_length(len(h), [len(r) for r in refs])
            for h, refs in zip(payload["hypotheses"], payload["references"])
        )

    def rounded(self, value: float, payload) -> float:
        return to_fixed_number(value, int(payload["decimals"])) if "decimals" in payload else value

    def compute(self, payload) -> dict:
        max_order = self.max_order(payload)
        matches, totals = self.corpus(self.segments(payload), max_order)
        c = sum(len(h) for h in payload["hypotheses"])
        r = self.reference_length(payload)
        bp = self.brevity_penalty(c, r)
        bleu = self.score(bp, matches, totals)
        return {
            "bleu": self.rounded(bleu, payload),
            "brevity_penalty": self.rounded(bp, payload),
            "candidate_length": c,
            "reference_length": r,
            "max_order": max_order,
            "matches": matches,
            "totals": totals,
        }

"""--shard K/N: a deterministic share of a run's checks, balanced by expected cost.

A run's checks (each fixture case, each generated property) are dealt to N shares by greedy
longest-processing-time assignment: the costliest check first, each to the share with the least
expected cost so far (ties to the lower share, checks of equal cost in id order). The partition
depends only on the checks and the profile, so the same suite, tools, families and profile give
the same N shares on every machine: ``conformance run --shard K/N`` runs share K, and the N shares
together are exactly the unsharded run's checks. ``-n`` deals its processes' shares the same way.

The expected cost of a generated property is its family's example budget (the profile's count for
its category) times the cost of one example of that category; a fixture case costs one call.
The unit costs are relative, measured on a default run against the in-process oracle (ms per
example: boundary inputs at the size limits cost an order of magnitude more than the others).
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable
from dataclasses import dataclass

from conformance.engine.options import PROFILES, UsageError

FIXTURE_COST = 1.0  # one call, one judgement
EXAMPLE_COST = {"valid": 2.5, "boundary": 30.0, "invalid": 2.0}  # one generated example, by category

_SHARD = re.compile(r"([0-9]+)/([0-9]+)")


@dataclass(frozen=True)
class Shard:
    index: int  # 1..total
    total: int

    def to_dict(self) -> dict:
        return {"index": self.index, "total": self.total}


def parse_shard(text: str) -> Shard:
    """``K/N`` with 1 <= K <= N; a UsageError names what is wrong."""
    match = _SHARD.fullmatch(text.strip())
    if not match:
        raise UsageError(f"--shard {text!r}: expected K/N, e.g. 1/4")
    index, total = int(match.group(1)), int(match.group(2))
    if not 1 <= index <= total:
        raise UsageError(f"--shard {text!r}: K must be between 1 and N")
    return Shard(index, total)


def property_cost(profile: str, category: str) -> float:
    return PROFILES[profile].get(category, 0) * EXAMPLE_COST.get(category, 1.0)


def check_costs(fixture_ids: Iterable[str], properties: Iterable[tuple[str, str]], profile: str) -> dict[str, float]:
    """Check id -> its expected cost: each fixture case one call, each property (id, category) its budget."""
    costs = dict.fromkeys(fixture_ids, FIXTURE_COST)
    costs.update((check_id, property_cost(profile, category)) for check_id, category in properties)
    return costs


def assign(costs: dict[str, float], total: int) -> dict[str, int]:
    """Check id -> its share (1..total), by greedy longest-processing-time assignment."""
    loads = [(0.0, index) for index in range(1, total + 1)]  # (expected cost so far, share)
    shares: dict[str, int] = {}
    for check_id in sorted(costs, key=lambda found: (-costs[found], found)):
        load, index = heapq.heappop(loads)
        shares[check_id] = index
        heapq.heappush(loads, (load + costs[check_id], index))
    return shares

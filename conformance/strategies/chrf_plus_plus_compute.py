"""Generated cases for chrf-plus-plus-compute: the chrF families, with A4's readings (the
contract's corpus sums and sacreBLEU's) and A6 (257 segments: either code) left open."""

from __future__ import annotations

from conformance.strategies import chrf
from conformance.strategies.base import Family
from conformance.strategies.chrf import CASED_WORDS  # noqa: F401 - the tests read the lowercase words here


def families(tool_id: str, version: str) -> list[Family]:
    return [
        *chrf.valid_families(tool_id, version),
        *chrf.boundary_families(tool_id, version),
        *chrf.invalid_families(tool_id, version),
    ]

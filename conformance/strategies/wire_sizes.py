"""The largest request bodies a valid input can produce, per tool."""

from __future__ import annotations

from conformance.strategies.base import Family


def families(tool_id: str, version: str) -> list[Family]:
    return []

"""The open points' functions called by tool id and version, as the tests name tools."""

from __future__ import annotations

from typing import Any

import oracle
from conformance import open_points
from conformance.open_points import Behaviour  # noqa: F401 - re-exported for the tests


def depends_on_open_point(tool_id: str, version: str, payload: Any) -> list[str]:
    return [point.id for point in open_points.depends_on(oracle.tool(tool_id, version), payload)]


def behaviours(tool_id: str, version: str, payload: Any) -> list[Behaviour]:
    return open_points.behaviours(oracle.tool(tool_id, version), payload)


def expected_outputs(tool_id: str, version: str, payload: Any) -> list[dict]:
    return open_points.expected_outputs(oracle.tool(tool_id, version), payload)


def acceptable_error_codes(tool_id: str, version: str, payload: Any) -> set[str]:
    return open_points.acceptable_error_codes(oracle.tool(tool_id, version), payload)

"""Which reading of an open point a passing answer took: the run's map of how a target reads them.

The verdict passes an answer that matches any reasonable reading of the open points its input
touches (verdict.py). When it passed only under a reading other than the oracle's, the target
took that reading: ``readings_taken`` names it, point by point, and ``ReadingsLog`` gathers
them over a run into report.json's ``readings``::

    {"A4": {"reading": "A4: corpus sums drop ...", "count": 12, "cases": ["generated/...", ...]}}

A case counts under every point of the combination of readings it matched (e.g. A1 and A4).
A rejection whose code only an open point's error codes allow (A6, A7, A14) is listed under
each such point as "rejected with CODE where the case names WANTED". Cases the oracle's own
reading answers are not listed: the map shows where the target departs from the oracle.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from conformance import open_points
from conformance.compare.expected import Expected
from conformance.compare.verdict import CODED_ERRORS, _reading_answering_with, compare_output
from conformance.model import Case, TargetResponse, Verdict

MAX_LISTED_CASES = 50  # case ids kept per open point (the count is exact)


def readings_taken(
    case: Case, expected: Expected, response: TargetResponse | None, verdict: Verdict
) -> list[tuple[str, str]]:
    """(open point id, the reading taken) for each point whose other reading the passing answer
    needed; empty when the oracle's own reading answers or the case did not pass."""
    if verdict.outcome != "passed" or response is None:
        return []
    if response.kind == "rejection" and case.expect.kind == "error":
        return _code_readings(case, expected, response)
    if "readings" not in vars(expected):
        # Expected computes the other readings on first use and caches them: if the verdict never
        # needed them, the oracle's own reading answered. (Only a shortcut: what follows is right anyway.)
        return []
    return _points_of(_reading_name(case, expected, response))


def _reading_name(case: Case, expected: Expected, response: TargetResponse) -> str:
    """The reading (a "; "-joined combination of alternative names) the answer matched, or ""."""
    if response.kind == "rejection":  # a valid input rejected, as a reading of an open point does
        return next((b.reading for b in expected.readings if b.output is None), "")
    if response.kind != "result":
        return ""
    oracle_output = expected.oracle.output
    if oracle_output is not None and compare_output(expected.tool, case.input, oracle_output, response.result) is None:
        return ""
    return _reading_answering_with(expected, response.result)


def _points_of(reading: str) -> list[tuple[str, str]]:
    return [
        (point.id, point.alternative_name)
        for point in open_points.CATALOGUE
        if point.alternative_name and point.alternative_name in reading
    ]


def _code_readings(case: Case, expected: Expected, response: TargetResponse) -> list[tuple[str, str]]:
    wanted, got = case.expect.error_code, response.error_code
    if wanted not in CODED_ERRORS or not got or got == wanted:
        return []
    text = f"rejected with {got} where the case names {wanted}"
    return [
        (point.id, f"{point.id}: {text}")
        for point in open_points.applicable(expected.tool)
        if point.error_codes is not None and got in _codes(point, expected.tool, case.input)
    ]


def _codes(point, tool, payload: Any) -> set[str]:
    try:
        return point.error_codes(tool, payload)
    except (TypeError, AttributeError, KeyError, ValueError):
        return set()  # malformed input: no reading's code to name


class ReadingsLog:
    """The readings a run's targets took, per open point (thread-safe: fixture calls may run in a pool)."""

    def __init__(self) -> None:
        self._points: dict[str, dict] = {}
        self._lock = threading.Lock()

    def note(self, case: Case, expected: Expected, response: TargetResponse | None, verdict: Verdict) -> None:
        for point_id, reading in readings_taken(case, expected, response, verdict):
            with self._lock:
                entry = self._points.setdefault(point_id, {"readings": {}, "count": 0})
                entry["count"] += 1
                cases = entry["readings"].setdefault(reading, [])
                if len(cases) < MAX_LISTED_CASES and case.case_id not in cases:
                    cases.append(case.case_id)

    def to_dict(self) -> dict:
        """``{point id: {"reading": the reading most cases took, "count": cases, "cases": [ids],
        "other_readings": {reading: [ids]}}}``, points in catalogue order."""
        order = {point.id: index for index, point in enumerate(open_points.CATALOGUE)}
        document = {}
        for point_id in sorted(self._points, key=lambda found: order.get(found, len(order))):
            entry = self._points[point_id]
            ranked = sorted(entry["readings"].items(), key=lambda item: -len(item[1]))
            (reading, cases), others = ranked[0], ranked[1:]
            document[point_id] = {
                "title": open_points.BY_ID[point_id].title,
                "reading": reading,
                "count": entry["count"],
                "cases": list(cases),
            }
            if others:
                document[point_id]["other_readings"] = {name: list(ids) for name, ids in others}
        return document


def merge_readings(documents: list[dict], case_order: Callable[[str], Any]) -> dict:
    """Several runs' ``readings`` (ReadingsLog.to_dict) as the one run they share out would give them:
    counts added, each reading's cases in the run's order (``case_order``: a case id's sort key) and
    capped as one log caps them, the reading most cases took first."""
    log = ReadingsLog()
    found: dict[str, dict[str, list[str]]] = {}
    for readings in documents:
        for point_id, entry in readings.items():
            point = log._points.setdefault(point_id, {"readings": {}, "count": 0})
            point["count"] += entry["count"]
            taken = found.setdefault(point_id, {})
            for reading, cases in [(entry["reading"], entry["cases"]), *entry.get("other_readings", {}).items()]:
                taken.setdefault(reading, []).extend(cases)
    for point_id, taken in found.items():
        ordered = {
            reading: sorted(dict.fromkeys(cases), key=case_order)[:MAX_LISTED_CASES] for reading, cases in taken.items()
        }
        # a log meets its readings in the order of their first cases
        log._points[point_id]["readings"] = dict(sorted(ordered.items(), key=lambda item: case_order(item[1][0])))
    return log.to_dict()

"""matrix.json: the compatibility matrix of the real implementations, built from their runs' report.json alone.

One cell per implementation x tool: "conformant" (every check it could express passed), "failing"
(with its failure groups: the clause each breaks and the catalogued divergence naming it, as the
run's report grouped them), "not_applicable" (the library's API expresses no case of the tool, or
every case was not applicable), or "not_run" (the library is not installed). Counts are of checks,
as every report counts them (a fixture case, a generated property: conformance.reports.document.checks):
passed, failed (failed or errored), not_applicable; the not-applicable ones are grouped by cause,
each cause once. Where the library computes only some output fields (partial answers), the cell names
the fields its checks were judged on (``judged_fields``) and those it does not compute
(``not_expressed``): the cell says "conformant on 2 of 9 fields", its section lists them
("judged on fields score, segment_scores; beta, ..., score_fraction not expressed").
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from pathlib import Path

import jsonschema

from conformance.model import NOT_APPLICABLE, field_name, is_not_applicable
from conformance.reports.document import checks

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "matrix.schema.json"
GROUP_FIELDS = (
    "title",
    "kind",
    "pointer_class",
    "clause",
    "divergence",
    "count",
    "smallest",
    "smallest_case",
    "difference",
)


class MatrixSchemaError(ValueError):
    """A matrix document does not follow matrix.schema.json (a bug of this module)."""


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def validate(document: dict) -> dict:
    error = jsonschema.exceptions.best_match(_validator().iter_errors(document))
    if error is not None:
        raise MatrixSchemaError(f"matrix.json breaks its schema at {error.json_path}: {error.message}")
    return document


def cause(message: str) -> str:
    """ "not applicable: CAUSE" -> CAUSE."""
    return message.removeprefix(NOT_APPLICABLE + ":").strip()


def run_cell(implementation: str, tool: str, report: dict) -> dict:
    """The cell of one tool the implementation was run on, from its report.json."""
    mine = [check for check in checks(report) if check.tool == tool]
    counts: Counter[str] = Counter()
    causes: dict[str, dict[str, int]] = {}
    judged, not_expressed = set(), set()
    for check in mine:
        fields, absent = expressed_fields(check)
        judged.update(fields)
        not_expressed.update(absent)
        message = check.message()
        if is_not_applicable(check.outcome, message):
            counts["not_applicable"] += 1
            causes.setdefault(cause(message), {"checks": 0, "examples": 0})["checks"] += 1
        elif check.outcome in ("failed", "errored"):
            counts["failed"] += 1
        elif check.outcome == "passed":
            counts["passed"] += 1
        else:
            counts["other"] += 1
        for text, examples in check.summary.get("not_applicable_causes", {}).items():
            causes.setdefault(cause(text), {"checks": 0, "examples": 0})["examples"] += examples
    groups = [
        {key: group.get(key) for key in GROUP_FIELDS}
        for group in report.get("failure_groups", [])
        if group.get("tool") == tool
    ]
    if counts["failed"]:
        status = "failing"
    elif counts["passed"]:
        status = "conformant"
    else:
        status = "not_applicable"
    return {
        "implementation": implementation,
        "tool": tool,
        "status": status,
        "counts": {key: counts[key] for key in ("passed", "failed", "not_applicable")},
        "not_applicable": [
            {"cause": text, **numbers}
            for text, numbers in sorted(causes.items(), key=lambda item: (-item[1]["checks"], -item[1]["examples"]))
        ],
        "failure_groups": groups,
        "judged_fields": sorted(judged),
        "not_expressed": sorted(not_expressed - judged),
    }


def expressed_fields(check) -> tuple[list[str], list[str]]:
    """(fields judged, fields not expressed) of a check's partial answers: a property's summary says them,
    a fixture case's response its declaration; ([], []) for whole answers."""
    if "judged_fields" in check.summary:
        return check.summary["judged_fields"], check.summary.get("not_expressed", [])
    fields: list[str] = []
    absent: list[str] = []
    for result in check.results:
        expressed = (result.get("response") or {}).get("expressed")
        if expressed:
            fields += map(field_name, expressed["fields"])
            absent += map(field_name, expressed["not_expressed"])
    return fields, absent


def idle_cell(implementation: str, tool: str, status: str, reason: str) -> dict:
    """A cell of a tool the implementation was not run on: not expressible, or the library missing."""
    return {
        "implementation": implementation,
        "tool": tool,
        "status": status,
        "counts": {"passed": 0, "failed": 0, "not_applicable": 0},
        "not_applicable": [{"cause": reason, "checks": 0, "examples": 0}],
        "failure_groups": [],
        "judged_fields": [],
        "not_expressed": [],
    }


def cell_summary(cell: dict) -> str:
    """ "conformant", "N failure groups", "not applicable" or "not run"; for partial answers followed by
    "on 2 of 9 fields" (the lists are the section's: ``fields_text``), so that a cell stays short."""
    if cell["status"] == "failing":
        groups = len(cell["failure_groups"])
        summary = f"{groups} failure group{'s' if groups != 1 else ''}"
    else:
        summary = cell["status"].replace("_", " ")
    if cell.get("judged_fields") and cell["status"] in ("failing", "conformant"):
        judged = len(cell["judged_fields"])
        summary += f" on {judged} of {judged + len(cell.get('not_expressed', []))} fields"
    return summary


def fields_text(cell: dict) -> str:
    """ "Judged on fields X, Y; Z not expressed" for a cell of partial answers ("" otherwise)."""
    if not cell.get("judged_fields") or cell["status"] not in ("failing", "conformant"):
        return ""
    text = "Judged on fields " + ", ".join(cell["judged_fields"])
    return text + ("; " + ", ".join(cell["not_expressed"]) + " not expressed" if cell.get("not_expressed") else "")


def counts_text(cell: dict) -> str:
    counts = cell["counts"]
    return f"{counts['passed']} passed · {counts['failed']} failed · {counts['not_applicable']} not applicable"

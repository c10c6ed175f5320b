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
import sys
import tempfile
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from conformance.model import NOT_APPLICABLE, field_name, is_not_applicable
from conformance.reports.document import checks
from conformance.reports.text import counted
from conformance.steps import WRONG

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


PROJECT = Path(__file__).resolve().parents[2]


@lru_cache(maxsize=1)
def _machine_paths() -> tuple[tuple[str, str], ...]:
    """This machine's directories a library's traceback or message may hold, most specific first, each with what
    it is: a matrix is published, and says nothing of the machine it ran on."""
    named = {
        str(PROJECT): "<project>",
        sys.prefix: "<python>",
        sys.base_prefix: "<python>",
        str(Path.home()): "~",
        tempfile.gettempdir(): "<tmp>",
    }
    return tuple(sorted(((path, name) for path, name in named.items() if len(path) > 1), key=lambda p: -len(p[0])))


def portable(value: Any) -> Any:
    """The JSON value with this machine's paths replaced by what they are (<project>, <python>, ~, <tmp>)."""
    if isinstance(value, str):
        for path, name in _machine_paths():
            value = value.replace(path, name)
        return value
    if isinstance(value, list):
        return [portable(item) for item in value]
    if isinstance(value, dict):
        return {key: portable(item) for key, item in value.items()}
    return value


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


def step_tool(step: dict) -> str:
    return f"{step['tool_id']}@{step['version']}"


def credited(check, tool: str) -> str | None:
    """The check's outcome in one tool's cell, None when it has no part there. Each step of a multi-request
    case (a sequence, a burst, a relation: conformance/steps.py) counts for its own tool: a wrong step of
    tool B fails B's cell, whichever tool's property drew the case; the property's own tool passes where its
    own steps did."""
    wrong_here = wrong_elsewhere = False
    for result in check.results:
        steps = result["case"].get("steps") or []
        if not steps:
            wrong_here |= step_tool(result["case"]) == tool and result["outcome"] in WRONG
            continue
        for step in steps:
            if step.get("outcome") in WRONG:
                if step_tool(step) == tool:
                    wrong_here = True
                else:
                    wrong_elsewhere = True
    if wrong_here:
        return "failed"
    if check.tool != tool:
        return None
    if check.outcome in WRONG and wrong_elsewhere:
        return "passed"  # every wrong step was another tool's, credited there
    return check.outcome


def uncovered_steps(found: list, tool: str) -> list[tuple[dict, int]]:
    """(result, step index) of each wrong step of the tool whose case's first wrong step is another tool's:
    the run's failure groups file the case under that other tool."""
    uncovered = []
    for check in found:
        for result in check.results:
            steps = result["case"].get("steps") or []
            if not steps or step_tool(result["case"]) == tool:
                continue
            uncovered += [
                (result, index)
                for index, step in enumerate(steps)
                if step.get("outcome") in WRONG and step_tool(step) == tool
            ]
    return uncovered


def step_group(tool: str, uncovered: list[tuple[dict, int]]) -> dict:
    """One group for the tool's wrong steps of cases filed under another tool (their first wrong step)."""
    result, index = min(uncovered, key=lambda item: len(json.dumps(item[0]["case"]["steps"][item[1]]["input"])))
    case = result["case"]
    return {
        "title": f"wrong answer in a multi-request case whose first wrong step is another tool's ({tool})",
        "kind": "wrong step",
        "pointer_class": "",
        "clause": None,
        "divergence": None,
        "count": len(uncovered),
        "smallest": case["steps"][index]["input"],
        "smallest_case": f"{case['case_id']}#step-{index + 1}",
        "difference": f"step {index + 1} of {len(case['steps'])} ({case.get('sending', '')}) was wrong; "
        f"the case is grouped under {step_tool(case)}, its first wrong step",
    }


def run_cell(implementation: str, tool: str, report: dict) -> dict:
    """The cell of one tool the implementation was run on, from its report.json."""
    found = checks(report)
    counts: Counter[str] = Counter()
    causes: dict[str, dict[str, int]] = {}
    judged: set[str] = set()
    not_expressed: set[str] = set()
    for check in found:
        outcome = credited(check, tool)
        if outcome is None:
            continue
        if check.tool == tool:  # a multi-request property's steps for other tools judge their fields, not these
            fields, absent = expressed_fields(check)
            own = set(output_fields(tool))
            judged.update(f for f in fields if not own or f.split("/")[0] in own)
            not_expressed.update(f for f in absent if not own or f.split("/")[0] in own)
        message = check.message()
        if is_not_applicable(outcome, message):
            counts["not_applicable"] += 1
            causes.setdefault(cause(message), {"checks": 0, "examples": 0})["checks"] += 1
        elif outcome in WRONG:
            counts["failed"] += 1
        elif outcome == "passed":
            counts["passed"] += 1
        else:
            counts["other"] += 1
        if check.tool != tool:
            continue
        for text, examples in check.summary.get("not_applicable_causes", {}).items():
            causes.setdefault(cause(text), {"checks": 0, "examples": 0})["examples"] += examples
    groups = [
        portable({key: group.get(key) for key in GROUP_FIELDS})
        for group in report.get("failure_groups", [])
        if group.get("tool") == tool
    ]
    uncovered = uncovered_steps(found, tool)
    if uncovered:
        groups.append(step_group(tool, uncovered))
    if counts["failed"] and not groups:  # never a failing cell without a cause to read
        groups.append(
            {
                **dict.fromkeys(GROUP_FIELDS),
                "title": "failed checks the run's report groups under no cause",
                "kind": "ungrouped",
                "count": counts["failed"],
            }
        )
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
            {"cause": portable(text), **numbers}
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


def output_fields(tool: str) -> list[str]:
    """The top-level fields of the tool's output_schema (``tool``: "id@version"), [] for a tool not implemented."""
    import oracle
    from oracle.errors import ContractError

    tool_id, _, version = tool.partition("@")
    try:
        return list(oracle.tool(tool_id, version).contract.output_schema.get("properties", {}))
    except ContractError:
        return []


def top_level(fields: list[str]) -> list[str]:
    """ "segments/*/score" -> "segments": the output fields a list of judged fields touches, in order."""
    return list(dict.fromkeys(name.split("/")[0] for name in fields))


def cell_summary(cell: dict) -> str:
    """ "conformant", "N failure groups", "not applicable" or "not run"; for partial answers followed by
    "on 2 of 9 fields": the output fields judged (a nested one, segments/*/score, counts as its top-level field)
    of the tool's output_schema's (the lists are the section's: ``fields_text``), so that a cell stays short."""
    if cell["status"] == "failing":
        groups = len(cell["failure_groups"])
        summary = counted(groups, "failure group")
    else:
        summary = cell["status"].replace("_", " ")
    if cell.get("judged_fields") and cell["status"] in ("failing", "conformant"):
        judged = top_level(cell["judged_fields"])
        every = output_fields(cell["tool"]) or top_level(cell["judged_fields"] + cell.get("not_expressed", []))
        summary += f" on {len(judged)} of {len(every)} fields"
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

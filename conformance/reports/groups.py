"""Failure groups: the failures of a run by cause, biggest first (report.json ``failure_groups``).

    failure_groups(problems) -> [group]    problems: report.json results that fail the run

One group per failure signature (compare.signature: tool, JSON pointer class of the first telling
difference, kind of difference, the clause it breaks) and catalogued divergence explaining it (a
library's known departure is a cause of its own, beside the same difference it does not explain).
A mechanism the answer shows (compare.answer_causes: a whitespace set, UTF-16 code units) is one cause
wherever it first shows, and a library sharing it on some inputs does not split it: its group names
that divergence only when it explains every member.
Each group holds its count, its clause, its divergence (or null), its members (case ids), its
smallest input (the smallest member by JSON size: generated members are already shrunk) and
that member's first difference. Pure functions over the results; every report renders the groups
from report.json (group_views.py), so every format shows the same groups.
"""

from __future__ import annotations

import json
from typing import Any

from conformance.compare.signature import Cause, explain
from conformance.model import Expressed

LIBRARY_NAMES = {"nltk": "NLTK", "sacrebleu": "sacreBLEU"}


def input_size(result: dict) -> int:
    """Characters of the case's input as compact JSON: what "smallest" means."""
    return len(json.dumps(result["case"]["input"], ensure_ascii=False, separators=(",", ":"), default=str))


def divergence_entry(divergence: Any) -> dict | None:
    """A catalogued divergence as report.json gives it: named by its mechanism (its id), explained in one line by
    what differs and the libraries known to show it."""
    if divergence is None:
        return None
    libraries = ", ".join(LIBRARY_NAMES.get(name, name) for name in divergence.libraries)
    return {
        "id": divergence.id,
        "libraries": list(divergence.libraries),
        "explanation": divergence.what_differs + (f" (as in {libraries})" if libraries else ""),
        "mechanism": divergence.mechanism,
    }


def _cause(result: dict, implementation: str = "") -> Cause | None:
    try:
        return explain(result, implementation=implementation)
    except Exception:  # noqa: BLE001 - a result the suite cannot explain still gets reported, in a group of its own
        return None


def _unexplained_signature(result: dict) -> tuple[str, ...]:
    case = result["case"]
    return (case["tool_id"], "", result["outcome"], "unattributed:")


def failure_groups(problems: list[dict], implementation: str = "") -> list[dict]:
    """The groups of the failing results, biggest first (ties: in the order their first member failed);
    ``implementation``: the library the target is (``implementation:NAME``), whose own catalogued entries
    name its failures before another library's with the same answer."""
    groups: dict[tuple[str, ...], dict] = {}
    for result in problems:
        cause = _cause(result, implementation)
        signature = cause.signature if cause is not None else _unexplained_signature(result)
        divergence = cause.divergence.id if cause is not None and cause.divergence is not None else ""
        # a mechanism the answer shows is the cause: a library sharing it on some inputs does not split it
        key = (*signature, "" if cause is not None and cause.clause.mechanism else divergence)
        group = groups.get(key)
        if group is None:
            group = groups[key] = _new_group(result, signature, cause)
        group["_divergences"].append(cause.divergence if cause is not None else None)
        group["members"].append(result["case"]["case_id"])
        if input_size(result) < group["_smallest_size"]:
            _take_smallest(group, result)
    ordered = sorted(groups.values(), key=lambda g: -len(g["members"]))  # a stable sort keeps first-failed order
    return [_finished(group) for group in ordered]


def _new_group(result: dict, signature: tuple[str, ...], cause: Cause | None) -> dict:
    case = result["case"]
    tool = f"{case['tool_id']}@{case['version']}"
    clause = (
        cause.clause.to_dict()
        if cause is not None
        else {
            "tool": tool,
            "kind": "unattributed",
            "number": None,
            "name": None,
            "text": "the suite could not explain this result",
        }
    )
    title_where = (
        (cause.clause.mechanism or cause.pointer_class or "the whole output")
        if cause is not None
        else result["outcome"]
    )
    title_kind = cause.kind if cause is not None else result["outcome"]
    group = {
        "signature": list(signature),
        "title": f"{tool} · {title_where} · {title_kind}",
        "tool": tool,
        "kind": title_kind,
        "pointer_class": cause.pointer_class if cause is not None else "",
        "clause": clause,
        "divergence": divergence_entry(cause.divergence) if cause is not None else None,
        "judged_on": judged_on(result),
        "members": [],
        "_smallest_size": float("inf"),
        "_divergences": [],
    }
    return group


def judged_on(result: dict) -> str:
    """For a partial answer (an implementation's library computes some fields): "on fields X (Y not expressed)"."""
    expressed = (result.get("response") or {}).get("expressed")
    return Expressed(tuple(expressed["fields"]), tuple(expressed["not_expressed"])).judged_on() if expressed else ""


def _take_smallest(group: dict, result: dict) -> None:
    group["_smallest_size"] = input_size(result)
    group["smallest"] = result["case"]["input"]
    group["smallest_case"] = result["case"]["case_id"]
    mismatch = result["mismatch"]
    group["difference"] = (
        None if mismatch is None else {key: mismatch[key] for key in ("pointer", "expected", "actual", "message")}
    )


def _finished(group: dict) -> dict:
    group.pop("_smallest_size")
    divergences = group.pop("_divergences")
    if group["clause"].get("mechanism"):  # named only where it explains every member
        first = divergences[0]
        shared = first is not None and all(d is not None and d.id == first.id for d in divergences)
        group["divergence"] = divergence_entry(first) if shared else None
    group["count"] = len(group["members"])
    return group


def clause_label(clause: dict) -> str:
    """``semantics 5``, ``semantics 2 (whitespace set)``, ``limit max_token_bytes``,
    ``schema output_schema /bleu maximum``, ``unattributed``."""
    if clause["kind"] == "semantics" and clause["number"] is not None:
        mechanism = clause.get("mechanism")
        return f"semantics {clause['number']}" + (f" ({mechanism})" if mechanism else "")
    return f"{clause['kind']} {clause['name']}" if clause["name"] else clause["kind"]


def clause_text(clause: dict) -> str:
    """``semantics 5: "bleu = ..."``, ``limit max_token_bytes: limits: max_token_bytes 128``, ``unattributed: why``."""
    label = clause_label(clause)
    quoted = f"“{clause['text']}”" if clause["kind"] == "semantics" else clause["text"]
    return f"{clause['tool']} {label}: {quoted}"

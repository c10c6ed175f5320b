"""The end-of-run console summary, rendered from the report.json document.

    summary(document, paths) -> str

A table of checks per tool by outcome (document.checks: each fixture case and each
generated property once, with the generated examples sent), the failure groups, the failures
(each group's smallest in full, up to DETAILED_FAILURES, then one line each; failures.failure_text),
why a run could not conclude, and the closing verdict with the totals every other report
gives (document.totals), then where the reports are. The live progress line while the run
works is conformance/progress.py.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import conformance.reports.document as doc
from conformance.model import OUTCOMES
from conformance.reports.baseline import run_exit_code
from conformance.reports.baseline_views import console_lines as baseline_lines
from conformance.reports.drift import DRIFT_HEADING, drift_lines
from conformance.reports.failures import failure_text, failure_view
from conformance.reports.group_views import group_views, groups_heading
from conformance.reports.readings import console_lines as readings_lines
from conformance.reports.text import LINE_LIMIT, counted, one_line, prose

DETAILED_FAILURES = 10  # explained in full at the end of a run; the rest by id (all are in the reports)


def summary_table(document: dict) -> str:
    """Per tool, by outcome: each fixture case and each generated property (family) counts once;
    ``examples`` is how many generated inputs were sent."""
    rows: dict[str, Counter] = defaultdict(Counter)
    for check in doc.checks(document):
        rows[check.tool_id][check.outcome] += 1
        rows[check.tool_id]["examples"] += check.examples or 0
    header = ["tool", *OUTCOMES, "examples"]
    table = [header] + [[tool_id, *(str(rows[tool_id][key]) for key in header[1:])] for tool_id in sorted(rows)]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    lines = [
        "  ".join(cell.rjust(width) if i else cell.ljust(width) for i, (cell, width) in enumerate(zip(row, widths)))
        for row in table
    ]
    return "\n".join(lines + ["(fixture cases and generated properties by outcome; examples: generated inputs sent)"])


def verdict_line(document: dict) -> str:
    """``target T: NOT conformant (seed 1, profile quick)``; when some tools were not served, how many were
    judged (``; 1 of 8 tools served``), so that "conformant" is not read as every tool's verdict."""
    header = document["header"]
    not_served = header.get("not_served") or []
    served = f"; {len(header['contracts']) - len(not_served)} of {len(header['contracts'])} tools served"
    return (
        f"target {prose(header.get('target', '?'))}: {doc.verdict_phrase(document['exit_code'])} "
        f"(seed {header.get('seed')}, profile {header.get('profile')}{served if not_served else ''})"
    )


def _input_size(result: dict) -> int:
    return len(json.dumps(result["case"]["input"], ensure_ascii=False))


def failures_text(document: dict, detailed: int = DETAILED_FAILURES) -> list[str]:
    """The failures: in full, the smallest of each failure group (biggest group first) and each failure no group
    holds (smallest input first), up to ``detailed``; then the rest one line each, smallest input first. One
    cause's further failures add lines, not screens: the group above already says what they share."""
    problems = sorted(doc.problem_results(document), key=_input_size)
    groups = document.get("failure_groups", [])
    grouped = {member for group in groups for member in group["members"]}
    by_case = {result["case"]["case_id"]: result for result in problems}
    representatives = [by_case[group["smallest_case"]] for group in groups if group["smallest_case"] in by_case]
    in_full = (representatives + [result for result in problems if result["case"]["case_id"] not in grouped])[:detailed]
    header = document["header"]
    lines = [
        "\n" + failure_text(failure_view(number, result, header), compact=True)
        for number, result in enumerate(in_full, 1)
    ]
    shown = {id(result) for result in in_full}
    rest = [result for result in problems if id(result) not in shown]
    if rest:
        lines.append(
            f"\n{counted(len(rest), 'more failure')}, one line each (report.md and report.json hold their details):"
        )
    for result in rest:
        case_id = prose(result["case"]["case_id"])
        lines.append(one_line(f"  {result['outcome']}: {case_id}: {prose(result['message'])}", LINE_LIMIT))
    return lines


def groups_text(document: dict) -> list[str]:
    """The failure groups, biggest first: what to fix, before the failures one by one."""
    views = group_views(document)
    if not views:
        return []
    lines = ["", groups_heading(document) + ":"]
    for view in views:
        lines.append(f"{view.number}. {view.title}")
        lines += [f"    {label}: {one_line(text, LINE_LIMIT)}" for label, text in view.facts]
    return lines


def summary(document: dict, paths: dict[str, Path] | None = None) -> str:
    """Everything a run prints when it ends."""
    lines = ["", summary_table(document), *groups_text(document), *failures_text(document)]
    not_served = document["header"].get("not_served") or []
    if not_served:
        lines.append(
            f"\nnot served by the target (tools it answered 'not found' for: skipped, not failed): "
            f"{prose(', '.join(not_served))}"
        )
    lines += readings_lines(document)  # readings of open points the target took
    drift = drift_lines(document["header"])
    if drift:
        lines += [f"\n{DRIFT_HEADING}:", *(f"  {line}" for line in drift)]
    if document["unhealthy_reason"]:
        heading = doc.stop_heading(document)
        reason = prose(document["unhealthy_reason"])
        lines.append(f"\n{heading.upper()}, run stopped: {reason}" if heading else f"\nRUN STOPPED: {reason}")
    interrupted = doc.interruption_text(document)
    if interrupted:
        lines.append("\n" + interrupted.replace("interrupted", "INTERRUPTED", 1))
    for error in doc.harness_errors(document):
        lines.append(f"\nHARNESS ERROR (a bug of the suite, please report it): {error}")
    diff = document.get("baseline_diff")
    lines += baseline_lines(diff)  # what changed since the baseline, just before the verdict
    lines += ["", verdict_line(document), doc.totals_text(document["totals"])]
    if diff is not None:
        lines.append(
            f"--baseline: exit {run_exit_code(document['exit_code'], diff)} "
            f"({'new failures since the baseline' if diff['new_failures'] else 'no new failure'})"
        )
    lines += [f"  {name}: {path}" for name, path in sorted((paths or {}).items())]
    return "\n".join(lines)

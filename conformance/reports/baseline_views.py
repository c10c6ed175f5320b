"""A baseline diff (report.json ``baseline_diff``, baseline.py) as every report shows it, in words.

    diff_headline(diff) -> str           one line: what changed in failures, and the exit it gives
    diff_sections(diff) -> [DiffSection]  new, still failing, fixed since the baseline, no longer checked, then the run,
                                         the contracts, the contract drift and the checks that changed

The console, report.md/report.html (which lead with it under ``run --baseline``) and the files of
``conformance diff --report-dir`` render these sections; each format escapes the text for itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from conformance.reports.groups import clause_label
from conformance.reports.text import MAX_LISTED, counted, prose, render_value

TITLE = "What changed since the baseline"
MAX_CHECKS_SHOWN = 20  # of the checks added or removed; diff.json lists them all


@dataclass
class DiffSection:
    title: str
    lines: list[str]  # prose, already made visible


def diff_headline(diff: dict) -> str:
    """``1 new failure · 1 fixed since the baseline · 2 still failing (1 changed count): regressions — exit 1
    (--fail-on new)``. "Fixed" here is a failure group of the baseline no longer failing; a known failure
    that passes now is "known failure now passing" (document.outcome_word), never "fixed"."""
    groups = diff["groups"]
    changed = sum(entry["old_count"] != entry["new_count"] for entry in groups["still_failing"])
    parts = [
        counted(diff["new_failures"], "new failure"),
        f"{len(groups['fixed'])} fixed since the baseline",
        f"{len(groups['still_failing'])} still failing" + (f" ({changed} changed count)" if changed else ""),
    ]
    if groups["no_longer_checked"]:
        parts.append(f"{len(groups['no_longer_checked'])} no longer checked")
    if diff["new_failures"]:
        verdict = "regressions"
    elif groups["fixed"] or groups["no_longer_checked"] or changed:
        verdict = "no regression"
    else:
        verdict = "nothing changed in failures"
    return prose(f"{' · '.join(parts)}: {verdict} — exit {diff['exit_code']} (--fail-on {diff['fail_on']})")


def baseline_line(diff: dict) -> str:
    base = diff["baseline"]
    where = f"{base['report']}, " if base["report"] else ""
    return prose(
        f"baseline: {where}target {base['target']}, started {base['started']}, suite "
        f"{base['suite_version']}, seed {base['seed']}, profile {base['profile']}, exit {base['exit_code']}"
    )


def count_change(entry: dict) -> str:
    """``3 → 5 (+2)``, ``4 (unchanged)``."""
    delta = entry["new_count"] - entry["old_count"]
    if not delta:
        return f"{entry['new_count']} (unchanged)"
    return f"{entry['old_count']} → {entry['new_count']} ({delta:+d})"


def _cause_line(entry: dict, counts: str) -> str:
    line = f"{entry['title']} — breaks {clause_label(entry['clause'])}; {counts}; smallest {entry['smallest_case']}"
    if entry["newly_failing"]:
        shown = ", ".join(entry["newly_failing"][:MAX_CHECKS_SHOWN])
        more = len(entry["newly_failing"]) - MAX_CHECKS_SHOWN
        line += f"; newly failing fixture cases (new failures): {shown}" + (f" and {more} more" if more > 0 else "")
    if entry["note"]:
        line += f" ({entry['note']})"
    return prose(line)


def _group_sections(groups: dict) -> list[DiffSection]:
    sections = [
        ("New failure groups", groups["new"], lambda e: f"{e['new_count']} failing"),
        (
            "Still failing",
            [e for e in groups["still_failing"] if e["newly_failing"]]
            + [e for e in groups["still_failing"] if not e["newly_failing"]],
            lambda e: f"count {count_change(e)}",
        ),
        ("Fixed since the baseline", groups["fixed"], lambda e: f"{e['old_count']} failing in the baseline"),
        (
            "No longer checked (not evidence of a fix)",
            groups["no_longer_checked"],
            lambda e: f"{e['old_count']} failing in the baseline",
        ),
    ]
    return [
        DiffSection(f"{title} ({len(entries)})", [_cause_line(e, counts(e)) for e in entries[:MAX_LISTED]])
        for title, entries, counts in sections
        if entries
    ]


def _value(value) -> str:
    return "absent" if value is None else render_value(value)[0]


def _drift_text(state: dict | None) -> str:
    if state is None:
        return "not asked"
    return state["status"].replace("_", " ") + (f" ({'; '.join(state['changes'])})" if state["changes"] else "")


def _run_sections(diff: dict) -> list[DiffSection]:
    sections = []
    run = [prose(f"{change['field']}: {_value(change['old'])} → {_value(change['new'])}") for change in diff["run"]]
    if run:
        sections.append(DiffSection("Run", run))
    contracts = diff["contracts"]
    lines = [
        prose(f"{label}: {what}")
        for key, what in (
            ("added", "checked now, not in the baseline"),
            ("removed", "checked in the baseline, not now"),
            ("changed", "the contract file differs (its digest changed)"),
        )
        for label in contracts[key]
    ]
    if lines:
        sections.append(DiffSection("Contracts", lines))
    drift = [
        prose(f"{change['tool']}: {_drift_text(change['old'])} → {_drift_text(change['new'])}")
        for change in diff["contract_drift"]
    ]
    if drift:
        sections.append(DiffSection("The target's published contract (contract drift)", drift))
    for key, title in (("added", "Checks added"), ("removed", "Checks removed")):
        ids = diff["checks"][key]
        if ids:
            more = [f"… and {len(ids) - MAX_CHECKS_SHOWN} more"] if len(ids) > MAX_CHECKS_SHOWN else []
            sections.append(DiffSection(f"{title} ({len(ids)})", [prose(i) for i in ids[:MAX_CHECKS_SHOWN]] + more))
    return sections


def diff_sections(diff: dict) -> list[DiffSection]:
    """Every part of the diff that has something to say; none when the two runs failed alike."""
    return _group_sections(diff["groups"]) + _run_sections(diff)


def console_lines(diff: dict | None) -> list[str]:
    """The diff as the console shows it (nothing when there is none)."""
    if diff is None:
        return []
    lines = ["", f"{TITLE}: {diff_headline(diff)}", f"  {baseline_line(diff)}"]
    for section in diff_sections(diff):
        lines.append(f"  {section.title}:")
        lines += [f"    - {line}" for line in section.lines]
    return lines

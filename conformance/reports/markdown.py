"""report.md: the run as GitHub-flavoured markdown, rendered from the report.json document.

The verdict and the totals (document.totals: fixture cases and generated properties), the
run header, the tables of checks (document.summary_matrices), one row per generated
property, one section per failure (failures.FailureView), then the known failures and
skips. Text from the target is made visible (text.py) and then kept literal here: prose
is backslash-escaped, values go in code spans or fenced blocks long enough to hold them.
"""

from __future__ import annotations

import re

import conformance.reports.aims as aims
import conformance.reports.baseline_views as baseline_views
import conformance.reports.document as doc
from conformance.reports.failures import FailureView, failure_views
from conformance.reports.group_views import GroupView, group_views, groups_heading
from conformance.reports.readings import INTRODUCTION as READINGS_INTRODUCTION
from conformance.reports.readings import reading_rows
from conformance.reports.text import MAX_LISTED, prose

# Markdown's active characters; "_" only where it could open or close emphasis (not inside a word).
_MD_SPECIAL = re.compile(r"([\\`*\[\]<>|&~$]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
_FENCE_LANGUAGE = {"diff": "diff", "command": "sh", "text": "text"}  # any other block is JSON


def md_text(text: str) -> str:
    """Prose that markdown shows literally (no emphasis, links, HTML or table breaks)."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def _longest_backtick_run(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


def md_code(text: str) -> str:
    """An inline code span that holds any text, backticks included."""
    fence = "`" * (_longest_backtick_run(text) + 1)
    padding = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{padding}{text}{padding}{fence}"


def md_block(text: str, language: str = "") -> list[str]:
    fence = "`" * max(3, _longest_backtick_run(text) + 1)
    return [fence + language, text, fence]


def md_cell_code(text: str) -> str:
    """A code span inside a table cell: GitHub-flavoured tables split cells on "|" even within code."""
    return md_code(text).replace("|", "\\|")


def _md_table(heading: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(heading) + " |", "|" + "|".join("---" for _ in heading) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _md_failure(view: FailureView) -> list[str]:
    lines = [f"### {view.number}. {md_text(view.title)}", ""]
    lines += [
        f"- **{md_text(label)}:** {md_text(text) if view.is_prose(label) else md_code(text)}"
        for label, text in view.facts
    ]
    for block in view.blocks:
        lines += ["", f"**{md_text(block.label)}**" + (f" ({md_text(block.note)})" if block.note else "")]
        if block.text:
            lines += md_block(block.text, _FENCE_LANGUAGE.get(block.kind, "json"))
    return lines + [""]


def _md_readings(document: dict) -> list[str]:
    """The readings of open points the target took (reports/readings.py), one table row per point."""
    rows = reading_rows(document)
    if not rows:
        return []
    lines = ["", f"## Readings of open points ({len(rows)})", "", md_text(READINGS_INTRODUCTION), ""]
    return lines + _md_table(
        ["open point", "reading the target took", "cases", "for example"],
        [
            [
                md_text(f"{row.point_id} {row.title}"),
                md_text(row.reading),
                str(row.count),
                md_cell_code(row.cases_text()),
            ]
            for row in rows
        ],
    )


def _md_group(view: GroupView) -> list[str]:
    lines = [f"### G{view.number}. {md_text(view.title)}", ""]
    lines += [
        f"- **{md_text(label)}:** {md_text(text) if view.is_prose(label) else md_code(text)}"
        for label, text in view.facts
    ]
    for block in view.blocks:
        lines += ["", f"**{md_text(block.label)}**" + (f" ({md_text(block.note)})" if block.note else "")]
        lines += md_block(block.text, _FENCE_LANGUAGE.get(block.kind, "json"))
    return lines + [""]


def md_groups(document: dict) -> list[str]:
    """The failure groups, biggest first: report.md leads with them."""
    views = group_views(document)
    if not views:
        return []
    lines = [f"## {md_text(groups_heading(document))}", ""]
    lines += [f"- G{view.number}. {md_text(view.title)} — {md_text(view.brief)}" for view in views]
    lines.append("")
    for view in views:
        lines += _md_group(view)
    return lines


def md_baseline(diff: dict | None, level: str = "##") -> list[str]:
    """A baseline diff (baseline_views): its headline, the baseline, then each section as a list."""
    if diff is None:
        return []
    lines = [
        f"{level} {baseline_views.TITLE}",
        "",
        f"**{md_text(baseline_views.diff_headline(diff))}**",
        "",
        md_text(baseline_views.baseline_line(diff)),
        "",
    ]
    for section in baseline_views.diff_sections(diff):
        lines += [f"{level}# {md_text(section.title)}", "", *(f"- {md_text(line)}" for line in section.lines), ""]
    return lines


def render_diff_markdown(diff: dict) -> str:
    """diff.md of `conformance diff`: the diff alone."""
    return "\n".join(["# Conformance diff", "", *md_baseline(diff)]) + "\n"


def render_markdown(document: dict, views: list[FailureView] | None = None) -> str:
    strict = doc.is_strict(document)
    headline, _ = doc.verdict(document)
    target = prose(document["header"].get("target", "?"))
    lines = [
        "# Conformance report",
        "",
        f"**{md_text(headline)}** (exit code {document['exit_code']}) — target {md_code(target)}",
        "",
        doc.totals_text(document["totals"]),
        "",
    ]
    lines += md_baseline(document.get("baseline_diff"))  # under --baseline, what changed leads
    lines += md_groups(document)  # the failures by cause lead the report
    errors = doc.harness_errors(document)
    if errors:
        lines += [f"## Harness errors ({len(errors)})", ""]
        lines += ["The suite itself failed here, so the run could not conclude:", ""]
        lines += [f"- {md_code(error)}" for error in errors] + [""]
    lines += ["## Run", ""]
    lines += _md_table(["", ""], [[md_text(label), md_cell_code(text)] for label, text in doc.header_rows(document)])
    left_out = doc.not_served_note(document)  # a one-tool implementation's other tools
    if left_out:
        lines += ["", md_text(left_out)]
    for matrix in doc.summary_matrices(document):
        lines += ["", f"## {matrix.title}", ""]
        lines += _md_table(
            [matrix.row_heading, *map(md_text, matrix.columns)],
            [
                [
                    md_text(row),
                    *(md_text(cell.text()) + (" ✗" if cell.state(strict) == "bad" else "") for cell in cells),
                ]
                for row, cells in matrix.rows
            ],
        )
    properties = [check for check in doc.served_checks(document) if check.kind == "property"]
    if properties:
        lines += ["", "## Generated properties", ""]
        lines += _md_table(
            ["property", "examples run", "outcome", "recorded failures"],
            [
                [
                    md_cell_code(prose(check.id)),
                    md_text(str(check.examples if check.examples is not None else "?")),
                    md_text(doc.outcome_word(check.outcome)),
                    str(check.recorded_failures(strict)),
                ]
                for check in properties
            ],
        )
    views = failure_views(document) if views is None else views
    problems = doc.problem_results(document)
    lines += ["", f"## Failures ({len(problems)})", ""]
    if not problems:
        lines.append("None.")
    for view in views:
        lines += _md_failure(view)
    if len(problems) > len(views):
        lines.append(f"{len(problems) - len(views)} more failures are not shown here; see report.json:")
        lines += [f"- {md_code(prose(r['case']['case_id']))}" for r in problems[len(views) :][:MAX_LISTED]]
    lines += _md_readings(document)
    for listing in doc.listings(document, MAX_LISTED):
        lines += ["", f"## {listing.title} ({listing.total})", ""]
        lines += [f"- {md_code(check_id)}: {md_text(reason)}" for check_id, reason in listing.rows]
    lines += _md_aims(document)
    return "\n".join(lines) + "\n"


def _md_aims(document: dict) -> list[str]:
    """The aimed features each property reached (reports/aims.py), one table row per property."""
    rows = aims.aim_rows(document)
    if not rows:
        return []
    return ["", f"## {aims.TITLE}", ""] + _md_table(
        aims.HEADING,
        [
            [
                md_cell_code(prose(row.property_id)),
                row.examples,
                row.reached,
                md_text(prose(row.counts)),
                md_text(prose(row.not_reached)),
            ]
            for row in rows
        ],
    )

"""The reports of a run: report.json, junit.xml, report.md and report.html (and the console summary).

    write_reports(record, report_dir, junit_path=None, baseline=None) -> {"json": ..., "junit": ..., "markdown": ..., "html": ...}

The RunRecord becomes one document, report.json, validated against report.schema.json
(document.py); every other output is rendered from that document alone, one module per
format: junit.py, markdown.py, html.py and console.py (the end-of-run summary). They share
one definition of what is counted (document.checks: each fixture case and each generated
property once), one failure view (failures.py) and one set of text helpers (text.py:
visible code points, budgets and truncation), so every output gives the same counts and
says the same about each failure.

Under ``run --baseline``, baseline.py compares the document with the baseline's report.json
(``baseline_diff``) and baseline_views.py puts it in words for every format.

The names below are re-exported for callers of the former single module.
"""

from __future__ import annotations

from pathlib import Path

from conformance.model import RunRecord
from conformance.reports.console import summary, summary_table
from conformance.reports.document import (
    CATEGORY_ORDER,
    PROBLEM_OUTCOMES,
    SCHEMA_PATH,
    Cell,
    Check,
    Matrix,
    ReportSchemaError,
    build_document,
    build_header,
    checks,
    combined_outcome,
    dump_report_json,
    fixture_topic,
    harness_errors,
    header_rows,
    is_problem,
    problem_results,
    property_name,
    property_of_case,
    report_document,
    summary_matrices,
    tool_label,
    totals,
    utc_timestamp,
    verdict,
)
from conformance.reports.failures import (
    OUTCOME_MEANING,
    PROSE_FACTS,
    Block,
    FailureView,
    failure_text,
    failure_view,
    failure_views,
    numeric_difference,
    result_text,
    whole_output_diff,
)
from conformance.reports.html import render_html
from conformance.reports.junit import render_junit, xml_text
from conformance.reports.markdown import md_block, md_cell_code, md_code, md_text, render_markdown
from conformance.reports.text import (
    BLOCK_LIMIT,
    DIFF_MAX_LINES,
    INPUT_INLINE_LIMIT,
    LONE_SURROGATE,
    MAX_DEPTH,
    MAX_DETAILED_FAILURES,
    MAX_LISTED,
    STRING_CAP,
    VALUE_LIMIT,
    code_point,
    command_text,
    render_value,
    truncate,
    visible,
    visible_lines,
)

__all__ = [
    "BLOCK_LIMIT",
    "CATEGORY_ORDER",
    "DIFF_MAX_LINES",
    "INPUT_INLINE_LIMIT",
    "MAX_DEPTH",
    "MAX_DETAILED_FAILURES",
    "MAX_LISTED",
    "OUTCOME_MEANING",
    "PROBLEM_OUTCOMES",
    "PROSE_FACTS",
    "SCHEMA_PATH",
    "STRING_CAP",
    "VALUE_LIMIT",
    "Block",
    "Cell",
    "Check",
    "FailureView",
    "Matrix",
    "ReportSchemaError",
    "build_document",
    "build_header",
    "checks",
    "code_point",
    "combined_outcome",
    "command_text",
    "dump_report_json",
    "failure_text",
    "failure_view",
    "failure_views",
    "fixture_topic",
    "harness_errors",
    "header_rows",
    "is_problem",
    "md_block",
    "md_cell_code",
    "md_code",
    "md_text",
    "numeric_difference",
    "problem_results",
    "property_name",
    "property_of_case",
    "render_html",
    "render_junit",
    "render_markdown",
    "render_value",
    "report_document",
    "result_text",
    "summary",
    "summary_matrices",
    "summary_table",
    "tool_label",
    "totals",
    "truncate",
    "utc_timestamp",
    "verdict",
    "visible",
    "visible_lines",
    "whole_output_diff",
    "write_document",
    "write_reports",
    "xml_text",
]


def write_reports(
    record: RunRecord, report_dir: Path, junit_path: Path | None = None, baseline=None
) -> dict[str, Path]:
    """Write report.json, junit.xml, report.md and report.html; return their paths by kind.

    report.json is validated first: a record that does not match the schema is a harness bug
    and raises ReportSchemaError before any file is written. The other three are rendered
    from that document. With a ``baseline`` (reports.baseline.Baseline), each leads with what changed since it.
    """
    return write_document(report_document(record, baseline), report_dir, junit_path)


def write_document(document: dict, report_dir: Path, junit_path: Path | None = None) -> dict[str, Path]:
    """Write a validated report.json document and every view rendered from it (as write_reports)."""
    report_dir = Path(report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": report_dir / "report.json",
        "junit": Path(junit_path) if junit_path is not None else report_dir / "junit.xml",
        "markdown": report_dir / "report.md",
        "html": report_dir / "report.html",
    }
    views = failure_views(document)  # built once, shown three times
    contents = {
        "json": dump_report_json(document),
        "junit": render_junit(document, views),
        "markdown": render_markdown(document, views),
        "html": render_html(document, views),
    }
    for kind, path in paths.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        # visible() already escaped every lone surrogate; this only guarantees the write cannot fail.
        text = LONE_SURROGATE.sub(lambda match: code_point(match.group()), contents[kind])
        path.write_text(text, encoding="utf-8", newline="\n")
    return paths

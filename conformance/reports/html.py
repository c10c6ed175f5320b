"""report.html: the run as one self-contained page, rendered from the report.json document.

The same content as report.md (markdown.py): verdict, totals (document.totals), run header,
tables of checks, generated properties, a collapsible section per failure
(failures.FailureView), known failures and skips. Nothing on the page loads or runs
anything: no scripts, no external resources, a Content-Security-Policy that forbids them,
and every text (already made visible by text.py) HTML-escaped.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

import conformance.reports.aims as aims
import conformance.reports.baseline_views as baseline_views
import conformance.reports.document as doc
from conformance.model import OUTCOMES
from conformance.reports.failures import FailureView, failure_views
from conformance.reports.group_views import GroupView, group_views, groups_heading
from conformance.reports.readings import INTRODUCTION as READINGS_INTRODUCTION
from conformance.reports.readings import reading_rows
from conformance.reports.text import MAX_LISTED, prose

_CSS = """
:root { color-scheme: light; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --line: #d0d7de; --muted: #57606a; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; margin: 0 auto; padding: 1.5rem; max-width: 1100px; overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .6rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
.verdict { font-size: 1.2rem; font-weight: 700; padding: .6rem .9rem; border-radius: 6px; border: 1px solid; display: inline-block; }
.verdict.ok { color: var(--ok); background: #dafbe1; } .verdict.bad { color: var(--bad); background: #ffebe9; } .verdict.warn { color: var(--warn); background: #fff8c5; }
.totals { display: flex; flex-wrap: wrap; gap: .5rem; margin: 1rem 0; padding: 0; list-style: none; }
.totals li { border: 1px solid var(--line); border-radius: 6px; padding: .3rem .7rem; }
.totals b { font-size: 1.1rem; margin-right: .3rem; }
table { border-collapse: collapse; margin: .3rem 0; }
.wide { max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid var(--line); padding: .3rem .6rem; text-align: left; vertical-align: top; }
.wide th, .wide td { min-width: 5.5em; }
th { background: #f6f8fa; }
td.ok { background: #dafbe1; } td.bad { background: #ffebe9; font-weight: 600; } td.warn { background: #fff8c5; } td.none { color: var(--muted); }
table.run td:first-child { color: var(--muted); min-width: 7em; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
td code, dd code { overflow-wrap: anywhere; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: .6rem; overflow: auto; max-height: 28rem; white-space: pre-wrap; overflow-wrap: anywhere; margin: .2rem 0 .8rem; }
details { border: 1px solid var(--line); border-radius: 6px; margin: .6rem 0; }
details > summary { cursor: pointer; padding: .5rem .8rem; font-weight: 600; overflow-wrap: anywhere; }
details[open] > summary { border-bottom: 1px solid var(--line); }
details > div { padding: .4rem .9rem .2rem; }
.badge { display: inline-block; border-radius: 1rem; padding: 0 .55rem; font-size: .8rem; color: #fff; margin-right: .4rem; }
.badge.failed, .badge.errored, .badge.fixed { background: var(--bad); } .badge.xfailed, .badge.skipped { background: var(--warn); } .badge.passed { background: var(--ok); }
dl { display: grid; grid-template-columns: minmax(0, max-content) minmax(0, 1fr); gap: .2rem 1rem; margin: .3rem 0 .8rem; }
dt { color: var(--muted); } dd { margin: 0; }
.label { font-weight: 600; margin-top: .4rem; } .note { color: var(--muted); font-style: italic; font-weight: 400; }
.del { color: var(--bad); background: #ffebe9; display: block; } .add { color: var(--ok); background: #dafbe1; display: block; } .hunk { color: var(--muted); display: block; } .line { display: block; }
ul.plain { padding-left: 1.2rem; }
.group { border: 1px solid var(--line); border-left: 4px solid var(--bad); border-radius: 6px; margin: .6rem 0; padding: .2rem .9rem .3rem; }
ol.groups { padding-left: 0; list-style: none; margin: .3rem 0 .8rem; }
.group h3 { font-size: 1rem; margin: .4rem 0; overflow-wrap: anywhere; }
footer { margin-top: 2rem; color: var(--muted); font-size: .85rem; }
"""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _html_table(heading: list[str], rows: Iterable[list[tuple[str, str]]], css_class: str = "") -> str:
    """Rows of (cell html, cell class) pairs; heading cells are plain text. A table with a heading (many
    columns: a matrix) scrolls inside its own box where the window is too narrow for it, never the page."""
    head = "".join(f"<th>{_e(cell)}</th>" for cell in heading)
    body = "".join(
        "<tr>"
        + "".join(f'<td class="{_e(cls)}">{cell}</td>' if cls else f"<td>{cell}</td>" for cell, cls in row)
        + "</tr>"
        for row in rows
    )
    attribute = f' class="{css_class}"' if css_class else ""
    table = (
        f"<table{attribute}>"
        + (f"<thead><tr>{head}</tr></thead>" if heading else "")
        + f"<tbody>{body}</tbody></table>"
    )
    return f'<div class="wide">{table}</div>' if heading else table


def _html_list(items: Iterable[str]) -> str:
    """A plain list of items already in HTML."""
    return '<ul class="plain">' + "".join(f"<li>{item}</li>" for item in items) + "</ul>"


def _code(text: str) -> str:
    return f"<code>{_e(text)}</code>"


def _html_diff(text: str) -> str:
    classes = (("---", "hunk"), ("+++", "hunk"), ("@@", "hunk"), ("-", "del"), ("+", "add"))
    lines = []
    for line in text.split("\n"):
        css = next((cls for prefix, cls in classes if line.startswith(prefix)), "line")
        lines.append(f'<span class="{css}">{_e(line)}</span>')
    # one block-level span per line: a newline between them would show as an empty line
    return "".join(lines)


def _html_failure(view: FailureView) -> str:
    facts = "".join(
        f"<dt>{_e(label)}</dt><dd>{_e(text) if view.is_prose(label) else _code(text)}</dd>"
        for label, text in view.facts
    )
    blocks = []
    for block in view.blocks:
        note = f' <span class="note">({_e(block.note)})</span>' if block.note else ""
        blocks.append(f'<div class="label">{_e(block.label)}{note}</div>')
        if block.text:
            content = _html_diff(block.text) if block.kind == "diff" else _e(block.text)
            blocks.append(f"<pre>{content}</pre>")
    opened = " open" if view.number <= 3 else ""
    return (
        f'<details id="{view.anchor}"{opened}><summary><span class="badge {_e(view.outcome)}">{_e(doc.outcome_word(view.outcome))}</span>'
        f"{view.number}. {_e(view.title)}</summary><div><dl>{facts}</dl>{''.join(blocks)}</div></details>"
    )


def _html_readings(document: dict) -> list[str]:
    """The readings of open points the target took (reports/readings.py), one table row per point."""
    rows = reading_rows(document)
    if not rows:
        return []
    return [
        f'<h2 id="readings">Readings of open points ({len(rows)})</h2><p>{_e(READINGS_INTRODUCTION)}</p>',
        _html_table(
            ["open point", "reading the target took", "cases", "for example"],
            (
                [
                    (_e(f"{row.point_id} {row.title}"), ""),
                    (_e(row.reading), ""),
                    (str(row.count), ""),
                    (_code(row.cases_text()), ""),
                ]
                for row in rows
            ),
        ),
    ]


def _html_group(view: GroupView) -> str:
    facts = "".join(
        f"<dt>{_e(label)}</dt><dd>{_e(text) if view.is_prose(label) else _code(text)}</dd>"
        for label, text in view.facts
    )
    blocks = "".join(
        f'<div class="label">{_e(block.label)}</div><pre>{_html_diff(block.text)}</pre>' for block in view.blocks
    )
    return (
        f'<div class="group" id="{view.anchor}"><h3 class="group-title">G{view.number}. {_e(view.title)}</h3>'
        f"<dl>{facts}</dl>{blocks}</div>"
    )


def html_groups(document: dict) -> list[str]:
    """The failure groups, biggest first: the first screen of report.html shows them."""
    views = group_views(document)
    if not views:
        return []
    # (no links: nothing on the page points anywhere, not even within it)
    listed = "".join(
        f'<li><b>G{view.number}.</b> {_e(view.title)} <span class="note">{_e(view.brief)}</span></li>' for view in views
    )
    return [
        f'<section id="failure-groups"><h2>{_e(groups_heading(document))}</h2>',
        f'<ol class="plain groups">{listed}</ol>',
        *(_html_group(view) for view in views),
        "</section>",
    ]


def html_baseline(diff: dict | None) -> list[str]:
    """A baseline diff (baseline_views): its headline, the baseline, then each section as a list."""
    if diff is None:
        return []
    state = "bad" if diff["exit_code"] else "ok"
    parts = [
        f'<section id="baseline-diff"><h2>{_e(baseline_views.TITLE)}</h2>',
        f'<div class="verdict {state}">{_e(baseline_views.diff_headline(diff))}</div>',
        f"<p>{_e(baseline_views.baseline_line(diff))}</p>",
    ]
    for section in baseline_views.diff_sections(diff):
        parts += [f"<h3>{_e(section.title)}</h3>", _html_list(_e(line) for line in section.lines)]
    return parts + ["</section>"]


def _page(title: str, body: list[str]) -> str:
    """A self-contained page: nothing on it loads or runs anything."""
    return (
        "\n".join(
            [
                "<!DOCTYPE html>",
                '<html lang="en"><head><meta charset="utf-8">',
                # Defence in depth: even if some target text escaped escaping, nothing could load or run.
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
                '<meta name="viewport" content="width=device-width, initial-scale=1">',
                f"<title>{_e(title)}</title>",
                f"<style>{_CSS}</style></head><body>",
                *body,
            ]
        )
        + "\n"
    )


def render_diff_html(diff: dict) -> str:
    """diff.html of `conformance diff`: the diff alone."""
    return _page("Conformance diff", ["<h1>Conformance diff</h1>", *html_baseline(diff), "</body></html>"])


def render_html(document: dict, views: list[FailureView] | None = None) -> str:
    header, totals = document["header"], document["totals"]
    strict = doc.is_strict(document)
    headline, state = doc.verdict(document)
    target = prose(header.get("target", "?"))
    errors = doc.harness_errors(document)
    parts = [
        "<h1>Conformance report</h1>",
        f'<div class="verdict {state}">{_e(headline)}</div> '
        f"<span>exit code {document['exit_code']} · target {_code(target)}</span>",
        '<ul class="totals">'
        + "".join(f"<li><b>{totals[o]}</b>{_e(doc.outcome_word(o, totals[o]))}</li>" for o in OUTCOMES)
        + "</ul>",
    ]
    parts += html_baseline(document.get("baseline_diff"))  # under --baseline, what changed leads
    parts += html_groups(document)  # the failures by cause lead the page
    if errors:
        parts.append(
            f"<h2>Harness errors ({len(errors)})</h2><p>The suite itself failed here, so the run could not conclude:</p>"
        )
        parts.append(_html_list(_code(error) for error in errors))
    parts.append("<h2>Run</h2>")
    run_rows = ([(_e(label), ""), (_code(text), "")] for label, text in doc.header_rows(document))
    parts.append(_html_table([], run_rows, "run"))
    left_out = doc.not_served_note(document)  # a one-tool implementation's other tools
    if left_out:
        parts.append(f"<p>{_e(left_out)}</p>")
    for matrix in doc.summary_matrices(document):
        parts.append(f"<h2>{_e(matrix.title)}</h2>")
        parts.append(
            _html_table(
                [matrix.row_heading, *matrix.columns],
                (
                    [(_e(row), ""), *((_e(cell.text()), cell.state(strict)) for cell in cells)]
                    for row, cells in matrix.rows
                ),
                "matrix",
            )
        )
    properties = [check for check in doc.served_checks(document) if check.kind == "property"]
    if properties:
        parts.append("<h2>Generated properties</h2>")
        parts.append(
            _html_table(
                ["property", "examples run", "outcome", "recorded failures"],
                (
                    [
                        (_code(prose(check.id)), ""),
                        (_e(str(check.examples if check.examples is not None else "?")), ""),
                        (_e(doc.outcome_word(check.outcome)), doc.outcome_state({check.outcome: 1}, strict)),
                        (str(check.recorded_failures(strict)), ""),
                    ]
                    for check in properties
                ),
            )
        )
    problems = doc.problem_results(document)
    views = failure_views(document) if views is None else views
    parts.append(f"<h2>Failures ({len(problems)})</h2>")
    if not problems:
        parts.append("<p>None.</p>")
    parts += [_html_failure(view) for view in views]
    if len(problems) > len(views):
        parts.append(f"<p>{len(problems) - len(views)} more failures are not shown here; see report.json:</p>")
        parts.append(_html_list(_code(prose(r["case"]["case_id"])) for r in problems[len(views) :][:MAX_LISTED]))
    parts += _html_readings(document)
    for listing in doc.listings(document, MAX_LISTED):
        parts.append(f"<h2>{_e(listing.title)} ({listing.total})</h2>")
        parts.append(_html_list(f"{_code(check_id)}: {_e(reason)}" for check_id, reason in listing.rows))
    parts += _html_aims(document)
    parts.append(
        "<footer>Strings are shown with visible whitespace: ␣ space, ⇥ tab, ↵ line feed, ⟨U+XXXX⟩ any other "
        "invisible or ambiguous code point; a value holding any character outside printable ASCII is also shown "
        "escaped, \\uXXXX (\\u{XXXXX} beyond U+FFFF). Full values are in report.json.</footer></body></html>"
    )
    return _page(f"Conformance report: {target}", parts)


def _html_aims(document: dict) -> list[str]:
    """The aimed features each property reached (reports/aims.py), one table row per property."""
    rows = aims.aim_rows(document)
    if not rows:
        return []
    return [
        f"<h2>{_e(aims.TITLE)}</h2>",
        _html_table(
            aims.HEADING,
            (
                [
                    (_code(prose(row.property_id)), ""),
                    (_e(row.examples), ""),
                    (_e(row.reached), "warn" if row.not_reached else ""),
                    (_e(prose(row.counts)), ""),
                    (_e(prose(row.not_reached)), ""),
                ]
                for row in rows
            ),
        ),
    ]

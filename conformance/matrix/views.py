"""matrix.md and matrix.html, rendered from matrix.json alone (no other input, no scripts).

Both show the table (implementations x tools, each cell its summary and counts), then each cell
that is not simply conformant: its failure groups (count, clause, named divergence, smallest input,
first difference) and its not-applicable causes, each cause once.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from conformance.matrix.document import cell_summary, counts_text, fields_text
from conformance.reports.markdown import md_cell_code, md_text
from conformance.reports.text import prose, render_value

VALUE_LIMIT = 300


def write_views(document: dict, report_dir: Path) -> list[Path]:
    """matrix.json, matrix.md and matrix.html in ``report_dir``; their paths."""
    outputs = {
        "matrix.json": json.dumps(document, indent=2, ensure_ascii=False) + "\n",
        "matrix.md": markdown(document),
        "matrix.html": html_page(document),
    }
    paths = []
    for name, text in outputs.items():
        path = report_dir / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def interrupted_text(header: dict) -> str:
    return (
        f"Interrupted by {header['interrupted']}: a partial matrix; a row not finished shows what its run judged "
        "before it, or is not run."
    )


def cell_of(document: dict, implementation: str, tool: str) -> dict:
    return next(c for c in document["cells"] if c["implementation"] == implementation and c["tool"] == tool)


def row_label(row: dict) -> str:
    return f"{row['name']} {row['version']}".strip() + f" ({row['language']})"


def clause_text(clause: dict | None) -> str:
    if not clause:
        return "unattributed"
    where = f"line {clause['number']}" if clause.get("number") else (clause.get("name") or clause.get("kind", ""))
    return f"{clause.get('kind', '')} {where}: {clause.get('text') or ''}".strip()


def divergence_text(divergence: dict | None) -> str:
    if not divergence:
        return "unexplained (no catalogued divergence gives this value)"
    return f"{divergence.get('id', '')}: {divergence.get('explanation', '')}"


def value_text(value) -> str:
    return render_value(value, VALUE_LIMIT)[0]


def difference_text(difference: dict | None) -> str:
    if not difference:
        return ""
    return (
        f"{difference.get('pointer') or 'output'}: expected {value_text(difference.get('expected'))}, "
        f"got {value_text(difference.get('actual'))}"
    )


def group_facts(group: dict) -> list[tuple[str, str, bool]]:
    """What a cell's section says of one failure group, for both views: (label, text, shown as code)."""
    facts = [
        ("clause: ", clause_text(group["clause"]), False),
        ("divergence: ", divergence_text(group["divergence"]), False),
    ]
    if group.get("smallest") is not None:
        facts.append(("smallest input: ", value_text(group["smallest"]), True))
    if group.get("difference"):
        facts.append(("first difference: ", difference_text(group["difference"]), True))
    if group.get("judged_on"):
        facts.append(("judged ", group["judged_on"], False))
    return facts


def run_text(row: dict) -> str:
    if not row["report"]:
        return "not run"
    return f"exit {row['exit_code']}, {row['duration_s']} s"  # its runs/ report is a working file, not committed


def details_cells(document: dict) -> list[dict]:
    """The cells worth a section: failing ones and those with not-applicable causes."""
    return [cell for cell in document["cells"] if cell["failure_groups"] or cell["not_applicable"]]


# ---------------------------------------------------------------- markdown


def headline_table(document: dict) -> list[str]:
    """The table of cells as markdown (also shown in the docs' matrix page: docs/hooks.py)."""
    heading = ["implementation", *(md_text(tool) for tool in document["tools"])]
    lines = ["| " + " | ".join(heading) + " |", "|" + "|".join("---" for _ in heading) + "|"]
    for row in document["implementations"]:
        cells = [cell_of(document, row["name"], tool) for tool in document["tools"]]
        shown = [
            f"**{md_text(cell_summary(c))}**"
            + (f" ({md_text(counts_text(c))})" if c["status"] in ("conformant", "failing") else "")
            for c in cells
        ]
        lines.append("| " + " | ".join([md_text(row_label(row)), *shown]) + " |")
    return lines


def markdown(document: dict) -> str:
    header = document["header"]
    lines = [
        "# Compatibility matrix",
        "",
        f"Suite {md_text(header['suite_version'])}, profile {md_text(header['profile'])}, seed {header['seed']}, "
        f"{md_text(header['finished'])}: `{header['command']}`.",
        "",
        *([f"**{interrupted_text(header)}**", ""] if header.get("interrupted") else []),
        "Each cell: **conformant** (every check the library could express passed), **N failure groups**, "
        "**not applicable** (its public API expresses no case of the tool) or **not run** (not installed); "
        "counts are checks (fixture cases and generated properties).",
        "",
        *headline_table(document),
        "",
        "## Implementations",
        "",
        "| implementation | language | version | calls | run |",
        "|---|---|---|---|---|",
    ]
    for row in document["implementations"]:
        run = md_text(run_text(row))
        lines.append(
            f"| {md_text(row['name'])} | {md_text(row['language'])} | {md_text(row['version'] or '-')} | "
            f"{md_cell_code(row['counterpart'])} | {run} |"
        )
    for cell in details_cells(document):
        lines += [
            "",
            f"## {md_text(cell['implementation'])} × {md_text(cell['tool'])}: {md_text(cell_summary(cell))}",
            "",
        ]
        if fields_text(cell):
            lines += [f"{md_text(fields_text(cell))}.", ""]
        for number, group in enumerate(cell["failure_groups"], 1):
            lines.append(f"{number}. **{md_text(prose(group['title']))}** ({group['count']} failing)")
            lines += [
                f"   - {label}{md_cell_code(text) if code else md_text(prose(text))}"
                for label, text, code in group_facts(group)
            ]
        if cell["not_applicable"]:
            if cell["failure_groups"]:
                lines.append("")
            lines.append("Not applicable:")
            lines += [f"- {md_text(prose(na['cause']))}" + _na_counts(na) for na in cell["not_applicable"]]
    return "\n".join(lines) + "\n"


def _na_counts(na: dict) -> str:
    parts = [f"{na['checks']} checks"] if na["checks"] else []
    parts += [f"{na['examples']} generated examples of applicable properties"] if na["examples"] else []
    return f" ({', '.join(parts)})" if parts else ""


# ---------------------------------------------------------------- HTML

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #1b1b1b; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #bbb; padding: .35rem .5rem; vertical-align: top; text-align: left; }
td.conformant { background: #e3f5e1; } td.failing { background: #fde4e1; }
td.not_applicable, td.not_run { background: #eee; color: #555; }
.counts { display: block; font-size: .8rem; color: #444; }
code { background: #f4f4f4; padding: 0 .2rem; white-space: pre-wrap; word-break: break-all; }
section { border-top: 1px solid #ccc; margin-top: 1rem; }
"""


def _e(text) -> str:
    return html.escape(prose(text), quote=True)


def html_page(document: dict) -> str:
    header = document["header"]
    head = "".join(f'<th scope="col">{_e(tool)}</th>' for tool in document["tools"])
    rows = []
    for row in document["implementations"]:
        cells = []
        for tool in document["tools"]:
            cell = cell_of(document, row["name"], tool)
            counts = (
                f'<span class="counts">{_e(counts_text(cell))}</span>'
                if cell["status"] in ("conformant", "failing")
                else ""
            )
            link = (
                f'<a href="#{_anchor(cell)}">{_e(cell_summary(cell))}</a>'
                if cell in details_cells(document)
                else _e(cell_summary(cell))
            )
            cells.append(f'<td class="{cell["status"]}">{link}{counts}</td>')
        rows.append(f'<tr><th scope="row">{_e(row_label(row))}</th>{"".join(cells)}</tr>')
    sections = [_html_cell(cell) for cell in details_cells(document)]
    implementations = "".join(
        f"<tr><td>{_e(row['name'])}</td><td>{_e(row['language'])}</td><td>{_e(row['version'] or '-')}</td>"
        f"<td><code>{_e(row['counterpart'])}</code></td>"
        f"<td>{_e(run_text(row))}</td></tr>"
        for row in document["implementations"]
    )
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Compatibility matrix</title>'
        f"<style>{STYLE}</style></head><body>\n<h1>Compatibility matrix</h1>\n"
        f"<p>Suite {_e(header['suite_version'])}, profile {_e(header['profile'])}, seed {header['seed']}, "
        f"{_e(header['finished'])}: <code>{_e(header['command'])}</code>.</p>\n"
        + (f"<p><strong>{_e(interrupted_text(header))}</strong></p>\n" if header.get("interrupted") else "")
        + f'<table id="matrix"><thead><tr><th>implementation</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>\n"
        f"<h2>Implementations</h2><table><thead><tr><th>implementation</th><th>language</th><th>version</th>"
        f"<th>calls</th><th>run</th></tr></thead><tbody>{implementations}</tbody></table>\n"
        + "\n".join(sections)
        + "\n</body></html>\n"
    )


def _anchor(cell: dict) -> str:
    return "cell-" + "".join(ch if ch.isalnum() else "-" for ch in f"{cell['implementation']}-{cell['tool']}")


def _html_cell(cell: dict) -> str:
    groups = []
    for group in cell["failure_groups"]:
        items = [
            f"<li>{label}<code>{_e(text)}</code></li>" if code else f"<li>{label}{_e(text)}</li>"
            for label, text, code in group_facts(group)
        ]
        groups.append(
            f'<li class="group"><strong>{_e(group["title"])}</strong> ({group["count"]} failing)'
            f"<ul>{''.join(items)}</ul></li>"
        )
    causes = "".join(f'<li class="cause">{_e(na["cause"])}{_e(_na_counts(na))}</li>' for na in cell["not_applicable"])
    return (
        f'<section id="{_anchor(cell)}"><h2>{_e(cell["implementation"])} × {_e(cell["tool"])}: '
        f"{_e(cell_summary(cell))}</h2>"
        + (f"<p>{_e(fields_text(cell))}.</p>" if fields_text(cell) else "")
        + (f"<ol>{''.join(groups)}</ol>" if groups else "")
        + (f"<p>Not applicable:</p><ul>{causes}</ul>" if causes else "")
        + "</section>"
    )

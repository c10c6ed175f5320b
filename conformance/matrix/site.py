"""The matrix as HTML, from matrix.json alone: a static site of several pages, or matrix.html, one page.

    conformance matrix --site DIR ...              # run the matrix, and write its site into DIR
    conformance matrix site MATRIX.json [--site DIR]   # the site of a matrix already written

The site (``write_site``): ``index.html``, the table (implementation x tool, coloured cells, each linking
to its section), the suite version, profile, seed, date and the command that produced it, and the
implementations with their versions; ``implementations/NAME.html``, one per implementation, a section per
cell that has something to say: each failure group with its clause, its divergence (linking to that
divergence's page), the smallest input, a reproducer to copy (``conformance replay`` on a file it
writes: no server, no curl) and the library's own call when the group carries one (``call``);
``divergences/ID.html``, one per divergence the matrix names (an id ``a + b`` names two mechanisms: a page
each), listing the libraries the catalogue says show it and the cells where this matrix met it.

matrix.html (views.py) is the same renderers on one page: the sections and divergences below the table,
linked by anchors. No page loads or runs anything (no script, no external style: a Content-Security-Policy
says so), and none scrolls sideways on a phone: wide tables scroll in their own box, long values wrap.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from conformance.matrix.document import cell_summary, counts_text, fields_text
from conformance.reports.text import prose, render_value

VALUE_LIMIT = 300
REPRODUCER_FORMAT = "conformance-reproducer/1"

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; padding: 0 1rem; max-width: 80rem;
       color: #1b1b1b; overflow-wrap: anywhere; }
nav { font-size: .9rem; margin-bottom: 1rem; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #bbb; padding: .35rem .5rem; vertical-align: top; text-align: left; }
td.conformant { background: #e3f5e1; } td.failing { background: #fde4e1; }
td.not_applicable, td.not_run { background: #eee; color: #555; }
.counts { display: block; font-size: .8rem; color: #444; }
code { background: #f4f4f4; padding: 0 .2rem; white-space: pre-wrap; word-break: break-all; }
pre { background: #f4f4f4; padding: .5rem; white-space: pre-wrap; word-break: break-all; }
section { border-top: 1px solid #ccc; margin-top: 1rem; }
.interrupted { background: #fff3cd; padding: .5rem; }
"""
CSP = "default-src 'none'; style-src 'unsafe-inline'"


def e(text) -> str:
    return html.escape(prose(text), quote=True)


def slug(text: str) -> str:
    """A file name or anchor made of ``text``: letters, digits, '-', '.', '_' (others as '-')."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", text).strip(".") or "-"


def cell_anchor(cell: dict) -> str:
    return "cell-" + "".join(ch if ch.isalnum() else "-" for ch in f"{cell['implementation']}-{cell['tool']}")


def group_anchor(cell: dict, number: int) -> str:
    return f"{cell_anchor(cell)}-group-{number}"


def mechanism_ids(divergence: dict | None) -> list[str]:
    """The mechanisms a group's divergence names: its ``mechanisms`` when listed, else its id (``a + b``: two)."""
    if not divergence:
        return []
    listed = divergence.get("mechanisms")
    if isinstance(listed, list) and listed:
        return [str(item.get("id") if isinstance(item, dict) else item) for item in listed]
    return [part.strip() for part in str(divergence.get("id") or "").split(" + ") if part.strip()]


@dataclass
class Links:
    """Where each thing is, seen from the page being written."""

    cell: Callable[[dict], str]
    implementation: Callable[[str], str]
    divergence: Callable[[str], str]
    index: str = ""


def one_page_links() -> Links:
    return Links(
        cell=lambda cell: "#" + cell_anchor(cell),
        implementation=lambda name: "#implementation-" + slug(name),
        divergence=lambda mechanism: "#divergence-" + slug(mechanism),
    )


def site_links(depth: int) -> Links:
    """Links from a page ``depth`` folders below the site's root."""
    up = "../" * depth
    return Links(
        cell=lambda cell: f"{up}implementations/{slug(cell['implementation'])}.html#{cell_anchor(cell)}",
        implementation=lambda name: f"{up}implementations/{slug(name)}.html",
        divergence=lambda mechanism: f"{up}divergences/{slug(mechanism)}.html",
        index=f"{up}index.html",
    )


# ---------------------------------------------------------------- pieces


def page(title: str, body: str, links: Links) -> str:
    nav = f'<nav><a href="{links.index}">Compatibility matrix</a></nav>\n' if links.index else ""
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(title)}</title><style>{STYLE}</style></head><body>\n{nav}{body}\n</body></html>\n"
    )


def interrupted_text(header: dict) -> str:
    return (
        f"Interrupted by {header['interrupted']}: a partial matrix; a row not finished shows what its run judged "
        "before it, or is not run."
    )


def header_html(document: dict) -> str:
    header = document["header"]
    text = (
        f"<p>Suite {e(header['suite_version'])}, profile {e(header['profile'])}, seed {header['seed']}, "
        f"{e(header['finished'])}: <code>{e(header['command'])}</code>.</p>\n"
    )
    if header.get("interrupted"):
        text += f'<p class="interrupted"><strong>{e(interrupted_text(header))}</strong></p>\n'
    return text


def row_label(row: dict) -> str:
    return f"{row['name']} {row['version']}".strip() + f" ({row['language']})"


def run_text(row: dict) -> str:
    if not row["report"]:
        return "not run"
    return f"exit {row['exit_code']}, {row['duration_s']} s"


def cell_of(document: dict, implementation: str, tool: str) -> dict:
    return next(c for c in document["cells"] if c["implementation"] == implementation and c["tool"] == tool)


def has_section(cell: dict) -> bool:
    """A cell worth a section: failing, or with not-applicable causes."""
    return bool(cell["failure_groups"] or cell["not_applicable"])


def table_html(document: dict, links: Links) -> str:
    head = "".join(f'<th scope="col">{e(tool)}</th>' for tool in document["tools"])
    rows = []
    for row in document["implementations"]:
        cells = []
        for tool in document["tools"]:
            cell = cell_of(document, row["name"], tool)
            counts = (
                f'<span class="counts">{e(counts_text(cell))}</span>'
                if cell["status"] in ("conformant", "failing")
                else ""
            )
            summary = e(cell_summary(cell))
            shown = f'<a href="{links.cell(cell)}">{summary}</a>' if has_section(cell) else summary
            cells.append(f'<td class="{cell["status"]}">{shown}{counts}</td>')
        name = f'<a href="{links.implementation(row["name"])}">{e(row_label(row))}</a>'
        rows.append(f'<tr><th scope="row">{name}</th>{"".join(cells)}</tr>')
    return (
        f'<div class="scroll"><table id="matrix"><thead><tr><th>implementation</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>\n"
    )


def implementations_html(document: dict, links: Links) -> str:
    rows = "".join(
        f'<tr><td><a href="{links.implementation(row["name"])}">{e(row["name"])}</a></td><td>{e(row["language"])}</td>'
        f"<td>{e(row['version'] or '-')}</td><td><code>{e(row['counterpart'])}</code></td>"
        f"<td>{e(run_text(row))}</td></tr>"
        for row in document["implementations"]
    )
    return (
        '<div class="scroll"><table><thead><tr><th>implementation</th><th>language</th><th>version</th>'
        f"<th>calls</th><th>run</th></tr></thead><tbody>{rows}</tbody></table></div>\n"
    )


def value_text(value) -> str:
    return render_value(value, VALUE_LIMIT)[0]


def clause_text(clause: dict | None) -> str:
    if not clause:
        return "unattributed"
    where = f"line {clause['number']}" if clause.get("number") else (clause.get("name") or clause.get("kind", ""))
    return f"{clause.get('kind', '')} {where}: {clause.get('text') or ''}".strip()


def divergence_text(divergence: dict | None) -> str:
    if not divergence:
        return "unexplained (no catalogued divergence gives this value)"
    return f"{divergence.get('id', '')}: {divergence.get('explanation', '')}"


def difference_text(difference: dict | None) -> str:
    if not difference:
        return ""
    return (
        f"{difference.get('pointer') or 'output'}: expected {value_text(difference.get('expected'))}, "
        f"got {value_text(difference.get('actual'))}"
    )


def reproducer(cell: dict, group: dict) -> str:
    """A shell snippet that sends the group's smallest input to the library again: ``conformance replay`` on a
    reproducer file it writes (conformance/replay.py), judged as the run judged it. "" without an input."""
    if group.get("smallest") is None:
        return ""
    tool_id, _, version = cell["tool"].partition("@")
    case_id = group.get("smallest_case") or f"{tool_id}/{version}/matrix#smallest"
    parts = case_id.split("/")
    generated = parts[0] == "generated"
    data = {
        "format": REPRODUCER_FORMAT,
        "tool": tool_id,
        "version": version,
        "target": f"implementation:{cell['implementation']}",
        "case": {
            "tool_id": tool_id,
            "version": version,
            "case_id": case_id,
            "origin": "generated" if generated else "fixture",
            "category": parts[2] if generated and len(parts) > 2 else "valid",
            "input": group["smallest"],
            "expect": {"kind": "output"},
        },
    }
    text = json.dumps(data, ensure_ascii=True)
    return f"cat > reproducer.json <<'JSON'\n{text}\nJSON\nconformance replay reproducer.json"


def group_html(cell: dict, number: int, group: dict, links: Links) -> str:
    items = [f"<li>clause: {e(clause_text(group['clause']))}</li>"]
    divergence = group.get("divergence")
    mechanisms = mechanism_ids(divergence)
    if mechanisms:
        named = " + ".join(f'<a href="{links.divergence(m)}">{e(m)}</a>' for m in mechanisms)
        items.append(f"<li>divergence: {named}: {e(divergence.get('explanation', '') if divergence else '')}</li>")
    else:
        items.append(f"<li>divergence: {e(divergence_text(divergence))}</li>")
    if divergence and divergence.get("mechanism"):
        items.append(f"<li>mechanism: {e(divergence['mechanism'])}</li>")
    if group.get("difference"):
        items.append(f"<li>first difference: <code>{e(difference_text(group['difference']))}</code></li>")
    if group.get("judged_on"):
        items.append(f"<li>judged {e(group['judged_on'])}</li>")
    if group.get("smallest") is not None:
        items.append(f"<li>smallest input: <pre>{e(json.dumps(group['smallest'], ensure_ascii=False))}</pre></li>")
        items.append(f"<li>reproducer (shell): <pre>{html.escape(reproducer(cell, group))}</pre></li>")
    call = group.get("call")
    if isinstance(call, dict) and call.get("code"):
        items.append(
            f"<li>the library's own call ({e(call.get('language', ''))}): <pre>{html.escape(call['code'])}</pre></li>"
        )
    return (
        f'<li class="group" id="{group_anchor(cell, number)}"><strong>{e(group["title"])}</strong> '
        f"({group['count']} failing)<ul>{''.join(items)}</ul></li>"
    )


def na_counts(na: dict) -> str:
    parts = [f"{na['checks']} checks"] if na["checks"] else []
    parts += [f"{na['examples']} generated examples of applicable properties"] if na["examples"] else []
    return f" ({', '.join(parts)})" if parts else ""


def cell_html(cell: dict, links: Links, heading: str = "h2") -> str:
    groups = [group_html(cell, number, group, links) for number, group in enumerate(cell["failure_groups"], 1)]
    causes = "".join(f'<li class="cause">{e(na["cause"])}{e(na_counts(na))}</li>' for na in cell["not_applicable"])
    counts = f" ({e(counts_text(cell))})" if cell["status"] in ("conformant", "failing") else ""
    return (
        f'<section id="{cell_anchor(cell)}"><{heading}>{e(cell["implementation"])} × {e(cell["tool"])}: '
        f"{e(cell_summary(cell))}</{heading}><p>{e(cell['status'].replace('_', ' '))}{counts}</p>"
        + (f"<p>{e(fields_text(cell))}.</p>" if fields_text(cell) else "")
        + (f"<ol>{''.join(groups)}</ol>" if groups else "")
        + (f"<p>Not applicable:</p><ul>{causes}</ul>" if causes else "")
        + "</section>"
    )


def divergences(document: dict) -> dict[str, dict]:
    """Each mechanism the matrix names: its explanation, the libraries the catalogue says show it, and
    the (cell, group number) pairs where this matrix met it."""
    found: dict[str, dict] = {}
    for cell in document["cells"]:
        for number, group in enumerate(cell["failure_groups"], 1):
            divergence = group.get("divergence") or {}
            for mechanism in mechanism_ids(divergence):
                entry = found.setdefault(mechanism, {"explanations": [], "libraries": [], "met": []})
                explanation = divergence.get("mechanism") or divergence.get("explanation") or ""
                if explanation and explanation not in entry["explanations"]:
                    entry["explanations"].append(explanation)
                for library in divergence.get("libraries") or []:
                    if library not in entry["libraries"]:
                        entry["libraries"].append(library)
                entry["met"].append((cell, number))
    return dict(sorted(found.items()))


def divergence_html(mechanism: str, entry: dict, links: Links, heading: str = "h1") -> str:
    shown_by = sorted({cell["implementation"] for cell, _ in entry["met"]})
    met = "".join(
        f'<li><a href="{links.cell(cell)[: links.cell(cell).index("#")]}#{group_anchor(cell, number)}">'
        f"{e(cell['implementation'])} × {e(cell['tool'])}, group {number}</a></li>"
        for cell, number in entry["met"]
    )
    catalogued = ", ".join(e(name) for name in entry["libraries"]) or "none listed"
    return (
        f'<section id="divergence-{slug(mechanism)}"><{heading}>Divergence {e(mechanism)}</{heading}>'
        + "".join(f"<p>{e(text)}</p>" for text in entry["explanations"])
        + f"<p>Libraries the catalogue says show it: {catalogued}.</p>"
        + "<p>Libraries of this matrix that show it: "
        + ", ".join(f'<a href="{links.implementation(name)}">{e(name)}</a>' for name in shown_by)
        + f".</p><ul>{met}</ul></section>"
    )


# ---------------------------------------------------------------- the two forms


def one_page(document: dict) -> str:
    """matrix.html: everything on one page, linked by anchors."""
    links = one_page_links()
    sections = "\n".join(cell_html(cell, links) for cell in document["cells"] if has_section(cell))
    found = divergences(document)
    rows = "".join(
        f'<section id="implementation-{slug(row["name"])}"><h3>{e(row_label(row))}</h3>'
        f"<p>{e(run_text(row))}</p></section>"
        for row in document["implementations"]
    )
    body = (
        "<h1>Compatibility matrix</h1>\n"
        + header_html(document)
        + table_html(document, links)
        + "<h2>Implementations</h2>\n"
        + implementations_html(document, links)
        + rows
        + sections
        + ("\n<h2>Divergences</h2>\n" if found else "")
        + "\n".join(divergence_html(mechanism, entry, links, "h3") for mechanism, entry in found.items())
    )
    return page("Compatibility matrix", body, Links(links.cell, links.implementation, links.divergence))


def site_pages(document: dict) -> dict[str, str]:
    """The site: its pages by path relative to its root."""
    root, below = site_links(0), site_links(1)
    found = divergences(document)
    listing = "".join(
        f'<li><a href="{root.divergence(mechanism)}">{e(mechanism)}</a> '
        f"({len({cell['implementation'] for cell, _ in entry['met']})} libraries)</li>"
        for mechanism, entry in found.items()
    )
    index = (
        "<h1>Compatibility matrix</h1>\n"
        + header_html(document)
        + "<p>Each cell: <strong>conformant</strong> (every check the library could express passed), "
        "<strong>N failure groups</strong>, <strong>not applicable</strong> (its public API expresses no case "
        "of the tool) or <strong>not run</strong>; counts are checks (fixture cases and generated properties).</p>\n"
        + table_html(document, root)
        + "<h2>Implementations</h2>\n"
        + implementations_html(document, root)
        + (f"<h2>Divergences</h2>\n<ul>{listing}</ul>\n" if found else "")
    )
    pages = {"index.html": page("Compatibility matrix", index, Links(root.cell, root.implementation, root.divergence))}
    for row in document["implementations"]:
        cells = [cell for cell in document["cells"] if cell["implementation"] == row["name"]]
        overview = "".join(
            f'<li><a href="#{cell_anchor(cell)}">{e(cell["tool"])}</a>: {e(cell_summary(cell))}</li>'
            if has_section(cell)
            else f"<li>{e(cell['tool'])}: {e(cell_summary(cell))}</li>"
            for cell in cells
        )
        body = (
            f"<h1>{e(row_label(row))}</h1>\n"
            + header_html(document)
            + f"<p>Distribution {e(row['distribution'])}; calls <code>{e(row['counterpart'])}</code>; "
            f"run: {e(run_text(row))}.</p>\n"
            + f"<ul>{overview}</ul>\n"
            + "\n".join(cell_html(cell, below) for cell in cells if has_section(cell))
        )
        pages[f"implementations/{slug(row['name'])}.html"] = page(f"{row['name']}: compatibility", body, below)
    for mechanism, entry in found.items():
        pages[f"divergences/{slug(mechanism)}.html"] = page(
            f"Divergence {mechanism}", divergence_html(mechanism, entry, below), below
        )
    return pages


def write_site(document: dict, directory: Path) -> list[Path]:
    """The site of ``document`` in ``directory`` (its pages replaced; other files left alone); the pages' paths."""
    paths = []
    for relative, text in site_pages(document).items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths

"""matrix.md and matrix.html, rendered from matrix.json alone (no other input, no scripts).

matrix.html is the site's renderers on one page (site.py). Both show the table (implementations x tools, each cell its summary and counts), then each cell
that is not simply conformant: its failure groups (count, clause, named divergence, smallest input,
first difference) and its not-applicable causes, each cause once.
"""

from __future__ import annotations

import json
from pathlib import Path

from conformance.matrix.document import cell_summary, counts_text, fields_text
from conformance.matrix.site import (
    cell_of,
    clause_text,
    difference_text,
    divergence_text,
    interrupted_text,
    na_counts,
    one_page,
    row_label,
    run_text,
    value_text,
)
from conformance.reports.markdown import md_cell_code, md_text
from conformance.reports.text import counted, prose


def write_views(document: dict, report_dir: Path) -> list[Path]:
    """matrix.json, matrix.md and matrix.html in ``report_dir``; their paths."""
    outputs = {
        "matrix.json": json.dumps(document, indent=2, ensure_ascii=False) + "\n",
        "matrix.md": markdown(document),
        "matrix.html": one_page(document),
    }
    paths = []
    for name, text in outputs.items():
        path = report_dir / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


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


README_START = "<!-- matrix table: conformance.matrix.views.readme_table of reports/compatibility/matrix.json -->"
README_END = "<!-- end of matrix table -->"
SHORT_STATUS = {"conformant": "conformant", "not_applicable": "·", "not_run": "not run"}


def readme_table(document: dict) -> list[str]:
    """The README's headline table: one short word per cell ("conformant", "3 groups", "·" for not applicable),
    the tools without their versions, and where the library computes only some fields how many of the tool's."""
    tools = [tool.split("@")[0] for tool in document["tools"]]
    lines = ["| implementation | " + " | ".join(tools) + " |", "|" + "|".join("---" for _ in ["", *tools]) + "|"]
    for row in document["implementations"]:
        shown = []
        for tool in document["tools"]:
            cell = cell_of(document, row["name"], tool)
            groups = len(cell["failure_groups"])
            text = SHORT_STATUS.get(cell["status"], counted(groups, "group"))
            fields = cell_summary(cell).partition(" on ")[2]  # "2 of 10 fields" where partial
            shown.append(text + (f" ({fields})" if fields else ""))
        lines.append("| " + " | ".join([md_text(row_label(row)), *shown]) + " |")
    return lines


def with_readme_table(readme: str, document: dict) -> str:
    """The README with the text between its matrix-table markers replaced by ``readme_table``."""
    head, start, rest = readme.partition(README_START)
    _, end, tail = rest.partition(README_END)
    if not start or not end:
        raise ValueError(f"the README lacks the markers {README_START} ... {README_END}")
    return head + start + "\n" + "\n".join(readme_table(document)) + "\n" + end + tail


def main(argv: list[str] | None = None) -> int:
    """``python -m conformance.matrix.views README.md MATRIX.json``: the README's table written anew from the
    matrix (what tests/test_docs.py holds it to)."""
    import sys

    readme_path, matrix_path = (Path(argument) for argument in (argv if argv is not None else sys.argv[1:]))
    document = json.loads(matrix_path.read_text(encoding="utf-8"))
    readme_path.write_text(with_readme_table(readme_path.read_text(encoding="utf-8"), document), encoding="utf-8")
    return 0


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
            lines += [f"- {md_text(prose(na['cause']))}" + na_counts(na) for na in cell["not_applicable"]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())

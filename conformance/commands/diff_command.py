"""`conformance diff OLD NEW`: what changed between two runs (their report.json files or report directories).

Prints the diff (reports/baseline.py, in words by reports/baseline_views.py) and, with
``--report-dir DIR``, writes diff.json (report.json's ``baseline_diff`` object, validated against
report.schema.json), diff.md and a self-contained diff.html. Exit 0 no new failure, 1 new failures
(``--fail-on any``: any difference in failures), 2 usage (a missing file, not a report, a report of
an incompatible schema).
"""

from __future__ import annotations

import sys
from pathlib import Path

HELP = "what changed between two runs: new, fixed and still failing groups"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "diff",
        help=HELP,
        description="Compare two runs by their reports (report.json, or a report directory holding one): "
        "failure groups new, fixed, still failing (with the change in count) or no longer checked; "
        "checks added or removed; changes of the suite, the contracts and the target's published "
        "contract. Exit 0 no new failure, 1 new failures, 2 usage.",
        epilog="Failures are matched by cause (tool, JSON pointer class, kind, clause), never by generated "
        "case id: runs with other seeds match. `conformance run --baseline OLD` does the same at the "
        "end of a run.",
    )
    parser.add_argument("old", metavar="OLD", help="the baseline: report.json or its directory")
    parser.add_argument("new", metavar="NEW", help="the later run: report.json or its directory")
    parser.add_argument(
        "--fail-on",
        default="new",
        choices=("new", "any"),
        help="new (default): exit 1 on new failure groups and newly failing fixture cases; "
        "any: also on fixed groups, groups no longer checked and changed counts",
    )
    parser.add_argument("--report-dir", default=None, metavar="DIR", help="also write diff.json, diff.md, diff.html")
    parser.set_defaults(func=run)


def run(args) -> int:
    from conformance.reports import baseline, baseline_views

    try:
        old, new = baseline.load_report(args.old), baseline.load_report(args.new)
    except baseline.BaselineError as exc:
        print(f"conformance diff: {exc}", file=sys.stderr)
        return 2
    diff = baseline.compare(old, new, args.fail_on, args.old)
    print("\n".join(baseline_views.console_lines(diff)).lstrip("\n"))
    if args.report_dir is not None:
        try:
            written = write(diff, Path(args.report_dir))
        except OSError as exc:
            print(f"conformance diff: --report-dir {args.report_dir}: {exc.strerror}", file=sys.stderr)
            return 2
        print("\n".join(f"  {name}: {path}" for name, path in written.items()))
    return diff["exit_code"]


def write(diff: dict, directory: Path) -> dict[str, Path]:
    """diff.json (validated first: a diff that breaks the schema is a bug of the suite), diff.md, diff.html."""
    from conformance.reports import baseline
    from conformance.reports.document import ReportSchemaError, dump_report_json, json_safe
    from conformance.reports.html import render_diff_html
    from conformance.reports.markdown import render_diff_markdown

    diff = json_safe(diff)
    error = next(iter(baseline.diff_validator().iter_errors(diff)), None)
    if error is not None:
        raise ReportSchemaError(f"diff.json does not match report.schema.json#/$defs/baseline_diff: {error.message}")
    contents = {"json": dump_report_json(diff), "markdown": render_diff_markdown(diff), "html": render_diff_html(diff)}
    names = {"json": "diff.json", "markdown": "diff.md", "html": "diff.html"}
    directory.mkdir(parents=True, exist_ok=True)
    for kind, text in contents.items():
        (directory / names[kind]).write_text(text, encoding="utf-8", newline="\n")
    return {kind: directory / name for kind, name in names.items()}

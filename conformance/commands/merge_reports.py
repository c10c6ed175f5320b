"""`conformance merge-reports DIR... --report-dir OUT`: the shards of one run joined into its report.

Each DIR is the report directory of one ``conformance run --shard K/N`` (its report.json and
reproducers/). The merged report.json (reports/merge.py) is the unsharded run's, and every view
(junit.xml, report.md, report.html, the console summary) is rendered from it; the shards'
reproducer files are copied to OUT/reproducers/ and the report points at the copies. Exit codes:
the merged run's (0 conformant, 1 not, 3 could not conclude, 143 stopped by SIGTERM), and 2 when
the reports cannot be merged (unreadable, not a report, shards of different runs, a shard missing
or repeated).
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

from conformance.engine.options import DEFAULT_REPORT_DIR

MAX_REPORT_BYTES = 1 << 30  # a report.json larger than this is not one a run wrote


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "merge-reports",
        help="join the report directories of `run --shard K/N` into one report",
        description="Join the report directories of the shards of one run (`conformance run --shard K/N`, "
        "every K of one N) into the report of the unsharded run. Exit: the merged run's "
        "(0 conformant, 1 not, 3 could not conclude, 143 stopped by SIGTERM); 2 when the "
        "reports cannot be merged.",
    )
    parser.add_argument("dirs", nargs="+", metavar="DIR", help="a shard's report directory (or its report.json)")
    parser.add_argument(
        "--report-dir", default=DEFAULT_REPORT_DIR, help=f"where the merged reports go (default {DEFAULT_REPORT_DIR}/)"
    )
    parser.add_argument(
        "--junit", default=None, metavar="FILE", help="the JUnit XML report (default: REPORT_DIR/junit.xml)"
    )
    parser.set_defaults(func=run)


class ReportError(ValueError):
    """A report that cannot be read as one (exit 2)."""


def report_path(given: str) -> Path:
    path = Path(given)
    return path / "report.json" if path.is_dir() else path


def read_report(path: Path) -> dict:
    """A shard's report.json: strict JSON matching report.schema.json, or a ReportError naming the file."""
    from conformance.reports.document import schema_error

    try:
        if path.stat().st_size > MAX_REPORT_BYTES:
            raise ReportError(f"{path}: larger than {MAX_REPORT_BYTES >> 20} MiB, not a run's report.json")
        document = json.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise ReportError(f"{path}: cannot read it ({exc.strerror})") from None
    except (ValueError, RecursionError) as exc:  # not UTF-8, not JSON, nested beyond reading
        raise ReportError(f"{path}: not a JSON document ({str(exc)[:200]})") from None
    error = schema_error(document)
    if error:
        raise ReportError(f"{path}: not a report.json of this suite ({error})")
    return document


def copy_reproducers(document: dict, source: Path, report_dir: Path) -> None:
    """A shard's reproducer files into REPORT_DIR/reproducers/, its results pointing at the copies."""
    for result in document["results"]:
        if not result.get("reproducer_file"):
            continue
        name = Path(result["reproducer_file"]).name
        found = source / "reproducers" / name
        if not found.is_file():
            continue  # the shard's directory came without it: the report keeps the shard's own path
        copy = report_dir / "reproducers" / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(found, copy)
        result["reproducer_file"] = str(copy)
        result["replay"] = f"conformance replay {shlex.quote(str(copy))}"


def run(args) -> int:
    from conformance.engine.session import check_order
    from conformance.pytest_plugin import command_line
    from conformance.reports import console, write_document
    from conformance.reports.document import validated
    from conformance.reports.merge import MergeError, check_shards, merge_documents

    report_dir = Path(args.report_dir)
    paths = [report_path(given) for given in args.dirs]
    try:
        documents = [read_report(path) for path in paths]
        names = [str(path.parent) for path in paths]
        by_name = dict(zip(map(id, documents), names))
        documents = check_shards(documents, names)
        names = [by_name[id(document)] for document in documents]
        for document, name in zip(documents, names):
            copy_reproducers(document, Path(name), report_dir)
        tools = [tuple(contract.split("@", 1)) for contract in documents[0]["header"]["contracts"]]
        merged = validated(merge_documents(documents, check_order(tools), command_line(), names))
    except (ReportError, MergeError) as exc:
        print(f"conformance merge-reports: {exc}", file=sys.stderr)
        return 2
    written = write_document(merged, report_dir, Path(args.junit) if args.junit else None)
    print(console.summary(merged, written))
    return merged["exit_code"]

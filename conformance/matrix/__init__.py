"""`conformance matrix`: the suite run against each real implementation, and the compatibility matrix.

    conformance matrix [--implementations NAME,...] [--profile P] [--seed N] [--report-dir DIR] [-n N|auto]
    conformance matrix audit MATRIX.json
    conformance matrix site MATRIX.json [--site DIR]

Each implementation (conformance/implementations/) is run as ``conformance run --target
implementation:NAME`` on the tools its adapter expresses, in a subprocess of its own (a library
that crashes or leaks stays in its run), writing DIR/runs/NAME/report.json and its other reports.
The matrix (document.py) is built from those report.json files alone and written as
DIR/matrix.json, with its views matrix.md and matrix.html (views.py). Exit 0 when the matrix was
written (failing cells are its content, not an error), 2 on usage errors, 3 when a run could not
conclude (its report says why). While it runs it shows each row's checks per tool (rows.py); SIGTERM or
SIGINT stops it within seconds, every row's process group ended, and the partial matrix is written, marked
``interrupted``: exit 143 for SIGTERM, 3 for SIGINT, as ``conformance run`` does.
Every failure group carries ``call``: the library called on the group's
smallest input as a user would write it (``Library.call``); ``conformance matrix audit`` runs each in a fresh
process and fails where the library's answer is not what the cell reports (audit.py).
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from conformance.engine.options import PROFILES

DEFAULT_REPORT_DIR = "reports/compatibility"
DEFAULT_PROFILE = "quick"
DEFAULT_SEED = 0  # fixed, so the committed matrix is reproduced by the same command
EXIT_UNCONCLUDED = 3  # a run could not conclude, or SIGINT stopped the matrix
EXIT_TERMINATED = 143  # SIGTERM stopped the matrix (128 + 15)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "matrix",
        help="run the suite against each real BLEU/chrF library: the compatibility matrix",
        description="Run the suite against each real implementation (sacreBLEU, NLTK, ...) and write the "
        "implementation x tool matrix (matrix.json, matrix.md, matrix.html). Exit 0 written, "
        "2 usage, 3 a run could not conclude.",
    )
    parser.add_argument(
        "--implementations",
        default="",
        metavar="NAME,...",
        help="only these (default: every one in conformance/implementations/)",
    )
    parser.add_argument(
        "--profile",
        default=DEFAULT_PROFILE,
        choices=sorted(PROFILES),
        help="generated examples per family (default %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="same seed, same cases (default %(default)s)")
    parser.add_argument("--report-dir", default=DEFAULT_REPORT_DIR, help=f"default {DEFAULT_REPORT_DIR}/")
    parser.add_argument(
        "-n",
        "--processes",
        default="auto",
        type=processes,
        metavar="N",
        help="run N rows at a time, each its own process (default auto: one per CPU); the matrix is the same "
        "whatever N",
    )
    parser.add_argument(
        "--site",
        default=None,
        metavar="DIR",
        help="also write the matrix as a static site into DIR (index.html, a page per implementation and per "
        "divergence); with the site action, where to write it (default: site/ beside MATRIX.json)",
    )
    parser.add_argument(
        "action",
        nargs="?",
        choices=["audit", "site"],
        help="audit: run every group's library call; site: write the static site of MATRIX.json",
    )
    parser.add_argument("document", nargs="?", metavar="MATRIX.json", help="the matrix document to audit")
    parser.set_defaults(func=run)


def processes(text: str) -> int:
    """-n: ``auto`` (the CPUs this process may use) or a count of rows run at a time, >= 1."""
    if text == "auto":
        from conformance.matrix.rows import default_processes

        return default_processes()
    if text.isdigit() and int(text) >= 1:
        return int(text)
    raise argparse.ArgumentTypeError(f"expected auto or a number of processes >= 1, not {text!r}")


def previous_durations(path: Path) -> dict[str, float]:
    """Each row's run time in the matrix ``path`` (an earlier run's), to start the longest rows first."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        return {row["name"]: float(row["duration_s"]) for row in document["implementations"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def selected(text: str) -> list:
    """The libraries named (every one when none is); ValueError naming an unknown one."""
    from conformance.implementations import implementations

    known = implementations()
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(f"unknown implementation(s) {', '.join(map(repr, unknown))}: known are {', '.join(known)}")
    return [known[name] for name in names] if names else list(known.values())


def command_of(library, report_dir: Path, profile: str, seed: int, progress: Path) -> list[str]:
    """``conformance run`` against one library, on the tools its adapter expresses, its progress to ``progress``."""
    tools = ",".join(f"{tool_id}@{version}" for tool_id, version in library.tools())
    return [
        sys.executable,
        "-m",
        "conformance.cli",
        "run",
        "--target",
        f"implementation:{library.name}",
        "--tools",
        tools,
        "--profile",
        profile,
        "--seed",
        str(seed),
        "--report-dir",
        str(report_dir),
        "--progress-file",
        str(progress),
    ]


def read_report(path: Path) -> dict:
    """A row's report.json; {} when its run wrote none (killed, or it could not start)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def unrun_reason(job) -> str:
    """Why a row that was to run has no report."""
    if job is None or job.process is None:
        return "the matrix was stopped before this implementation ran"
    if job.killed:
        return f"its run was killed after {job.signalled}, before it wrote a report"
    return f"its run wrote no report (exit {job.exit_code})"


def write_site_of(path: str | None, site: str | None) -> int:
    """``conformance matrix site MATRIX.json [--site DIR]``: the site of a matrix already written."""
    from conformance.matrix.document import MatrixSchemaError, validate
    from conformance.matrix.site import write_site

    if not path:
        print("conformance matrix site: name the matrix document: conformance matrix site MATRIX.json", file=sys.stderr)
        return 2
    try:
        document = validate(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError, MatrixSchemaError) as exc:
        print(f"conformance matrix site: {path}: {exc}", file=sys.stderr)
        return 2
    directory = Path(site) if site else Path(path).parent / "site"
    pages = write_site(document, directory)
    print(f"wrote {len(pages)} pages: {directory / 'index.html'}")
    return 0


def run(args) -> int:
    if getattr(args, "action", None) == "site":
        return write_site_of(args.document, args.site)
    if getattr(args, "action", None) == "audit":
        from conformance.matrix.audit import run as audit

        if not args.document:
            print(
                "conformance matrix audit: name the matrix document: conformance matrix audit MATRIX.json",
                file=sys.stderr,
            )
            return 2
        return audit(args.document)
    from conformance.matrix.rows import Stop

    try:
        libraries = selected(args.implementations)
    except ValueError as exc:
        print(f"conformance matrix: --implementations: {exc}", file=sys.stderr)
        return 2
    report_dir = Path(args.report_dir)
    try:
        report_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"conformance matrix: --report-dir {report_dir}: {exc.strerror}", file=sys.stderr)
        return 2
    stop = Stop()  # SIGTERM, SIGINT: recorded from here on, the rows stopped, the partial matrix written
    stop.install()
    try:
        return run_matrix(args, libraries, report_dir, stop)
    finally:
        stop.restore()


def run_matrix(args, libraries: list, report_dir: Path, stop) -> int:
    from conformance import __version__
    from conformance.matrix.document import idle_cell, run_cell, validate
    from conformance.matrix.rows import Display, Row, run_rows, summary
    from conformance.matrix.views import write_views
    from conformance.reports import utc_timestamp
    from oracle.registry import tool_keys

    started = utc_timestamp()
    tools = [(tool_id, version, f"{tool_id}@{version}") for tool_id, version in tool_keys()]
    progress_dir = Path(tempfile.mkdtemp(prefix="conformance-matrix-"))  # the rows' progress files
    durations = previous_durations(report_dir / "matrix.json")
    if not all(library.name in durations for library in libraries):  # no earlier time for some: their tools
        durations = {library.name: float(len(library.tools())) for library in libraries}
    jobs = {
        library.name: Row(
            library.name,
            command_of(
                library, report_dir / "runs" / library.name, args.profile, args.seed, progress_dir / library.name
            ),
            report_dir / "runs" / library.name,
            progress_dir / library.name,
            durations.get(library.name, 0.0),
        )
        for library in libraries
        if not library.missing() and library.tools()
    }
    display = Display(sys.stdout)
    display.line(
        f"conformance matrix: {len(libraries)} implementations ({len(jobs)} to run), profile {args.profile}, "
        f"seed {args.seed}, {args.processes} at a time, reports in {report_dir}/runs/"
    )
    try:
        interrupted = run_rows(list(jobs.values()), args.processes, display, stop)
    finally:
        shutil.rmtree(progress_dir, ignore_errors=True)
    rows, cells, unconcluded = [], [], False
    for library in libraries:
        missing = library.missing()
        row = {
            "name": library.name,
            "language": library.implementation.language,
            "distribution": library.implementation.distribution,
            "version": "" if missing else library.version(),
            "counterpart": library.implementation.counterpart,
            "installed": not missing,
            "exit_code": None,
            "report": "",
            "duration_s": 0.0,
        }
        report: dict = {}
        job = jobs.get(library.name)
        if job is not None and job.process is not None:
            row["exit_code"], row["duration_s"] = job.exit_code, round(job.seconds, 1)
            unconcluded |= row["exit_code"] not in (0, 1)
            report = read_report(job.run_dir / "report.json")
            row["report"] = f"runs/{library.name}/report.json" if report else ""
        rows.append(row)
        for tool_id, _, label in tools:
            if missing:
                cells.append(idle_cell(library.name, label, "not_run", missing))
            elif library.adapter(tool_id) is None:
                cells.append(idle_cell(library.name, label, "not_applicable", library.not_expressible(tool_id)))
            elif not report:
                cells.append(idle_cell(library.name, label, "not_run", unrun_reason(job)))
            else:
                cell = run_cell(library.name, label, report)
                for group in cell["failure_groups"]:
                    group["call"] = library.call(tool_id, group.get("smallest"))
                cells.append(cell)
    command = "conformance matrix " + shlex.join(
        ["--profile", args.profile, "--seed", str(args.seed)]
        + (["--implementations", args.implementations] if args.implementations else [])
    )
    document = validate(
        {
            "header": {
                "suite_version": __version__,
                "profile": args.profile,
                "seed": args.seed,
                "started": started,
                "finished": utc_timestamp(),
                "command": command,
                **({"interrupted": interrupted} if interrupted else {}),
            },
            "tools": [label for _, _, label in tools],
            "implementations": rows,
            "cells": cells,
        }
    )
    written = write_views(document, report_dir)
    if args.site:
        from conformance.matrix.site import write_site

        written.append(Path(args.site) / "index.html")
        write_site(document, Path(args.site))
    display.line(summary(document, written))
    if interrupted:  # as conformance run exits on each (conformance/termination.py)
        return EXIT_TERMINATED if interrupted == "SIGTERM" else EXIT_UNCONCLUDED
    return EXIT_UNCONCLUDED if unconcluded else 0

"""`conformance matrix`: the suite run against each real implementation, and the compatibility matrix.

    conformance matrix [--implementations NAME,...] [--profile P] [--seed N] [--report-dir DIR]

Each implementation (conformance/implementations/) is run as ``conformance run --target
implementation:NAME`` on the tools its adapter expresses, in a subprocess of its own (a library
that crashes or leaks stays in its run), writing DIR/runs/NAME/report.json and its other reports.
The matrix (document.py) is built from those report.json files alone and written as
DIR/matrix.json, with its views matrix.md and matrix.html (views.py). Exit 0 when the matrix was
written (failing cells are its content, not an error), 2 on usage errors, 3 when a run could not
conclude (its report says why).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

from conformance.engine.options import PROFILES

DEFAULT_REPORT_DIR = "reports/compatibility"
DEFAULT_PROFILE = "quick"
DEFAULT_SEED = 0  # fixed, so the committed matrix is reproduced by the same command
EXIT_UNCONCLUDED = 3


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
    parser.set_defaults(func=run)


def selected(text: str) -> list:
    """The libraries named (every one when none is); ValueError naming an unknown one."""
    from conformance.implementations import implementations

    known = implementations()
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(f"unknown implementation(s) {', '.join(map(repr, unknown))}: known are {', '.join(known)}")
    return [known[name] for name in names] if names else list(known.values())


def run_one(library, report_dir: Path, profile: str, seed: int) -> tuple[int, float]:
    """``conformance run`` against one library in a subprocess: (its exit code, seconds)."""
    tools = ",".join(f"{tool_id}@{version}" for tool_id, version in library.tools())
    command = [
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
    ]
    print(f"+ {shlex.join(command[1:])}", flush=True)
    started = time.monotonic()
    finished = subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
    return finished.returncode, time.monotonic() - started


def run(args) -> int:
    from conformance import __version__
    from conformance.matrix.document import idle_cell, run_cell, validate
    from conformance.matrix.views import write_views
    from conformance.reports import utc_timestamp
    from oracle.registry import tool_keys

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
    started = utc_timestamp()
    tools = [(tool_id, version, f"{tool_id}@{version}") for tool_id, version in tool_keys()]
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
        if not missing and library.tools():
            run_dir = report_dir / "runs" / library.name
            row["exit_code"], seconds = run_one(library, run_dir, args.profile, args.seed)
            row["duration_s"] = round(seconds, 1)
            row["report"] = f"runs/{library.name}/report.json"
            unconcluded |= row["exit_code"] not in (0, 1)
            report = json.loads((run_dir / "report.json").read_text(encoding="utf-8"))
        rows.append(row)
        for tool_id, _, label in tools:
            if missing:
                cells.append(idle_cell(library.name, label, "not_run", missing))
            elif library.adapter(tool_id) is None:
                cells.append(idle_cell(library.name, label, "not_applicable", library.not_expressible(tool_id)))
            else:
                cells.append(run_cell(library.name, label, report))
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
            },
            "tools": [label for _, _, label in tools],
            "implementations": rows,
            "cells": cells,
        }
    )
    written = write_views(document, report_dir)
    for row in rows:
        print(
            f"{row['name']} {row['version'] or '(not installed)'}: "
            + ("not run" if row["exit_code"] is None else f"exit {row['exit_code']} in {row['duration_s']} s")
        )
    print("wrote " + ", ".join(str(path) for path in written))
    return EXIT_UNCONCLUDED if unconcluded else 0

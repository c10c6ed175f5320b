"""`conformance crosscheck`: the oracle against sacreBLEU, NLTK and the matrix's libraries, divergences catalogued.

    conformance crosscheck [--against LIB,...] [--examples N] [--seed N] [--output FILE]

The libraries are the modules of conformance/implementations/ that declare cross-check CHECKS (found as
``implementations()`` finds them). Without --against: those of the crosscheck extra (sacreBLEU and NLTK), and
each other one that is installed (an absent one is skipped, named on stderr); a library named in --against
must be installed.

Exit 0 when every disagreement is explained by the catalogue (declared by the library modules), 1 otherwise
(each unexplained one is printed with a shrunk reproducer), 2 on usage errors.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

DEFAULT_OUTPUT = "reports/divergences.md"


def parse_libraries(text: str) -> list[str]:
    from conformance.crosscheck.checks import libraries

    known = libraries()
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise ValueError(f"--against takes a comma-separated subset of {','.join(known)}, got {text!r}")
    return [name for name in known if name in names]


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "crosscheck", help="cross-check the oracle against sacreBLEU, NLTK and the libraries installed"
    )
    parser.add_argument(
        "--against",
        default=None,
        metavar="LIBS",
        help="comma-separated subset of the libraries of conformance/implementations/ that declare CHECKS "
        "(default: sacreBLEU, NLTK and every other one installed)",
    )
    parser.add_argument("--examples", type=int, default=200, metavar="N", help="generated inputs per tool")
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="same seed, same inputs")
    parser.add_argument("--output", default=DEFAULT_OUTPUT, metavar="FILE", help="the catalogue to write")
    parser.set_defaults(func=run)


def run(args) -> int:
    from conformance.crosscheck.checks import REQUIRED, install_hint, installed
    from conformance.crosscheck.checks import libraries as known

    try:
        libraries = parse_libraries(args.against or ",".join(known()))
    except ValueError as exc:
        print(f"conformance crosscheck: {exc}", file=sys.stderr)
        return 2
    if args.against is None:
        skipped = [name for name in libraries if name not in REQUIRED and not installed(name)]
        if skipped:
            print(f"conformance crosscheck: skipping {', '.join(skipped)} (not installed)", file=sys.stderr)
        libraries = [name for name in libraries if name not in skipped]
    missing = [name for name in libraries if not installed(name)]
    if missing:
        print(
            f"conformance crosscheck: {', '.join(missing)} not installed; " + install_hint(missing),
            file=sys.stderr,
        )
        return 2
    if args.examples < 1:
        print("conformance crosscheck: --examples must be at least 1", file=sys.stderr)
        return 2
    # imported here: sacreBLEU and NLTK load only when the command runs
    from conformance.crosscheck.report import render, reproducer_section
    from conformance.crosscheck.runner import run_crosscheck

    started = time.monotonic()
    result = run_crosscheck(libraries, args.examples, args.seed)
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(render(result), encoding="utf-8")

    for check_id, stats in result.statistics.items():
        print(
            f"{check_id}: compared {stats.compared}, agreed {stats.agreed}, explained {stats.explained}, "
            f"not comparable {stats.not_comparable}, unexplained {stats.unexplained}"
        )
    for reproducer in result.unexplained:
        print(f"\nUNEXPLAINED disagreement, {reproducer.check.id} (oracle bug or new divergence):")
        print("\n".join(reproducer_section(reproducer)))
    print(
        f"wrote {output} in {time.monotonic() - started:.1f} s; "
        + (
            "every disagreement explained"
            if not result.unexplained
            else f"{len(result.unexplained)} check(s) with unexplained disagreements"
        )
    )
    return result.exit_code

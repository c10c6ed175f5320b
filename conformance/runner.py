"""`conformance run --target T`: a thin front on the pytest suite.

It turns the options of ``conformance run`` (see ``register``: --target, --tools,
--profile, --seed, --report-dir, --junit, --known-failures, --strict, ...) into a
``pytest.main`` call on the suite (``--pyargs conformance.suite -p
conformance.pytest_plugin``), which is exactly what a user can run by hand to get
pytest's own ``-k``, ``-x``, ``--junitxml`` and plugins::

    pytest --pyargs conformance.suite -p conformance.pytest_plugin --target oracle --profile quick

and maps pytest's exit status onto the command's: 0 conformant, 1 non-conformant,
2 usage, 3 could not conclude (target unreachable or unhealthy, or Ctrl-C), 143 stopped by SIGTERM
(the partial report written, every process of the target ended). With ``--baseline REPORT``
a run that concluded exits as its diff with that report says (conformance.reports.baseline:
0 no new failure, 1 a new one); 3 and 143 stay.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

from conformance.engine.options import DEFAULT_REPORT_DIR, PROFILES
from conformance.engine.properties import DEFAULT_MAX_FAILURES
from conformance.engine.session import EXIT_TERMINATED
from conformance.targets import DEFAULT_TIMEOUT

DEFAULT_PROFILE = "default"

SUITE_INI = Path(__file__).resolve().parent / "suite" / "pytest.ini"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run",
        help="check a target against the contracts",
        description="Check a target against the contracts: golden fixtures plus generated cases. "
        "Exit 0 conformant, 1 non-conformant, 2 usage, 3 could not conclude, "
        "143 stopped by SIGTERM (partial report).",
        epilog="Each failure is saved under REPORT_DIR/reproducers/ for `conformance replay FILE`. "
        "oracle and python: targets run in this process and cannot be timed out; use cmd: or "
        "HTTP for an implementation that may hang. The same suite runs under pytest itself: "
        "pytest --pyargs conformance.suite -p conformance.pytest_plugin --target T",
    )
    parser.add_argument(
        "--target",
        required=True,
        help="oracle | python:MODULE | cmd:COMMAND ({tool}/{version}/{input} substituted) | implementation:NAME | "
        "jsonl:COMMAND | http(s)://BASE | mcp+http(s)://HOST:PORT/PATH (an MCP server)",
    )
    parser.add_argument("--tools", default="", metavar="ID[@V],...", help="only these tools (default: all)")
    parser.add_argument(
        "--profile",
        default=None,  # "default", or the baseline's with --baseline (same_cases_as_baseline)
        choices=sorted(PROFILES),
        help="generated examples per family (valid/boundary/invalid): "
        + "; ".join(f"{name} {'/'.join(str(n) for n in sizes.values())}" for name, sizes in PROFILES.items()),
    )
    parser.add_argument("--seed", type=int, default=None, help="same seed, same cases (default: random, printed)")
    parser.add_argument("--report-dir", default=DEFAULT_REPORT_DIR, help=f"default {DEFAULT_REPORT_DIR}/")
    parser.add_argument(
        "--junit", default=None, metavar="FILE", help="the JUnit XML report (default: REPORT_DIR/junit.xml)"
    )
    parser.add_argument(
        "--known-failures",
        default=None,
        metavar="FILE",
        help='expected deviations: {"known_failures": [{"id": ..., "reason": ...}]}',
    )
    parser.add_argument("--strict", action="store_true", help="fail if a listed known failure now passes")
    parser.add_argument(
        "--progress-file",
        default=None,
        metavar="FILE",
        help="append the run's progress to FILE as JSON lines (the checks per tool, then one line per check "
        "done), for another process to follow (conformance/progress_file.py)",
    )
    parser.add_argument(
        "--write-known-failures",
        default=None,
        metavar="FILE",
        help="write this run's deviations as a known-failures file",
    )
    parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S", help="seconds per request (default %(default)g)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, metavar="N", help="concurrent requests for the fixture cases (default 1)"
    )
    parser.add_argument(
        "-k", dest="keyword", default=None, metavar="EXPR", help="only tests whose id matches (pytest -k syntax)"
    )
    parser.add_argument(
        "--max-failures-per-property",
        type=int,
        default=DEFAULT_MAX_FAILURES,
        metavar="N",
        help="after a generated property's first failure, keep generating until N distinct "
        "failures (default %(default)s; 1 stops at the first)",
    )
    parser.add_argument(
        "--families",
        default=None,
        metavar="PATTERN[,PATTERN]",
        help="only the generated families matching (fnmatch: valid/*, valid/shared-ngrams, "
        "generated/TOOL/invalid/*); fixture cases are not restricted (-k restricts both)",
    )
    parser.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    cases = parser.add_mutually_exclusive_group()
    cases.add_argument(
        "--fixtures-only", "--no-generated", dest="no_generated", action="store_true", help="golden fixture cases only"
    )
    cases.add_argument(
        "--generated-only", "--no-fixtures", dest="no_fixtures", action="store_true", help="generated cases only"
    )
    parser.add_argument(
        "--allow-contract-drift",
        action="store_true",
        help="judge the target against the suite's contracts even when it publishes an additive "
        "or breaking different one (default: exit 3)",
    )
    parser.add_argument(
        "--baseline",
        default=None,
        metavar="REPORT",
        help="an earlier run's report.json or report directory: the reports lead with what changed "
        "since it, and the run exits 1 only on new failures (see --fail-on); 3 stays 3",
    )
    parser.add_argument(
        "--fail-on",
        default="new",
        choices=("new", "any"),
        help="with --baseline: new (default) fails on new failure groups and newly failing fixture "
        "cases; any also on fixed groups and changed counts",
    )
    parser.add_argument(
        "-n",
        "--numprocesses",
        dest="processes",
        default=None,
        type=processes,
        metavar="N",
        help="spread the run over N processes (pytest-xdist; auto: one per core; 0: this process "
        "only, the default); one report, the same checks and outcomes as one process; "
        "--workers applies in each process",
    )
    parser.add_argument(
        "--shard",
        default=None,
        metavar="K/N",
        help="run share K of N of the checks (deterministic, balanced by expected cost); "
        "`conformance merge-reports` joins the shares' report directories into one report",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="-v: also a line per tool's fixture cases and per generated property as each finishes; "
        "-vv: pytest's own output instead (a line per test, its warnings and summary)",
    )
    parser.set_defaults(func=run)


def pytest_args(args: argparse.Namespace) -> list[str]:
    argv = [
        "--pyargs",
        "conformance.suite",
        "-p",
        "conformance.pytest_plugin",
        "--target",
        args.target,
        "--tools",
        args.tools,
        "--profile",
        args.profile,
        "--report-dir",
        args.report_dir,
        "--target-timeout",
        str(args.timeout),
        "--target-workers",
        str(args.workers),
        "-p",
        "no:cacheprovider",
        # No assertion rewriting: the suite judges with its own comparisons, not bare asserts, and
        # rewriting every module of the package cost each process (-n N starts N + 1) seconds.
        "--assert=plain",
    ]
    if SUITE_INI.is_file():  # the suite's own settings, whatever project the user runs it from
        argv += ["-c", str(SUITE_INI), "--rootdir", str(SUITE_INI.parent)]
    if args.verbose >= 2:
        argv += ["-v", "--tb=short"]
    else:  # the run's own console: a line per tool as it ends, then the summary; none of pytest's terminal
        argv += ["-p", "no:terminal", "--conformance-quiet"] + (["--conformance-list"] if args.verbose else [])
    optional = {
        "--seed": args.seed,
        "--conformance-junit": args.junit,
        "--known-failures": args.known_failures,
        "--progress-file": args.progress_file,
        "--write-known-failures": args.write_known_failures,
        "-k": args.keyword,
        "--max-failures-per-property": args.max_failures_per_property,
        "--families": args.families,
        "--baseline": args.baseline,
        "--shard": args.shard,
        "-n": args.processes,
    }
    for flag, value in optional.items():
        if value is not None:
            argv += [flag, str(value)]
    flags = {
        "--strict-known-failures": args.strict,
        "--exitfirst": args.exitfirst,
        "--no-generated": args.no_generated,
        "--no-fixtures": args.no_fixtures,
        "--allow-contract-drift": args.allow_contract_drift,
    }
    argv += [flag for flag, on in flags.items() if on]
    return argv + ["--fail-on", args.fail_on]


def processes(text: str) -> str:
    """-n: ``auto`` or a count of processes >= 0."""
    if text == "auto" or (text.isdigit() and int(text) >= 0):
        return text
    raise argparse.ArgumentTypeError(f"expected auto or a number of processes, not {text!r}")


def exit_code(status: int) -> int:
    """pytest's exit status (after the plugin set its own) -> the fixed exit codes of `run`."""
    if status in (0, 1, 3, EXIT_TERMINATED):
        return status
    if status == pytest.ExitCode.USAGE_ERROR:
        return 2
    if status == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("conformance run: no case selected (check --tools and -k)", file=sys.stderr)
        return 2
    return 3  # interrupted, or pytest's internal error: no conclusion


def same_cases_as_baseline(args: argparse.Namespace) -> None:
    """--baseline: the baseline's seed and profile unless others are given (the same cases, so a group is
    new or fixed because the target changed, not the draw), said on stderr; another seed is warned about."""
    given_profile = args.profile
    args.profile = args.profile or DEFAULT_PROFILE
    if not args.baseline:
        return
    try:
        header = json.loads(Path(args.baseline, "report.json" if Path(args.baseline).is_dir() else "").read_text())[
            "header"
        ]
        seed, profile = int(header["seed"]), str(header["profile"])
    except (OSError, ValueError, KeyError, TypeError):
        return  # the session's own reading of the baseline says what is wrong with it (exit 2)
    if args.seed is None:
        args.seed = seed
        if given_profile is None and profile in PROFILES:
            args.profile = profile
        print(
            f"--baseline: seed {args.seed} and profile {args.profile}, as in the baseline (the same cases)",
            file=sys.stderr,
        )
    elif args.seed != seed:
        print(
            f"--baseline: seed {args.seed}, not the baseline's {seed}: other cases are drawn, so a new or fixed "
            "group may come from the draw rather than from the target",
            file=sys.stderr,
        )


def run(args: argparse.Namespace) -> int:
    same_cases_as_baseline(args)
    return exit_code(int(pytest.main(pytest_args(args))))

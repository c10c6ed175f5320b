"""The conformance suite as a pytest plugin: thin hooks over the run engine.

    pytest --pyargs conformance.suite -p conformance.pytest_plugin --target oracle

``conformance run`` is a thin front on exactly this. The suite (conformance/suite/) has
one test per golden fixture case (id = the case's stable id) and one Hypothesis
property per tool x generated family (id ``generated/<tool>/<family>``); each test
asks the engine's Session (conformance.engine) to judge it, and turns the result into
pytest's outcome with a readable message. At the end of the session the engine's record
is written as the reports and gives the exit status: 0 conformant, 1 non-conformant,
3 could not conclude (target dead or unhealthy, the harness itself broke, or Ctrl-C), 4 pytest's
usage error (``conformance run`` reports it as 2), 143 stopped by SIGTERM (conformance.termination:
handled as Ctrl-C is, with the partial report marked interrupted).
With ``--baseline``, the reports lead with what changed since that report, and a run that
concluded exits as the diff says (0 or 1).
"""

from __future__ import annotations

import os
import shlex
import signal
import sys
import warnings
from collections import Counter
from pathlib import Path

import pytest

from conformance import parallel, progress, progress_file
from conformance.cli import HASH_SEED
from conformance.engine import EXIT_UNCONCLUDED, PROFILES, PropertySpec, RunOptions, Session, UsageError, parse_tools
from conformance.engine.options import DEFAULT_REPORT_DIR
from conformance.engine.properties import DEFAULT_MAX_FAILURES, NotServed, Unhealthy
from conformance.engine.selection import split_patterns
from conformance.engine.session import INTERRUPTION_EXIT_CODES
from conformance.engine.shards import parse_shard
from conformance.model import Case, CaseResult
from conformance.reports.document import STOPS
from conformance.reports.text import LINE_LIMIT, one_line
from conformance.targets import DEFAULT_TIMEOUT
from conformance.termination import StopSignals, interruption

RUN_KEY = pytest.StashKey["ConformanceRun"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "MT-metric conformance suite")
    group.addoption(
        "--target",
        help="oracle | python:MODULE | cmd:COMMAND | jsonl:COMMAND | http(s)://BASE | mcp+http(s)://HOST:PORT/PATH",
    )
    group.addoption("--tools", default="", help="ID[@VERSION],... (default: every tool the oracle implements)")
    group.addoption("--profile", default="default", choices=sorted(PROFILES), help="generated examples per family")
    group.addoption("--seed", type=int, default=None, help="Hypothesis seed (default: random, printed)")
    group.addoption("--report-dir", default=DEFAULT_REPORT_DIR, help="where the reports go")
    group.addoption("--conformance-junit", default=None, metavar="FILE", help="also write the JUnit XML here")
    group.addoption("--known-failures", default=None, metavar="FILE", help="expected deviations (JSON)")
    group.addoption(
        "--strict-known-failures", action="store_true", help="a listed known failure that now passes fails the run"
    )
    group.addoption(
        "--write-known-failures",
        default=None,
        metavar="FILE",
        help="write this run's deviations as a known-failures file",
    )
    group.addoption("--target-timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per request")
    group.addoption(
        "--target-workers",
        type=int,
        default=1,
        help="concurrent target calls for the fixture cases (generated properties run in order)",
    )
    group.addoption("--no-generated", action="store_true", help="fixture cases only")
    group.addoption("--no-fixtures", action="store_true", help="generated cases only")
    group.addoption(
        "--max-failures-per-property",
        type=int,
        default=DEFAULT_MAX_FAILURES,
        metavar="N",
        help="distinct failures a generated property reports before it stops (1: stop at the first)",
    )
    group.addoption(
        "--families",
        default="",
        metavar="PATTERN[,PATTERN]",
        help="only the generated families matching (fnmatch over family names like valid/* "
        "or property ids like generated/TOOL/valid/*); fixture cases are not restricted",
    )
    group.addoption(
        "--allow-contract-drift",
        action="store_true",
        help="go on when the target publishes a different contract (additive or breaking drift)",
    )
    group.addoption(
        "--baseline",
        default=None,
        metavar="REPORT",
        help="compare this run with an earlier report.json (or its directory) at the end",
    )
    group.addoption(
        "--fail-on",
        default="new",
        choices=("new", "any"),
        help="with --baseline: exit 1 on new failures only (new) or on any difference in failures (any)",
    )
    group.addoption(
        "--shard",
        default="",
        metavar="K/N",
        help="only share K of N of the checks (balanced by expected cost, the same on every machine); "
        "conformance merge-reports joins the shares' reports",
    )
    group.addoption(
        "--progress-file",
        default=None,
        metavar="FILE",
        help="append the progress as JSON lines: checks per tool, then one line per check done",
    )
    group.addoption(
        "--conformance-quiet",
        action="store_true",
        help="no per-test characters from pytest: a line per tool as its checks finish, and the run's own "
        "summary (conformance run also turns pytest's terminal output off: -p no:terminal)",
    )
    group.addoption(
        "--conformance-list",
        action="store_true",
        help="with --conformance-quiet: also a line per tool's fixture cases and per generated property",
    )


def options_from(config: pytest.Config) -> RunOptions:
    option = config.getoption
    try:
        tools = parse_tools(option("--tools"))
    except ValueError as exc:
        raise pytest.UsageError(f"--tools: {exc}") from None
    seed = parallel.worker_seed(config)  # a process of -n: the controller's (chosen once for them all)
    try:
        return RunOptions(
            target=option("--target"),
            tools=tools,
            profile=option("--profile"),
            seed=option("--seed") if seed is None else seed,
            report_dir=Path(option("--report-dir")),
            junit=option("--conformance-junit"),
            known_failures=option("--known-failures"),
            strict=option("--strict-known-failures"),
            write_known_failures=option("--write-known-failures"),
            timeout=option("--target-timeout"),
            workers=option("--target-workers"),
            fixtures=not option("--no-fixtures"),
            generated=not option("--no-generated"),
            max_failures_per_property=option("--max-failures-per-property"),
            families=split_patterns(option("--families")),
            keyword=option("keyword") or "",
            allow_contract_drift=option("--allow-contract-drift"),
            baseline=option("--baseline"),
            fail_on=option("--fail-on"),
            shard=parse_shard(option("--shard")) if option("--shard") else None,
        )
    except UsageError as exc:
        raise pytest.UsageError(str(exc)) from None


class ConformanceRun:
    """The pytest side of one session: the engine's Session, progress on the real terminal, and
    the hooks that need the session (it is registered as a plugin)."""

    def __init__(self, config: pytest.Config):
        self.config = config
        options = options_from(config)
        self._stdout = sys.stdout  # the real terminal: pytest captures sys.stdout during tests
        self.worker = parallel.is_worker(config)  # a process of -n: the controller shows the run
        self.progress = progress.Progress(
            self._write,
            live=self._stdout.isatty() and not self.worker,
            shown=config.getoption("--conformance-quiet") and not self.worker,
            listing=config.getoption("--conformance-list"),
        )
        self.tool_of: dict[str, str] = {}  # each check's node id -> its tool (the progress, the progress file)
        self.warnings: Counter[str] = Counter()  # the warnings pytest recorded, in one line each
        try:
            self.session = Session(options, events=self.progress)
        except UsageError as exc:
            raise pytest.UsageError(str(exc)) from None
        self.options = options
        self.interrupted = ""  # the signal that interrupted the session, if one did
        self.controller = parallel.Controller(config, options.run_seed) if parallel.is_controller(config) else None
        # the controller of -n runs no test: it raises in the handler, so that xdist stops and it relays
        self.sigterm = StopSignals(raise_at_once=self.controller is not None)
        self.pytest_session: pytest.Session | None = None
        self._shares_sent: set[int] = set()  # a process of -n: the shares whose fixture cases it prefetched
        path = config.getoption("--progress-file")
        self.progress_file = progress_file.Writer(path) if path and not self.worker else None

    @property
    def target(self):
        return self.session.target

    @property
    def seed(self) -> int:
        return self.options.run_seed

    def run_fixture_case(self, case: Case) -> None:
        if self.worker:
            self._prefetch_share(case)
        settle(self.session.run_fixture_case(case), self.options.strict)

    def _prefetch_share(self, case: Case) -> None:
        """A process of -n learns its share from its first case of it: its fixture cases go --workers at a time."""
        shares = self.shares()
        share = shares.get(case.case_id)
        if share is not None and share not in self._shares_sent:
            self._shares_sent.add(share)
            self.session.prefetch([found for found in self.session.fixture_cases() if shares[found.case_id] == share])

    def shares(self) -> dict[str, int]:
        """A process of -n: each check's share (one per process), dealt once."""
        if not hasattr(self, "_shares"):
            self._shares = self.session.shares(parallel.processes(self.config))
        return self._shares

    def run_property(self, spec: PropertySpec) -> None:
        try:
            results = self.session.run_property(spec)
        except (Unhealthy, NotServed) as exc:
            pytest.skip(str(exc))
        failing = [result for result in results if result.outcome in ("failed", "errored")]
        if len(failing) > 1:  # each distinct failure the property kept going to find
            pytest.fail("\n\n".join(failure_text(result) for result in failing), pytrace=False)
        if results:
            settle(results[0], self.options.strict)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """A module of the suite that fails to collect."""
        if report.failed:
            self.session.harness_errors.append(f"collecting {report.nodeid}: {report.longreprtext.strip()[-800:]}")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """A check is done at its call, or at a setup that did not pass (skipped, errored), in this process
        or, under -n, in one of its processes: the progress per tool, and --progress-file."""
        if self.worker or not (report.when == "call" or (report.when == "setup" and not report.passed)):
            return
        tool = self.tool_of.get(report.nodeid)
        if tool is not None:
            self.progress.check_done(tool, failing=report.failed, skipped=report.skipped)
        if self.progress_file is not None:
            outcome = "xfailed" if hasattr(report, "wasxfail") else report.outcome
            self.progress_file.check_done(report.nodeid, tool or tool_in_node_id(report.nodeid), outcome)

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo) -> None:
        """Ctrl-C, or SIGTERM (conformance.termination): the session ends early, its report marked."""
        self.sigterm.delivered = True
        if not (self.controller and parallel.stopped_by_scheduler(excinfo.value)):
            self.interrupted = interruption(excinfo.value)
        if self.controller and self.interrupted == "SIGTERM":  # it reached this process alone
            self.controller.relay()
        elif self.controller and self.interrupted == "SIGINT":  # a terminal's Ctrl-C reaches them too; a kill -INT not
            self.controller.relay(signal.SIGTERM, grace_seconds=parallel.CTRL_C_GRACE_SECONDS)

    def finish(self, session: pytest.Session) -> None:
        self.sigterm.hold()  # the reports get written whatever comes now
        # a signal recorded after the last point that acts on it (the last test's) still interrupted the run
        self.interrupted = self.interrupted or self.sigterm.received
        if session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            self.session.target.close()
            return  # nothing selected (-k, --tools): a usage problem, with nothing to report
        if session.exitstatus == pytest.ExitCode.INTERNAL_ERROR:
            self.session.harness_errors.append("pytest stopped with an internal error (see its output)")
        if self.controller:
            self.session.harness_errors.extend(self.controller.lost)
        record = self.session.finish(command_line(), interrupted=self.interrupted, pytest=pytest.__version__)
        from conformance.reports import baseline
        from conformance.reports import document as report_document

        document = self.marked_if_late(report_document.build_document(record))
        if self.worker:  # the controller merges the processes' documents and writes the reports
            text = report_document.dump_report_json(document)
            parallel.worker_output(self.config)[parallel.DOCUMENT] = text
            parallel.write_document(self.config, text)
            return
        if self.controller:
            document = self.merged(document, self.controller)
            self.controller.close()
        document = self.marked_if_late(report_document.with_baseline(document, self.session.baseline))
        paths = write_document(report_document.validated(document), self.options.report_dir, self.options.junit)
        if self.options.write_known_failures:
            paths["known_failures"] = write_known_failures(document, self.options.write_known_failures)
        self.progress.close()
        if self.progress_file is not None:
            self.progress_file.close()
        self.summarise(document, paths)
        session.exitstatus = baseline.run_exit_code(document["exit_code"], document.get("baseline_diff"))

    def marked_if_late(self, document: dict) -> dict:
        """A signal while the document was built cut the naming of divergences short: the report is partial,
        marked interrupted, and the run exits as interrupted."""
        late = self.sigterm.late
        if late and document["header"].get("interrupted") is None:
            self.interrupted = document["header"]["interrupted"] = late
            document["exit_code"] = INTERRUPTION_EXIT_CODES[late]
        return document

    def merged(self, own: dict, controller: parallel.Controller) -> dict:
        """-n: the processes' documents as one run's (this process's own, which ran no check, last:
        its start, its harness errors, its interruption)."""
        from conformance.engine.session import check_order
        from conformance.reports.merge import MergeError, merge_documents

        documents = [*controller.worker_documents(), own]
        try:
            merged = merge_documents(documents, check_order(self.options.tools), own["header"]["command"])
        except MergeError as exc:  # the processes ran overlapping checks: the suite itself broke
            own["header"].setdefault("harness_errors", []).append(f"-n: {exc}")
            own["exit_code"] = EXIT_UNCONCLUDED
            return own
        merged["header"]["processes"] = parallel.processes(self.config)
        if "interrupted" in own["header"]:  # the signal that reached this process, not the one it relayed
            merged["header"]["interrupted"], merged["exit_code"] = own["header"]["interrupted"], own["exit_code"]
        return merged

    def summarise(self, document: dict, paths: dict) -> None:
        """Print the end-of-run summary (under --baseline, the diff leads it: reports.baseline), after the
        warnings pytest recorded, when its own terminal output is off (-p no:terminal)."""
        from conformance.reports import console

        if self.progress.shown and self.warnings:
            self.progress.line(warnings_text(self.warnings))
        self.progress.line(console.summary(document, paths))

    def expect(self, node_ids: dict[str, str]) -> None:
        """The tests of the run (node id -> tool), for the progress per tool."""
        self.tool_of = node_ids
        self.progress.expect(Counter(node_ids.values()))

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids: list[str]) -> None:
        """-n: the controller, which collects nothing, learns the checks from its processes' collection."""
        if self.tool_of:
            return
        checks = {case.case_id: case.tool_id for case in self.session.fixture_cases()}
        checks.update((spec.id, spec.tool_id) for spec in self.session.property_specs())
        self.expect({node_id: checks[check] for node_id in ids if (check := parametrized_id(node_id)) in checks})

    def pytest_warning_recorded(self, warning_message, when: str, nodeid: str, location) -> None:
        self.warnings[warning_line(warning_message)] += 1

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.pytest_session = session
        if self.controller:
            self.session.clear_reproducers()  # the processes write theirs into the one report directory
            self.progress.line(f"{_banner(self)}, {parallel.processes(self.config)} processes")

    def pytest_runtest_logfinish(self) -> None:
        if self.worker and self.pytest_session is not None:
            parallel.after_test(self.config, self.pytest_session, self.session.health)

    def _write(self, text: str) -> None:
        capture = self.config.pluginmanager.getplugin("capturemanager")
        if capture is None:
            self._stdout.write(text)
        else:
            with capture.global_and_fixture_disabled():
                self._stdout.write(text)
        self._stdout.flush()


def tool_in_node_id(node_id: str) -> str:
    """A check's tool from its node id alone (under -n the controller collected none): ``generated/TOOL/...``
    or a fixture case's id, ``TOOL@VERSION/...``; "" when neither."""
    name = node_id.partition("[")[2].rstrip("]")
    if name.startswith("generated/"):
        return name.split("/")[1]
    return name.partition("@")[0] if "@" in name else ""


def parametrized_id(node_id: str) -> str:
    """``path::test_x[ID]`` -> ``ID``: a test's check id ("" for a test not parametrized)."""
    start = node_id.find("[")
    return node_id[start + 1 : -1] if start >= 0 and node_id.endswith("]") else ""


def warning_line(warning: warnings.WarningMessage) -> str:
    """A warning in one line: its category, where it comes from, its first sentence."""
    module = getattr(warning.category, "__module__", "")
    origin = module.split(".")[0] if module and module != "builtins" else "Python"
    text = str(warning.message).strip().split("\n")[0]
    return f"{warning.category.__name__} from {origin}: {text.split('. ')[0].rstrip('.')}"


def warnings_text(counted: Counter[str]) -> str:
    """The warnings pytest recorded during the run, one line each: raised by the suite's own libraries (or
    Python) while it worked, they say nothing about the target."""
    lines = [
        f"warning (from a library the suite uses, not about the target), {count}x: {line}"
        for line, count in sorted(counted.items())
    ]
    return "\n".join(one_line(line, LINE_LIMIT) for line in lines)


def command_line() -> str:
    """How this run was started, for the report header (``python -m X`` shows as ``X``)."""
    program = Path(sys.argv[0]).name
    if program == "__main__.py":
        program = Path(sys.argv[0]).parent.name
    return shlex.join([program, *sys.argv[1:]])


def settle(result: CaseResult, strict: bool) -> None:
    """Turn a judged case into pytest's outcome, with a readable message."""
    if result.outcome == "passed":
        return
    if result.outcome == "skipped":
        pytest.skip(result.message)
    if result.outcome == "xfailed":
        pytest.xfail(f"known failure: {result.known_failure_reason}")
    if result.outcome == "fixed":
        if strict:
            pytest.fail(
                f"listed as a known failure ({result.known_failure_reason}) but now passes: "
                "remove it from the known-failures file",
                pytrace=False,
            )
        return
    pytest.fail(failure_text(result), pytrace=False)


def failure_text(result: CaseResult) -> str:
    from conformance.reports.failures import result_text

    return result_text(result)


def write_document(document: dict, report_dir: Path, junit_path: str | None) -> dict[str, Path]:
    from conformance.reports import write_document as write_all

    return write_all(document, report_dir, Path(junit_path) if junit_path else None)


def write_known_failures(document: dict, path: str) -> Path:
    """This run's deviations as a known-failures file (from report.json's results: -n merges them)."""
    from conformance import known_failures
    from conformance.reports.document import property_of_case

    properties = [entry["id"] for entry in document["properties"]]
    return known_failures.write(
        path,
        known_failures.entries_from_document(
            document["results"], lambda case_id: property_of_case(case_id, properties)
        ),
    )


# -- pytest hooks ---------------------------------------------------------------------------


def pytest_configure(config: pytest.Config) -> None:
    run = ConformanceRun(config)
    config.stash[RUN_KEY] = run
    config.pluginmanager.register(run, "conformance-run")
    if run.controller:
        config.pluginmanager.register(run.controller, "conformance-processes")
        # its processes, started after this, draw the cases: under the hash seed of `conformance run`
        # (conformance/cli.py, fix_hash_seed), they draw and shrink as its one process does
        os.environ["PYTHONHASHSEED"] = HASH_SEED
    if run.worker:
        parallel.announce(config)
    run.sigterm.install(on_signal=run.session.health.interrupt)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_collection(session: pytest.Session):
    """The session's first step: a signal that came while it started is acted on from here
    (conformance/termination.py, ``start``)."""
    session.config.stash[RUN_KEY].sigterm.start()
    return (yield)


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(RUN_KEY, None)
    if run is not None:
        run.sigterm.restore()


def _banner(run: ConformanceRun) -> str:
    tools = ", ".join(f"{t}@{v}" for t, v in run.options.tools)
    return f"conformance: target {run.target.spec}, tools {tools}, profile {run.options.profile}, seed {run.seed}"


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [_banner(config.stash[RUN_KEY])]
    if os.environ.get("PYTHONHASHSEED") != HASH_SEED:  # pytest itself, in one process: see fix_hash_seed
        lines.append(
            f"conformance: PYTHONHASHSEED is {os.environ.get('PYTHONHASHSEED', 'unset')!r}, not {HASH_SEED!r}: "
            "Hypothesis labels its strategies by string hashes, so the same --seed draws other cases in "
            f"another run; run under PYTHONHASHSEED={HASH_SEED} for the cases of `conformance run --seed N`"
        )
    return lines


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    session = metafunc.config.stash[RUN_KEY].session
    run = metafunc.config.stash[RUN_KEY]
    shares = run.shares() if run.worker else {}  # -n: each process runs one share (conformance.parallel)

    def params(values, ids):
        return [
            pytest.param(value, id=id_, marks=[parallel.group_mark(shares[id_])] if shares else [])
            for value, id_ in zip(values, ids)
        ]

    if "fixture_case" in metafunc.fixturenames:
        cases = session.fixture_cases()
        metafunc.parametrize("fixture_case", params(cases, [case.case_id for case in cases]))
    if "property_spec" in metafunc.fixturenames:
        specs = session.property_specs()
        metafunc.parametrize("property_spec", params(specs, [spec.id for spec in specs]))


def pytest_collection_finish(session: pytest.Session) -> None:
    run = session.config.stash[RUN_KEY]
    # an empty parameter set (--no-fixtures) leaves pytest's NOTSET placeholder: not a case
    cases = [
        item.callspec.params["fixture_case"]
        for item in session.items
        if hasattr(item, "callspec") and isinstance(item.callspec.params.get("fixture_case"), Case)
    ]
    tool_of = {}
    for item in session.items:
        params = item.callspec.params if hasattr(item, "callspec") else {}
        checked = params.get("fixture_case") or params.get("property_spec")
        if isinstance(checked, (Case, PropertySpec)):
            tool_of[item.nodeid] = checked.tool_id
    run.expect(tool_of)
    if run.progress_file is not None:
        run.progress_file.totals(run.tool_of)
    if run.progress.shown:  # otherwise pytest's header already says it
        run.progress.line(_banner(run))
    if session.items:
        run.session.start(cases, prefetch=not run.worker)
        if run.session.health.unhealthy:
            health = run.session.health
            run.progress.line(f"{STOPS.get(health.stopped_by, 'run stopped')}: {health.reason}")


@pytest.fixture(scope="session")
def conformance_run(request: pytest.FixtureRequest) -> ConformanceRun:
    return request.config.stash[RUN_KEY]


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before each test: a signal recorded meanwhile stops the session here (conformance/termination.py)."""
    signals = item.config.stash[RUN_KEY].sigterm
    signals.check()
    signals.in_test = True


def pytest_runtest_teardown(item: pytest.Item) -> None:
    """After each test: a signal that came during it (the calls in flight ended) stops the session here."""
    signals = item.config.stash[RUN_KEY].sigterm
    signals.in_test = False
    signals.check()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if call.excinfo is not None and not call.excinfo.errisinstance(
        (pytest.fail.Exception, pytest.skip.Exception, pytest.xfail.Exception)
    ):
        # not a verdict on the target: the suite itself broke
        run = item.config.stash[RUN_KEY]
        run.session.harness_errors.append(f"{item.nodeid} ({call.when}): {call.excinfo.exconly()[:500]}")
    return report


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config):
    """--conformance-quiet: no character from pytest for any test, in any phase (the run shows its own progress)."""
    if not config.getoption("--conformance-quiet"):
        return None
    if report.when == "call":
        return ("xfailed" if hasattr(report, "wasxfail") else report.outcome), "", ""
    return ("" if report.passed else "error" if report.failed else report.outcome), "", ""


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    run = session.config.stash.get(RUN_KEY, None)
    if run is not None:
        run.finish(session)

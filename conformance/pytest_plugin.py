"""The conformance suite as a pytest plugin: thin hooks over the run engine.

    pytest --pyargs conformance.suite -p conformance.pytest_plugin --target oracle

``conformance run`` is a thin front on exactly this. The suite (conformance/suite/) has
one test per golden fixture case (id = the case's stable id) and one Hypothesis
property per tool x generated family (id ``generated/<tool>/<family>``); each test
asks the engine's Session (conformance.engine) to judge it, and turns the result into
pytest's outcome with a readable message. At the end of the session the engine's record
is written as the reports and gives the exit status: 0 conformant, 1 non-conformant,
3 could not conclude (target dead or unhealthy, or the harness itself broke), 4 pytest's
usage error (``conformance run`` reports it as 2).
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import hypothesis
import pytest

from conformance import progress
from conformance.engine import PROFILES, PropertySpec, RunOptions, Session, UsageError, parse_tools
from conformance.engine.options import DEFAULT_REPORT_DIR
from conformance.engine.properties import Unhealthy
from conformance.model import Case, CaseResult, RunRecord
from conformance.targets import DEFAULT_TIMEOUT

DETAILED_FAILURES = 10  # explained in full at the end of a run; the rest by id (all are in the reports)

RUN_KEY = pytest.StashKey["ConformanceRun"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "MT-metric conformance suite")
    group.addoption("--target", help="oracle | python:MODULE | cmd:COMMAND | http(s)://BASE")
    group.addoption("--tools", default="", help="ID[@VERSION],... (default: every tool the oracle implements)")
    group.addoption("--profile", default="default", choices=sorted(PROFILES), help="generated examples per family")
    group.addoption("--seed", type=int, default=None, help="Hypothesis seed (default: random, printed)")
    group.addoption("--report-dir", default=DEFAULT_REPORT_DIR, help="where the reports go")
    group.addoption("--conformance-junit", default=None, metavar="FILE", help="also write the JUnit XML here")
    group.addoption("--known-failures", default=None, metavar="FILE", help="expected deviations (JSON)")
    group.addoption("--strict-known-failures", action="store_true",
                    help="a listed known failure that now passes fails the run")
    group.addoption("--write-known-failures", default=None, metavar="FILE",
                    help="write this run's deviations as a known-failures file")
    group.addoption("--target-timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per request")
    group.addoption("--target-workers", type=int, default=1,
                    help="concurrent target calls for the fixture cases (generated properties run in order)")
    group.addoption("--no-generated", action="store_true", help="fixture cases only")
    group.addoption("--no-fixtures", action="store_true", help="generated cases only")
    group.addoption("--conformance-quiet", action="store_true",
                    help="no per-test characters from pytest (conformance run prints its own progress)")


def options_from(config: pytest.Config) -> RunOptions:
    option = config.getoption
    try:
        tools = parse_tools(option("--tools"))
    except ValueError as exc:
        raise pytest.UsageError(f"--tools: {exc}") from None
    if getattr(config.option, "numprocesses", None):
        raise pytest.UsageError("the conformance suite keeps one run record per session: use --workers "
                                "(concurrent target calls) instead of pytest-xdist's -n")
    try:
        return RunOptions(
            target=option("--target"), tools=tools, profile=option("--profile"), seed=option("--seed"),
            report_dir=Path(option("--report-dir")), junit=option("--conformance-junit"),
            known_failures=option("--known-failures"), strict=option("--strict-known-failures"),
            write_known_failures=option("--write-known-failures"), timeout=option("--target-timeout"),
            workers=option("--target-workers"), fixtures=not option("--no-fixtures"),
            generated=not option("--no-generated"),
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
        self.progress = progress.Progress(self._write, live=self._stdout.isatty(),
                                          per_group=config.getoption("--conformance-quiet"))
        try:
            self.session = Session(options, events=self.progress)
        except UsageError as exc:
            raise pytest.UsageError(str(exc)) from None
        self.options = options

    @property
    def target(self):
        return self.session.target

    @property
    def seed(self) -> int:
        return self.options.seed

    def run_fixture_case(self, case: Case) -> None:
        settle(self.session.run_fixture_case(case), self.options.strict)

    def run_property(self, spec: PropertySpec) -> None:
        try:
            result = self.session.run_property(spec)
        except Unhealthy as exc:
            pytest.skip(str(exc))
        if result is not None:
            settle(result, self.options.strict)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """A module of the suite that fails to collect."""
        if report.failed:
            self.session.harness_errors.append(f"collecting {report.nodeid}: {report.longreprtext.strip()[-800:]}")

    def finish(self, session: pytest.Session) -> None:
        if session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            self.session.target.close()
            return  # nothing selected (-k, --tools): a usage problem, with nothing to report
        interrupted = session.exitstatus in (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.INTERNAL_ERROR)
        record = self.session.finish(command_line(), interrupted=interrupted, pytest=pytest.__version__)
        paths = write_reports(record, self.options.report_dir, self.options.junit)
        if self.options.write_known_failures:
            paths["known_failures"] = self.session.write_known_failures()
        self.progress.close()
        self.summarise(record, paths)
        session.exitstatus = record.exit_code

    def summarise(self, record: RunRecord, paths: dict) -> None:
        line = self.progress.line
        line("")
        line(progress.summary_table(record.results, record.properties))
        problems = [result for result in record.results
                    if result.outcome in ("failed", "errored") or (self.options.strict and result.outcome == "fixed")]
        problems.sort(key=lambda result: len(_short_json(result.case.input, limit=10**6)))  # smallest first
        for result in problems[:DETAILED_FAILURES]:
            line("\n" + (failure_text(result) if result.outcome != "fixed" else
                         f"fixed: {result.case.case_id} is listed as a known failure but passes now"))
        for result in problems[DETAILED_FAILURES:]:
            line(f"{result.outcome}: {result.case.case_id}: {result.message[:200]}")
        if record.unhealthy_reason:
            line(f"\nTARGET UNHEALTHY, run stopped: {record.unhealthy_reason}")
        for error in self.session.harness_errors:
            line(f"\nHARNESS ERROR (a bug of the suite, please report it): {error}")
        verdict = {0: "conformant", 1: "NOT conformant", 3: "could not conclude"}.get(record.exit_code, "")
        line(f"\ntarget {self.session.target.spec}: {verdict} (seed {self.options.seed}, profile {self.options.profile})".rstrip())
        for name, path in sorted(paths.items()):
            line(f"  {name}: {path}")

    def _write(self, text: str) -> None:
        capture = self.config.pluginmanager.getplugin("capturemanager")
        if capture is None:
            self._stdout.write(text)
        else:
            with capture.global_and_fixture_disabled():
                self._stdout.write(text)
        self._stdout.flush()


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
            pytest.fail(f"listed as a known failure ({result.known_failure_reason}) but now passes: "
                        "remove it from the known-failures file", pytrace=False)
        return
    pytest.fail(failure_text(result), pytrace=False)


def failure_text(result: CaseResult) -> str:
    case = result.case
    lines = [f"{result.outcome}: {case.case_id} ({case.tool_id}@{case.version})", f"  {result.message}"]
    if case.description:
        lines.append(f"  case: {case.description if len(case.description) <= 400 else case.description[:400] + '...'}")
    lines.append(f"  input: {_short_json(case.input)}")
    if result.mismatch is not None:
        m = result.mismatch
        lines.append(f"  at {m.pointer or '(whole output)'}: expected {_short_json(m.expected)}, "
                     f"got {_short_json(m.actual)}"
                     + (f" (delta {m.delta:.3g}, tolerance {m.tolerance:.3g})"
                        if m.delta is not None and m.tolerance is not None else ""))
    elif result.response is not None and result.response.kind == "transport_error":
        lines.append(f"  target: {result.response.detail}")
    if case.expect.kind == "output" and result.expected is not None:
        lines.append(f"  expected output: {_short_json(result.expected)}")
    if result.response is not None and result.response.kind == "result":
        lines.append(f"  actual output:   {_short_json(result.response.result)}")
    elif result.response is not None and result.response.kind == "rejection":
        lines.append(f"  actual: rejected ({result.response.error_code or 'no code'}): {result.response.raw[:200]}")
    if result.replay:
        lines.append(f"  replay: {result.replay}")
    if result.curl:
        lines.append(f"  reproduce: {result.curl if len(result.curl) < 500 else result.curl[:500] + '...'}")
    return "\n".join(lines)


def _short_json(value: Any, limit: int = 400) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def write_reports(record: RunRecord, report_dir: Path, junit_path: str | None) -> dict[str, Path]:
    try:
        from conformance.reports import write_reports as write_all
    except ModuleNotFoundError as exc:
        if exc.name != "conformance.reports":
            raise
        # reports.py not available: keep at least the machine-readable record
        report_dir.mkdir(parents=True, exist_ok=True)
        path = report_dir / "report.json"
        path.write_text(json.dumps(record.to_dict(), indent=2, ensure_ascii=False, default=str), encoding="utf-8")
        return {"report.json": path}
    return write_all(record, report_dir, Path(junit_path) if junit_path else None)


# -- pytest hooks ---------------------------------------------------------------------------


def pytest_configure(config: pytest.Config) -> None:
    run = ConformanceRun(config)
    config.stash[RUN_KEY] = run
    config.pluginmanager.register(run, "conformance-run")


def _banner(run: ConformanceRun) -> str:
    tools = ", ".join(f"{t}@{v}" for t, v in run.options.tools)
    return f"conformance: target {run.target.spec}, tools {tools}, profile {run.options.profile}, seed {run.seed}"


def pytest_report_header(config: pytest.Config) -> str:
    return _banner(config.stash[RUN_KEY])


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    session = metafunc.config.stash[RUN_KEY].session
    if "fixture_case" in metafunc.fixturenames:
        cases = session.fixture_cases()
        metafunc.parametrize("fixture_case", cases, ids=[case.case_id for case in cases])
    if "property_spec" in metafunc.fixturenames:
        specs = session.property_specs()
        metafunc.parametrize("property_spec", specs, ids=[spec.id for spec in specs])


def pytest_collection_finish(session: pytest.Session) -> None:
    run = session.config.stash[RUN_KEY]
    # an empty parameter set (--no-fixtures) leaves pytest's NOTSET placeholder: not a case
    cases = [item.callspec.params["fixture_case"] for item in session.items
             if hasattr(item, "callspec") and isinstance(item.callspec.params.get("fixture_case"), Case)]
    if run.progress.per_group:  # otherwise pytest's header already says it
        run.progress.line(_banner(run))
    if session.items:
        run.session.start(cases)
        if run.session.health.unhealthy:
            run.progress.line(f"target unhealthy: {run.session.health.reason}")


@pytest.fixture(scope="session")
def conformance_run(request: pytest.FixtureRequest) -> ConformanceRun:
    return request.config.stash[RUN_KEY]


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
    if config.getoption("--conformance-quiet") and report.when == "call":
        return ("xfailed" if hasattr(report, "wasxfail") else report.outcome), "", ""
    return None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    run = session.config.stash.get(RUN_KEY, None)
    if run is not None:
        run.finish(session)

"""The conformance suite as a pytest plugin.

    pytest --pyargs conformance.suite -p conformance.pytest_plugin --target oracle

``conformance run`` is a thin front on exactly this. The suite (conformance/suite/) has
one test per golden fixture case (id = the case's stable id) and one Hypothesis
property per tool x generated family (id ``generated/<tool>/<family>``); each test
sends its input to the target, has ``conformance.compare.check`` judge the answer and
fails with a readable message. Hypothesis shrinks a failing property to a minimal
input, which is saved as a reproducer for ``conformance replay``.

The plugin keeps one ``CaseResult`` per fixture case and per failing (shrunk) generated
example, plus per-property counts, writes the reports at the end of the session and sets
the exit status: 0 conformant, 1 non-conformant, 3 could not conclude (target dead or
unhealthy, or the harness itself broke), 4 pytest's usage error (``conformance run``
reports it as 2). Health: a preflight call (the contract's first example) must get some
answer; during the run a circuit breaker stops calling a target that keeps failing at
the transport level, so a dead, hanging or garbage-answering target ends the run fast.
"""

from __future__ import annotations

import concurrent.futures
import shlex
from collections import Counter, defaultdict
import datetime as dt
import json
import random
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hypothesis
import hypothesis.errors
import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

import oracle
from conformance import known_failures, progress
from conformance.model import Case, CaseResult, Expectation, RunRecord, TargetResponse, Verdict
from conformance.targets import DEFAULT_TIMEOUT, TargetSpecError, make_target

# Hypothesis examples per generated family, by category. Boundary families draw inputs at
# the size limits (up to 50,000 tokens), each costing ~100 ms of oracle time, and their
# space is small (each limit, both sides), so they get fewer examples. `default` is sized
# so the whole suite against the in-process oracle runs well under a minute on 2 cores.
PROFILES = {
    "quick": {"valid": 8, "boundary": 3, "invalid": 6},
    "default": {"valid": 60, "boundary": 12, "invalid": 40},
    "thorough": {"valid": 600, "boundary": 100, "invalid": 300},
}
DEFAULT_REPORT_DIR = "reports/latest"

# Circuit breaker: the target is unhealthy after this many transport errors in a row,
# or when more than half of the first EARLY_WINDOW calls were transport errors.
MAX_CONSECUTIVE_TRANSPORT_ERRORS = 5
EARLY_WINDOW = 20

EXIT_OK, EXIT_NONCONFORMANT, EXIT_UNCONCLUDED = 0, 1, 3
MAX_HINT_CHARS = 8192  # longer curl/shell lines are left out: the replay command re-sends any input

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


@dataclass(frozen=True)
class PropertySpec:
    tool_id: str
    version: str
    family: Any  # conformance.strategies.Family

    @property
    def id(self) -> str:
        return property_id(self.tool_id, self.family.name)


def property_id(tool_id: str, family_name: str) -> str:
    return f"generated/{tool_id}/{family_name}"


def property_id_of_case(case: Case) -> str:
    """A generated case's property id: its case id without the trailing example number."""
    return case.case_id.rsplit("/", 1)[0]


def parse_tools(text: str) -> list[tuple[str, str]]:
    """``ID[@VERSION],...`` -> (tool, version) pairs the oracle implements; ValueError names a bad one."""
    implemented = sorted(oracle.TOOLS)
    if not text.strip():
        return implemented
    selected: list[tuple[str, str]] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        tool_id, _, version = item.partition("@")
        matches = [(t, v) for t, v in implemented if t == tool_id and (not version or v == version)]
        if not matches:
            known = ", ".join(f"{t}@{v}" for t, v in implemented)
            raise ValueError(f"unknown tool {item!r} (known: {known})")
        selected.extend(match for match in matches if match not in selected)
    return selected


class TargetFailure(Exception):
    """A target's answer did not conform: Hypothesis shrinks on it."""


class TargetErrored(Exception):
    """A target failed to answer one input (crash, 5xx, garbage): shrunk like a failure."""


class HealthMonitor:
    """The circuit breaker over transport errors (thread-safe: fixture calls may run in a pool)."""

    def __init__(self) -> None:
        self.calls = self.transport_errors = self.consecutive = self.retries = 0
        self.reason = ""
        self._lock = threading.Lock()

    @property
    def unhealthy(self) -> bool:
        return bool(self.reason)

    def trip(self, reason: str) -> None:
        with self._lock:
            self.reason = self.reason or reason

    def record(self, response: TargetResponse) -> None:
        with self._lock:
            self.calls += 1
            self.retries += response.retries
            if response.kind != "transport_error":
                self.consecutive = 0
                return
            self.transport_errors += 1
            self.consecutive += 1
            if self.reason:
                return
            if self.consecutive >= MAX_CONSECUTIVE_TRANSPORT_ERRORS:
                self.reason = (f"{self.consecutive} transport errors in a row; last: {response.detail}")
            elif self.calls <= EARLY_WINDOW and self.transport_errors > EARLY_WINDOW // 2:
                self.reason = (f"{self.transport_errors} of the first {self.calls} calls were transport errors; "
                               f"last: {response.detail}")


class ConformanceRun:
    """The state of one session: target, options, results; judges cases and writes the reports."""

    def __init__(self, config: pytest.Config):
        option = config.getoption
        spec = option("--target")
        if not spec:
            raise pytest.UsageError("the conformance suite needs --target (oracle, python:MODULE, cmd:COMMAND or URL)")
        try:
            self.tools = parse_tools(option("--tools"))
        except ValueError as exc:
            raise pytest.UsageError(f"--tools: {exc}") from None
        if option("--target-timeout") <= 0 or option("--target-workers") < 1:
            raise pytest.UsageError("--timeout must be > 0 and --workers >= 1")
        if getattr(config.option, "numprocesses", None):
            raise pytest.UsageError("the conformance suite keeps one run record per session: use --workers "
                                    "(concurrent target calls) instead of pytest-xdist's -n")
        if option("--no-generated") and option("--no-fixtures"):
            raise pytest.UsageError("--no-generated and --no-fixtures together leave nothing to run")
        self.known_entries = self._load_known_failures(option("--known-failures"))
        try:
            self.target = make_target(spec, timeout=option("--target-timeout"))
        except TargetSpecError as exc:
            raise pytest.UsageError(f"--target: {exc}") from None
        self.config = config
        self.profile = option("--profile")
        self.examples = PROFILES[self.profile]
        self.seed = option("--seed") if option("--seed") is not None else random.SystemRandom().randrange(2**32)
        self.report_dir = Path(option("--report-dir"))
        try:
            self.report_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise pytest.UsageError(f"--report-dir {self.report_dir}: {exc.strerror}") from None
        self.strict = option("--strict-known-failures")
        self.known = known_failures.for_target(self.known_entries, self.target.spec)
        self.workers = option("--target-workers")
        self.started = dt.datetime.now(dt.timezone.utc)
        self.results: list[CaseResult] = []
        self.properties: list[dict] = []
        self.health = HealthMonitor()
        self.harness_errors: list[str] = []
        self.prefetched: dict[str, concurrent.futures.Future] = {}
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._fixture_totals: dict[str, int] = {}
        self._fixture_done: dict[str, Counter] = defaultdict(Counter)
        self._stdout = sys.stdout  # the real terminal: pytest captures sys.stdout during tests
        self.progress = progress.Progress(self._write, live=self._stdout.isatty(),
                                          per_group=option("--conformance-quiet"))

    # -- set-up -------------------------------------------------------------------------

    def _load_known_failures(self, path: str | None) -> list[known_failures.KnownFailure]:
        if not path:
            return []
        try:
            entries = known_failures.load(path)
        except known_failures.KnownFailuresError as exc:
            raise pytest.UsageError(str(exc)) from None
        missing = known_failures.unmatched(entries, suite_ids())
        if missing:
            raise pytest.UsageError(f"{path}: known failure id(s) matching no case or property: {', '.join(missing)}")
        return entries

    def fixture_cases(self) -> list[Case]:
        if self.config.getoption("--no-fixtures"):
            return []
        return [case for case in load_fixture_cases() if (case.tool_id, case.version) in self.tools]

    def property_specs(self) -> list[PropertySpec]:
        if self.config.getoption("--no-generated"):
            return []
        from conformance.strategies import families

        return [PropertySpec(tool_id, version, family) for tool_id, version in self.tools
                for family in families(tool_id, version)]

    def header(self) -> dict:
        from conformance.reports import build_header, utc_timestamp

        return build_header(
            target=self.target.spec,
            contracts=[f"{tool_id}@{version}" for tool_id, version in self.tools],
            seed=self.seed,
            profile=self.profile,
            started=utc_timestamp(self.started),
            command=command_line(),
            finished=utc_timestamp(),
            strict=self.strict,
            retries=getattr(self.target, "retries", 0),
            retries_made=self.health.retries,
            examples_per_family=self.examples,
            timeout_s=self.config.getoption("--target-timeout"),
            workers=self.workers,
            hypothesis=hypothesis.__version__,
            pytest=pytest.__version__,
        )

    def clear_old_reproducers(self) -> None:
        """Reproducers of an earlier run in the same report directory would pass for this run's."""
        for path in (self.report_dir / "reproducers").glob("*.json"):
            path.unlink(missing_ok=True)

    def preflight(self) -> None:
        """One contract example must get some answer (right or wrong), or the run stops at once."""
        tool_id, version = self.tools[0]
        example = oracle.load_contract(tool_id, version)["examples"][0]["input"]
        response = self.target.call(tool_id, version, example)
        if response.kind == "transport_error":
            self.health.trip(f"preflight: the target did not answer the {tool_id}@{version} contract example: "
                             f"{response.detail}")
        elif response.kind == "rejection" and (response.status == 404 or response.error_code == "not_found"):
            # nothing can be concluded about a tool the target does not serve (e.g. a wrong base URL)
            self.health.trip(f"preflight: the target answers 'not found' for {tool_id}@{version} "
                             f"({response.detail or response.error_code}): a wrong base URL, or the tool is not deployed")
        else:
            self.health.record(response)

    def prefetch(self, cases: list[Case]) -> None:
        """With --workers N > 1, send the fixture cases N at a time (the tests then read the answers)."""
        if self.workers < 2 or not cases or self.health.unhealthy:
            return
        self._pool = concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="conformance")
        for case in cases:
            self.prefetched[case.case_id] = self._pool.submit(self._call_unless_unhealthy, case)

    # -- judging one case ---------------------------------------------------------------

    def _call_unless_unhealthy(self, case: Case) -> TargetResponse | None:
        if self.health.unhealthy:
            return None
        response = self.target.call(case.tool_id, case.version, case.input)
        self.health.record(response)
        return response

    def evaluate(self, case: Case) -> tuple[TargetResponse | None, Verdict]:
        from conformance.compare import check

        future = self.prefetched.pop(case.case_id, None)
        response = future.result() if future else self._call_unless_unhealthy(case)
        if response is None:
            return None, Verdict("skipped", f"not run: the target is unhealthy ({self.health.reason})")
        return response, check(case, response)

    def case_result(self, case: Case, response: TargetResponse | None, verdict: Verdict) -> CaseResult:
        result = CaseResult(case=case, outcome=verdict.outcome, message=verdict.message,
                            mismatch=verdict.mismatch, response=response)
        if verdict.outcome in ("failed", "errored"):
            from conformance.compare import expected_for
            from conformance.replay import write_reproducer

            result.expected = expected_for(case)
            hint = self.target.reproduce_hint(case.tool_id, case.version, case.input)
            result.curl = hint if len(hint) <= MAX_HINT_CHARS else ""  # a 1 MB shell line helps nobody
            path = write_reproducer(self.report_dir / "reproducers", result, self.target.spec, self.seed)
            result.reproducer_file = str(path)
            result.replay = f"conformance replay {shlex.quote(str(path))}"
        return result

    def record(self, result: CaseResult) -> None:
        self.results.append(result)
        case = result.case
        self.progress.case_done(case.tool_id, result.outcome)
        if case.origin == "fixture":
            done = self._fixture_done[case.tool_id]
            done[result.outcome] += 1
            if sum(done.values()) == self._fixture_totals.get(case.tool_id):
                self.progress.group_done(f"{case.tool_id} fixtures", dict(done))

    # -- the two kinds of test ----------------------------------------------------------

    def run_fixture_case(self, case: Case) -> None:
        response, verdict = self.evaluate(case)
        result = self.case_result(case, response, verdict)
        known = self.known.get(case.case_id)
        if known:
            result.known_failure_reason = known.reason
            if result.outcome in ("failed", "errored"):
                result.outcome = "xfailed"
            elif result.outcome == "passed":
                result.outcome = "fixed"
        self.record(result)
        settle(result, self.strict)

    def run_property(self, spec: PropertySpec) -> None:
        stats = {"examples": 0, "passed": 0, "failed": 0, "errored": 0}
        last_failure: list[CaseResult] = []
        family = spec.family

        @settings(
            max_examples=self.examples[family.category], database=None, deadline=None, derandomize=False,
            suppress_health_check=list(HealthCheck), report_multiple_bugs=False, print_blob=False,
            phases=(Phase.explicit, Phase.generate, Phase.shrink),
        )
        @seed(self.seed)
        @given(family.strategy)
        def prop(generated) -> None:
            case = Case(tool_id=spec.tool_id, version=spec.version, case_id=f"{spec.id}/{stats['examples']}",
                        origin="generated", category=family.category, input=generated.input,
                        expect=generated.expect, description=generated.description, seed=self.seed)
            stats["examples"] += 1
            response, verdict = self.evaluate(case)
            if verdict.outcome == "skipped":
                pytest.skip(verdict.message)
            stats[verdict.outcome] = stats.get(verdict.outcome, 0) + 1
            self.progress.case_done(spec.tool_id, verdict.outcome)
            if verdict.outcome != "passed":
                last_failure[:] = [CaseResult(case=case, outcome=verdict.outcome, message=verdict.message,
                                              mismatch=verdict.mismatch, response=response)]
                raise (TargetFailure if verdict.outcome == "failed" else TargetErrored)(verdict.message)

        entry = {"id": spec.id, "tool_id": spec.tool_id, "version": spec.version, "family": family.name,
                 "category": family.category, "outcome": "passed", "message": "", "seed": self.seed}
        self.properties.append(entry)
        known = self.known.get(spec.id)
        self.progress.current = spec.id
        started = time.monotonic()
        result: CaseResult | None = None
        try:
            prop()
        except (TargetFailure, TargetErrored):
            # Hypothesis re-ran the minimal example last: that is the one to report and save.
            shrunk = last_failure[0]
            result = self.case_result(shrunk.case, shrunk.response,
                                      Verdict(shrunk.outcome, shrunk.message, shrunk.mismatch))
        except hypothesis.errors.Flaky:
            if not last_failure:
                raise
            # The target answered the same input differently on another try. A wrong answer
            # given some of the time is still a wrong answer: report the last one seen.
            seen = last_failure[0]
            result = self.case_result(seen.case, seen.response, Verdict(
                seen.outcome, f"{seen.message} (not every time: the target answered this input differently "
                              "when it was sent again)", seen.mismatch))
        except pytest.skip.Exception:
            entry.update(outcome="skipped", message=f"not finished: the target is unhealthy ({self.health.reason})")
            raise
        except Exception as exc:  # the suite broke (compare, a strategy): reported as a harness error
            entry.update(outcome="errored", message=f"harness error: {type(exc).__name__}: {str(exc)[:300]}")
            raise
        else:
            if known:  # a listed property passed: say so with a result of its own
                result = CaseResult(
                    case=Case(spec.tool_id, spec.version, spec.id, "generated", family.category, None,
                              Expectation("output"), f"every generated example of {spec.id} passed"),
                    outcome="passed", message=f"{stats['examples']} examples passed")
        finally:
            entry.update(stats, duration_ms=round((time.monotonic() - started) * 1000, 1))
            if result is None:
                self._property_done(entry)
        if result is None:
            return
        if known:
            result.known_failure_reason = entry["known_failure_reason"] = known.reason
            result.outcome = "fixed" if result.outcome == "passed" else "xfailed"
        entry["outcome"], entry["message"] = result.outcome, result.message
        self.record(result)
        self._property_done(entry)
        settle(result, self.strict)

    def _property_done(self, entry: dict) -> None:
        counts = {"examples": entry.get("examples", 0)}
        if entry["outcome"] != "passed":
            counts[entry["outcome"]] = 1
        self.progress.group_done(entry["id"], counts)

    # -- the end ------------------------------------------------------------------------

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """A hook (the run is registered as a plugin): a module of the suite that fails to collect."""
        if report.failed:
            self.harness_errors.append(f"collecting {report.nodeid}: {report.longreprtext.strip()[-800:]}")

    def exit_code(self) -> int:
        if self.health.unhealthy or self.harness_errors:
            return EXIT_UNCONCLUDED
        outcomes = {result.outcome for result in self.results}
        if outcomes & {"failed", "errored"} or (self.strict and "fixed" in outcomes):
            return EXIT_NONCONFORMANT
        return EXIT_OK

    def finish(self, session: pytest.Session) -> None:
        if self._pool:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self.target.close()
        if session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            return  # nothing selected (-k, --tools): a usage problem, with nothing to report
        if session.exitstatus in (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.INTERNAL_ERROR):
            code = EXIT_UNCONCLUDED  # the partial report is still written
        else:
            code = self.exit_code()
        record = RunRecord(header=self.header(), results=self.results, properties=self.properties, exit_code=code,
                           unhealthy_reason=self.health.reason)
        if self.harness_errors:
            record.header["harness_errors"] = self.harness_errors
        paths = write_reports(record, self.report_dir, self.config.getoption("--conformance-junit"))
        written = self.config.getoption("--write-known-failures")
        if written:
            entries = known_failures.entries_from_run(self.results, property_id_of_case)
            paths["known_failures"] = known_failures.write(written, entries)
        self.progress.close()
        self.summarise(record, paths)
        session.exitstatus = code

    def summarise(self, record: RunRecord, paths: dict) -> None:
        from conformance.reports import console, document

        self.progress.line(console.summary(document.build_document(record), paths))

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
    from conformance.reports.failures import result_text

    return result_text(result)


def load_fixture_cases() -> list[Case]:
    from conformance.fixtures import load_cases

    return load_cases(None)


def suite_ids() -> set[str]:
    """Every id a known-failures entry may name: all fixture case ids and property ids, every tool."""
    from conformance.strategies import families

    ids = {case.case_id for case in load_fixture_cases()}
    for tool_id, version in oracle.TOOLS:
        ids.update(property_id(tool_id, family.name) for family in families(tool_id, version))
    return ids


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


def pytest_report_header(config: pytest.Config) -> str:
    run = config.stash[RUN_KEY]
    return (f"conformance: target {run.target.spec}, tools {', '.join(f'{t}@{v}' for t, v in run.tools)}, "
            f"profile {run.profile}, seed {run.seed}")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    run = metafunc.config.stash[RUN_KEY]
    if "fixture_case" in metafunc.fixturenames:
        cases = run.fixture_cases()
        metafunc.parametrize("fixture_case", cases, ids=[case.case_id for case in cases])
    if "property_spec" in metafunc.fixturenames:
        specs = run.property_specs()
        metafunc.parametrize("property_spec", specs, ids=[spec.id for spec in specs])


def pytest_collection_finish(session: pytest.Session) -> None:
    run = session.config.stash[RUN_KEY]
    # an empty parameter set (--no-fixtures) leaves pytest's NOTSET placeholder: not a case
    cases = [item.callspec.params["fixture_case"] for item in session.items
             if hasattr(item, "callspec") and isinstance(item.callspec.params.get("fixture_case"), Case)]
    for case in cases:
        run._fixture_totals[case.tool_id] = run._fixture_totals.get(case.tool_id, 0) + 1
    if run.progress.per_group:  # otherwise pytest's header already says it
        run.progress.line(f"conformance: target {run.target.spec}, tools "
                          f"{', '.join(f'{t}@{v}' for t, v in run.tools)}, profile {run.profile}, seed {run.seed}")
    if session.items:
        run.clear_old_reproducers()
        run.preflight()
        if run.health.unhealthy:
            run.progress.line(f"target unhealthy: {run.health.reason}")
        run.prefetch(cases)


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
        run.harness_errors.append(f"{item.nodeid} ({call.when}): {call.excinfo.exconly()[:500]}")
    return report


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config):
    if config.getoption("--conformance-quiet") and report.when == "call":
        return ("xfailed" if hasattr(report, "wasxfail") else report.outcome), "", ""
    return None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    run = session.config.stash.get(RUN_KEY, None)
    if run is not None:
        run.finish(session)

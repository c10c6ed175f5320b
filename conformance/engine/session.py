"""One run of the suite against one target, without pytest.

A Session judges fixture cases and generated properties one at a time and keeps the
record: one CaseResult per fixture case and per failing (shrunk) generated example, and one
entry per property. Each judgement computes the expected behaviour once (compare.expect)
and hands it to the verdict (compare.judge); a failure gets its reproducer file and replay
line; an entry of the known-failures file turns a failure into "xfailed" and a pass into
"fixed". ``finish()`` gives the RunRecord and the exit code: 0 conformant, 1 not,
3 could not conclude (target unhealthy, or the harness itself broke, or Ctrl-C), 143 stopped by
SIGTERM. When the breaker trips (engine.health) the target is closed at once, which ends the calls
in flight (each kind of target ends its processes, connections or sessions), and no call starts after.
"""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import shlex
import signal
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any, Protocol

from hypothesis import strategies as st

from conformance import compare, known_failures, steps, wire
from conformance.compare.readings import ReadingsLog
from conformance.engine.drift import DriftFinding, check_drift, stop_reason
from conformance.engine.health import CONTRACT_DRIFT, PREFLIGHT, HealthMonitor
from conformance.engine.options import RunOptions, UsageError
from conformance.engine.properties import NotServed, PropertyRun, Unhealthy, run_property
from conformance.engine.selection import select_families, unmatched_patterns
from conformance.engine.shards import assign, check_costs
from conformance.hypothesis_profiles import run_settings
from conformance.model import (
    Case,
    CaseResult,
    Expectation,
    Outcome,
    RunRecord,
    TargetResponse,
    Verdict,
    is_not_applicable,
)
from conformance.targets import TargetSpecError, make_target
from oracle.registry import tool_keys

EXIT_OK, EXIT_NONCONFORMANT, EXIT_UNCONCLUDED = 0, 1, 3
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143, as a process ended by SIGTERM reports itself
INTERRUPTION_EXIT_CODES = {"SIGINT": EXIT_UNCONCLUDED, "SIGTERM": EXIT_TERMINATED}  # how the run was interrupted
MAX_HINT_CHARS = 8192  # longer curl/shell lines are left out: the replay command re-sends any input


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


def fixture_cases() -> list[Case]:
    from conformance.fixtures import load_cases

    return load_cases(None)


def check_order(tools: list[tuple[str, str]]) -> list[str]:
    """The checks of a run over ``tools`` in the order a run makes them: fixture cases, then properties."""
    from conformance.strategies import families

    return [case.case_id for case in fixture_cases() if (case.tool_id, case.version) in tools] + [
        property_id(tool_id, family.name) for tool_id, version in tools for family in families(tool_id, version)
    ]


def suite_ids() -> set[str]:
    """Every id a known-failures entry may name: all fixture case ids and property ids, every tool."""
    from conformance.strategies import families

    ids = {case.case_id for case in fixture_cases()}
    for tool_id, version in tool_keys():
        ids.update(property_id(tool_id, family.name) for family in families(tool_id, version))
    return ids


def apply_known(result: CaseResult, known: known_failures.KnownFailure | None) -> CaseResult:
    """A listed failure is "xfailed", a listed case that passes "fixed"."""
    if known is not None:
        result.known_failure_reason = known.reason
        if result.outcome in ("failed", "errored"):
            result.outcome = "xfailed"
        elif result.outcome == "passed":
            result.outcome = "fixed"
    return result


class Events(Protocol):
    """What a session reports as it goes (the console progress line, conformance/progress.py, listens)."""

    def case_done(self, tool_id: str, outcome: str) -> None: ...
    def group_done(self, label: str, counts: dict[str, int]) -> None: ...
    def property_started(self, property_id: str) -> None: ...


class NoEvents:
    """Events nobody listens to: all no-ops."""

    def case_done(self, tool_id: str, outcome: str) -> None:
        pass

    def group_done(self, label: str, counts: dict[str, int]) -> None:
        pass

    def property_started(self, property_id: str) -> None:
        pass


class Session:
    def __init__(self, options: RunOptions, events: Events | None = None):
        self.options = options
        self.events: Events = events or NoEvents()
        self.known_entries = self._load_known_failures(options.known_failures)
        self.baseline = self._load_baseline(options.baseline)
        self._check_families()
        try:
            self.target = make_target(options.target, timeout=options.timeout)
        except TargetSpecError as exc:
            raise UsageError(f"--target: {exc}") from None
        try:
            options.report_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--report-dir {options.report_dir}: {exc.strerror}") from None
        self.known = known_failures.for_target(self.known_entries, self.target.spec)
        self.started = dt.datetime.now(dt.timezone.utc)
        self.results: list[CaseResult] = []
        self.properties: list[dict] = []
        self.health = HealthMonitor(options.timeout, on_trip=self.target.close)  # ends the calls in flight
        self.readings = ReadingsLog()
        self.bodies = wire.LargestBodies()  # the largest compact body of a valid input sent, per tool
        self.harness_errors: list[str] = []
        self._prefetched: dict[str, concurrent.futures.Future] = {}
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self.not_served: set[str] = set()  # tools the target answers "not found" for (engine/health.py)
        self.drift: list[DriftFinding] | None = None  # None: the target cannot say which contract it serves
        self._fixture_totals: Counter = Counter()
        self._fixture_done: dict[str, Counter] = defaultdict(Counter)
        self._shares: dict[str, int] | None = None  # --shard: every check's share, dealt once

    @property
    def seed(self) -> int:
        return self.options.run_seed

    # -- set-up -------------------------------------------------------------------------

    def _load_known_failures(self, path: str | None) -> list[known_failures.KnownFailure]:
        if not path:
            return []
        try:
            entries = known_failures.load(path)
        except known_failures.KnownFailuresError as exc:
            raise UsageError(str(exc)) from None
        missing = known_failures.unmatched(entries, suite_ids())
        if missing:
            raise UsageError(f"{path}: known failure id(s) matching no case or property: {', '.join(missing)}")
        return entries

    def _load_baseline(self, path: str | None):
        """--baseline: read and checked before anything is sent (reports.baseline)."""
        if not path:
            return None
        from conformance.reports.baseline import Baseline, BaselineError

        try:
            return Baseline.load(path, self.options.fail_on)
        except BaselineError as exc:
            raise UsageError(f"--baseline: {exc}") from None

    def fixture_cases(self) -> list[Case]:
        """The run's fixture cases (its shard's, with --shard)."""
        return [case for case in self._selected_fixture_cases() if self._in_shard(case.case_id)]

    def property_specs(self) -> list[PropertySpec]:
        """The run's generated properties (its shard's, with --shard)."""
        return [spec for spec in self._selected_property_specs() if self._in_shard(spec.id)]

    def _selected_fixture_cases(self) -> list[Case]:
        if not self.options.fixtures:
            return []
        return [case for case in fixture_cases() if (case.tool_id, case.version) in self.options.tools]

    def _selected_property_specs(self) -> list[PropertySpec]:
        if not self.options.generated:
            return []
        return select_families(self.options.families, self._all_property_specs())

    def shares(self, total: int) -> dict[str, int]:
        """Each of the run's checks (its shard's, with --shard) -> its share of ``total`` (the processes of -n)."""
        return self._deal(self.fixture_cases(), self.property_specs(), total)

    def _deal(self, cases: list[Case], specs: list[PropertySpec], total: int) -> dict[str, int]:
        """Check id -> its share of ``total``, dealt by expected cost (engine.shards)."""
        fixture_ids = (case.case_id for case in cases)
        properties = ((spec.id, spec.family.category) for spec in specs)
        return assign(check_costs(fixture_ids, properties, self.options.profile), total)

    def _in_shard(self, check_id: str) -> bool:
        shard = self.options.shard
        if shard is None:
            return True
        if self._shares is None:  # the shares of every selected check, so each shard deals them alike
            self._shares = self._deal(self._selected_fixture_cases(), self._selected_property_specs(), shard.total)
        return self._shares[check_id] == shard.index

    def _all_property_specs(self) -> list[PropertySpec]:
        from conformance.strategies import families

        return [
            PropertySpec(tool_id, version, family)
            for tool_id, version in self.options.tools
            for family in families(tool_id, version)
        ]

    def _check_families(self) -> None:
        """--families: a pattern matching no family of the selected tools is a usage error."""
        if not self.options.families:
            return
        specs = self._all_property_specs()
        missing = unmatched_patterns(self.options.families, specs)
        if missing:
            names = sorted({spec.family.name for spec in specs})
            raise UsageError(
                f"--families: {', '.join(map(repr, missing))} matches no generated family of the "
                f"selected tools (families: {', '.join(names)}; or generated/TOOL/FAMILY)"
            )

    def start(self, cases: list[Case], prefetch: bool = True) -> None:
        """Before the first case: clear old reproducers, preflight, and prefetch the fixture cases
        (``prefetch`` False, in a process of -n: the controller cleared them, and ``prefetch(cases)``
        sends the process's share once it is known)."""
        for case in cases:
            self._fixture_totals[case.tool_id] += 1
        if prefetch:
            self.clear_reproducers()
        self.not_served = set(self.health.preflight(self.target, self.options.tools))
        if self.not_served and len(self.not_served) == len(self.options.tools):
            self.health.trip(
                f"preflight: the target serves none of the selected tools (not found: "
                f"{', '.join(sorted(self.not_served))}): pass --tools with the tools it implements "
                "(conformance list shows them all)",
                PREFLIGHT,
            )
        self._check_contract_drift()
        if prefetch:
            self.prefetch(cases)

    def clear_reproducers(self) -> None:
        for path in (self.options.report_dir / "reproducers").glob("*.json"):
            path.unlink(missing_ok=True)  # an earlier run's reproducers would pass for this run's

    def _check_contract_drift(self) -> None:
        """Compare each served tool's published contract with the suite's (engine.drift); an additive
        or breaking difference stops the run unless --allow-contract-drift."""
        if self.health.unhealthy:
            return
        drift = self.drift = check_drift(
            self.target, [tool for tool in self.options.tools if not self._not_served(*tool)]
        )
        if drift and any(finding.blocking for finding in drift) and not self.options.allow_contract_drift:
            self.health.trip(stop_reason(drift), CONTRACT_DRIFT)

    def prefetch(self, cases: list[Case]) -> None:
        """With --workers N > 1, send the fixture cases N at a time (their judgements then read the answers)."""
        cases = [case for case in cases if not self._not_served(case.tool_id, case.version)]
        if self.options.workers < 2 or not cases or self.health.stopping:
            return
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(self.options.workers, thread_name_prefix="conformance")
        for case in cases:
            self._prefetched[case.case_id] = self._pool.submit(self._call_unless_unhealthy, case)

    # -- judging one case ---------------------------------------------------------------

    def _call_unless_unhealthy(self, case: Case) -> TargetResponse | None:
        """The target's answer, or None once the run stopped (the case is not run, or was cut short by the stop)."""
        if self.health.stopping:
            return None
        if case.expect.kind == "output":
            self.bodies.note(case)
        return self.health.call(self.target, case.tool_id, case.version, case.input, wire.of_case(case))

    def _not_served(self, tool_id: str, version: str) -> bool:
        return f"{tool_id}@{version}" in self.not_served

    @staticmethod
    def _not_served_message(tool_id: str, version: str) -> str:
        return f"not served: the target answers 'not found' for {tool_id}@{version}"

    def evaluate(self, case: Case) -> CaseResult:
        """Send the case (or read its prefetched answer) and judge it; no reproducer yet."""
        if self._not_served(case.tool_id, case.version):
            return CaseResult(case, "skipped", self._not_served_message(case.tool_id, case.version))
        if case.steps:
            return self._evaluate_steps(case)
        future = self._prefetched.pop(case.case_id, None)
        response = future.result() if future else self._call_unless_unhealthy(case)
        if response is None:
            return CaseResult(case, "skipped", f"not run: the run stopped early ({self.health.stop_reason})")
        return CaseResult(case, *self._judged(case, response), response)

    def _judged(self, case: Case, response: TargetResponse) -> tuple[Outcome, str, Any]:
        """(outcome, message, mismatch) of one answer, noting the open points' readings it took."""
        expected = compare.expect(case)
        verdict = compare.judge(case, expected, response)
        self.readings.note(case, expected, response, verdict)
        return verdict.outcome, verdict.message, verdict.mismatch

    def _evaluate_steps(self, case: Case) -> CaseResult:
        """A case of several requests (conformance/steps.py): each step of a selected, served tool sent, in
        order or as a burst, and judged against its own oracle answer; the first wrong step decides."""
        case = steps.keeping(
            case,
            lambda step: (
                (step["tool_id"], step["version"]) in self.options.tools
                and not self._not_served(step["tool_id"], step["version"])
            ),
        )
        cases = steps.step_cases(case)
        responses = steps.send(self._call_unless_unhealthy, cases, case.sending)
        if any(response is None for response in responses):
            return CaseResult(case, "skipped", f"not run: the run stopped early ({self.health.stop_reason})")
        verdicts = [Verdict(*self._judged(step, response)) for step, response in zip(cases, responses)]
        shown, index, verdict = steps.judged(case, verdicts)
        return CaseResult(shown, verdict.outcome, verdict.message, verdict.mismatch, responses[index])

    def finalise(self, result: CaseResult) -> CaseResult:
        """A failure gets its expected output, reproducer file, replay line and reproduce hint."""
        if result.outcome in ("failed", "errored"):
            case = result.case
            result.expected = compare.expected_for(case)
            hint = wire.reproduce_hint(self.target, case)
            result.curl = hint if len(hint) <= MAX_HINT_CHARS else ""  # a 1 MB shell line helps nobody
            from conformance.replay import write_reproducer

            path = write_reproducer(self.options.report_dir / "reproducers", result, self.target.spec, self.seed)
            result.reproducer_file = str(path)
            result.replay = f"conformance replay {shlex.quote(str(path))}"
        return result

    def record(self, result: CaseResult) -> None:
        self.results.append(result)
        case = result.case
        self.events.case_done(case.tool_id, result.outcome)
        if case.origin == "fixture":
            done = self._fixture_done[case.tool_id]
            done[result.outcome] += 1
            if sum(done.values()) == self._fixture_totals.get(case.tool_id):
                self.events.group_done(f"{case.tool_id} fixtures", dict(done))

    # -- the two kinds of test ----------------------------------------------------------

    def run_fixture_case(self, case: Case) -> CaseResult:
        result = apply_known(self.finalise(self.evaluate(case)), self.known.get(case.case_id))
        self.record(result)
        return result

    def run_property(self, spec: PropertySpec) -> list[CaseResult]:
        """Run one generated family; the results to settle (one per distinct failure found, or one
        for a listed property that passed), or none.

        Raises Unhealthy when the target became unhealthy during the property."""
        family = spec.family
        entry = {
            "id": spec.id,
            "tool_id": spec.tool_id,
            "version": spec.version,
            "family": family.name,
            "category": family.category,
            "outcome": "passed",
            "message": "",
            "seed": self.seed,
        }
        self.properties.append(entry)
        known = self.known.get(spec.id)
        self.events.property_started(spec.id)
        started = time.monotonic()

        from conformance.strategies import aim_counts

        aims = aim_counts.AimCounter()  # the aimed features of the examples run (report: aimed_features)

        carried = getattr(self.target, "wire_forms", wire.NONE)  # drawn with the case where the target carries bytes
        strategy = st.tuples(family.strategy, wire.forms(carried == wire.ONE_LINE)) if carried else family.strategy

        def make_case(number: int, drawn) -> Case:
            generated, form = drawn if carried else (drawn, wire.COMPACT)
            form = wire.fitting(form, spec.tool_id, spec.version, generated.input)
            return Case(
                tool_id=spec.tool_id,
                version=spec.version,
                case_id=f"{spec.id}/{number}",
                origin="generated",
                category=family.category,
                input=generated.input,
                expect=generated.expect,
                description=generated.description,
                seed=self.seed,
                steps=list(generated.steps),
                sending=generated.sending,
                wire=form.to_dict(),
            )

        def judge(case: Case) -> CaseResult:
            result = self.evaluate(case)
            if result.outcome != "skipped":
                self.events.case_done(spec.tool_id, result.outcome)
            if result.outcome != "skipped" or is_not_applicable(result.outcome, result.message):
                aims.example_done()  # once per example sent (one the run stopped before sending is not counted)
            return result

        outcome = PropertyRun()
        if self._not_served(spec.tool_id, spec.version):
            entry.update(
                outcome="skipped",
                message=self._not_served_message(spec.tool_id, spec.version),
                examples=0,
            )
            self._property_done(entry)
            raise NotServed(entry["message"])
        counting = aim_counts.start(aims)
        try:
            run_property(
                strategy,
                family.settings(run_settings(self.options.profile, family.category)),
                self.seed,
                make_case,
                judge,
                outcome,
                max_failures=self.options.max_failures_per_property,
                costly=lambda result: self.health.cost_a_time_out(result.response),
                stopped=lambda: self.health.stop_reason,
            )
        except Unhealthy:
            entry.update(outcome="skipped", message=f"not finished: the run stopped early ({self.health.stop_reason})")
            raise
        except Exception as exc:  # the suite broke (compare, a strategy): reported as a harness error
            entry.update(outcome="errored", message=f"harness error: {type(exc).__name__}: {str(exc)[:300]}")
            raise
        finally:
            aim_counts.stop(counting)
            entry.update(aims.summary(family.aims))
            entry.update(outcome.stats, duration_ms=round((time.monotonic() - started) * 1000, 1))
            if outcome.not_applicable:
                entry["not_applicable_causes"] = dict(outcome.not_applicable)
            if outcome.judged_fields:  # partial answers: the fields judged, and those the library does not compute
                entry["judged_fields"] = sorted(outcome.judged_fields)
                entry["not_expressed"] = sorted(outcome.not_expressed - outcome.judged_fields)
        if outcome.all_not_applicable:  # the implementation could express none of its examples
            entry.update(outcome="skipped", message=outcome.all_not_applicable)
        results = [self.finalise(self._flag_flaky(failure, outcome)) for failure in outcome.failures]
        if not results and known:  # a listed property passed: say so with a result of its own
            results = [
                CaseResult(
                    case=Case(
                        spec.tool_id,
                        spec.version,
                        spec.id,
                        "generated",
                        family.category,
                        None,
                        Expectation("output"),
                        f"every generated example of {spec.id} passed",
                    ),
                    outcome="passed",
                    message=f"{outcome.stats['examples']} examples passed",
                )
            ]
        if not results:
            self._property_done(entry)
            return []
        for result in results:
            if known:
                result.known_failure_reason = entry["known_failure_reason"] = known.reason
                result.outcome = "fixed" if result.outcome == "passed" else "xfailed"
            self.record(result)
        entry["outcome"], entry["message"] = results[0].outcome, results[0].message
        self._property_done(entry)
        return results

    @staticmethod
    def _flag_flaky(failure: CaseResult, outcome: PropertyRun) -> CaseResult:
        if failure.case.case_id in outcome.flaky:
            failure.message += " (not every time: the target answered this input differently when it was sent again)"
        return failure

    def _property_done(self, entry: dict) -> None:
        counts = {"examples": entry.get("examples", 0)}
        if entry["outcome"] != "passed":
            counts[entry["outcome"]] = 1
        self.events.group_done(entry["id"], counts)

    # -- the end ------------------------------------------------------------------------

    def exit_code(self) -> int:
        if self.health.unhealthy or self.harness_errors:
            return EXIT_UNCONCLUDED
        # "errored": a case the transport alone kept from being judged (a fault that did not come back when
        # sent again, or a throttled call): could not conclude for that check, counted apart, never a verdict
        outcomes = {result.outcome for result in self.results}
        if "failed" in outcomes or (self.options.strict and "fixed" in outcomes):
            return EXIT_NONCONFORMANT
        return EXIT_OK

    def finish(self, command: str, interrupted: str = "", **versions: str) -> RunRecord:
        """Release the target (ending the calls in flight); the run's record. ``interrupted`` names the
        signal that stopped the run ("SIGINT", "SIGTERM"; "" if it was not), which sets its exit code.
        ``command`` is how the run was started; ``versions`` name the runner's libraries."""
        if self._pool:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self.target.close()
        header = self.header(command, versions)
        if interrupted:
            header["interrupted"] = interrupted
        record = RunRecord(
            header=header,
            results=self.results,
            properties=self.properties,
            exit_code=INTERRUPTION_EXIT_CODES[interrupted] if interrupted else self.exit_code(),
            unhealthy_reason=self.health.reason,
            readings=self.readings.to_dict(),
        )
        if self.harness_errors:
            record.header["harness_errors"] = self.harness_errors
        return record

    def header(self, command: str, versions: dict[str, str]) -> dict:
        import hypothesis

        import oracle
        from conformance.reports import build_header, utc_timestamp

        return build_header(
            target=self.target.spec,
            contracts=[f"{tool_id}@{version}" for tool_id, version in self.options.tools],
            contract_digests={
                f"{tool_id}@{version}": oracle.contract(tool_id, version).digest
                for tool_id, version in self.options.tools
            },
            seed=self.seed,
            profile=self.options.profile,
            started=utc_timestamp(self.started),
            command=command,
            finished=utc_timestamp(),
            strict=self.options.strict,
            retries=getattr(self.target, "retries", 0),
            retries_made=self.health.retries,
            breaker=self.health.figures(),
            largest_bodies=self.bodies.figures(self.options.tools),
            **({"stopped_by": self.health.stopped_by} if self.health.stopped_by else {}),
            examples_per_family=self.options.examples,
            timeout_s=self.options.timeout,
            workers=self.options.workers,
            not_served=sorted(self.not_served),
            max_failures_per_property=self.options.max_failures_per_property,
            **self.options.selection(),
            **(
                {}
                if self.drift is None
                else {
                    "contract_drift": [finding.to_dict() for finding in self.drift],
                    "contract_drift_allowed": self.options.allow_contract_drift,
                }
            ),
            hypothesis=hypothesis.__version__,
            **versions,
        )

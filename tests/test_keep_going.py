"""Keeping a generated property going past its first failure, and restricting generation.

`conformance run` against implementations with two unrelated bugs in one family's input
space: with the default (--max-failures-per-property 3) both are reported, each shrunk, as
its own result with its own reproducer; with 1 only one is. ``--families`` restricts the
generated properties (and is recorded in the header); a pattern matching nothing is a usage
error. Each run is one tool and one family, quick profile, in process.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from test_runner import CRASHES_AFTER_PREFLIGHT, write_module  # the target that answers the preflight, then crashes

from conformance.compare.signature import failure_signature
from conformance.engine.properties import NOT_SHRUNK, PropertyRun, round_seed, run_property
from conformance.hypothesis_profiles import run_settings
from conformance.model import Case, CaseResult, Expectation, Mismatch, TargetResponse

TESTS_DIR = Path(__file__).resolve().parent
NGRAMS = "bleu-ngrams-count"
FAMILY = "valid/clipping"

# bleu-ngrams-count with two unrelated bugs, built on the independent implementation:
# 1. matches are not clipped (the contract: "clipped_count = min(count, max_reference_count)"):
#    hypothesis ["a", "a"] against reference ["a"] gives matches[0] = 2 where the contract gives 1;
# 2. totals count every hypothesis token for every order (the contract: "max(0, len - n + 1)"):
#    hypothesis ["a", "b"] gives totals [2, 2, 2, 2] where the contract gives [2, 1, 0, 0].
# The outputs list matches before totals, so an input with both shows /matches/... first;
# an input with distinct tokens, or whose repeats the reference covers, shows /totals/... only.
TWO_BUGS = """
    from independent import BleuStatistics, Implementation

    class Statistics(BleuStatistics):
        def clip(self, count, max_reference_count):
            return count if max_reference_count else 0

        def total(self, length, n):
            return length

    execute = Implementation(statistics=Statistics()).execute
"""


def run(tmp_path: Path, monkeypatch, capfd, *args: str) -> tuple[int, str]:
    from conformance.cli import main

    (tmp_path / "two_bugs.py").write_text(textwrap.dedent(TWO_BUGS), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(TESTS_DIR))  # the independent implementation
    code = main(
        [
            "run",
            "--target",
            "python:two_bugs",
            "--tools",
            NGRAMS,
            "--generated-only",
            "--profile",
            "quick",
            "--seed",
            "5",
            "--families",
            FAMILY,
            *args,
        ]
    )
    out, err = capfd.readouterr()
    return code, out + err


def pointers(report: dict) -> set[str]:
    return {result["mismatch"]["pointer"].split("/")[1] for result in report["results"]}


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_keep_going_reports_both_bugs_and_max_failures_1_only_the_first(tmp_path, monkeypatch, capfd):
    code, output = run(tmp_path, monkeypatch, capfd, "--report-dir", "many")
    assert code == 1, output
    many = read(tmp_path / "many" / "report.json")
    assert pointers(many) == {"matches", "totals"}, output
    ids = [result["case"]["case_id"] for result in many["results"]]
    assert len(set(ids)) == len(ids) == 2
    assert all(Path(result["reproducer_file"]).is_file() for result in many["results"])
    (entry,) = many["properties"]
    assert entry["id"] == f"generated/{NGRAMS}/{FAMILY}"
    assert entry["distinct_failures"] == 2 and entry["outcome"] == "failed"
    assert entry["examples"] >= 2
    assert many["totals"]["failed"] == 1, "one property, one check, whatever it found"
    assert many["header"]["families"] == [FAMILY] and many["header"]["max_failures_per_property"] == 3

    code, output = run(tmp_path, monkeypatch, capfd, "--report-dir", "one", "--max-failures-per-property", "1")
    assert code == 1, output
    one = read(tmp_path / "one" / "report.json")
    assert len(one["results"]) == 1 and one["properties"][0]["distinct_failures"] == 1
    assert one["properties"][0]["stopped_by"] == "max_failures"
    # the first round is the property as it ran before it kept going: the same first failure
    assert one["results"][0]["case"] == many["results"][0]["case"]


def test_keep_going_is_deterministic_under_a_seed(tmp_path, monkeypatch, capfd):
    found = []
    for attempt in range(2):
        code, output = run(tmp_path, monkeypatch, capfd, "--report-dir", f"out{attempt}")
        assert code == 1, output
        report = read(tmp_path / f"out{attempt}" / "report.json")
        entry = {key: value for key, value in report["properties"][0].items() if key != "duration_ms"}
        found.append(([result["case"] for result in report["results"]], entry))
    assert found[0] == found[1]


@pytest.mark.parametrize("patterns", ["no-such-family/*", f"{FAMILY},invalid/nothing-like-this"])
def test_families_matching_nothing_is_a_usage_error(tmp_path, monkeypatch, capfd, patterns):
    from conformance.cli import main

    monkeypatch.chdir(tmp_path)
    code = main(["run", "--target", "oracle", "--tools", NGRAMS, "--families", patterns, "--report-dir", "out"])
    output = "".join(capfd.readouterr())
    assert code == 2, output
    assert "--families" in output and "matches no generated family" in output
    assert not (tmp_path / "out" / "report.json").exists()


def test_families_restrict_generation_not_fixtures(tmp_path, monkeypatch, capfd):
    from conformance.cli import main

    monkeypatch.chdir(tmp_path)
    code = main(
        [
            "run",
            "--target",
            "oracle",
            "--tools",
            NGRAMS,
            "--profile",
            "quick",
            "--seed",
            "1",
            "--families",
            f"invalid/*,generated/{NGRAMS}/valid/short-and-empty",
            "--report-dir",
            "out",
        ]
    )
    output = "".join(capfd.readouterr())
    assert code == 0, output
    report = read(tmp_path / "out" / "report.json")
    families = {entry["family"] for entry in report["properties"]}
    assert "valid/short-and-empty" in families and "valid/shared-ngrams" not in families
    assert {family.split("/")[0] for family in families} == {"valid", "invalid"}
    assert any(result["case"]["origin"] == "fixture" for result in report["results"])


def test_a_target_crashing_on_generated_cases_still_trips_the_breaker_at_once(tmp_path, monkeypatch, capfd):
    from conformance.cli import main
    from conformance.engine.health import MAX_CONSECUTIVE_TRANSPORT_ERRORS

    write_module(tmp_path, "crashes_generated", CRASHES_AFTER_PREFLIGHT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    code = main(
        [
            "run",
            "--target",
            "python:crashes_generated",
            "--tools",
            NGRAMS,
            "--generated-only",
            "--seed",
            "1",
            "--report-dir",
            "out",
        ]
    )
    output = "".join(capfd.readouterr())
    assert code == 3, output
    report = read(tmp_path / "out" / "report.json")
    assert "transport errors in a row" in report["unhealthy_reason"]
    # the first property's examples (its first, its shrinks, a further round's) hit the breaker; after it
    # nothing is sent: every later property is skipped at its first example, unanswered
    answered = sum(
        entry.get(outcome, 0) for entry in report["properties"] for outcome in ("passed", "failed", "errored")
    )
    # each in-process crash is followed by the contract's example, asked to see whether the target answers
    # others (engine/health.py): 2 calls an example, and the third example's first call trips the breaker
    assert answered == 2 and report["header"]["breaker"]["transport_errors"] >= MAX_CONSECUTIVE_TRANSPORT_ERRORS
    assert {entry["outcome"] for entry in report["properties"][1:]} == {"skipped"}


def test_k_restricts_fixture_cases_and_properties_and_is_recorded(tmp_path, monkeypatch, capfd):
    from conformance.cli import main

    monkeypatch.chdir(tmp_path)
    expression = "javascript-property-names or valid/clipping"
    code = main(
        [
            "run",
            "--target",
            "oracle",
            "--tools",
            NGRAMS,
            "--profile",
            "quick",
            "--seed",
            "1",
            "-k",
            expression,
            "--report-dir",
            "out",
        ]
    )
    output = "".join(capfd.readouterr())
    assert code == 0, output
    report = read(tmp_path / "out" / "report.json")
    assert report["header"]["keyword"] == expression and "families" not in report["header"]
    assert [entry["family"] for entry in report["properties"]] == ["valid/clipping"]
    fixture_ids = {result["case"]["case_id"] for result in report["results"] if result["case"]["origin"] == "fixture"}
    assert fixture_ids and all("/javascript-property-names#" in case_id for case_id in fixture_ids)


def test_max_failures_below_1_is_a_usage_error(tmp_path, monkeypatch, capfd):
    from conformance.cli import main

    monkeypatch.chdir(tmp_path)
    code = main(["run", "--target", "oracle", "--max-failures-per-property", "0", "--report-dir", "out"])
    assert code == 2
    assert "--max-failures-per-property" in "".join(capfd.readouterr())


# -- run_property itself, with a judge standing in for the session -------------------------------


def _case(number: int, drawn) -> Case:
    return Case(
        "bleu-ngrams-count", "1.0.0", f"generated/p/{number}", "generated", "valid", drawn, Expectation("output")
    )


def _judge_by_residue(case: Case) -> CaseResult:
    """Every input >= 10 fails; its residue mod 3 names the cause (three distinct signatures)."""
    if case.input < 10:
        return CaseResult(case, "passed")
    return CaseResult(case, "failed", "wrong", Mismatch(f"/field{case.input % 3}", 0, 1, "wrong"))


def _integers_property(judge, max_failures: int, profile: str = "default", run_seed: int = 7, **options) -> PropertyRun:
    """run_property over the integers 0..1000, each judged by ``judge``."""
    from hypothesis import strategies as st

    return run_property(
        st.integers(0, 1000),
        run_settings(profile, "valid"),
        run_seed,
        _case,
        judge,
        PropertyRun(),
        max_failures=max_failures,
        **options,
    )


def test_run_property_stops_at_max_failures_and_counts_repeats():
    outcome = _integers_property(_judge_by_residue, max_failures=2)
    assert len(outcome.failures) == 2
    assert len({failure_signature(failure) for failure in outcome.failures}) == 2
    # each failure shrunk to the smallest input >= 10 of its own residue class
    assert {failure.case.input for failure in outcome.failures} <= {10, 11, 12}
    assert outcome.stats["stopped_by"] == "max_failures"
    assert outcome.stats["examples"] >= outcome.stats["failed"] + outcome.stats["passed"] - 1


def test_run_property_finds_all_three_when_allowed():
    outcome = _integers_property(_judge_by_residue, max_failures=5)
    assert len({failure_signature(failure) for failure in outcome.failures}) == 3
    assert all(failure.case.input >= 10 for failure in outcome.failures)
    assert outcome.stats["stopped_by"] in ("no_new_failure", "examples")
    assert outcome.stats["repeated_failures"] > 0


def test_run_property_gives_the_same_cases_and_results_for_the_same_seed():
    def trace(run_seed: int) -> tuple[list, list]:
        judged: list = []

        def judge(case: Case) -> CaseResult:
            judged.append((case.case_id, case.input))
            return _judge_by_residue(case)

        outcome = _integers_property(judge, max_failures=3, profile="quick", run_seed=run_seed)
        return judged, [(failure.case.case_id, failure.case.input) for failure in outcome.failures]

    assert trace(3) == trace(3)
    assert trace(3)[0] != trace(4)[0]


def test_round_seeds_are_derived_and_fixed():
    assert round_seed(42, 0) == 42
    assert round_seed(42, 1) == round_seed(42, 1) != round_seed(42, 2)
    assert round_seed(42, 1) != round_seed(43, 1)


def test_run_property_does_not_shrink_an_example_that_cost_a_time_out():
    """An input the target did not answer in time is reported as drawn and ends the property: trying
    smaller ones could each cost a time-out again (the breaker's budget, engine/health.py)."""

    judged: list = []

    def judge(case: Case) -> CaseResult:
        judged.append(case.input)
        if case.input < 10:
            return CaseResult(case, "passed")
        hung = TargetResponse("transport_error", detail="no answer within 1 s", duration_ms=1000.0)
        return CaseResult(case, "errored", "no answer within 1 s", response=hung)

    outcome = _integers_property(
        judge, max_failures=3, costly=lambda result: result.response is not None and result.response.duration_ms >= 500
    )
    assert outcome.stats["stopped_by"] == "time_out"
    assert len(outcome.failures) == 1 and outcome.stats["errored"] == 1
    (failure,) = outcome.failures
    assert failure.case.input == judged[-1] and sum(drawn >= 10 for drawn in judged) == 1  # asked once
    assert NOT_SHRUNK in failure.message
    # without the time-out it is shrunk to the smallest failing input, as any failure
    shrunk = _integers_property(judge, max_failures=1)
    assert shrunk.failures[0].case.input == 10


def test_run_property_gives_the_same_results_however_slow_the_machine(monkeypatch):
    """No bound of a property is a clock: with every reading of the clock a second after the last (a
    machine under heavy load: a round of the quick profile then lasts minutes), a seed gives the same
    cases, failures and counts. A bound in seconds once
    made a burst on a loaded machine stop a round earlier than on a quiet one (a flaky shard test)."""
    import time as clock

    def trace() -> tuple[list, list, dict]:
        judged: list = []

        def judge(case: Case) -> CaseResult:
            judged.append(case.input)
            return _judge_by_residue(case)

        outcome = _integers_property(judge, max_failures=3, profile="quick", run_seed=3)
        return judged, [failure.case.input for failure in outcome.failures], outcome.stats

    quiet = trace()
    seconds = iter(range(1, 10**6))
    monkeypatch.setattr(clock, "monotonic", lambda: float(next(seconds)))
    monkeypatch.setattr(clock, "perf_counter", lambda: float(next(seconds)))
    loaded = trace()
    assert next(seconds) > 120  # the rounds took minutes on that clock
    assert loaded == quiet


def test_run_property_starts_no_round_past_ten_times_its_budget():
    """A property whose every failure is new (so every round finds one) and shrinks long stops starting
    rounds once it has judged KEEP_GOING_CALLS (10) times its example budget, counted in examples judged."""
    from conformance.engine.properties import KEEP_GOING_CALLS

    def judge(case: Case) -> CaseResult:  # each input >= 10 a cause of its own
        if case.input < 10:
            return CaseResult(case, "passed")
        return CaseResult(case, "failed", "wrong", Mismatch(f"/field{case.input}", 0, 1, "wrong"))

    budget = run_settings("quick", "valid").max_examples
    outcome = _integers_property(judge, max_failures=10**6, profile="quick", signature=lambda r: r.case.input)
    assert KEEP_GOING_CALLS == 10
    assert outcome.stats["stopped_by"] in ("judged", "examples")
    if outcome.stats["stopped_by"] == "judged":
        assert outcome.stats["examples"] >= 10 * budget
    assert len(outcome.failures) < 10 * budget

"""`conformance diff OLD NEW` and `conformance run --baseline OLD`: what changed since an earlier run.

The runs are of two faulty implementations of bleu-brevity-penalty from tests/mutants/, one bug
each: ``brevity_ties_to_longer`` (a tie between two closest reference lengths goes to the longer
one: the contract's closest-reference line) and ``brevity_decimals_ignored`` (``decimals`` never
rounds: the rounding line). Going from the first to the second, the target gains one bug and loses
the other. Every run is of one tool on the quick profile, fixtures plus the valid families (about a
second each), made once for the module.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.reports import baseline

TESTS = Path(__file__).resolve().parent
TOOL = "bleu-brevity-penalty"
TIES_TO_LONGER = "python:mutants.brevity_ties_to_longer"
DECIMALS_IGNORED = "python:mutants.brevity_decimals_ignored"


def conformance(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(TESTS)}  # the mutants import tests/independent
    return subprocess.run(
        [sys.executable, "-m", "conformance", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=240
    )


def run(cwd: Path, target: str, out: str, *extra: str, seed: int = 1) -> subprocess.CompletedProcess:
    return conformance(
        "run",
        "--target",
        target,
        "--tools",
        TOOL,
        "--profile",
        "quick",
        "--seed",
        str(seed),
        "--families",
        "valid/*",
        "--report-dir",
        out,
        *extra,
        cwd=cwd,
    )


def diff(capsys, *args: str) -> tuple[int, str, str]:
    """`conformance diff ARGS` in this process (it reads two files: no need for a process of its own)."""
    from conformance.cli import main

    code = main(["diff", *args])
    out, err = capsys.readouterr()
    return code, out, err


def report(directory: Path, name: str = "report.json") -> dict:
    return json.loads((directory / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict:
    """The runs, their exit codes and output: a (ties), a2 (ties, another seed, --baseline a), b (decimals,
    --baseline a), a_fixtures (ties, fixture cases only)."""
    cwd = tmp_path_factory.mktemp("runs")
    done = {
        "a": run(cwd, TIES_TO_LONGER, "a"),
        "a2": run(cwd, TIES_TO_LONGER, "a2", "--baseline", "a", seed=2),
        "b": run(cwd, DECIMALS_IGNORED, "b", "--baseline", "a/report.json"),
        "a_fixtures": run(cwd, TIES_TO_LONGER, "a_fixtures", "--fixtures-only"),
    }
    return {"cwd": cwd, **done}


def causes_of(document: dict) -> set[tuple]:
    """A report's failure groups as the diff matches them: tool@version, then the signature after the tool."""
    return {(group["tool"], *group["signature"][1:]) for group in document["failure_groups"]}


def listed(diff: dict, kind: str) -> list[tuple]:
    return [tuple(entry["cause"]) for entry in diff["groups"][kind]]


@pytest.mark.slow  # four whole runs (runs)
def test_a_target_that_gains_one_bug_and_loses_another_shows_one_new_and_one_fixed_group(runs, capsys):
    assert runs["a"].returncode == 1 and runs["b"].returncode == 1, runs["b"].stdout + runs["b"].stderr
    old, new = report(runs["cwd"] / "a"), report(runs["cwd"] / "b")
    # one cause each: the tie line and the rounding line, two different causes
    assert len(causes_of(old)) == len(causes_of(new)) == 1 and causes_of(old) != causes_of(new)
    found = new["baseline_diff"]
    assert listed(found, "new") == list(causes_of(new)) and listed(found, "fixed") == list(causes_of(old))
    assert found["groups"]["still_failing"] == found["groups"]["no_longer_checked"] == []
    assert found["new_failures"] == 1 and found["exit_code"] == 1 and found["fail_on"] == "new"
    assert found["baseline"]["target"] == TIES_TO_LONGER and found["baseline"]["report"] == "a/report.json"
    assert {"field": "target", "old": TIES_TO_LONGER, "new": DECIMALS_IGNORED} in found["run"]
    assert "What changed since the baseline: 1 new failure · 1 fixed since the baseline" in runs["b"].stdout
    assert "--baseline: exit 1 (new failures since the baseline)" in runs["b"].stdout

    cwd = runs["cwd"]
    code, out, err = diff(capsys, str(cwd / "a"), str(cwd / "b"), "--report-dir", str(cwd / "d"))
    assert code == 1, out + err
    assert "New failure groups (1):" in out and "Fixed since the baseline (1):" in out
    written = report(cwd / "d", "diff.json")
    assert listed(written, "new") == listed(found, "new") and listed(written, "fixed") == listed(found, "fixed")
    for name in ("diff.md", "diff.html"):
        text = (cwd / "d" / name).read_text(encoding="utf-8")
        assert "New failure groups (1)" in text and "Fixed since the baseline (1)" in text


@pytest.mark.slow  # four whole runs (runs)
def test_the_reports_of_a_run_with_a_baseline_lead_with_the_diff(runs):
    directory = runs["cwd"] / "b"
    markdown = (directory / "report.md").read_text(encoding="utf-8")
    assert markdown.index("## What changed since the baseline") < markdown.index("## Failure groups")
    assert markdown.index("### New failure groups (1)") < markdown.index("### Fixed since the baseline (1)")
    page = (directory / "report.html").read_text(encoding="utf-8")
    assert page.index('<section id="baseline-diff">') < page.index('<section id="failure-groups">')
    # the run's own verdict stays: the target is not conformant, whatever the baseline had
    assert report(directory)["exit_code"] == 1 and "NOT CONFORMANT" in markdown


@pytest.mark.slow  # four whole runs (runs)
def test_a_run_diffed_with_itself_shows_no_change(runs, capsys):
    cwd = runs["cwd"]
    for fail_on in ("new", "any"):
        code, out, err = diff(
            capsys,
            str(cwd / "a"),
            str(cwd / "a" / "report.json"),
            "--fail-on",
            fail_on,
            "--report-dir",
            str(cwd / "same"),
        )
        assert code == 0, out + err
        found = report(cwd / "same", "diff.json")
        assert listed(found, "new") == listed(found, "fixed") == listed(found, "no_longer_checked") == []
        assert [(e["old_count"], e["new_count"], e["newly_failing"]) for e in found["groups"]["still_failing"]] == [
            (group["count"], group["count"], []) for group in report(cwd / "a")["failure_groups"]
        ]
        assert found["checks"] == {"added": [], "removed": []} and found["run"] == found["contract_drift"] == []
        assert found["contracts"] == {"added": [], "removed": [], "changed": [], "digests_compared": True}
        assert "nothing changed in failures" in out


@pytest.mark.slow  # four whole runs (runs)
def test_another_seed_matches_the_same_group_and_known_failures_exit_0(runs):
    old, new = report(runs["cwd"] / "a"), report(runs["cwd"] / "a2")
    assert (old["header"]["seed"], new["header"]["seed"]) == (1, 2)
    found = new["baseline_diff"]
    assert listed(found, "still_failing") == list(causes_of(old)) == list(causes_of(new))
    assert listed(found, "new") == listed(found, "fixed") == []
    # the run is not conformant (exit code 1 in its record), but it has only the baseline's failures
    assert new["exit_code"] == 1 and runs["a2"].returncode == 0, runs["a2"].stdout + runs["a2"].stderr
    assert {"field": "seed", "old": 1, "new": 2} in found["run"]


@pytest.mark.slow  # four whole runs (runs)
def test_a_changed_count_is_still_failing_with_its_change(runs, capsys):
    cwd = runs["cwd"]
    new = report(cwd / "a")
    # the full run's extra failures of the same cause are its generated examples
    extra = sum(r["outcome"] == "failed" and r["case"]["origin"] == "generated" for r in new["results"])
    assert extra > 0
    code, out, err = diff(capsys, str(cwd / "a_fixtures"), str(cwd / "a"), "--report-dir", str(cwd / "count"))
    assert code == 0, out + err  # no new failure: the same cause, more often
    found = report(cwd / "count", "diff.json")
    [entry] = found["groups"]["still_failing"]
    assert entry["new_count"] - entry["old_count"] == extra and entry["newly_failing"] == []
    assert f"({extra:+d})" in out and "still failing (1 changed count)" in out
    assert set(found["checks"]["added"]) == {p["id"] for p in new["properties"]} and not found["checks"]["removed"]
    assert diff(capsys, str(cwd / "a_fixtures"), str(cwd / "a"), "--fail-on", "any")[0] == 1


# ---------------------------------------------------------------- the rules, on edited copies of a report


def without_failure(document: dict, case_id: str, outcome: str = "passed") -> dict:
    """A copy of ``document`` where the fixture case ``case_id`` did not fail (it got ``outcome``)."""
    edited = copy.deepcopy(document)
    for result in edited["results"]:
        if result["case"]["case_id"] == case_id:
            result["outcome"] = outcome
    for group in edited["failure_groups"]:
        if case_id in group["members"]:
            group["members"].remove(case_id)
            group["count"] -= 1
    edited["failure_groups"] = [group for group in edited["failure_groups"] if group["members"]]
    return edited


def fixture_members(document: dict) -> list[str]:
    return [
        member
        for group in document["failure_groups"]
        for member in group["members"]
        if not member.startswith("generated/")
    ]


@pytest.mark.slow  # four whole runs (runs)
def test_fail_on_any_fails_on_a_fixed_group(runs, tmp_path, capsys):
    old = report(runs["cwd"] / "a_fixtures")
    new = old
    for member in fixture_members(old):  # every failing fixture case of the baseline passes now
        new = without_failure(new, member)
    assert new["failure_groups"] == []
    (tmp_path / "new.json").write_text(json.dumps(new), encoding="utf-8")
    code, out, err = diff(capsys, str(runs["cwd"] / "a_fixtures"), str(tmp_path / "new.json"))
    assert code == 0, out + err
    assert "Fixed since the baseline (1):" in out and "0 new failures" in out
    assert diff(capsys, str(runs["cwd"] / "a_fixtures"), str(tmp_path / "new.json"), "--fail-on", "any")[0] == 1


@pytest.mark.slow  # four whole runs (runs)
def test_a_fixture_newly_failing_in_a_known_group_is_a_new_failure(runs):
    new = report(runs["cwd"] / "a_fixtures")
    first, *others = fixture_members(new)
    assert others  # the group keeps failing in the baseline without the first case
    diff = baseline.compare(without_failure(new, first), new)
    [entry] = diff["groups"]["still_failing"]
    assert entry["newly_failing"] == [first] and entry["new_count"] - entry["old_count"] == 1
    assert diff["new_failures"] == 1 and diff["exit_code"] == 1


@pytest.mark.slow  # four whole runs (runs)
def test_a_group_whose_checks_were_not_judged_is_not_called_fixed(runs):
    old = report(runs["cwd"] / "a_fixtures")
    new = old
    for member in fixture_members(old):
        new = without_failure(new, member, outcome="skipped")
    diff = baseline.compare(old, new, fail_on="any")
    assert listed(diff, "fixed") == [] and listed(diff, "no_longer_checked") == list(causes_of(old))
    assert diff["new_failures"] == 0 and diff["exit_code"] == 1  # a difference in failures all the same
    assert baseline.compare(old, new)["exit_code"] == 0


@pytest.mark.slow  # four whole runs (runs)
def test_what_varies_between_runs_of_one_cause_does_not_tell_groups_apart(runs):
    """Another seed or shrink: other generated case ids, another smallest input, a divergence named on one
    input and not another (two groups of one signature). Still the same cause, its count summed."""
    old = report(runs["cwd"] / "a")
    new = copy.deepcopy(old)
    [group] = new["failure_groups"]
    renamed = [f"{m.rsplit('/', 1)[0]}/99" if m.startswith("generated/") else m for m in group["members"]]
    assert renamed != group["members"]  # the run has generated members to rename
    half = len(renamed) // 2
    named = copy.deepcopy(group)
    named.update(
        members=renamed[:half],
        count=half,
        smallest={"candidate_lengths": [7]},
        smallest_case=renamed[0],
        divergence={
            "id": "some-library-rule",
            "libraries": ["nltk"],
            "explanation": "x (as in NLTK)",
            "mechanism": "y",
        },
    )
    group.update(members=renamed[half:], count=len(renamed) - half)
    new["failure_groups"].append(named)
    found = baseline.compare(old, new, fail_on="any")
    [entry] = found["groups"]["still_failing"]
    assert (entry["old_count"], entry["new_count"]) == (len(renamed), len(renamed))
    assert listed(found, "new") == listed(found, "fixed") == [] and found["exit_code"] == 0


@pytest.mark.slow  # four whole runs (runs)
def test_a_cause_only_generated_cases_found_under_another_seed_is_said_to_be_uncertain(runs):
    old = report(runs["cwd"] / "a")
    for member in fixture_members(old):  # a cause only the generated cases show
        old = without_failure(old, member)
    generated = old["failure_groups"][0]["members"]
    gone = old
    for member in generated:
        gone = without_failure(gone, member)
    for seed, noted in ((1, False), (2, True)):
        gone["header"]["seed"] = seed
        [fixed] = baseline.compare(old, gone)["groups"]["fixed"]
        assert ("not under this run's seed" in fixed["note"]) is noted
        [new] = baseline.compare(gone, old)["groups"]["new"]
        assert ("may predate the baseline" in new["note"]) is noted


@pytest.mark.slow  # four whole runs (runs)
def test_a_changed_contract_and_a_changed_published_contract_are_listed(runs):
    from conformance.reports.baseline_views import console_lines

    old = report(runs["cwd"] / "a")
    [label] = old["header"]["contracts"]
    assert old["header"]["contract_digests"][label].startswith("sha256:")
    new = copy.deepcopy(old)
    new["header"]["contract_digests"][label] = "sha256:" + "0" * 64  # the file changed in place
    new["header"]["contract_drift"] = [
        {
            "tool": label,
            "status": "breaking",
            "detail": "",
            "changes": [
                {
                    "change_class": "breaking",
                    "pointer": "/limits/max_segments",
                    "kind": "limit",
                    "message": "lowered",
                    "detail": "",
                }
            ],
        }
    ]
    found = baseline.compare(old, new)
    assert found["contracts"]["changed"] == [label] and found["contracts"]["digests_compared"]
    assert found["contract_drift"] == [
        {"tool": label, "old": None, "new": {"status": "breaking", "changes": ["breaking /limits/max_segments"]}}
    ]
    assert found["exit_code"] == 0  # not a failure of the target: shown, never failed on
    shown = "\n".join(console_lines(found))
    assert f"{label}: the contract file differs" in shown
    assert f"{label}: not asked → breaking (breaking /limits/max_segments)" in shown


def test_run_baseline_keeps_exit_3_and_otherwise_lets_the_diff_decide():
    new_failure, none = {"exit_code": 1}, {"exit_code": 0}
    assert [baseline.run_exit_code(code, none) for code in (0, 1, 3)] == [0, 0, 3]
    assert [baseline.run_exit_code(code, new_failure) for code in (0, 1, 3)] == [1, 1, 3]
    assert baseline.run_exit_code(1, None) == 1


# ---------------------------------------------------------------- usage errors


@pytest.mark.slow  # four whole runs (runs)
def test_reports_that_cannot_be_compared_are_usage_errors(runs, tmp_path, capsys):
    good = str(runs["cwd"] / "a")
    (tmp_path / "garbage.json").write_text("not json", encoding="utf-8")
    (tmp_path / "other.json").write_text('{"known_failures": []}', encoding="utf-8")
    older = report(runs["cwd"] / "a")
    del older["readings"]  # a key an earlier schema did not require
    (tmp_path / "older.json").write_text(json.dumps(older), encoding="utf-8")
    (tmp_path / "empty").mkdir()
    for bad, message in (
        (tmp_path / "missing.json", "no such file"),
        (tmp_path / "garbage.json", "not JSON"),
        (tmp_path / "other.json", "not a report.json"),
        (tmp_path / "empty", "holds no report.json"),
        (tmp_path / "older.json", "incompatible schema"),
    ):
        code, out, err = diff(capsys, str(bad), good)
        assert code == 2 and message in err and str(bad) in err, out + err
    started = run(tmp_path, "oracle", "out", "--fixtures-only", "--baseline", str(tmp_path / "missing.json"))
    assert started.returncode == 2 and "--baseline" in started.stderr and "Traceback" not in started.stderr
    assert not (tmp_path / "out" / "report.json").exists()  # refused before the run


def test_baseline_lends_its_seed_and_profile_unless_others_are_given(tmp_path):
    """--baseline alone draws the baseline's cases (its seed and profile), and says so; another --seed is
    warned about (conformance/runner.py, same_cases_as_baseline)."""
    from conformance.runner import same_cases_as_baseline

    (tmp_path / "report.json").write_text(json.dumps({"header": {"seed": 77, "profile": "quick"}}), encoding="utf-8")

    def resolved(seed, profile):
        args = argparse.Namespace(baseline=str(tmp_path), seed=seed, profile=profile)
        same_cases_as_baseline(args)
        return args.seed, args.profile

    assert resolved(None, None) == (77, "quick")
    assert resolved(None, "thorough") == (77, "thorough")
    assert resolved(5, None) == (5, "default")
    no_baseline = argparse.Namespace(baseline=None, seed=None, profile=None)
    same_cases_as_baseline(no_baseline)
    assert (no_baseline.seed, no_baseline.profile) == (None, "default")

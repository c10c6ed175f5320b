"""Cases of several requests: sequences, bursts and metamorphic relations (strategies/relations.py,
conformance/steps.py). Every step is judged by the oracle against its own input; these tests check that
the families reach what they aim at, that a target right alone and wrong together fails, that a
failing sequence shrinks to the shortest one and that its reproducer replays every step."""

from __future__ import annotations

import json
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from conformance import steps
from conformance.compare import check
from conformance.engine.properties import PropertyRun, run_property
from conformance.hypothesis_profiles import run_settings
from conformance.model import Case, CaseResult
from conformance.replay import write_reproducer
from conformance.strategies import aim_counts, draw_examples, families
from conformance.strategies.relations import BURST_SIZE
from oracle.registry import tool

TESTS_DIR = Path(__file__).resolve().parent
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

CORPUS, CHRF_COMPONENTS, BREVITY = "bleu-corpus-compute", "chrf-components", "bleu-brevity-penalty"
RELATION_FAMILIES = ("valid/sequence", "valid/burst", "valid/relation-")


def relation_families(tool_id: str):
    return [family for family in families(tool_id, "1.0.0") if family.name.startswith(RELATION_FAMILIES)]


@pytest.mark.parametrize("tool_id", [CORPUS, CHRF_COMPONENTS, BREVITY])
def test_the_families_reach_every_aim_and_send_only_valid_inputs(tool_id):
    for family in relation_families(tool_id):
        counter = aim_counts.AimCounter()
        with aim_counts.counting(counter):
            drawn = draw_examples(family.strategy, 40, seed=3)
        assert family.aims and not counter.summary(family.aims)["aims_not_reached"], (family.name, counter.counts)
        for generated in drawn:
            assert len(generated.steps) >= 1 and generated.sending in steps.SENDINGS
            for step in generated.steps:  # a valid family: the oracle answers every step
                tool(step["tool_id"], step["version"]).execute(step["input"])


def test_the_relations_follow_from_quoted_contract_lines():
    names = {family.name: family for family in families(CORPUS, "1.0.0")}
    assert "in any single reference" in names["valid/relation-reference-order"].summary
    assert "summed over all segments" in names["valid/relation-split-corpus"].summary
    # chrF has one reference text per segment: nothing to reorder or duplicate
    assert not any("reference-order" in family.name for family in families(CHRF_COMPONENTS, "1.0.0"))


def test_a_burst_is_released_together():
    in_flight, most, lock = [0], [0], threading.Lock()

    def call(case):
        with lock:
            in_flight[0] += 1
            most[0] = max(most[0], in_flight[0])
        time.sleep(0.05)
        with lock:
            in_flight[0] -= 1
        return case.input

    cases = [Case(CORPUS, "1.0.0", f"x#{n}", "generated", "valid", n, None) for n in range(BURST_SIZE)]
    assert steps.send(call, cases, steps.BURST) == list(range(BURST_SIZE)), "answers in step order"
    assert most[0] == BURST_SIZE
    most[0] = 0
    steps.send(call, cases, steps.SEQUENCE)
    assert most[0] == 1


FRESH_CACHE = """
    from independent import BleuStatistics, Implementation
    from mutants.bleu_cache_keyed_by_hypotheses import CorpusCompute

    execute = Implementation(corpus_compute=CorpusCompute(BleuStatistics())).execute
"""


def _fresh_cache():
    from independent import BleuStatistics, Implementation
    from mutants.bleu_cache_keyed_by_hypotheses import CorpusCompute

    return Implementation(corpus_compute=CorpusCompute(BleuStatistics())).execute


def _judged_on_a_fresh_cache(case: Case) -> CaseResult:
    """A sequence sent to a caching target that starts empty, judged as a run judges it."""
    from conformance.targets.inprocess import InProcessTarget

    target = InProcessTarget("python:fresh_cache", _fresh_cache())
    cases = steps.step_cases(case)
    responses = steps.send(lambda step: target.call(step.tool_id, step.version, step.input), cases, case.sending)
    shown, index, verdict = steps.judged(case, [check(step, response) for step, response in zip(cases, responses)])
    return CaseResult(shown, verdict.outcome, verdict.message, verdict.mismatch, responses[index])


def _make_case(number, generated) -> Case:
    return Case(
        CORPUS,
        "1.0.0",
        f"generated/{CORPUS}/valid/sequence/{number}",
        "generated",
        "valid",
        generated.input,
        generated.expect,
        generated.description,
        steps=list(generated.steps),
        sending=generated.sending,
    )


def _shrunk_cache_failure() -> CaseResult:
    (family,) = [family for family in families(CORPUS, "1.0.0") if family.name == "valid/sequence"]
    outcome = run_property(
        family.strategy,
        family.settings(run_settings("default", "valid")),
        11,
        _make_case,
        _judged_on_a_fresh_cache,
        PropertyRun(),
    )
    assert outcome.failure is not None, "a cache keyed by the hypotheses must fail a sequence"
    return outcome.failure


def test_a_caching_target_fails_and_its_sequence_shrinks_to_two_steps():
    failure = _shrunk_cache_failure()
    first, second = failure.case.steps
    assert failure.case.failing_step == 1 and first["outcome"] == "passed" and second["outcome"] == "failed"
    assert first["input"]["hypotheses"] == second["input"]["hypotheses"]
    changed = {
        key
        for key in first["input"].keys() | second["input"].keys()
        if first["input"].get(key) != second["input"].get(key)
    }
    assert len(changed) == 1, changed  # the second input differs from the first in exactly one field
    assert failure.message.startswith("step 2 of 2 (sequence)")


def test_the_reproducer_of_a_sequence_replays_every_step(tmp_path, monkeypatch, capsys):
    from conformance.cli import main

    failure = _shrunk_cache_failure()
    path = write_reproducer(tmp_path, failure, "python:fresh_cache_replay", 11)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert len(saved["case"]["steps"]) == 2 and saved["case"]["sending"] == "sequence"
    (tmp_path / "fresh_cache_replay.py").write_text(textwrap.dedent(FRESH_CACHE), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert "step 2 of 2 (sequence)" in out and "went wrong first" in out and "still fails" in out
    assert main(["replay", str(path), "--target", "oracle"]) == 0  # the oracle passes both steps


@pytest.mark.parametrize(
    "mutant, tool_id, family",
    [
        ("bleu_cache_keyed_by_hypotheses", CORPUS, "valid/sequence"),
        pytest.param(  # a whole run of the burst family, 9 s: in the slow step (test_a_burst_is_released_together here)
            "chrf_compute_shared_buffer", "chrf-compute", "valid/burst", marks=pytest.mark.slow
        ),
    ],
)
def test_a_run_fails_a_target_right_alone_and_wrong_together(tmp_path, monkeypatch, capfd, mutant, tool_id, family):
    from conformance.cli import main

    monkeypatch.chdir(tmp_path)
    code = main(
        [
            "run",
            "--target",
            f"python:mutants.{mutant}",
            "--tools",
            tool_id,
            "--generated-only",
            "--seed",
            "1",
            "--families",
            family,
            "--report-dir",
            "out",
        ]
    )
    output = capfd.readouterr().out
    assert code == 1, output
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["results"] and all(
        result["case"]["steps"] and result["case"]["failing_step"] is not None for result in report["results"]
    )
    assert "went wrong first" in (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "went wrong first" in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")

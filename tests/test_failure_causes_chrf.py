"""One cause, one group: a chrF++ implementation's shortcuts, alone and together (tests/faulty_causes/).

Four typical shortcuts of an implementation written from the chrF++ contract (chrf_shortcuts.py in
Python, chrf_plus_plus.mjs in JavaScript): character n-grams over UTF-16 code units, JavaScript's \\s as
the whitespace set, control characters dropped from word tokens, lone surrogates accepted. Each must
be a group of its own, named by the clause it breaks, and the same group whether the shortcut is taken
alone or with the others; an input differing only by an option set to its default ("lowercase": false)
is the same cause. Expected clauses are read from the contract file, never from the code under test.
"""

from __future__ import annotations

import functools
import json
import shlex
import shutil
from pathlib import Path

import pytest
from faulty_causes.chrf_shortcuts import ALL, implementation
from runs import run_against

from conformance.compare import check
from conformance.fixtures import load_cases
from conformance.model import Case, CaseResult, Expectation
from conformance.reports.groups import failure_groups
from conformance.targets.inprocess import InProcessTarget

TOOL, V = "chrf-plus-plus-compute", "1.0.0"
ROOT = Path(__file__).resolve().parent.parent
JS = Path(__file__).resolve().parent / "faulty_causes" / "chrf_plus_plus.mjs"
SEMANTICS = json.loads((ROOT / "contracts" / TOOL / f"{V}.json").read_text(encoding="utf-8"))["semantics"]

# inputs beside the fixtures: a control character inside a word of identical texts (the score is 100
# whatever the word tokens), once without lowercase and once with it set to its default
CONTROL = {"hypotheses": ["a\x07b c"], "references": ["a\x07b c"]}
EXTRA = {
    "control": CONTROL,
    "control-lowercase-false": {**CONTROL, "lowercase": False},
    "astral": {"hypotheses": ["x\U0001f600y"], "references": ["x\U0001f601y"]},
    "next-line": {"hypotheses": ["ab\x85cd"], "references": ["ab cd"]},
}


def cases() -> list[Case]:
    extra = [
        Case(TOOL, V, f"extra/{name}", "fixture", "valid", payload, Expectation("output"))
        for name, payload in EXTRA.items()
    ]
    return [*load_cases({TOOL}), *extra]


def judged(shortcuts: frozenset[str]) -> list[dict]:
    """The failing results (report.json form) of the implementation taking ``shortcuts`` on every case."""
    return json.loads(_judged(shortcuts))


@functools.cache
def _judged(shortcuts: frozenset[str]) -> str:
    target = InProcessTarget("python:chrf_shortcuts", implementation(shortcuts))
    failing = []
    for case in cases():
        response = target.call(case.tool_id, case.version, case.input)
        verdict = check(case, response)
        if verdict.outcome != "passed":
            result = CaseResult(case, verdict.outcome, verdict.message, verdict.mismatch, response)
            failing.append(result.to_dict())
    return json.dumps(failing)


def groups_of(shortcuts: frozenset[str]) -> list[dict]:
    return failure_groups(judged(shortcuts))


def signatures(groups: list[dict]) -> set[tuple[str, ...]]:
    return {tuple(group["signature"]) for group in groups}


def test_the_implementation_without_shortcuts_passes_every_case():
    """The harness itself: no false alarm, so every failure below comes from a shortcut."""
    assert judged(frozenset()) == []


@pytest.mark.parametrize("shortcut", sorted(ALL))
def test_each_shortcut_alone_is_one_group_named_by_its_clause(shortcut):
    groups = groups_of(frozenset({shortcut}))
    assert len(groups) == 1, [(g["title"], g["members"]) for g in groups]
    clause = groups[0]["clause"]
    assert clause["kind"] != "unattributed"
    if shortcut in ("utf16", "whitespace"):  # code points, and the whitespace set, are semantics 2
        assert (clause["number"], clause["text"]) == (2, SEMANTICS[1])
    if shortcut == "control":  # word tokens keep every code point that is not whitespace: semantics 3
        assert (clause["number"], clause["text"]) == (3, SEMANTICS[2])
        assert {"extra/control", "extra/control-lowercase-false"} <= set(groups[0]["members"])
    if shortcut == "surrogates":
        assert groups[0]["kind"] == "answered an invalid input"
        assert "lone surrogates" in json.dumps(clause)


def test_the_shortcuts_are_four_causes_not_one():
    alone = [signatures(groups_of(frozenset({shortcut}))) for shortcut in sorted(ALL)]
    assert len(set().union(*alone)) == 4
    # the two mechanisms of semantics 2 are told apart by name
    utf16, whitespace = (groups_of(frozenset({s}))[0] for s in ("utf16", "whitespace"))
    assert utf16["clause"]["mechanism"] != whitespace["clause"]["mechanism"]


def test_combined_shortcuts_give_the_groups_they_give_alone():
    alone = set().union(*(signatures(groups_of(frozenset({shortcut}))) for shortcut in ALL))
    together = groups_of(ALL)
    assert len(together) == 4 and signatures(together) == alone, [g["title"] for g in together]
    for pair in (frozenset({"utf16", "whitespace"}), frozenset({"whitespace", "control"})):
        expected = set().union(*(signatures(groups_of(frozenset({shortcut}))) for shortcut in pair))
        assert signatures(groups_of(pair)) == expected


def test_an_option_set_to_its_default_is_the_same_cause():
    """ "lowercase omitted means false" (semantics 5): the control case with and without it, one group."""
    failing = {r["case"]["case_id"]: r for r in judged(frozenset({"control"}))}
    pair = [failing["extra/control"], failing["extra/control-lowercase-false"]]
    assert len(failure_groups(pair)) == 1
    assert failure_groups(pair)[0]["clause"]["number"] == 3


def test_grouping_is_deterministic():
    results = judged(ALL)
    assert failure_groups(results) == failure_groups(json.loads(json.dumps(results)))


# ---------------------------------------------------------------- the JavaScript implementation, as a user runs it

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")


def js_groups(tmp_path: Path, *shortcuts: str) -> list[dict]:
    command = " ".join(["node", shlex.quote(str(JS)), *shortcuts])
    directory = tmp_path / ("-".join(shortcuts) or "none")
    code, report = run_against(
        f"jsonl:{command}", directory, "--tools", TOOL, "--profile", "quick", "--seed", "1", timeout=600
    )
    assert code == (1 if shortcuts else 0), report.get("failure_groups")
    return report["failure_groups"]


@needs_node
@pytest.mark.slow  # five whole runs of a Node.js target
def test_the_javascript_shortcuts_are_one_group_each(tmp_path):
    assert js_groups(tmp_path) == []  # written from the contract, no shortcut: conformant
    alone = {shortcut: js_groups(tmp_path, shortcut) for shortcut in sorted(ALL)}
    for shortcut, groups in alone.items():
        assert len(groups) == 1, (shortcut, [g["title"] for g in groups])
        assert groups[0]["clause"]["kind"] != "unattributed", shortcut
    assert len(set().union(*(signatures(groups) for groups in alone.values()))) == 4
    together = js_groups(tmp_path, *sorted(ALL))
    assert signatures(together) == set().union(*(signatures(groups) for groups in alone.values()))

"""The suite's power: it catches every faulty implementation and passes a correct one.

tests/mutants/ holds plausible faulty implementations (one realistic bug each, across the
tools and across semantics, Unicode, rounding, output shape, validation and
over-rejection); tests/independent/ holds a correct implementation written from the
contracts that differs from the oracle wherever they allow (other float path, other
readings of the open points). Both are judged exactly as `conformance run` judges a
target: the golden fixtures plus the generated families, each response through
conformance.compare.check.

The default run uses the `quick` profile's example counts; the `default` profile (and the
real `conformance run` command) runs under ``-m slow``.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import oracle
from conformance import compare, fixtures, steps, strategies
from conformance.engine import PROFILES
from conformance.model import Case, Expectation
from conformance.targets.inprocess import InProcessTarget

TESTS_DIR = Path(__file__).resolve().parent
if str(TESTS_DIR) not in sys.path:  # the mutants and the independent implementation live here
    sys.path.insert(0, str(TESTS_DIR))

import independent  # noqa: E402
import mutants  # noqa: E402

SEED = 0

# Mutants no case of the suite can catch yet, each with the case that would.
# strict: the test fails as soon as the suite catches one, so the entry gets removed.
NEEDS_A_CASE: dict[str, str] = {}


def suite_cases(profile: str, seed: int = SEED) -> list[Case]:
    """The fixture cases and the generated cases of every family, smallest input first
    (so the power run meets the cheap cases before the 50,000-token ones)."""
    counts = PROFILES[profile]
    cases = list(fixtures.load_cases())
    for tool_id, version in strategies.supported():
        for family in strategies.families(tool_id, version):
            examples = strategies.draw_examples(family.strategy, counts[family.category], seed=seed)
            cases += [
                Case(
                    tool_id,
                    version,
                    f"generated/{tool_id}/{family.name}/{i}",
                    "generated",
                    family.category,
                    example.input,
                    example.expect,
                    example.description,
                    seed=seed,
                    steps=list(example.steps),
                    sending=example.sending,
                )
                for i, example in enumerate(examples)
            ]
    return sorted(cases, key=lambda case: len(json.dumps(case.input, ensure_ascii=False)))


@functools.cache
def cases_for(profile: str) -> tuple[Case, ...]:
    return tuple(suite_cases(profile))


def judge(target: InProcessTarget, case: Case):
    """The verdict on one case; a case of several requests sends its steps as the run does (in order,
    or at once for a burst), each judged against its own input (conformance/steps.py)."""
    if not case.steps:
        return compare.check(case, target.call(case.tool_id, case.version, case.input))
    each = steps.step_cases(case)
    answers = steps.send(lambda step: target.call(step.tool_id, step.version, step.input), each, case.sending)
    return steps.judged(case, [compare.check(step, answer) for step, answer in zip(each, answers)])[2]


def failures_of(execute, cases) -> list[str]:
    target = InProcessTarget("python:independent", execute)
    found = []
    for case in cases:
        verdict = judge(target, case)
        if verdict.outcome != "passed":
            found.append(f"{case.case_id}: {verdict.outcome}: {verdict.message[:300]}")
    return found


def catch_table(cases) -> dict[str, str]:
    """For each mutant, the first case (in the order given) that catches it, or "" if
    none does.

    Cases go in the outer loop, so the oracle's expected output is computed once per case;
    a mutant only gets the cases of the tools its bug touches.
    """
    alive = {name: mutants.load(name) for name in mutants.names()}
    targets = {name: InProcessTarget(f"python:mutants.{name}", module.execute) for name, module in alive.items()}
    tools = {name: mutants.changed_tools(module) for name, module in alive.items()}
    caught = {name: "" for name in alive}
    for case in cases:
        for name in [n for n in alive if (case.tool_id, case.version) in tools[n]]:
            verdict = judge(targets[name], case)
            if verdict.outcome in ("failed", "errored"):
                caught[name] = f"{case.case_id} ({verdict.outcome}: {verdict.message[:160]})"
                del alive[name]
        if not alive:
            break
    return caught


@functools.cache
def catches(profile: str) -> dict[str, str]:
    return catch_table(cases_for(profile))


def assert_caught(name: str, profile: str) -> None:
    found = catches(profile)[name]
    if name in NEEDS_A_CASE:
        if found:
            pytest.fail(f"{name} is now caught by {found}: remove it from NEEDS_A_CASE")
        pytest.xfail(NEEDS_A_CASE[name])
    assert found, f"no case of the {profile} profile catches mutant {name}: {mutants.load(name).__doc__}"


# --- the catalogue itself ----------------------------------------------------------------


TOOLS = {tool.id for tool in oracle.tools()}


def test_catalogue_has_mutants_across_every_tool():
    names = mutants.names()
    assert len(names) >= 30
    touched = [tool for n in names for tool, _ in mutants.changed_tools(mutants.load(n))]
    assert set(touched) == TOOLS
    assert set(independent.Implementation().tools) == {(tool, "1.0.0") for tool in TOOLS}
    assert all(touched.count(tool) >= 8 for tool in TOOLS)


@pytest.mark.parametrize("name", mutants.names())
def test_mutant_names_its_bug_and_changes_one_tool_family(name):
    module = mutants.load(name)
    assert module.__doc__ and len(module.__doc__.strip()) > 20, "each mutant's docstring names its bug"
    assert mutants.changed_tools(module), "a mutant must differ from the correct implementation somewhere"


def test_independent_implementation_does_not_import_the_oracle():
    sources = "".join(path.read_text(encoding="utf-8") for path in (TESTS_DIR / "independent").glob("*.py"))
    assert "import oracle" not in sources and "from oracle" not in sources


# The independent implementation takes the other reading of each open point, and the
# comparison lets it pass: (open point, tool, input, what the oracle does, what it does).
OTHER_READINGS = [
    (
        "A1",
        "bleu-corpus-compute",
        {"hypotheses": [["a"] * 10], "references": [[["a"] * 49_995]]},
        "limit_exceeded",
        "answers",
    ),
    ("A3", "bleu-ngrams-count", {"hypotheses": [["\ud800"]], "references": [[["\ud800"]]]}, "invalid_input", "answers"),
    ("A4", "chrf-plus-plus-compute", {"hypotheses": ["ab", "bc"], "references": ["ab", "b"]}, "answers", "answers"),
    (
        "A6",
        "bleu-corpus-compute",
        {"hypotheses": [["a"]] * 1001, "references": [[["a"]]] * 1001},
        "limit_exceeded",
        "invalid_input",
    ),
    (
        "A9",
        "bleu-corpus-compute",
        {"hypotheses": [["a"]], "references": [[["a"]]], "max_order": 4.0},
        "answers",
        "invalid_input",
    ),
    ("A10", "bleu-ngrams-count", {"hypotheses": [["a"]], "references": [[["a"]], [["b"]]]}, "invalid_input", "answers"),
]


def behaviour(response) -> str:
    return "answers" if response.kind == "result" else (response.error_code or response.kind)


@pytest.mark.parametrize(
    "point, tool_id, payload, oracle_does, independent_does", OTHER_READINGS, ids=[row[0] for row in OTHER_READINGS]
)
def test_independent_takes_the_other_reading_and_passes(point, tool_id, payload, oracle_does, independent_does):
    oracle_target = InProcessTarget("oracle", oracle.execute)
    other = InProcessTarget("python:independent", independent.execute)
    assert behaviour(oracle_target.call(tool_id, "1.0.0", payload)) == oracle_does
    response = other.call(tool_id, "1.0.0", payload)
    assert behaviour(response) == independent_does
    if point == "A4":
        assert response.result["score"] != oracle.execute(tool_id, "1.0.0", payload)["score"]
    expectation = Expectation("output") if oracle_does == "answers" else Expectation("error", oracle_does)
    case = Case(tool_id, "1.0.0", f"reading/{point}", "generated", "valid", payload, expectation)
    assert compare.check(case, response).outcome == "passed"


# --- power: quick profile (default run) -------------------------------------------------


@pytest.mark.slow  # its default-profile version below (also slow) judges more cases of the same families
def test_independent_implementation_passes_every_quick_case():
    failures = failures_of(independent.execute, cases_for("quick"))
    assert not failures, "a correct implementation must pass with zero failures:\n" + "\n".join(failures[:20])


# The quick table (about 20 s: every quick case generated, each mutant judged until caught) is a long test: the
# slow step. The default step keeps quick power checks of its own (tests/test_code_points.py, tests/test_wire.py,
# tests/test_integer_magnitudes.py, tests/test_relations.py each judge faulty implementations).
@pytest.mark.slow
@pytest.mark.parametrize("name", mutants.names())
def test_quick_profile_catches_mutant(name):
    assert_caught(name, "quick")


@pytest.mark.slow  # every mutant, those only the largest cases catch included
def test_catch_rate_quick(capsys):
    table = catches("quick")
    caught = sum(1 for found in table.values() if found)
    with capsys.disabled():
        print(f"\npower (quick profile + fixtures): {caught}/{len(table)} mutants caught")
    assert caught >= len(table) - len(NEEDS_A_CASE)


# --- power: default profile (slow) --------------------------------------------------------


@pytest.mark.slow
def test_independent_implementation_passes_every_default_case():
    failures = failures_of(independent.execute, cases_for("default"))
    assert not failures, "a correct implementation must pass with zero failures:\n" + "\n".join(failures[:20])


@pytest.mark.slow
@pytest.mark.parametrize("name", mutants.names())
def test_default_profile_catches_mutant(name):
    assert_caught(name, "default")


@pytest.mark.slow
@pytest.mark.parametrize("module", ["independent", "mutants.bleu_bp_inverted_ratio", "mutants.chrf_macro_average"])
def test_conformance_run_command_on_python_targets(module, tmp_path):
    """End to end through the real command: the correct implementation exits 0, a mutant 1."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS_DIR), os.environ.get("PYTHONPATH", "")])}
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance",
            "run",
            "--target",
            f"python:{module}",
            "--profile",
            "default",
            "--seed",
            str(SEED),
            "--report-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=TESTS_DIR.parent,
        timeout=900,
    )
    expected = 0 if module == "independent" else 1
    assert completed.returncode == expected, completed.stdout[-3000:] + completed.stderr[-3000:]

"""The mutation-testing machinery (benchmarks/mutation.py) on four fixed mutants, so it cannot rot.

Each mutant is made by cosmic-ray's own operators and applied, judged and undone by its own
``mutate_and_test`` (what ``cosmic-ray exec`` runs per mutant) on a scratch copy of the oracle,
with the judge command the benchmark gives cosmic-ray; the quick stage only, to stay cheap.
Which mutant is which is found by the line it changes, not by its occurrence number, so an
edit elsewhere in the modules does not silently swap them. The full run is a benchmark.
"""

from __future__ import annotations

import shlex
import sqlite3
import sys
from pathlib import Path

import pytest

cosmic_ray_mutating = pytest.importorskip(
    "cosmic_ray.mutating", reason="cosmic-ray is not installed (pip install -e '.[mutation]')"
)
from cosmic_ray.plugins import get_operator  # noqa: E402
from cosmic_ray.work_item import MutationSpec  # noqa: E402
from cosmic_ray.work_item import TestOutcome as Outcome  # noqa: E402  (not collected as a test class)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import mutation  # noqa: E402

TOOLS = ["bleu-brevity-penalty"]


def occurrence(path: Path, operator_name: str, before: str, after: str) -> int:
    """The occurrence of the operator that changes one line, holding ``before``, to one holding ``after``."""
    code, operator = path.read_text(encoding="utf-8"), get_operator(operator_name)()
    index = 0
    while (mutated := cosmic_ray_mutating.mutate_code(code, operator, index)) is not None:
        removed = [line for line in code.splitlines() if line not in mutated.splitlines()]
        added = [line for line in mutated.splitlines() if line not in code.splitlines()]
        if len(removed) == len(added) == 1 and before in removed[0] and after in added[0]:
            return index
        index += 1
    raise LookupError(f"{operator_name} never turns {before!r} into {after!r} in {path.name}")


# (module, operator, line before, line after, verdict): hand-judged against the contract
FIXED = [
    # "brevity_penalty is 1 when c > r": c < r gives 1 for every shorter candidate (fixtures catch it)
    ("bleu_score", "core/ReplaceComparisonOperator_Gt_Lt", "if c > r:", "if c < r:", Outcome.KILLED),
    # the clause the failure groups quote for candidate_length, 2 -> 3: read by the harness alone,
    # never by a target's answer (equivalent): it must survive
    (
        "bleu_brevity_penalty",
        "core/NumberReplacer",
        '"/candidate_length": 2,',
        '"/candidate_length": 3,',
        Outcome.SURVIVED,
    ),
    # the decimals option ignored when given and applied when absent (int(payload["decimals"]) raises)
    (
        "bleu_brevity_penalty",
        "core/AddNot",
        'if "decimals" in payload:',
        'if not "decimals" in payload:',
        Outcome.KILLED,
    ),
    # invalid_input's HTTP status 400 -> 399: no line-protocol answer changes, but `conformance serve`
    # then answers a rejection with a 3xx, which no reading of the hosted API's statuses allows (A12:
    # any 4xx): only the stage "http", the fixtures against the served copy, kills it
    ("errors", "core/NumberReplacer", "INVALID_INPUT: 400", "INVALID_INPUT: 399", Outcome.KILLED),
    # no tool implemented: the line protocol never asks `implemented`, the hosted API then answers
    # not_found to every request (the stage http)
    ("registry", "core/ReplaceTrueWithFalse", "    return True", "    return False", Outcome.KILLED),
]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return mutation.make_scratch(tmp_path_factory.mktemp("mutation") / "scratch")


# one in the test command, the rest (each a run of the suite against a mutated oracle) in the slow step
QUICK_STEP = "bleu_score:if c < r:"


@pytest.mark.parametrize(
    "module, operator, before, after, expected",
    [
        pytest.param(*m, id=f"{m[0]}:{m[3]}", marks=() if f"{m[0]}:{m[3]}" == QUICK_STEP else pytest.mark.slow)
        for m in FIXED
    ],
)
def test_a_fixed_mutant_gets_its_verdict(scratch, monkeypatch, module, operator, before, after, expected):
    # a PYTHONPATH naming the copy must not reach the harness: were the harness to import the mutated
    # oracle, it would agree with the target and no mutant would be killed
    monkeypatch.setenv("PYTHONPATH", str(scratch))
    path = scratch / "oracle" / f"{module}.py"
    pristine = path.read_text(encoding="utf-8")
    spec = MutationSpec(
        module_path=path,
        operator_name=operator,
        occurrence=occurrence(path, operator, before, after),
        start_pos=(1, 0),
        end_pos=(1, 1),
    )
    served = module in mutation.SERVED_MODULES
    command = mutation.judge_command(scratch, TOOLS, ("quick",), mutation.SEED, served)
    result = cosmic_ray_mutating.mutate_and_test([spec], shlex.join(command), timeout=120)
    assert path.read_text(encoding="utf-8") == pristine, "cosmic-ray puts the file back"
    assert any(after in line for line in result.diff.splitlines() if line.startswith("+")), result.diff
    assert result.test_outcome == expected, result.output
    verdict = mutation.parse_verdict(result.output)
    assert verdict.verdict == expected.value
    if expected is Outcome.KILLED:
        # a kill names the tool and the case, or is a target the harness could not conclude on (exit 3)
        assert (verdict.tool == TOOLS[0] and verdict.case) or (verdict.exit == 3 and verdict.detail), verdict
        assert verdict.stage == ("http" if served else "quick"), verdict


def test_the_target_imports_the_copy_and_the_harness_does_not(scratch, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(scratch))
    seen = mutation.import_paths(scratch)
    assert seen["target"] == seen["served"] == scratch / "oracle" / "__init__.py"
    assert seen["harness"] == ROOT / "oracle" / "__init__.py"


def test_a_judgement_cut_short_is_judged_again(tmp_path):
    verdict = mutation.Verdict("killed", "quick", 1, "bleu-brevity-penalty", "case").line()
    results = {
        "cut": {"output": "", "test_outcome": "killed"},  # Ctrl-C during the judgement: an exit, no verdict
        "judged": {"output": f"progress\n{verdict}\n", "test_outcome": "killed"},
        "timeout": {"output": "timeout", "test_outcome": "killed"},
        "not-run": {"output": mutation.NOT_RUN_PREFIX + "a literal only the harness reads", "test_outcome": "survived"},
        "no-test": {"output": None, "test_outcome": None},
    }
    assert {name for name, result in results.items() if mutation.cut_short(result)} == {"cut"}
    database = tmp_path / "session.sqlite"
    with sqlite3.connect(database) as connection:  # the columns of cosmic-ray's table that the check reads
        connection.execute("CREATE TABLE work_results (job_id TEXT PRIMARY KEY, output TEXT, test_outcome TEXT)")
        connection.executemany(
            "INSERT INTO work_results VALUES (?, ?, ?)",
            [(name, result["output"], result["test_outcome"]) for name, result in results.items()],
        )
    assert mutation.forget_cut_short(database) == 1
    with sqlite3.connect(database) as connection:
        left = {job for (job,) in connection.execute("SELECT job_id FROM work_results")}
    assert left == set(results) - {"cut"}


def test_a_harness_error_is_not_a_kill():
    assert mutation.parse_verdict("Traceback (most recent call last): ...").verdict == "errored"
    assert mutation.parse_verdict("timeout").verdict == "killed"  # cosmic-ray's timeout of the judgement


INERT_SOURCE = """from __future__ import annotations

def harness_only(x: int | None, y=1 + 2) -> int:
    return x + 1

TOOL = Tool(clauses={"/a": (3, 4)}, other=make(5))
"""


@pytest.mark.parametrize(
    "line, column, scoped, expected",
    [
        (3, 24, False, "an annotation"),  # the `|` of `int | None`: never evaluated
        (4, 13, True, "inside a function"),  # `x + 1` of a function only the harness calls
        (4, 13, False, ""),  # the same body outside such a scope is judged
        (3, 36, True, ""),  # a default value runs at import: judged
        (6, 28, True, "a literal"),  # a number of a literal keyword value
        (6, 47, True, ""),  # a call's argument could raise on import: judged
    ],
)
def test_only_positions_that_cannot_change_an_answer_are_not_run(line, column, scoped, expected):
    import ast

    why = mutation.inert_position(ast.parse(INERT_SOURCE), line, column, scoped)
    assert why.startswith(expected) if expected else why == ""


# --- the coverage map: which checks a mutant is judged by --------------------------------------

import ast  # noqa: E402

import mutation_coverage  # noqa: E402

COVERED_SOURCE = """import x

def check(payload):
    if payload > 3:
        raise ValueError(
            "too big"
        )
    return payload
"""
FIXTURE = "conformance/suite/test_fixtures.py::test_fixture_case[bleu-brevity-penalty/1.0.0/limits#too-big]"
PROPERTY = "conformance/suite/test_generated.py::test_generated_family[generated/chrf-compute/invalid/x]"
RECORD = {
    "profiles": {
        "quick": {"m": {"1": [""], "3": [""], "4": ["session", FIXTURE], "5": [FIXTURE], "8": ["session"]}},
        "default": {"m": {"4": ["session", PROPERTY], "5": [PROPERTY], "8": ["session"]}},
    }
}


def test_a_mutant_is_judged_by_the_checks_executing_its_statement():
    mutated = COVERED_SOURCE.replace('"too big"', '"XXtoo bigXX"')  # line 6, inside the raise of lines 5-7
    chosen = mutation_coverage.selection("m", COVERED_SOURCE, mutated, RECORD)
    assert chosen is not None and chosen.lines == (5, 7)
    assert chosen.fixture_tools == {"bleu-brevity-penalty"}
    assert chosen.properties == {"quick": frozenset(), "default": {"generated/chrf-compute/invalid/x"}}
    argv = ["python", "-m", "conformance", "run", "--tools", "a,b,c", "--profile", "default", "--generated-only"]
    assert mutation.narrowed(argv, chosen, "default", False)[-2:] == ["--families", "generated/chrf-compute/invalid/x"]
    assert mutation.narrowed(argv, chosen, "default", False)[5] == "chrf-compute"
    assert mutation.narrowed(argv, chosen, "quick", True)[-1] == "--fixtures-only"
    assert mutation.narrowed(argv, chosen, "quick", False) is None  # nothing of the quick profile runs it


def test_a_statement_run_at_import_or_outside_any_check_is_judged_by_every_check():
    # the `if` of line 4 is charged with its whole body (lines 4-7), which the preflight ("session") runs
    assert mutation_coverage.selection("m", COVERED_SOURCE, COVERED_SOURCE.replace("> 3", ">= 3"), RECORD) is None
    assert (
        mutation_coverage.selection("m", COVERED_SOURCE, COVERED_SOURCE.replace("import x", "import y"), RECORD) is None
    )
    assert mutation_coverage.selection("m", COVERED_SOURCE, COVERED_SOURCE, RECORD) is None  # nothing changed


def test_a_statement_no_check_executes_survives_without_a_run(tmp_path):
    record = {"profiles": {"quick": {"m": {"1": [""]}}, "default": {"m": {}}}}
    mutated = COVERED_SOURCE.replace("return payload", "return None")
    chosen = mutation_coverage.selection("m", COVERED_SOURCE, mutated, record)
    assert chosen is not None and chosen.empty() and chosen.lines == (8, 8)


def test_the_map_names_each_check_in_the_target_process(scratch, tmp_path):
    """The measuring launcher against one tool's fixtures: each line is charged to the checks that ran it."""

    def argv_of(profile, first, target):
        argv = mutation.harness_argv(scratch, TOOLS, profile, first, mutation.SEED, target)
        return [*[option for option in argv if option != "-x"], "--fixtures-only"]

    record = mutation_coverage.collect(ROOT, scratch, argv_of, ("quick",), mutation.SEED, tmp_path / "map.json")
    lines = record["profiles"]["quick"]
    for stem in ("bleu_brevity_penalty", "chrf"):  # chrf: a module this tool's answers never import
        source = (ROOT / "oracle" / f"{stem}.py").read_text(encoding="utf-8")
        import_time = {int(line) for line, contexts in lines[stem].items() if contexts == [""]}
        assert {statement.lineno for statement in ast.parse(source).body} <= import_time, stem
    checks = {mutation_coverage.check_of(c) for found in lines["validation"].values() for c in found} - {None}
    assert checks == {("fixture", "bleu-brevity-penalty")}, "only the fixtures of the tool run"
    # the limit on reference_lengths' count is executed by the fixtures at that limit and not by every fixture
    counts = [len(found) for found in lines["validation"].values() if "" not in found and "session" not in found]
    assert counts and min(counts) < max(counts)

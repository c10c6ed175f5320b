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
]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return mutation.make_scratch(tmp_path_factory.mktemp("mutation") / "scratch")


@pytest.mark.parametrize("module, operator, before, after, expected", FIXED, ids=[f"{m[0]}:{m[3]}" for m in FIXED])
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
        assert verdict.tool == TOOLS[0] and verdict.case, "the kill names the tool and the case"
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

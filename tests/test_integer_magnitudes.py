"""Integers far past their bounds (conformance/strategies/integer_magnitudes.py): every tool with a bounded
integer field gets ``invalid/integer-magnitudes``; its cases break exactly one rule, the rule one just
past the same bound breaks, and the oracle rejects each with the expected code; a target that narrows
integers into 32 bits (directly, or through a double) is caught at seeds 1, 2 and 3; the independent
correct implementation passes.

The fields are read here again, by hand from the contracts' input_schema, not by the module's walker.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import oracle
from conformance import compare, strategies
from conformance.engine import PROFILES
from conformance.jsonio import encode_request, parse_json
from conformance.model import Case
from conformance.strategies import aim_counts, integer_magnitudes
from conformance.strategies.integer_magnitudes import ITEM, MAGNITUDES, NAME, integer_fields
from conformance.targets.inprocess import InProcessTarget
from oracle.contracts import contract

TESTS_DIR = Path(__file__).resolve().parent
if str(TESTS_DIR) not in sys.path:  # the mutants and the independent implementation live here
    sys.path.insert(0, str(TESTS_DIR))

import independent  # noqa: E402
import mutants  # noqa: E402

DEFAULT, QUICK = PROFILES["default"]["invalid"], PROFILES["quick"]["invalid"]
SEEDS = (1, 2, 3)
MUTANTS = ("integer_wraps_to_32_bits", "integer_through_double_to_int32")
ITEMS = "[]"

# Read by hand from contracts/*/1.0.0.json: every integer of the input schema, with its bounds.
INTEGER_FIELDS = {
    "bleu-brevity-penalty": {
        ("candidate_lengths", ITEMS): (0, 1_048_576),
        ("reference_lengths", ITEMS, ITEMS): (0, 1_048_576),
        ("decimals",): (0, 15),
    },
    "bleu-corpus-compute": {("max_order",): (1, 8), ("decimals",): (0, 15)},
    "bleu-ngrams-count": {("max_order",): (1, 8)},
    "bleu-sentence-components": {("max_order",): (1, 8)},
    "bleu-sentence-compute": {("max_order",): (1, 8), ("decimals",): (0, 15)},
    "chrf-components": {("char_order",): (0, 10), ("word_order",): (0, 4), ("beta",): (1, 16)},
    "chrf-compute": {("beta",): (1, 16)},
    "chrf-plus-plus-compute": {("beta",): (1, 16)},
}
# The contracts' codes for a field past its bounds: the brevity penalty's "The limits answer limit_exceeded;
# they include the schema's ... maximum 1048576", a negative length and every other field invalid_input.
LIMIT_FIELDS = {
    ("bleu-brevity-penalty", ("candidate_lengths", ITEMS)),
    ("bleu-brevity-penalty", ("reference_lengths", ITEMS, ITEMS)),
}


def family_of(tool_id: str, version: str):
    found = [f for f in strategies.families(tool_id, version) if f.name == NAME]
    return found[0] if found else None


def drawn(tool_id: str, version: str, count: int, seed: int):
    family = family_of(tool_id, version)
    assert family is not None
    with aim_counts.counting() as counter:
        examples = strategies.draw_examples(family.strategy, count, seed=seed)
    return family, examples, counter


def integers_in(payload, schema: dict, path=(), concrete=()):
    """(field path with ITEMS, concrete path, value, minimum, maximum) of every integer the schema types."""
    if schema.get("type") == "integer":
        yield path, concrete, payload, schema.get("minimum"), schema.get("maximum")
    if isinstance(payload, dict):
        for name, prop in schema.get("properties", {}).items():
            if name in payload:
                yield from integers_in(payload[name], prop, (*path, name), (*concrete, name))
    if isinstance(payload, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(payload):
            yield from integers_in(item, schema["items"], (*path, ITEMS), (*concrete, i))


def out_of_range(tool_id: str, version: str, payload: dict) -> list[tuple]:
    schema = contract(tool_id, version).input_schema
    return [
        (path, concrete, value, low, high)
        for path, concrete, value, low, high in integers_in(payload, schema)
        if (low is not None and value < low) or (high is not None and value > high)
    ]


def replaced(payload: dict, concrete: tuple, value: int) -> dict:
    result = copy.deepcopy(payload)
    holder = result
    for step in concrete[:-1]:
        holder = holder[step]
    holder[concrete[-1]] = value
    return result


def code_of(tool_id: str, version: str, payload) -> str | None:
    try:
        oracle.execute(tool_id, version, payload)
    except oracle.ContractError as error:
        return error.code
    return None


TOOLS = strategies.supported()
HAND_READ = [(tool_id, version) for tool_id, version in TOOLS if tool_id in INTEGER_FIELDS]


# --- the fields and the family --------------------------------------------------------------------


def test_every_tool_is_read_by_hand_here():
    assert {tool_id for tool_id, _ in TOOLS} == set(INTEGER_FIELDS), "read the new contract's integers by hand above"


@pytest.mark.parametrize("tool_id, version", HAND_READ)
def test_the_integer_fields_are_read_from_the_input_schema(tool_id, version):
    found = {
        tuple(ITEMS if step == ITEM else step for step in field.path): (field.low, field.high)
        for field in integer_fields(contract(tool_id, version).input_schema)
    }
    assert found == INTEGER_FIELDS[tool_id]


def test_a_new_contracts_integers_are_found_wherever_the_schema_has_them():
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": ["integer", "null"], "exclusiveMinimum": 0, "exclusiveMaximum": 10},
            "rows": {
                "type": "array",
                "items": {"type": "object", "properties": {"k": {"type": "integer", "maximum": 3}}},
            },
            "text": {"type": "string"},
            "free": {"type": "integer"},
        },
    }
    assert [(f.path, f.low, f.high) for f in integer_fields(schema)] == [
        (("n",), 1, 9),
        (("rows", ITEM, "k"), None, 3),
        (("free",), None, None),
    ]


@pytest.mark.parametrize("tool_id, version", TOOLS)
def test_every_tool_with_an_integer_field_gets_the_family(tool_id, version):
    family = family_of(tool_id, version)
    bounded = [f for f in integer_fields(contract(tool_id, version).input_schema) if (f.low, f.high) != (None, None)]
    assert (family is not None) == bool(bounded)
    if family is None:
        return
    assert family.category == "invalid"
    assert [f.name for f in strategies.families(tool_id, version)].count(NAME) == 1
    if tool_id not in INTEGER_FIELDS:
        return
    kinds = {
        "an item of an integer array" if ITEMS in path else "a top-level integer field"
        for path in INTEGER_FIELDS[tool_id]
    }
    assert set(family.aims) == {m.aim for m in MAGNITUDES} | kinds


@pytest.mark.parametrize("seed", (0, *SEEDS))
@pytest.mark.parametrize("tool_id, version", HAND_READ)
def test_the_default_profile_draws_every_magnitude_on_every_field(tool_id, version, seed):
    """Each (magnitude, field) pair is one example; a tool has at most 3 x 13 of them, within the 40
    invalid examples of the default profile, so every pair, and every aim, is drawn at any seed."""
    family, examples, counter = drawn(tool_id, version, DEFAULT, seed)
    pairs = set()
    for example in examples:
        (broken,) = out_of_range(tool_id, version, example.input)  # exactly one integer past its bounds
        pairs.add((broken[0], broken[2]))
    fields = INTEGER_FIELDS[tool_id]
    k = {path: min(max(4, low, 1), high) for path, (low, high) in fields.items()}
    wanted = {
        (path, m.value(k[path] if m.adds_k else 0))
        for m in MAGNITUDES
        for path in fields
        if not fields[path][0] <= m.value(k[path] if m.adds_k else 0) <= fields[path][1]
    }
    assert pairs == wanted
    assert len(examples) == len(wanted) <= DEFAULT
    assert {aim for aim, count in counter.counts.items() if count} == set(family.aims)


@pytest.mark.parametrize("tool_id, version", TOOLS)
def test_the_quick_profile_draws_distinct_magnitudes_and_fields(tool_id, version):
    """The quick profile's 6 invalid examples cannot hold the 10 magnitude classes one at a time; they are
    6 distinct (magnitude, field) pairs, each recording its class and its kind of field."""
    family, examples, counter = drawn(tool_id, version, QUICK, 0)
    assert len({json.dumps(e.input, sort_keys=True) for e in examples}) == len(examples) == QUICK
    assert counter.examples == QUICK
    reached = {aim for aim, count in counter.counts.items() if count}
    assert reached <= set(family.aims) and len(reached & {m.aim for m in MAGNITUDES}) >= 3


def test_every_planned_value_breaks_a_bound_and_2_32_plus_k_wraps_into_range():
    for tool_id, version in TOOLS:
        for at_magnitude in integer_magnitudes._plan(tool_id, version):
            for planned in at_magnitude:
                assert not planned.field.within(planned.value)
                if planned.magnitude.aim == "2^32+k wraps into range":
                    assert planned.field.within((planned.value + 2**31) % 2**32 - 2**31)


# --- the expectations ------------------------------------------------------------------------------


@pytest.mark.parametrize("tool_id, version", HAND_READ)
def test_the_oracle_rejects_every_case_as_one_just_past_the_bound(tool_id, version):
    _, examples, _ = drawn(tool_id, version, DEFAULT, 0)
    for example in examples:
        (broken,) = out_of_range(tool_id, version, example.input)
        path, concrete, value, low, high = broken
        contract_code = "limit_exceeded" if (tool_id, path) in LIMIT_FIELDS and value > high else "invalid_input"
        assert example.expect.kind == "error" and example.expect.error_code == contract_code, example.description
        assert code_of(tool_id, version, example.input) == contract_code, example.description
        just_past = high + 1 if value > high else low - 1
        assert code_of(tool_id, version, replaced(example.input, concrete, just_past)) == contract_code
        # one rule broken: the same input with the field in range is answered (at a bound, or 4: chrF's
        # char_order 0 with word_order 0 breaks another rule, "at least one order")
        in_range = (high if value > high else low, min(max(4, low), high))
        assert any(code_of(tool_id, version, replaced(example.input, concrete, v)) is None for v in in_range)
        assert str(value) in example.description and f"as {just_past} is" in example.description


def test_2_53_plus_1_goes_on_the_wire_with_its_exact_digits():
    tool_id, version = TOOLS[0]
    _, examples, _ = drawn(tool_id, version, DEFAULT, 0)
    example = next(e for e in examples if "2^53 + 1" in e.description)
    body = encode_request(example.input).decode("utf-8")  # a request body as the targets encode it
    assert str(2**53 + 1) in body
    assert parse_json(body) == example.input
    assert [value for _, _, value, _, _ in out_of_range(tool_id, version, parse_json(body))] == [2**53 + 1]


# --- faulty and correct implementations ----------------------------------------------------------


def failures(execute, tool_id: str, version: str, seed: int) -> list[str]:
    target = InProcessTarget("python:under-test", execute)
    _, examples, _ = drawn(tool_id, version, DEFAULT, seed)
    found = []
    for i, example in enumerate(examples):
        case = Case(
            tool_id,
            version,
            f"generated/{tool_id}/{NAME}/{i}",
            "generated",
            "invalid",
            example.input,
            example.expect,
            example.description,
            seed=seed,
        )
        verdict = compare.check(case, target.call(tool_id, version, example.input))
        if verdict.outcome != "passed":
            found.append(f"{example.description}: {verdict.outcome}: {verdict.message[:200]}")
    return found


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", MUTANTS)
def test_a_target_narrowing_integers_fails_the_family_on_every_tool(name, seed):
    module = mutants.load(name)
    assert mutants.bug_class(module) == "integer-width"
    assert mutants.changed_tools(module) == set(TOOLS)
    for tool_id, version in TOOLS:
        assert failures(module.execute, tool_id, version, seed), f"{name} passes {NAME} of {tool_id} at seed {seed}"


@pytest.mark.parametrize("seed", (0, *SEEDS))
def test_the_independent_implementation_passes_the_family(seed):
    for tool_id, version in TOOLS:
        assert not failures(independent.execute, tool_id, version, seed)


def run(target: str, tools: str, seed: int, report_dir: Path) -> tuple[int, dict]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS_DIR), os.environ.get("PYTHONPATH", "")])}
    completed = subprocess.run(
        [sys.executable, "-m", "conformance", "run", "--target", target, "--tools", tools, "--seed", str(seed)]
        + ["--profile", "default", "--families", NAME, "--generated-only", "--report-dir", str(report_dir)],
        capture_output=True,
        text=True,
        env=env,
        cwd=TESTS_DIR,
        timeout=600,
    )
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    assert completed.returncode == report["exit_code"], completed.stdout[-2000:] + completed.stderr[-2000:]
    return completed.returncode, report


@pytest.mark.parametrize("seed", [SEEDS[0], *(pytest.param(seed, marks=pytest.mark.slow) for seed in SEEDS[1:])])
@pytest.mark.parametrize("name", MUTANTS)
def test_conformance_run_exits_1_on_a_narrowing_target(name, seed, tmp_path):
    """Through the real command, every tool in one run: exit 1, every tool failing, only in the family
    (seeds 2 and 3 under -m slow; the in-process test above judges every seed the same way)."""
    code, report = run(f"python:mutants.{name}", ",".join(tool for tool, _ in TOOLS), seed, tmp_path)
    failed = [r["case"] for r in report["results"] if r["outcome"] != "passed"]
    assert code == 1
    assert {c["case_id"].split("/")[1] for c in failed} == {tool for tool, _ in TOOLS}
    assert {c["case_id"].split("/", 2)[2].rsplit("/", 1)[0] for c in failed} == {NAME}


def test_conformance_run_exits_0_on_the_independent_implementation(tmp_path):
    code, report = run("python:independent", ",".join(tool for tool, _ in TOOLS), 1, tmp_path)
    assert code == 0, [r["message"] for r in report["results"] if r["outcome"] != "passed"][:5]

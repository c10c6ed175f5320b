"""The golden fixtures are well-formed, cover every contract example, and agree with the oracle.

Every expected output in fixtures/ was computed by hand (the arithmetic is in the case's
description); these tests hold the oracle and the fixtures to each other, so a fixture can
never silently rot and an oracle regression names the fixture it breaks.
"""

from __future__ import annotations

import functools
import json
import math
from collections import Counter
from pathlib import Path

import fastjsonschema
import jsonschema
import pytest

import oracle
from conformance import fixtures, open_points
from oracle import chrf
from oracle import chrf_plus_plus_compute as chrf_plus_plus

FILES = fixtures.load_files()
CASES = fixtures.load_cases()
OUTPUT_CASES = [case for case in CASES if case.expect.kind == "output"]
ERROR_CASES = [case for case in CASES if case.expect.kind == "error"]

# The repository stays reasonable: golden data, not bulk data. The byte-limit cases of the chrF tools
# need about 66 KB apiece (a text of 65,536 UTF-8 bytes cannot be written in fewer bytes of JSON), the
# total-token cases of the BLEU tools about 200 KB.
MAX_FIXTURE_BYTES = 5_000_000

# Full-precision floats (a tool's float fields without "decimals") go through exp/log, whose
# last bits differ between libm implementations (ambiguity A8). A fixture states them
# computed to 30 digits and rounded to the nearest double (or, where the contract fixes the
# double arithmetic, as that evaluation gives it); the oracle may be an ulp or two off.
LIBM_REL_TOL = 4e-16


def file_id(path: Path) -> str:
    return path.relative_to(fixtures.fixtures_dir()).as_posix()


def by_case_id(cases):
    return [pytest.param(case, id=case.case_id) for case in cases]


@pytest.fixture(scope="module")
def fixture_validator():
    schema = fixtures.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_there_are_fixtures_for_every_tool():
    assert {(case.tool_id, case.version) for case in CASES} == set(oracle.tool_keys())


def test_fixtures_stay_small():
    total = sum(path.stat().st_size for path, _ in FILES)
    assert total < MAX_FIXTURE_BYTES, f"fixtures total {total} bytes"


@pytest.mark.parametrize("path, data", [pytest.param(p, d, id=file_id(p)) for p, d in FILES])
def test_file_is_well_formed(path, data, fixture_validator):
    fixture_validator.validate(data)
    # the header names the file's own place: fixtures/<tool>/<version>/<topic>.json
    assert (data["tool"], data["version"], data["topic"]) == (path.parent.parent.name, path.parent.name, path.stem)
    assert oracle.implemented(data["tool"], data["version"])
    ids = Counter(case["id"] for case in data["cases"])
    assert [i for i, n in ids.items() if n > 1] == [], "case ids must be unique in a file"
    descriptions = Counter(case["description"].strip() for case in data["cases"])
    assert [d for d, n in descriptions.items() if n > 1] == [], "descriptions must be unique in a file"
    assert all(case["description"].strip() for case in data["cases"])


def test_case_ids_are_unique_across_the_suite():
    ids = Counter(case.case_id for case in CASES)
    assert [i for i, n in ids.items() if n > 1] == []


@pytest.mark.parametrize("case", by_case_id(OUTPUT_CASES))
def test_output_case_is_valid_per_contract(case):
    contract = oracle.load_contract(case.tool_id, case.version)
    jsonschema.Draft202012Validator(contract["input_schema"]).validate(case.input)
    jsonschema.Draft202012Validator(contract["output_schema"]).validate(case.expect.output)


def libm_dependent(case, key: str, value) -> bool:
    """A full-precision float field (bleu, brevity_penalty) strictly between 0 and 1 came out of exp/log."""
    return (
        key in oracle.tool(case.tool_id, case.version).float_fields
        and "decimals" not in case.input
        and value not in (0, 1)
    )


def near_tie_neighbour(case, key: str, value, actual) -> bool:
    """A case tagged near-rounding-boundary may round to the neighbouring decimal on another libm (A8)."""
    if "near-rounding-boundary" not in case.tags or key not in ("bleu", "brevity_penalty"):
        return False
    step = 10.0 ** -int(case.input["decimals"])
    return math.isclose(abs(actual - value), step, rel_tol=1e-9)


def assert_same_json(expected, actual, where: str = "") -> None:
    """JSON equality that does not let Python's True == 1 or 1 == 1.0 blur JSON types."""
    assert isinstance(actual, bool) == isinstance(expected, bool), f"{where}: {actual!r} vs {expected!r}"
    if isinstance(expected, dict):
        assert isinstance(actual, dict) and actual.keys() == expected.keys(), f"{where}: keys differ"
        for key in expected:
            assert_same_json(expected[key], actual[key], f"{where}/{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{where}: lengths differ"
        for index, (e, a) in enumerate(zip(expected, actual)):
            assert_same_json(e, a, f"{where}/{index}")
    else:
        assert type(actual) is type(expected) or {type(actual), type(expected)} <= {int, float}
        assert actual == expected, f"{where}: expected {expected!r}, the oracle gave {actual!r}"


@pytest.mark.parametrize("case", by_case_id(OUTPUT_CASES))
def test_output_case_matches_oracle(case):
    actual = oracle.execute(case.tool_id, case.version, case.input)
    expected = dict(case.expect.output)
    for key, value in case.expect.output.items():
        if libm_dependent(case, key, value):
            assert math.isclose(actual[key], value, rel_tol=LIBM_REL_TOL), (key, actual[key], value)
            expected[key] = actual[key]
        elif near_tie_neighbour(case, key, value, actual.get(key)):
            expected[key] = actual[key]
    assert_same_json(expected, actual)


@pytest.mark.parametrize("case", by_case_id(ERROR_CASES))
def test_error_case_is_rejected_by_oracle(case):
    with pytest.raises(oracle.ContractError) as raised:
        oracle.execute(case.tool_id, case.version, case.input)
    assert raised.value.code in ("invalid_input", "limit_exceeded")
    if case.expect.error_code != "any":
        assert raised.value.code == case.expect.error_code, raised.value.message


EXAMPLES = [
    pytest.param(tool_id, version, index, example, id=f"{tool_id}@{version}#{index}")
    for tool_id, version in oracle.tool_keys()
    for index, example in enumerate(oracle.load_contract(tool_id, version)["examples"])
]


@pytest.mark.parametrize("tool_id, version, index, example", EXAMPLES)
def test_every_contract_example_is_a_fixture(tool_id, version, index, example):
    matching = [
        case
        for case in OUTPUT_CASES
        if (case.tool_id, case.version) == (tool_id, version)
        and case.input == example["input"]
        and case.expect.output == example["output"]
    ]
    assert matching, "no fixture reproduces this contract example"
    assert all("example" in case.tags for case in matching)


# --- No fixture depends on an open point of the contracts (reports/ambiguities.md) ----------


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)


def open_in(point: str, case) -> bool:
    """Is the open point open in the case's tool (a contract that decides it is not)?"""
    return open_points.BY_ID[point].applies_to(oracle.tool(case.tool_id, case.version))


@pytest.mark.parametrize("case", by_case_id([c for c in CASES if open_in("A3", c)]))
def test_no_lone_surrogate_reaches_a_bleu_tool(case):
    """A3: whether BLEU tools accept lone surrogates is open (bleu-sentence-* decide it: rejected)."""
    assert not any(oracle.validation.has_lone_surrogate(s) for s in strings_in(case.input))


def bleu_token_totals(payload) -> tuple[int, int, int, int]:
    """(hypothesis tokens, all tokens, hypothesis UTF-8 bytes, all UTF-8 bytes) of a well-formed BLEU input."""
    hyp = [t for h in payload["hypotheses"] for t in h]
    ref = [t for refs in payload["references"] for r in refs for t in r]

    def size(tokens):
        return sum(len(t.encode("utf-8")) for t in tokens)

    return len(hyp), len(hyp) + len(ref), size(hyp), size(hyp) + size(ref)


@functools.cache
def compiled_input_schema(tool_id: str, version: str):
    return fastjsonschema.compile(oracle.load_contract(tool_id, version)["input_schema"])


def bleu_well_formed(case) -> bool:
    """Only a filter for the guard below (jsonschema stays the authority in the tests above)."""
    try:
        compiled_input_schema(case.tool_id, case.version)(case.input)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


@pytest.mark.parametrize("case", by_case_id([c for c in CASES if open_in("A1", c) and bleu_well_formed(c)]))
def test_bleu_totals_do_not_depend_on_a1(case):
    """A1: whether the total limits count reference tokens is open: never between the two readings
    (bleu-sentence-* decide it: both totals count every token)."""
    limits = oracle.load_contract(case.tool_id, case.version)["limits"]
    hyp_tokens, all_tokens, hyp_bytes, all_bytes = bleu_token_totals(case.input)
    assert not hyp_tokens <= limits["max_total_tokens"] < all_tokens
    assert not hyp_bytes <= limits["max_total_token_bytes"] < all_bytes


def most_verbose_size(output: dict) -> int:
    return len(json.dumps({"result": output}, indent=4, ensure_ascii=True).encode("utf-8"))


@pytest.mark.parametrize("case", by_case_id([c for c in OUTPUT_CASES if c.tool_id == "bleu-ngrams-count"]))
def test_accepted_ngrams_outputs_do_not_depend_on_a2(case):
    """A2: which serialisation max_output_bytes measures is open: accepted outputs fit in the most verbose one."""
    limit = oracle.load_contract(case.tool_id, case.version)["limits"]["max_output_bytes"]
    assert most_verbose_size(case.expect.output) <= limit


# A5: lowercase=true only on characters whose lowercase mapping and casing context are the
# same in every Unicode version in use: ASCII, Latin-1, basic Greek, and U+0130.
STABLE_CASING = {*range(0x20, 0x7F), *range(0xA0, 0x100), *range(0x391, 0x3CA), 0x130, 0x307}


@pytest.mark.parametrize(
    "case", by_case_id([c for c in OUTPUT_CASES if c.tool_id == chrf_plus_plus.TOOL.id and c.input.get("lowercase")])
)
def test_lowercase_fixtures_use_only_stable_casing(case):
    used = {ord(ch) for s in strings_in(case.input) for ch in s}
    assert used <= STABLE_CASING, sorted(map(hex, used - STABLE_CASING))


def a4_dependent(hypotheses: list[str], references: list[str]) -> bool:
    """A4: some segment's reference lacks an order its hypothesis has, while another segment has it on both sides."""
    stats = [
        chrf.segment_statistics(h, r, chrf_plus_plus.CHAR_ORDER, chrf_plus_plus.WORD_ORDER)
        for h, r in zip(hypotheses, references)
    ]
    for order in range(chrf_plus_plus.CHAR_ORDER + chrf_plus_plus.WORD_ORDER):
        hyp_only = any(s[order].hypothesis > 0 and s[order].reference == 0 for s in stats)
        both = any(s[order].hypothesis > 0 and s[order].reference > 0 for s in stats)
        if hyp_only and both:
            return True
    return False


@pytest.mark.parametrize("case", by_case_id([c for c in OUTPUT_CASES if c.tool_id == chrf_plus_plus.TOOL.id]))
def test_chrf_corpus_score_does_not_depend_on_a4(case):
    hypotheses, references = case.input["hypotheses"], case.input["references"]
    if case.input.get("lowercase"):
        hypotheses, references = [h.lower() for h in hypotheses], [r.lower() for r in references]
    assert len(hypotheses) < 2 or not a4_dependent(hypotheses, references)


def test_a4_guard_can_fail():
    # segment 0: hypothesis "ab" has a character bigram, its reference "a" none; segment 1 has one on both sides
    assert a4_dependent(["ab", "cd"], ["a", "cd"])
    assert not a4_dependent(["ab", "cd"], ["ab", "cd"])


# --- The loader ------------------------------------------------------------------------


def test_loaded_cases_carry_stable_ids_and_categories():
    for case in CASES:
        tool, version, rest = case.case_id.split("/", 2)
        topic, case_id = rest.split("#")
        assert (tool, version) == (case.tool_id, case.version) and topic and case_id
        assert case.origin == "fixture"
        if case.expect.kind == "error":
            assert case.category == "invalid" and case.expect.error_code in ("invalid_input", "limit_exceeded", "any")
        else:
            assert case.category == ("boundary" if "boundary" in case.tags else "valid")
            assert isinstance(case.expect.output, dict)


def test_categories_are_derived_from_expect_and_tags():
    assert fixtures.case_category({"error": "any"}, ["boundary"]) == "invalid"
    assert fixtures.case_category({"output": {}}, ["boundary"]) == "boundary"
    assert fixtures.case_category({"output": {}}, []) == "valid"


def test_load_cases_filters_by_tool():
    only = fixtures.load_cases({"bleu-corpus-compute"})
    assert only and {case.tool_id for case in only} == {"bleu-corpus-compute"}
    assert fixtures.load_cases(set()) == []


def published_ids() -> list[str]:
    text = (fixtures.fixtures_dir() / "published-ids.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def test_published_fixture_ids_never_disappear():
    """Users pin known failures and reports on fixture ids: a published id must keep existing."""
    current = {case.case_id for case in CASES}
    missing = sorted(set(published_ids()) - current)
    assert missing == [], f"published fixture ids were renamed or removed: {missing}"


def test_every_fixture_id_is_published():
    unlisted = sorted({case.case_id for case in CASES} - set(published_ids()))
    assert unlisted == [], f"add the new ids to fixtures/published-ids.txt: {unlisted}"

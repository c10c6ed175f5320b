"""The generated cases: every family draws inputs the oracle treats as the family says,
no valid or boundary case depends on an open point of the contracts, the aimed values
are all reached, and a seed reproduces the cases."""

from __future__ import annotations

import functools
import json
import shutil
import subprocess

import fastjsonschema
import jsonschema
import pytest

import oracle
from conformance.model import Expectation
from conformance.strategies import GeneratedCase, describe_families, draw_examples, families, supported
from conformance.strategies.alphabets import (
    ASCII_PUNCTUATION,
    WHITESPACE_NEAR_MISSES,
    contract_whitespace,
    lowercase_safe,
    lowercase_safe_alphabet,
    whitespace_neighbours,
)
from conformance.strategies.chrf_plus_plus_compute import CASED_WORDS

SEED = 20240
BLEU_TOOLS = ("bleu-ngrams-count", "bleu-corpus-compute")
CHRF = "chrf-plus-plus-compute"
# Families of large inputs (thousands of tokens or segments) get fewer examples.
LARGE = {
    "boundary/max-segments",
    "boundary/total-tokens",
    "boundary/total-token-bytes",
    "boundary/output-size",
    "boundary/text-bytes",
    "invalid/limits",
    "boundary/wide-counts",
    "boundary/large-vocabulary",
    "boundary/total-tokens-forms",
    "boundary/total-token-bytes-forms",
    "boundary/output-size-forms",
    "boundary/text-bytes-forms",
    "valid/largest-body",
}


def examples_per_family(name: str) -> int:
    # 16 draws every option value the coverage tests below look for (at 12 one beta of sixteen was not drawn)
    return 6 if name in LARGE else 16


@functools.cache
def drawn(tool_id: str, version: str, family_name: str) -> tuple[GeneratedCase, ...]:
    """The family's drawn requests of this tool: a case of several requests (a sequence, a burst)
    gives each of its steps sent to this tool, as one case each (a step sent to another tool is
    that tool's input: tests/test_relations.py checks every step against its own tool)."""
    family = next(f for f in families(tool_id, version) if f.name == family_name)
    return tuple(
        request
        for generated in draw_examples(family.strategy, examples_per_family(family_name), seed=SEED)
        for request in requests_of(generated, tool_id, version)
    )


def requests_of(generated: GeneratedCase, tool_id: str, version: str) -> list[GeneratedCase]:
    if not generated.steps:
        return [generated]
    return [
        GeneratedCase(step["input"], Expectation(**step["expect"]), step.get("description") or generated.description)
        for step in generated.steps
        if (step["tool_id"], step["version"]) == (tool_id, version)
    ]


@functools.cache
def oracle_outcomes(tool_id: str, version: str, family_name: str) -> tuple:
    """Per drawn case: (output, None) or (None, ContractError); computed once for all the tests."""
    outcomes = []
    for generated in drawn(tool_id, version, family_name):
        try:
            outcomes.append((oracle.execute(tool_id, version, generated.input), None))
        except oracle.ContractError as error:
            outcomes.append((None, error))
    return tuple(outcomes)


FAMILIES = [
    pytest.param(tool_id, version, family.name, id=f"{tool_id}:{family.name}")
    for tool_id, version in supported()
    for family in families(tool_id, version)
]


def contract(tool_id: str, version: str) -> dict:
    return oracle.load_contract(tool_id, version)


def utf8(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


# --- the families themselves -------------------------------------------------------


def test_every_oracle_tool_has_families_in_all_three_categories():
    tools = [(t, v) for t, v in oracle.available() if oracle.implemented(t, v)]
    assert sorted(tools) == supported()
    for tool_id, version in supported():
        found = families(tool_id, version)
        names = [f.name for f in found]
        assert len(names) == len(set(names)), names
        assert {f.category for f in found} == {"valid", "boundary", "invalid"}
        assert all(f.summary for f in found)


def test_unknown_tool_has_no_families():
    assert families("no-such-tool", "1.0.0") == []


def test_describe_families_names_every_family():
    text = describe_families()
    for tool_id, version in supported():
        assert f"{tool_id}@{version}" in text
        for family in families(tool_id, version):
            assert f"`{family.name}`" in text


def test_whitespace_is_read_from_the_contract():
    whitespace = contract_whitespace(CHRF, "1.0.0")
    # the contract's list, counted by hand: 5 + 4 + 1 + 1 + 1 + 1 + 11 + 5 = 29 code points
    assert len(whitespace) == 29
    assert {"\t", "\r", "\x1c", "\x1f", " ", "\x85", "\xa0", "\u1680", "\u2000", "\u200a", "\u3000"} <= set(whitespace)
    assert not set(WHITESPACE_NEAR_MISSES) & set(whitespace)


def test_the_neighbours_of_the_whitespace_list_are_each_range_end_plus_and_minus_one():
    neighbours = whitespace_neighbours(contract_whitespace(CHRF, "1.0.0"))
    # by hand from the contract's list: below and above U+0009-U+000D, U+001C-U+001F (+ U+0020:
    # U+0021 above it, U+001F on the list below it), U+0085, U+00A0, U+1680, U+2000-U+200A,
    # U+2028-U+2029, U+202F, U+205F, U+3000
    by_hand = [0x08, 0x0E, 0x1B, 0x21, 0x84, 0x86, 0x9F, 0xA1, 0x167F, 0x1681, 0x1FFF, 0x200B]
    by_hand += [0x2027, 0x202A, 0x202E, 0x2030, 0x205E, 0x2060, 0x2FFF, 0x3001]
    assert [ord(ch) for ch in neighbours] == by_hand


def test_every_whitespace_neighbour_is_drawn_on_one_side_of_a_pair():
    neighbours = set(whitespace_neighbours(contract_whitespace(CHRF, "1.0.0")))
    seen = set()
    for generated in drawn(CHRF, "1.0.0", "valid/whitespace-neighbours"):
        for hypothesis, reference in zip(generated.input["hypotheses"], generated.input["references"]):
            assert not (set(hypothesis) & neighbours and set(reference) & neighbours), (hypothesis, reference)
            seen |= set(hypothesis + reference) & neighbours
    assert seen == neighbours


def test_ascii_punctuation_is_the_contracts_32_marks():
    sentence = next(s for s in contract(CHRF, "1.0.0")["semantics"] if "ASCII punctuation" in s)
    assert len(ASCII_PUNCTUATION) == 32
    assert ASCII_PUNCTUATION in sentence


# --- what the oracle makes of every generated case ---------------------------------


@pytest.mark.parametrize("tool_id, version, family_name", FAMILIES)
def test_oracle_treats_every_case_as_its_family_says(tool_id, version, family_name):
    cases = drawn(tool_id, version, family_name)
    assert cases
    output_schema = jsonschema.Draft202012Validator(contract(tool_id, version)["output_schema"])
    for generated, (output, error) in zip(cases, oracle_outcomes(tool_id, version, family_name)):
        assert generated.description
        # every input travels as JSON: strict, no NaN, and unchanged by the trip
        assert json.loads(json.dumps(generated.input, allow_nan=False)) == generated.input
        if generated.expect.kind == "output":
            assert error is None, (generated.description, error)
            output_schema.validate(output)
        else:
            assert error is not None, f"the oracle answered {generated.description}"
            if generated.expect.error_code != "any":
                assert error.code == generated.expect.error_code, (generated.description, error.message)


@pytest.mark.parametrize("tool_id, version, family_name", FAMILIES)
def test_family_category_matches_its_expectations(tool_id, version, family_name):
    cases = drawn(tool_id, version, family_name)
    category = family_name.split("/")[0]
    kinds = {c.expect.kind for c in cases}
    if category == "valid":
        assert kinds == {"output"}
    elif category == "invalid":
        assert kinds == {"error"}
        assert all(c.expect.error_code in ("invalid_input", "limit_exceeded", "any") for c in cases)


def test_valid_inputs_stay_small():
    """Size is the point of the boundary families only: valid cases stay quick over HTTP."""
    for tool_id, version in supported():
        for family in families(tool_id, version):
            if family.category == "valid" and family.name != "valid/largest-body":  # its size is its point
                for generated in drawn(tool_id, version, family.name):
                    assert len(json.dumps(generated.input)) < 20_000, (family.name, generated.description)


# --- no generated case depends on an open point --------------------------------------


def bleu_tokens(payload: dict) -> tuple[list[str], list[str]]:
    hypothesis = [t for h in payload["hypotheses"] for t in h]
    reference = [t for refs in payload["references"] for r in refs for t in r]
    return hypothesis, reference


def all_strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in all_strings(item)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *all_strings(v)]]
    return []


def has_lone_surrogate(text: str) -> bool:
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


@functools.cache
def compiled_input_schema(tool_id: str, version: str):
    # compiled: jsonschema takes seconds on the 50,000-token boundary inputs
    return fastjsonschema.compile(contract(tool_id, version)["input_schema"])


def schema_valid(tool_id: str, version: str, payload) -> bool:
    try:
        compiled_input_schema(tool_id, version)(payload)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def breaks_limit_keyword(tool_id: str, version: str, payload) -> bool:
    """A schema violation of maxItems (segments, references) or maxLength (token code points)."""
    schema = jsonschema.Draft202012Validator(contract(tool_id, version)["input_schema"])
    return any(error.validator in ("maxItems", "maxLength") for error in schema.iter_errors(payload))


def most_verbose_size(output: dict) -> int:
    """Indented, every non-ASCII character \\u-escaped, inside the {"result": ...} envelope."""
    return len(json.dumps({"result": output}, indent=4, ensure_ascii=True).encode("utf-8"))


def most_compact_size(output: dict) -> int:
    """JSON.stringify's form, non-ASCII characters raw, no envelope."""
    return len(json.dumps(output, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


@pytest.mark.parametrize("tool_id", BLEU_TOOLS)
def test_bleu_cases_avoid_open_points(tool_id):
    version = "1.0.0"
    limit = contract(tool_id, version)["limits"]
    for family in families(tool_id, version):
        outcomes = oracle_outcomes(tool_id, version, family.name)
        for generated, (output, _) in zip(drawn(tool_id, version, family.name), outcomes):
            payload, expect = generated.input, generated.expect
            # A3: no lone surrogates anywhere in a BLEU input
            assert not any(has_lone_surrogate(s) for s in all_strings(payload)), generated.description
            if not schema_valid(tool_id, version, payload):
                # A6: a broken schema rule that mirrors a named limit leaves the code open
                assert expect.error_code == (
                    "any" if breaks_limit_keyword(tool_id, version, payload) else "invalid_input"
                ), generated.description
                continue
            hypothesis, reference = bleu_tokens(payload)
            both = hypothesis + reference
            if expect.kind == "output":
                # A1: within the totals counting hypothesis and reference tokens
                assert len(both) <= limit["max_total_tokens"]
                assert sum(map(utf8, both)) <= limit["max_total_token_bytes"]
                if "max_output_bytes" in limit:  # A2: under the limit in the most verbose serialisation
                    assert most_verbose_size(output) <= limit["max_output_bytes"], generated.description
            elif expect.error_code == "limit_exceeded":
                # A1/A2/A6: a named limit is broken under every reading, and no schema rule is
                over_per_token = any(utf8(t) > limit["max_token_bytes"] for t in both)
                over_by_hypothesis = (
                    len(hypothesis) > limit["max_total_tokens"]
                    or sum(map(utf8, hypothesis)) > limit["max_total_token_bytes"]
                )
                over_output = False
                if not (over_per_token or over_by_hypothesis) and "max_output_bytes" in limit:
                    within = {**payload, "detail": "totals"}
                    oracle.execute(tool_id, version, within)  # the input limits hold
                    with pytest.raises(oracle.ContractError):
                        oracle.execute(tool_id, version, payload)
                    # the output oracle.execute refused, rebuilt from the statistics to measure it
                    over_output = compact_ngrams_size(payload) > limit["max_output_bytes"]
                assert over_per_token or over_by_hypothesis or over_output, generated.description
            elif expect.error_code == "invalid_input":
                # no named limit is broken under any reading (else the code would be open)
                assert all(utf8(t) <= limit["max_token_bytes"] for t in both)
                assert len(both) <= limit["max_total_tokens"]
                assert sum(map(utf8, both)) <= limit["max_total_token_bytes"]


def compact_ngrams_size(payload: dict) -> int:
    """A lower bound of the compact output's size: its "ngrams" rows alone, counted here, not by the oracle."""
    from collections import Counter

    size = 0
    for i, (hypothesis, references) in enumerate(zip(payload["hypotheses"], payload["references"])):
        for n in range(1, payload.get("max_order", 4) + 1):
            grams = Counter(tuple(hypothesis[k : k + n]) for k in range(len(hypothesis) - n + 1))
            for gram, count in grams.items():
                row = {
                    "segment": i,
                    "order": n,
                    "ngram": list(gram),
                    "count": count,
                    "max_reference_count": 0,
                    "clipped_count": 0,
                }
                size += most_compact_size(row) + 1
    return size


def test_output_size_cases_are_clearly_on_one_side():
    """A2: accepted outputs fit even indented and escaped; rejected ones exceed even compact."""
    limit = contract("bleu-ngrams-count", "1.0.0")["limits"]["max_output_bytes"]
    sides = set()
    nearest_over = float("inf")
    family = ("bleu-ngrams-count", "1.0.0", "boundary/output-size")
    for generated, (output, _) in zip(drawn(*family), oracle_outcomes(*family)):
        if generated.expect.kind == "output":
            size = most_verbose_size(output)
            assert size <= 0.9 * limit, size
        else:
            assert compact_ngrams_size(generated.input) > limit
            nearest_over = min(nearest_over, compact_ngrams_size(generated.input))
        sides.add(generated.expect.kind)
    assert sides == {"output", "error"}
    # rejected cases reach down to just past the limit, where a rounder limit (1 MiB) would still answer
    assert nearest_over < 1.02 * limit, nearest_over


def test_chrf_cases_avoid_open_points():
    version = "1.0.0"
    limit = contract(CHRF, version)["limits"]
    for family in families(CHRF, version):
        for generated in drawn(CHRF, version, family.name):
            payload = generated.input
            if not isinstance(payload, dict):
                continue
            # A5: lowercase=true only on the lowercase-safe alphabet, where the text gets lowercased:
            # a text past max_text_bytes is rejected before (the validation order), whatever it holds
            if payload.get("lowercase") is True and generated.expect.error_code != "limit_exceeded":
                assert lowercase_safe(*payload["hypotheses"], *payload["references"]), generated.description
            if not schema_valid(CHRF, version, payload):  # A6, as for the BLEU tools
                assert generated.expect.error_code == (
                    "any" if breaks_limit_keyword(CHRF, version, payload) else "invalid_input"
                )
            if generated.expect.error_code == "limit_exceeded":
                assert schema_valid(CHRF, version, payload)
                assert sum(map(utf8, payload["hypotheses"] + payload["references"])) > limit["max_text_bytes"]
            if generated.expect.kind == "output":
                texts = payload["hypotheses"] + payload["references"]
                assert not any(has_lone_surrogate(t) for t in texts)


def test_no_case_depends_on_an_open_point_but_a4():
    """Per the catalogue's own predicates: no generated case touches an open point (A4 is compared
    under both readings), and every stated error code is the only one any reading allows."""
    import readings_by_id as readings

    for tool_id, version in supported():
        for family in families(tool_id, version):
            for generated in drawn(tool_id, version, family.name)[: 4 if family.name in LARGE else 10]:
                points = set(readings.depends_on_open_point(tool_id, version, generated.input)) - {"A4"}
                assert not points, (family.name, generated.description, points)
                if generated.expect.error_code in ("invalid_input", "limit_exceeded"):
                    codes = readings.acceptable_error_codes(tool_id, version, generated.input)
                    assert codes == {generated.expect.error_code}, (family.name, generated.description, codes)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_lowercase_safe_alphabet_lowercases_alike_in_javascript():
    """A5: on the safe alphabet and the sigma words, String.prototype.toLowerCase agrees with Python."""
    texts = list(lowercase_safe_alphabet()) + list(CASED_WORDS) + [" ".join(CASED_WORDS)]
    script = "let t=JSON.parse(require('fs').readFileSync(0,'utf8'));process.stdout.write(JSON.stringify(t.map(s=>s.toLowerCase())))"
    result = subprocess.run(
        ["node", "-e", script], input=json.dumps(texts), capture_output=True, text=True, timeout=60, check=True
    )
    javascript = json.loads(result.stdout)
    differ = [(t, j) for t, j in zip(texts, javascript) if t.lower() != j]
    assert not differ


def test_lowercase_words_are_in_the_safe_alphabet():
    # the family drops an unsafe word or variant; today none is dropped
    assert all(lowercase_safe(w, w.lower(), w.upper(), w.title()) for w in CASED_WORDS)
    # the hand-picked Final_Sigma cases: ΟΔΟΣ ends in ς, a lone Σ is σ
    assert "\u039f\u0394\u039f\u03a3".lower().endswith("\u03c2")
    assert "\u03a3".lower() == "\u03c3"


# --- the aimed values are all reached --------------------------------------------------


def option_values(tool_id: str, key: str) -> set:
    """Every value of option ``key`` in the accepted cases drawn under the test seed."""
    values = set()
    for family in families(tool_id, "1.0.0"):
        for generated in drawn(tool_id, "1.0.0", family.name):
            if generated.expect.kind == "output" and key in generated.input:
                values.add(json.dumps(generated.input[key]))
    return {json.loads(v) for v in values}


@pytest.mark.parametrize("tool_id", BLEU_TOOLS)
def test_every_max_order_is_drawn(tool_id):
    assert option_values(tool_id, "max_order") == set(range(1, 9))


def test_every_detail_decimals_beta_and_lowercase_is_drawn():
    assert option_values("bleu-ngrams-count", "detail") == {"totals", "segments", "ngrams"}
    assert option_values("bleu-corpus-compute", "decimals") == set(range(16))
    assert option_values(CHRF, "beta") == set(range(1, 17))
    assert option_values(CHRF, "lowercase") == {True, False}


def test_every_whitespace_code_point_and_near_miss_is_drawn():
    seen = set()
    for generated in drawn(CHRF, "1.0.0", "valid/whitespace"):
        for text in generated.input["hypotheses"] + generated.input["references"]:
            seen |= set(text)
    assert set(contract_whitespace(CHRF, "1.0.0")) <= seen
    assert set(WHITESPACE_NEAR_MISSES) <= seen


OPTION_EXTREMES = ("boundary/max-order", "boundary/decimals", "boundary/beta")  # both values accepted
# Big accepted inputs crossing a representation boundary (2^15, 2^16, 2^20, 2^53): nothing is rejected.
REPRESENTATION_BOUNDARIES = ("boundary/wide-counts", "boundary/wide-lengths", "boundary/large-vocabulary")
# Past the output limit only: at it, every form larger than compact JSON is a reading of A2.
ONE_SIDED = ("boundary/output-size-forms",)


@pytest.mark.parametrize(
    "tool_id, version, family_name",
    [
        p
        for p in FAMILIES
        if p.values[2].startswith("boundary/")
        and p.values[2] not in OPTION_EXTREMES + REPRESENTATION_BOUNDARIES + ONE_SIDED
    ],
)
def test_boundary_families_reach_both_sides(tool_id, version, family_name):
    """Each limit is generated exactly at it (accepted) and just past it (rejected)."""
    kinds = {c.expect.kind for c in drawn(tool_id, version, family_name)}
    assert kinds == {"output", "error"}


# --- reproducible under a seed ------------------------------------------------------------


@pytest.mark.parametrize("tool_id, version, family_name", [p for p in FAMILIES if p.values[2] not in LARGE])
def test_same_seed_same_cases(tool_id, version, family_name):
    family = next(f for f in families(tool_id, version) if f.name == family_name)
    first = draw_examples(family.strategy, 3, seed=99)
    assert all(isinstance(c, GeneratedCase) for c in first)
    assert first == draw_examples(family.strategy, 3, seed=99)
    if family.name.startswith("valid/"):  # large example spaces: another seed, other cases
        assert first != draw_examples(family.strategy, 3, seed=100)


# --- the families are aimed: each tells a plausible mistake from the contract ----------------
# A mistake is modelled by what it does to the input before a correct computation: a tool that
# normalises Unicode answers as the oracle does on normalised input. Each family must contain a
# case where that answer differs from the oracle's.


def map_tokens(payload: dict, change) -> dict:
    return {
        **payload,
        "hypotheses": [[t for token in h for t in change(token)] for h in payload["hypotheses"]],
        "references": [[[t for token in r for t in change(token)] for r in refs] for refs in payload["references"]],
    }


def map_texts(payload: dict, change) -> dict:
    return {
        **payload,
        "hypotheses": [change(t) for t in payload["hypotheses"]],
        "references": [change(t) for t in payload["references"]],
    }


def normalise_nfc(token: str) -> list[str]:
    import unicodedata

    return [unicodedata.normalize("NFKC", token)]


def sum_reference_counts(payload: dict) -> dict:
    """Clipping by the sum over references: all references of a segment as one."""
    merged = [[[t for r in refs for t in r]] for refs in payload["references"]]
    return {**payload, "references": merged}


def split_on_spaces(token: str) -> list[str]:
    """N-grams as space-joined strings: a token with a space reads as two."""
    return [part for part in token.split(" ") if part] or [token]


def javascript_whitespace(text: str) -> str:
    """JavaScript's \\s instead of the contract's list: U+FEFF is whitespace, U+001C-U+001F and U+0085 are not."""
    return text.translate({0xFEFF: " ", 0x1C: "\u2400", 0x1D: "\u2400", 0x1E: "\u2400", 0x1F: "\u2400", 0x85: "\u2400"})


def split_non_ascii_punctuation(text: str) -> str:
    import re

    return re.sub(r"([\u3002\u00bf\u00a1\u2026\u00ab\u00bb\u201c\u201d\uff0c])", r" \1 ", text)


def lowercase_without_final_sigma(payload: dict) -> dict:
    if payload.get("lowercase") is not True:
        return payload
    lowered = map_texts(payload, lambda t: "".join(ch.lower() for ch in t))
    return {**lowered, "lowercase": False}


MISTAKES = [
    ("bleu-corpus-compute", "valid/token-identity", "NFKC normalisation", lambda p: map_tokens(p, normalise_nfc)),
    ("bleu-ngrams-count", "valid/token-identity", "case folding", lambda p: map_tokens(p, lambda t: [t.lower()])),
    ("bleu-ngrams-count", "valid/token-identity", "space-joined n-grams", lambda p: map_tokens(p, split_on_spaces)),
    (
        "bleu-ngrams-count",
        "valid/token-identity",
        "trimmed tokens",
        lambda p: map_tokens(p, lambda t: [t.strip() or t]),
    ),
    ("bleu-ngrams-count", "valid/clipping", "clipping by the sum over references", sum_reference_counts),
    ("bleu-corpus-compute", "valid/clipping", "clipping by the sum over references", sum_reference_counts),
    (CHRF, "valid/whitespace", "JavaScript's \\s as whitespace", lambda p: map_texts(p, javascript_whitespace)),
    (CHRF, "valid/punctuation", "non-ASCII punctuation split", lambda p: map_texts(p, split_non_ascii_punctuation)),
    (CHRF, "valid/unicode", "NFKC normalisation", lambda p: map_texts(p, lambda t: normalise_nfc(t)[0])),
    (CHRF, "valid/lowercase", "lowercase without Final_Sigma", lowercase_without_final_sigma),
]


@pytest.mark.parametrize(
    "tool_id, family_name, mistake, mistaken_input", MISTAKES, ids=[f"{m[0]}:{m[1]}:{m[2]}" for m in MISTAKES]
)
def test_family_tells_a_plausible_mistake_apart(tool_id, family_name, mistake, mistaken_input):
    for generated, (expected, _) in zip(
        drawn(tool_id, "1.0.0", family_name), oracle_outcomes(tool_id, "1.0.0", family_name)
    ):
        try:
            mistaken = oracle.execute(tool_id, "1.0.0", mistaken_input(generated.input))
        except oracle.ContractError:
            return  # the mistake even rejects a valid input
        if mistaken != expected:
            return
    pytest.fail(f"no case of {family_name} tells {mistake} from the contract")


@pytest.mark.parametrize(
    "tool_id, family_name, key, extremes",
    [
        ("bleu-ngrams-count", "boundary/max-order", "max_order", {1, 8}),
        ("bleu-corpus-compute", "boundary/max-order", "max_order", {1, 8}),
        ("bleu-corpus-compute", "boundary/decimals", "decimals", {0, 15}),
        (CHRF, "boundary/beta", "beta", {1, 16}),
    ],
)
def test_option_extremes_are_both_drawn(tool_id, family_name, key, extremes):
    assert {c.input[key] for c in drawn(tool_id, "1.0.0", family_name)} == extremes


# --- the BLEU siblings: the hard parts are reached --------------------------------------

SENTENCE = "bleu-sentence-compute"
SENTENCE_TOOLS = ("bleu-sentence-components", SENTENCE)
LENGTHS = "bleu-brevity-penalty"


def accepted_inputs(tool_id: str) -> list[dict]:
    return [
        generated.input
        for family in families(tool_id, "1.0.0")
        for generated in drawn(tool_id, "1.0.0", family.name)
        if generated.expect.kind == "output"
    ]


@pytest.mark.parametrize("tool_id", SENTENCE_TOOLS)
def test_every_max_order_is_drawn_for_one_segment(tool_id):
    assert option_values(tool_id, "max_order") >= set(range(1, 9))


def test_every_smoothing_effective_order_and_decimals_is_drawn():
    combinations = {(p["smoothing"], p.get("effective_order")) for p in accepted_inputs(SENTENCE)}
    methods = ("none", "chen-cherry-1", "chen-cherry-2", "chen-cherry-3")
    assert combinations >= {(m, e) for m in methods for e in (None, False, True)}
    assert option_values(SENTENCE, "decimals") == set(range(16))
    assert option_values(LENGTHS, "decimals") == set(range(16))


def first_zero_match_order(payload: dict) -> int | None:
    """The first order n <= max_order with m_n = 0 (counted by hand: n-grams of the hypothesis
    found in some reference), or None if every order matched."""

    def ngrams(tokens, n):
        return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]

    hypothesis, references = payload["hypothesis"], payload["references"]
    for n in range(1, int(payload.get("max_order", 4)) + 1):
        found = {g for reference in references for g in ngrams(reference, n)}
        if not any(g in found for g in ngrams(hypothesis, n)):
            return n
    return None


def test_the_nist_counter_runs_at_k_1_2_3():
    """chen-cherry-3 with max_order >= 4: the first zero-match order at 2, 3 and 4 (k = 1 at that
    order, then 2, 3 at the orders after it), and at 1 (m_1 = 0: bleu exactly 0)."""
    reached = {
        first_zero_match_order(p)
        for p in accepted_inputs(SENTENCE)
        if p["smoothing"] == "chen-cherry-3" and int(p.get("max_order", 4)) >= 4 and len(p["hypothesis"]) >= 4
    }
    assert reached >= {1, 2, 3, 4}


def test_lengths_reach_every_case_of_the_brevity_penalty():
    seen = set()
    for payload in accepted_inputs(LENGTHS):
        c = sum(payload["candidate_lengths"])
        closest = [
            min(refs, key=lambda r, c=c_i: (abs(r - c), r))
            for c_i, refs in zip(payload["candidate_lengths"], payload["reference_lengths"])
        ]
        r = sum(closest)
        seen.add("c > r" if c > r else "c = r" if c == r else "c < r")
        if c == 0:
            seen.add("c = 0, r = 0" if r == 0 else "c = 0, r > 0")
        for c_i, refs in zip(payload["candidate_lengths"], payload["reference_lengths"]):
            if any(abs(a - c_i) == abs(b - c_i) and a != b for a in refs for b in refs):
                seen.add("tie")
        if (
            max([*payload["candidate_lengths"], *(n for refs in payload["reference_lengths"] for n in refs)])
            == 1_048_576
        ):
            seen.add("length 1048576")
    assert seen >= {"c > r", "c = r", "c < r", "c = 0, r = 0", "c = 0, r > 0", "tie", "length 1048576"}

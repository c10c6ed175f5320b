"""The oracle's input validation, rule by rule, against the contract files.

Every schema rule, limit and semantic rule of each contract is broken on its own
and must be rejected with its code and a message that starts with the offending
path (``references[3][0][2]: ...``). Where a contract leaves the code open (A6:
a schema bound that is also a named limit; A7: several violations at once in a
BLEU input), these tests pin the oracle's own documented choice; the harness
accepts either code from a target.
"""

from __future__ import annotations

import copy
import json
import math

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from conformance.hypothesis_profiles import TESTS_VALIDATION
from oracle import validation
from oracle.errors import INVALID_INPUT, LIMIT_EXCEEDED, ContractError

V = "1.0.0"
NGRAMS, CORPUS, CHRF = "bleu-ngrams-count", "bleu-corpus-compute", "chrf-plus-plus-compute"
BLEU_TOOLS = (NGRAMS, CORPUS)
ALL_TOOLS = (NGRAMS, CORPUS, CHRF)
GRINNING = "\U0001f600"  # one astral code point, 4 UTF-8 bytes


def valid_payload(tool: str) -> dict:
    if tool == CHRF:
        return {"hypotheses": ["a b"], "references": ["a c"]}
    return {"hypotheses": [["a", "b"]], "references": [[["a", "b"]]]}


def rejection(tool: str, payload) -> ContractError:
    with pytest.raises(ContractError) as info:
        oracle.execute(tool, V, payload)
    return info.value


def assert_rejected(tool: str, payload, code: str, path: str) -> ContractError:
    error = rejection(tool, payload)
    assert (error.code, error.message.split(": ", 1)[0]) == (code, path), error.message
    assert error.message.startswith(path + ": ")
    return error


def output_schema_validator(tool: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(oracle.load_contract(tool, V)["output_schema"])


def accepted(tool: str, payload) -> dict:
    output = oracle.execute(tool, V, payload)
    output_schema_validator(tool).validate(output)
    return output


# --- shape: plain object, unknown keys, missing keys ---------------------------------


@pytest.mark.parametrize("tool", ALL_TOOLS)
@pytest.mark.parametrize("payload", [[], "text", None, 3, 2.5, True], ids=repr)
def test_not_an_object_is_invalid_input(tool, payload):
    assert_rejected(tool, payload, INVALID_INPUT, "input")


@pytest.mark.parametrize("tool", ALL_TOOLS)
def test_unknown_key_is_named(tool):
    assert_rejected(tool, {**valid_payload(tool), "smoothing": "none"}, INVALID_INPUT, "smoothing")


@pytest.mark.parametrize("tool, key", [(NGRAMS, "decimals"), (CORPUS, "detail"), (CHRF, "max_order")])
def test_a_sibling_tools_option_is_an_unknown_key(tool, key):
    assert_rejected(tool, {**valid_payload(tool), key: 4}, INVALID_INPUT, key)


@pytest.mark.parametrize("tool", ALL_TOOLS)
@pytest.mark.parametrize("key", ["hypotheses", "references"])
def test_missing_key_is_named(tool, key):
    payload = valid_payload(tool)
    del payload[key]
    assert_rejected(tool, payload, INVALID_INPUT, key)


# --- BLEU tools: schema rules -------------------------------------------------------

BLEU_SCHEMA_VIOLATIONS = [
    # (id, payload changes, code, path)
    ("hypotheses not an array", {"hypotheses": "a b"}, INVALID_INPUT, "hypotheses"),
    ("hypotheses null", {"hypotheses": None}, INVALID_INPUT, "hypotheses"),
    ("segment not an array", {"hypotheses": ["a b"]}, INVALID_INPUT, "hypotheses[0]"),
    ("token not a string", {"hypotheses": [["a", 3]]}, INVALID_INPUT, "hypotheses[0][1]"),
    ("token empty", {"hypotheses": [["a", ""]]}, INVALID_INPUT, "hypotheses[0][1]"),
    ("references not an array", {"references": {"0": [["a"]]}}, INVALID_INPUT, "references"),
    ("no reference for a segment", {"references": [[]]}, INVALID_INPUT, "references[0]"),
    ("reference not an array", {"references": [[["a"], "a"]]}, INVALID_INPUT, "references[0][1]"),
    ("reference token not a string", {"references": [[["a", "b", None]]]}, INVALID_INPUT, "references[0][0][2]"),
    ("reference token empty", {"references": [[["a"], ["b", ""]]]}, INVALID_INPUT, "references[0][1][1]"),
    # A6: maxItems / maxLength mirror max_references_per_segment / max_token_bytes: the oracle says limit_exceeded
    ("9 references", {"references": [[["a"]] * 9]}, LIMIT_EXCEEDED, "references[0]"),
    ("token of 129 code points", {"hypotheses": [["a", "x" * 129]]}, LIMIT_EXCEEDED, "hypotheses[0][1]"),
    ("max_order 0", {"max_order": 0}, INVALID_INPUT, "max_order"),
    ("max_order 9", {"max_order": 9}, INVALID_INPUT, "max_order"),
    ("max_order true", {"max_order": True}, INVALID_INPUT, "max_order"),
    ("max_order 1.5", {"max_order": 1.5}, INVALID_INPUT, "max_order"),
    ("max_order '4'", {"max_order": "4"}, INVALID_INPUT, "max_order"),
    ("max_order null", {"max_order": None}, INVALID_INPUT, "max_order"),
    ("max_order NaN", {"max_order": math.nan}, INVALID_INPUT, "max_order"),
    ("max_order inf", {"max_order": math.inf}, INVALID_INPUT, "max_order"),
    ("max_order -inf", {"max_order": -math.inf}, INVALID_INPUT, "max_order"),
]


@pytest.mark.parametrize("tool", BLEU_TOOLS)
@pytest.mark.parametrize(
    "changes, code, path", [c[1:] for c in BLEU_SCHEMA_VIOLATIONS], ids=[c[0] for c in BLEU_SCHEMA_VIOLATIONS]
)
def test_bleu_schema_rule_rejected(tool, changes, code, path):
    assert_rejected(tool, {**valid_payload(tool), **changes}, code, path)


def test_path_names_segment_reference_and_token():
    # the path of the brief: segment 3, reference 0, token 2
    payload = {"hypotheses": [["a"]] * 4, "references": [[["a"]]] * 3 + [[["a", "b", 7]]]}
    for tool in BLEU_TOOLS:
        assert_rejected(tool, payload, INVALID_INPUT, "references[3][0][2]")


def test_first_violation_in_document_order_is_named():
    # segments 2 and 10 both have a bad token; 10 sorts before 2 as text, not as a position
    hypotheses = [["a"]] * 12
    hypotheses[2], hypotheses[10] = [""], [3]
    payload = {"hypotheses": hypotheses, "references": [[["a"]]] * 12}
    for tool in BLEU_TOOLS:
        assert_rejected(tool, payload, INVALID_INPUT, "hypotheses[2][0]")


@pytest.mark.parametrize("tool", BLEU_TOOLS)
def test_bleu_segment_count_bounds(tool):
    # 1000 segments is max_segments: accepted; hypotheses with 1001 is over it (references 1001 as well)
    one = {"hypotheses": [["a"]], "references": [[["a"]]]}
    assert accepted(tool, {k: v * 1000 for k, v in one.items()})["totals"][0] == 1000
    assert_rejected(tool, {k: v * 1001 for k, v in one.items()}, LIMIT_EXCEEDED, "hypotheses")
    assert_rejected(tool, {"hypotheses": [], "references": []}, INVALID_INPUT, "hypotheses")
    # references alone over or under (A7: also unequal counts; the oracle checks the schema first)
    assert_rejected(tool, {"hypotheses": [["a"]] * 1000, "references": [[["a"]]] * 1001}, LIMIT_EXCEEDED, "references")
    assert_rejected(tool, {"hypotheses": [["a"]], "references": []}, INVALID_INPUT, "references")


@pytest.mark.parametrize("tool", BLEU_TOOLS)
def test_eight_references_accepted(tool):
    # reference lengths 1..8 for a hypothesis of 5 tokens: matches are the 5 unigrams
    refs = [["a", "b", "c", "d", "e", "f", "g", "h"][:n] for n in range(1, 9)]
    assert accepted(tool, {"hypotheses": [["a", "b", "c", "d", "e"]], "references": [refs]})["matches"][0] == 5


@pytest.mark.parametrize("tool", BLEU_TOOLS)
@pytest.mark.parametrize("max_order", [1, 8, 4.0, 8.0])
def test_integral_float_is_an_integer(tool, max_order):
    output = accepted(tool, {**valid_payload(tool), "max_order": max_order})
    assert output["max_order"] == max_order and type(output["max_order"]) is int
    assert len(output["matches"]) == len(output["totals"]) == int(max_order)


# --- bleu-corpus-compute decimals, bleu-ngrams-count detail ------------------------------


@pytest.mark.parametrize("decimals", [-1, 16, True, False, 2.5, "6", None, math.nan, math.inf, [6]])
def test_decimals_out_of_range_or_not_integer(decimals):
    assert_rejected(CORPUS, {**valid_payload(CORPUS), "decimals": decimals}, INVALID_INPUT, "decimals")


@pytest.mark.parametrize("decimals", [0, 15, 6.0])
def test_decimals_bounds_accepted(decimals):
    # hypothesis a b, reference a b: bleu 1, bp 1 at any number of decimals
    output = accepted(CORPUS, {**valid_payload(CORPUS), "decimals": decimals, "max_order": 2})
    assert (output["bleu"], output["brevity_penalty"]) == (1, 1)


@pytest.mark.parametrize("detail", ["all", "Totals", "", 1, None, ["totals"]])
def test_detail_outside_the_enum(detail):
    assert_rejected(NGRAMS, {**valid_payload(NGRAMS), "detail": detail}, INVALID_INPUT, "detail")


# --- BLEU tools: semantic rules and limits -------------------------------------------


@pytest.mark.parametrize("tool", BLEU_TOOLS)
def test_unequal_segment_counts(tool):
    payload = {"hypotheses": [["a"], ["b"]], "references": [[["a"]]]}
    assert_rejected(tool, payload, INVALID_INPUT, "references")


@pytest.mark.parametrize("tool", BLEU_TOOLS)
def test_lone_surrogate_rejected_with_its_path(tool):
    # A3: the oracle rejects; targets are never sent one
    payload = {"hypotheses": [["a"], ["b"]], "references": [[["a"]], [["b"], ["\ud800x"]]]}
    assert_rejected(tool, payload, INVALID_INPUT, "references[1][1][0]")


@pytest.mark.parametrize("tool", BLEU_TOOLS)
@pytest.mark.parametrize(
    "token, size",
    [
        ("x" * 128, 128),
        ("\u00e9" * 64, 128),  # 64 x 2 bytes
        ("\u20ac" * 42 + "xx", 128),  # 42 x 3 + 2
        (GRINNING * 32, 128),  # 32 x 4
    ],
)
def test_token_of_128_bytes_accepted(tool, token, size):
    assert len(token.encode("utf-8")) == size
    assert accepted(tool, {"hypotheses": [[token]], "references": [[[token]]]})["matches"][0] == 1


@pytest.mark.parametrize("tool", BLEU_TOOLS)
@pytest.mark.parametrize(
    "token",
    [
        "\u00e9" * 64 + "x",  # 129 bytes, 65 code points
        GRINNING * 33,  # 132 bytes, 33 code points
        GRINNING * 128,  # 512 bytes in 128 code points: the schema's maxLength accepts it, max_token_bytes does not
    ],
)
def test_token_over_128_bytes_is_limit_exceeded(tool, token):
    payload = {"hypotheses": [["a"]], "references": [[["a"], ["b", token]]]}
    error = assert_rejected(tool, payload, LIMIT_EXCEEDED, "references[0][1][1]")
    assert "max_token_bytes" in error.message


def test_128_astral_code_points_pass_the_schema():
    # maxLength counts code points, not UTF-16 units or bytes: the schema alone accepts the token
    schema = oracle.load_contract(CORPUS, V)["input_schema"]
    jsonschema.Draft202012Validator(schema).validate({"hypotheses": [[GRINNING * 128]], "references": [[["a"]]]})
    assert validation.schema_accepts(
        oracle.contract(CORPUS, V), {"hypotheses": [[GRINNING * 128]], "references": [[["a"]]]}
    )


@pytest.mark.parametrize("tool", BLEU_TOOLS)
def test_max_total_tokens(tool):
    # 1000 segments: hypothesis 10 tokens + 4 references of 10 = 50,000 tokens, the limit: accepted by every reading
    segment_h, segment_r = [f"t{i}" for i in range(10)], [[f"t{i}" for i in range(10)]] * 4
    payload = {"hypotheses": [segment_h] * 1000, "references": [segment_r] * 1000}
    assert accepted(tool, payload)["matches"][0] == 10_000
    # hypotheses alone 1000 x 51 = 51,000 tokens: over the limit by every reading (A1)
    payload = {"hypotheses": [["x"] * 51] * 1000, "references": [[["x"]]] * 1000}
    error = assert_rejected(tool, payload, LIMIT_EXCEEDED, "input")
    assert "max_total_tokens" in error.message


@pytest.mark.parametrize("tool", BLEU_TOOLS)
def test_max_total_token_bytes(tool):
    # 4096 + 4096 tokens of 128 bytes = 1,048,576 bytes = max_total_token_bytes: accepted by every reading
    big = [f"{i:0128d}" for i in range(4096)]
    assert accepted(tool, {"hypotheses": [big], "references": [[big]]})["matches"][0] == 4096
    # the oracle's reading (A1: references count): one more byte is over
    error = assert_rejected(tool, {"hypotheses": [big], "references": [[big + ["z"]]]}, LIMIT_EXCEEDED, "input")
    assert "max_total_token_bytes" in error.message
    # hypotheses alone 8193 x 128 = 1,048,704 bytes: over by every reading
    error = assert_rejected(
        tool, {"hypotheses": [big * 2 + ["x" * 128]], "references": [[["a"]]]}, LIMIT_EXCEEDED, "input"
    )
    assert "max_total_token_bytes" in error.message


def ngrams_output_text(tokens: list[str]) -> str:
    """The compact JSON of detail "ngrams" for one segment of distinct tokens, max_order 1, no match: written out."""
    k = len(tokens)
    rows = ",".join(
        f'{{"segment":0,"order":1,"ngram":["{t}"],"count":1,"max_reference_count":0,"clipped_count":0}}' for t in tokens
    )
    return (
        f'{{"max_order":1,"matches":[0],"totals":[{k}],'
        f'"segments":[{{"segment":0,"candidate_length":{k},"matches":[0],"totals":[{k}]}}],'
        f'"ngrams":[{rows}]}}'
    )


def tokens_for_output_size(size: int) -> list[str]:
    """Distinct ASCII tokens whose ngrams_output_text is exactly ``size`` bytes."""
    tokens = [f"{i:0100d}" for i in range(5500)]  # every row the same length
    row = len(ngrams_output_text(tokens[:1])) - len(ngrams_output_text([]))
    excess = len(ngrams_output_text(tokens)) - size
    tokens = tokens[: len(tokens) - math.ceil(excess / (row + 1))]  # each row and its comma
    shortfall = size - len(ngrams_output_text(tokens))
    # a character more in a token is a byte more of output; tokens stay within 128 bytes
    for i in range(len(tokens)):
        extra = min(28, shortfall)
        tokens[i] += "y" * extra
        shortfall -= extra
    assert shortfall == 0
    return tokens


@pytest.mark.parametrize("size, over", [(1_000_000, False), (1_000_001, True)])
def test_output_limit_boundary(size, over):
    """A2: the oracle measures compact JSON without the envelope; 1,000,000 bytes is within the limit."""
    tokens = tokens_for_output_size(size)
    text = ngrams_output_text(tokens)
    assert len(text.encode("utf-8")) == size
    payload = {"hypotheses": [tokens], "references": [[["no-match"]]], "max_order": 1}
    if over:
        error = assert_rejected(NGRAMS, {**payload, "detail": "ngrams"}, LIMIT_EXCEEDED, "detail")
        assert "max_output_bytes" in error.message
    else:
        assert accepted(NGRAMS, {**payload, "detail": "ngrams"}) == json.loads(text)
    # the same input at a coarser detail is always answered
    assert accepted(NGRAMS, {**payload, "detail": "segments"})["totals"] == [len(tokens)]


# --- chrF++: schema rules, limits, semantic rules --------------------------------------

CHRF_VIOLATIONS = [
    ("hypotheses not an array", {"hypotheses": "a b"}, INVALID_INPUT, "hypotheses"),
    ("hypotheses empty", {"hypotheses": [], "references": []}, INVALID_INPUT, "hypotheses"),
    ("hypothesis not a string", {"hypotheses": [["a", "b"]]}, INVALID_INPUT, "hypotheses[0]"),
    ("hypothesis null", {"hypotheses": ["x", None], "references": ["x", "y"]}, INVALID_INPUT, "hypotheses[1]"),
    ("references not an array", {"references": "a c"}, INVALID_INPUT, "references"),
    ("reference not a string", {"references": [1]}, INVALID_INPUT, "references[0]"),
    ("unequal segment counts", {"references": ["a", "b"]}, INVALID_INPUT, "references"),
    ("lone surrogate", {"hypotheses": ["ok", "a\udc00"], "references": ["a", "b"]}, INVALID_INPUT, "hypotheses[1]"),
    ("beta 0", {"beta": 0}, INVALID_INPUT, "beta"),
    ("beta 17", {"beta": 17}, INVALID_INPUT, "beta"),
    ("beta true", {"beta": True}, INVALID_INPUT, "beta"),
    ("beta 1.5", {"beta": 1.5}, INVALID_INPUT, "beta"),
    ("beta '2'", {"beta": "2"}, INVALID_INPUT, "beta"),
    ("beta null", {"beta": None}, INVALID_INPUT, "beta"),
    ("beta NaN", {"beta": math.nan}, INVALID_INPUT, "beta"),
    ("beta inf", {"beta": math.inf}, INVALID_INPUT, "beta"),
    ("lowercase 1", {"lowercase": 1}, INVALID_INPUT, "lowercase"),
    ("lowercase 'true'", {"lowercase": "true"}, INVALID_INPUT, "lowercase"),
    ("lowercase null", {"lowercase": None}, INVALID_INPUT, "lowercase"),
]


@pytest.mark.parametrize("changes, code, path", [c[1:] for c in CHRF_VIOLATIONS], ids=[c[0] for c in CHRF_VIOLATIONS])
def test_chrf_rule_rejected(changes, code, path):
    assert_rejected(CHRF, {**valid_payload(CHRF), **changes}, code, path)


def test_chrf_segment_count_bounds():
    assert accepted(CHRF, {"hypotheses": ["a"] * 256, "references": ["a"] * 256})["segment_count"] == 256
    # A6: maxItems mirrors max_segments; the oracle says limit_exceeded
    assert_rejected(CHRF, {"hypotheses": ["a"] * 257, "references": ["a"] * 257}, LIMIT_EXCEEDED, "hypotheses")
    assert_rejected(CHRF, {"hypotheses": ["a"], "references": ["a"] * 257}, LIMIT_EXCEEDED, "references")
    assert_rejected(CHRF, {"hypotheses": ["a"], "references": []}, INVALID_INPUT, "references")


def test_chrf_text_bytes_boundary():
    # 8192 x "\u20ac" = 24,576 bytes, hypothesis + reference 49,152; + 16,384 ASCII = 65,536: the limit
    euro, ascii_part = "\u20ac" * 8192, "x" * 16_384
    payload = {"hypotheses": [euro, ascii_part], "references": [euro, ""]}
    assert sum(len(t.encode("utf-8")) for t in payload["hypotheses"] + payload["references"]) == 65_536
    assert accepted(CHRF, payload)["segment_count"] == 2
    over = {"hypotheses": [euro, ascii_part], "references": [euro, "y"]}
    error = assert_rejected(CHRF, over, LIMIT_EXCEEDED, "input")
    assert "65537" in error.message and "max_text_bytes" in error.message


@pytest.mark.parametrize("beta", [1, 16, 2.0])
def test_chrf_beta_bounds_and_integral_float(beta):
    output = accepted(CHRF, {**valid_payload(CHRF), "beta": beta})
    assert output["beta"] == beta and type(output["beta"]) is int


# "Validation order: plain object, unknown keys, missing keys, hypotheses then references (array,
# at most 256 segments, at least one, strings), equal segment counts, total UTF-8 bytes of all texts
# at most 65536, lone surrogates, beta, lowercase." Each input breaks two rules; the earlier one wins.
CHRF_ORDER = [
    ("unknown key before missing key", {"references": ["a"], "extra": 1}, INVALID_INPUT, "extra"),
    ("missing key before hypotheses", {"hypotheses": "a"}, INVALID_INPUT, "references"),
    ("hypotheses before references", {"hypotheses": [1], "references": [2]}, INVALID_INPUT, "hypotheses[0]"),
    ("hypotheses array before references", {"hypotheses": "x", "references": []}, INVALID_INPUT, "hypotheses"),
    ("at most 256 before strings", {"hypotheses": [1] * 257, "references": ["a"] * 257}, LIMIT_EXCEEDED, "hypotheses"),
    (
        "references strings before equal counts",
        {"hypotheses": ["a", "b"], "references": [None]},
        INVALID_INPUT,
        "references[0]",
    ),
    (
        "references at most 256 before equal counts",
        {"hypotheses": ["a"], "references": ["a"] * 257},
        LIMIT_EXCEEDED,
        "references",
    ),
    (
        "equal counts before text bytes",
        {"hypotheses": ["x" * 40_000], "references": ["y" * 30_000, "z"]},
        INVALID_INPUT,
        "references",
    ),
    (
        "text bytes before lone surrogates",
        {"hypotheses": ["x" * 70_000], "references": ["\ud800"]},
        LIMIT_EXCEEDED,
        "input",
    ),
    ("text bytes before beta", {"hypotheses": ["x" * 70_000], "references": ["y"], "beta": 0}, LIMIT_EXCEEDED, "input"),
    (
        "lone surrogates before beta",
        {"hypotheses": ["a"], "references": ["\udfff"], "beta": 0},
        INVALID_INPUT,
        "references[0]",
    ),
    (
        "beta before lowercase",
        {"hypotheses": ["a"], "references": ["a"], "beta": 99, "lowercase": "no"},
        INVALID_INPUT,
        "beta",
    ),
    ("hypotheses before beta", {"hypotheses": [], "references": ["a"], "beta": 0}, INVALID_INPUT, "hypotheses"),
    (
        "equal counts before lowercase",
        {"hypotheses": ["a"], "references": ["a", "b"], "lowercase": 0},
        INVALID_INPUT,
        "references",
    ),
]


@pytest.mark.parametrize("payload, code, path", [c[1:] for c in CHRF_ORDER], ids=[c[0] for c in CHRF_ORDER])
def test_chrf_validation_order(payload, code, path):
    assert_rejected(CHRF, payload, code, path)


def test_chrf_not_an_object_comes_first():
    assert_rejected(CHRF, [{"unknown": 1}], INVALID_INPUT, "input")


# --- inputs are never mutated --------------------------------------------------------

UNMUTATED = [
    (
        NGRAMS,
        {
            "hypotheses": [["the", "the", "cat"]],
            "references": [[["the", "cat"], ["cat"]]],
            "max_order": 2.0,
            "detail": "ngrams",
        },
    ),
    (CORPUS, {"hypotheses": [["a", "b"], []], "references": [[["b", "a"]], [["c"]]], "decimals": 3}),
    (
        CHRF,
        {
            "hypotheses": ["\u039f\u0394\u039f\u03a3 A.", "x"],
            "references": ["o\u03b4o\u03c2 a .", "y"],
            "lowercase": True,
            "beta": 3.0,
        },
    ),
    (CHRF, {"hypotheses": ["a", "\ud800"], "references": ["a", "b"]}),  # rejected: still untouched
]


@pytest.mark.parametrize("tool, payload", UNMUTATED)
def test_input_is_never_mutated(tool, payload):
    before = copy.deepcopy(payload)
    try:
        oracle.execute(tool, V, payload)
    except ContractError:
        pass
    assert payload == before
    assert [type(v) for v in payload.values()] == [type(v) for v in before.values()]


# --- fastjsonschema (the fast accept path) agrees with jsonschema 2020-12 ----------------

EDGE_VALUES = [
    None,
    True,
    False,
    0,
    1,
    4,
    4.0,
    8,
    8.0,
    9,
    16,
    17,
    -1,
    1.5,
    2.0,
    10**20,
    1e20,
    "",
    "a",
    "4",
    "x" * 128,
    "x" * 129,
    GRINNING * 128,
    GRINNING * 129,
    "a\u0301",
    [],
    [[]],
    [""],
    [[""]],
    {},
    {"a": 1},
    "totals",
    "segments",
    "ngrams",
    "Totals",
]
json_leaves = st.one_of(
    st.sampled_from(EDGE_VALUES),
    st.none(),
    st.booleans(),
    st.integers(-5, 300),
    st.floats(-5, 300, allow_nan=False),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=3),
)
json_values = st.recursive(
    json_leaves,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "beta", "detail"]), inner, max_size=2)
    ),
    max_leaves=8,
)
tokens = st.sampled_from(["a", "b", "c d", GRINNING, "x" * 128, GRINNING * 32])
bleu_payloads = st.fixed_dictionaries(
    {
        "hypotheses": st.lists(st.lists(tokens, max_size=3), min_size=1, max_size=3),
        "references": st.lists(st.lists(st.lists(tokens, max_size=3), min_size=1, max_size=3), min_size=1, max_size=3),
    },
    optional={
        "max_order": st.integers(1, 8),
        "decimals": st.integers(0, 15),
        "detail": st.sampled_from(["totals", "segments", "ngrams"]),
    },
)
chrf_payloads = st.fixed_dictionaries(
    {
        "hypotheses": st.lists(st.text(max_size=4), min_size=1, max_size=3),
        "references": st.lists(st.text(max_size=4), min_size=1, max_size=3),
    },
    optional={"beta": st.integers(1, 16), "lowercase": st.booleans()},
)


def locations(value, path=()):
    """Every place in a nested JSON value: (path, value) pairs, the root included."""
    yield path, value
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from locations(item, (*path, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from locations(item, (*path, key))


def replaced(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, list):
        return [replaced(v, rest, new) if i == head else v for i, v in enumerate(value)]
    return {k: (replaced(v, rest, new) if k == head else v) for k, v in value.items()}


@st.composite
def near_schema_payloads(draw, tool):
    """A valid payload with a few small mutations: a value replaced, a key dropped or added."""
    payload = draw(chrf_payloads if tool == CHRF else bleu_payloads)
    if tool == NGRAMS:
        payload.pop("decimals", None)
    elif tool == CORPUS:
        payload.pop("detail", None)
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from(["replace", "replace", "drop", "add"]))
        if kind == "drop" and payload:
            payload.pop(draw(st.sampled_from(sorted(payload))))
        elif kind == "add":
            payload[draw(st.sampled_from(["extra", "max_order", "beta", "detail", "decimals", "lowercase"]))] = draw(
                json_values
            )
        else:
            path, _ = draw(st.sampled_from(list(locations(payload))[1:] or [((), payload)]))
            payload = replaced(payload, path, draw(json_values))
    return payload


@pytest.mark.parametrize("tool", ALL_TOOLS)
@settings(settings.get_profile(TESTS_VALIDATION))
@given(data=st.data())
def test_fast_schema_check_agrees_with_jsonschema(tool, data):
    payload = data.draw(near_schema_payloads(tool))
    schema = oracle.load_contract(tool, V)["input_schema"]
    reference_validator = jsonschema.Draft202012Validator(schema)
    valid = reference_validator.is_valid(payload)
    if isinstance(payload, dict):
        assert validation.schema_accepts(oracle.contract(tool, V), payload) == valid
    if not valid:
        # the oracle rejects, naming a place the reference validator also names (the BLEU tools
        # check the schema before their semantic rules)
        error = rejection(tool, payload)
        named = {validation.format_path(e.absolute_path) for e in reference_validator.iter_errors(payload)}
        named |= {f"{p}" for e in reference_validator.iter_errors(payload) for p in _keys_named_by(e)}
        if tool == CHRF:
            # chrF's stated order puts equal segment counts and text bytes before beta and lowercase
            named |= {"references", "input"}
        assert error.message.split(": ", 1)[0] in named, (error.message, named)


def _keys_named_by(error: jsonschema.ValidationError):
    """Keys an additionalProperties / required error is about (the oracle names the key itself)."""
    if error.validator == "required":
        yield from (k for k in error.validator_value if k not in error.instance)
    elif error.validator == "additionalProperties":
        yield from (k for k in error.instance if k not in error.schema.get("properties", {}))

"""The oracle's JavaScript behaviours, checked against JavaScript itself.

The contracts name ``Number.prototype.toFixed`` (bleu-corpus-compute ``decimals``)
and ``String.prototype.toLowerCase`` (chrf-plus-plus-compute ``lowercase``). When
``node`` is on PATH these tests run it on many values and compare exactly; the
committed lowercase difference table (open point A5) is checked for consistency
with Python always, and with Node when its Unicode version is the table's.
"""

from __future__ import annotations

import importlib.util
import json
import math
import random
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

import oracle
from oracle import chrf
from oracle.jsnumber import round_to_fixed, to_fixed

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"
TABLE_PATH = ROOT / "oracle" / "data" / "lowercase_unicode_differences.json"
GRINNING_FACE = "\U0001f600"  # astral: 4 UTF-8 bytes, 2 UTF-16 units
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH: JavaScript not consulted")


def node(script: str, stdin: str = "") -> object:
    completed = subprocess.run(
        ["node", str(TOOLS / script)], input=stdin, capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(completed.stdout)


def load_tool(name: str):
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- toFixed ------------------------------------------------------------------------

# (x, digits, x.toFixed(digits)) worked out from ECMA-262 21.1.3.3 on the exact binary value:
KNOWN_TO_FIXED = [
    (0.125, 2, "0.13"),  # 0.125 is exact in binary: a tie, the larger n (Python's round gives 0.12)
    (0.375, 2, "0.38"),  # exact tie
    (0.5, 0, "1"),  # exact tie
    (2.5, 0, "3"),  # exact tie (round-half-even would give 2)
    (1.005, 2, "1.00"),  # really 1.00499999999999989341858963598497211933135986328125
    (2.675, 2, "2.67"),  # really 2.67499999999999982236431605997495353221893310546875
    (1.45, 1, "1.4"),  # really 1.4499999999999999555910790149937383830547332763671875
    (0.485308, 6, "0.485308"),
    (0.0, 3, "0.000"),
    (-0.0, 2, "0.00"),  # -0 prints without a sign
    (-0.001, 2, "-0.00"),  # x < 0: "-" and (-x).toFixed
    (1.0, 15, "1.000000000000000"),
    (5e-324, 15, "0.000000000000000"),
    (1e20, 15, "100000000000000000000.000000000000000"),  # 36 digits: more than Decimal's default 28
]


@pytest.mark.parametrize("x, digits, expected", KNOWN_TO_FIXED)
def test_to_fixed_known_values(x, digits, expected):
    assert to_fixed(x, digits) == expected
    assert round_to_fixed(x, digits) == float(expected)


def to_fixed_cases() -> list[tuple[float, int]]:
    rng = random.Random(20240615)
    values = [rng.random() for _ in range(400)]
    values += [k / 2**m for m in range(1, 11) for k in range(1, 2**m, 2)][:600]  # exact binary fractions: ties
    values += [1.005, 2.675, 1.45, 8.345, 0.285, 1.0049999999999999, 0.615, 10.235, 1e-7, 5e-324, 1 - 2**-53, 1.0]
    ties = [0.125, 0.375, 0.5, 0.0625, 0.03125]
    values += [math.nextafter(t, direction) for t in ties for direction in (0, 1)]  # one ulp either side
    values += [123.456, 1e15 + 0.5, 2**53 - 1, 1e20, 0.1, 0.7]
    values += [-v for v in values[:50]]
    return [(v, d) for v in values for d in range(16)] + [(v, d) for v in values[:40] for d in (20, 30, 50, 100)]


@needs_node
def test_to_fixed_equals_javascript():
    cases = to_fixed_cases()
    expected = node("js_to_fixed.mjs", json.dumps(cases))
    mismatches = [(x, d, to_fixed(x, d), js) for (x, d), js in zip(cases, expected) if to_fixed(x, d) != js]
    assert not mismatches, mismatches[:10]
    assert len(expected) == len(cases) > 10_000


# --- toLowerCase ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def table() -> dict:
    return json.loads(TABLE_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def generator():
    return load_tool("lowercase_differences")


def code_point(u_plus: str) -> int:
    return int(u_plus.removeprefix("U+"), 16)


def test_oracle_states_the_unicode_version_it_lowercases_with(table):
    assert chrf.UNICODE_VERSION == unicodedata.unidata_version
    if table["unicode_versions"]["python"] != unicodedata.unidata_version:
        pytest.skip("the table was generated with another Python Unicode version: regenerate it")


def chrf_lowercased_tokens(text: str) -> list[str]:
    out = oracle.execute(
        "chrf-plus-plus-compute", "1.0.0", {"hypotheses": [text], "references": ["x"], "lowercase": True}
    )
    return out["word_tokens"][0]["hypothesis"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("\u039f\u0394\u039f\u03a3", "\u03bf\u03b4\u03bf\u03c2"),  # ΟΔΟΣ -> οδος: Final_Sigma
        ("\u03a3", "\u03c3"),  # a lone capital sigma is not final
        ("\u0130", "i\u0307"),  # İ -> i + combining dot above: two code points
        ("ABC\u00c9", "abc\u00e9"),
        ("\U00010400", "\U00010428"),  # Deseret: astral
    ],
)
def test_oracle_lowercases_with_the_default_case_mapping(text, expected):
    assert chrf_lowercased_tokens(text) == [expected]


def test_oracle_uses_pythons_unicode_version_where_javascript_differs(table):
    # The table lists code points whose lowercase differs; the oracle gives Python's (the "X" probe).
    changed = [d for d in table["differences"] if "X" in d["differing_probes"]]
    assert changed, "Unicode 14 vs a newer JavaScript: some capital letters are new"
    for difference in changed[:20]:
        ch = chr(code_point(difference["code_point"]))
        assert chrf_lowercased_tokens("a" + ch) == [("a" + ch).lower()]
        assert ch.lower() == difference["python"]["X"] != difference["javascript"]["X"]


def test_table_is_consistent_with_python(table, generator):
    if table["unicode_versions"]["python"] != unicodedata.unidata_version:
        pytest.skip("the table was generated with another Python Unicode version")
    listed = [code_point(d["code_point"]) for d in table["differences"]]
    assert [code_point(c) for c in table["code_points"]] == listed == sorted(set(listed))
    for difference in table["differences"]:
        cp = code_point(difference["code_point"])
        python = dict(zip(generator.PROBE_NAMES, generator.python_probes(cp)))
        assert difference["python"] == python
        differing = [name for name in generator.PROBE_NAMES if python[name] != difference["javascript"][name]]
        assert difference["differing_probes"] == differing != []
    for example in table["final_sigma_examples"]:
        assert example["python"] == example["text"].lower() == example["javascript"]
    # code points assigned only in the JavaScript version are unassigned here
    for first, last in table["assigned_in_javascript_only"]:
        for cp in range(code_point(first), code_point(last) + 1):
            assert unicodedata.category(chr(cp)) == "Cn"


def test_table_is_readable_by_its_consumers(table):
    """Every difference is named by a "U+XXXX" string; no probe text could be misread as one."""
    hex_like = [
        text
        for d in table["differences"]
        for side in ("python", "javascript")
        for text in d[side].values()
        if all(c in "0123456789abcdefABCDEF" for c in text)
    ]
    assert not hex_like


@needs_node
def test_table_matches_this_javascript_runtime(table, generator):
    probes = node("js_lowercase_table.mjs")
    if probes["unicode"] != table["unicode_versions"]["javascript"]:
        pytest.skip(f"node has Unicode {probes['unicode']}, the table {table['unicode_versions']['javascript']}")
    for difference in table["differences"]:
        cp = code_point(difference["code_point"])
        javascript = probes["entries"].get(str(cp)) or generator.caseless_probes(cp)
        assert dict(zip(generator.PROBE_NAMES, javascript)) == difference["javascript"]
    # Final_Sigma on whole strings: this runtime agrees with Python and with the table
    texts = [example["text"] for example in table["final_sigma_examples"]]
    assert json.loads(generator.run_node_inline_lowercase(texts)) == [text.lower() for text in texts]


@pytest.mark.slow
@needs_node
def test_table_is_up_to_date(table, generator):
    probes = node("js_lowercase_table.mjs")
    if probes["unicode"] != table["unicode_versions"]["javascript"]:
        pytest.skip("node's Unicode version is not the table's")
    fresh = generator.build_table(probes)
    fresh["unicode_versions"]["javascript_runtime"] = table["unicode_versions"]["javascript_runtime"]
    assert fresh == table


# --- the output size of bleu-ngrams-count -------------------------------------------------


@needs_node
def test_output_size_is_json_stringify_bytes():
    """A2: the oracle measures JSON.stringify's compact form in UTF-8; check it on awkward tokens."""
    from oracle.validation import output_size

    awkward = [
        "a",
        'q"uote',
        "back\\slash",
        "tab\there",
        "nl\n",
        "\x00\x1f\x7f",
        "\u0085\u2028\u2029",
        "\u00e9",
        "\u20ac",
        GRINNING_FACE,
        "a b",
        "</script>",
    ]
    outputs = []
    for i in range(len(awkward)):
        tokens = awkward[i:] + awkward[:i]
        payload = {"hypotheses": [tokens], "references": [[tokens[::-1]]], "detail": "ngrams"}
        outputs.append(oracle.execute("bleu-ngrams-count", "1.0.0", payload))
    assert node("js_json_size.mjs", json.dumps(outputs)) == [output_size(o) for o in outputs]

"""Proof that chrF++'s whitespace and punctuation sets are exactly the contract's.

The contract lists its whitespace code points in a semantics line; this test reads
that list out of the contract text itself, then checks the oracle's set against it
and the oracle's removal and splitting against it over every code point. It also
shows why neither Python's nor JavaScript's notion of whitespace may be borrowed
blindly: they happen to agree with the list (Python) or differ from it (JavaScript).
"""

from __future__ import annotations

import json
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest

import oracle
from oracle import chrf

TOOL = ("chrf-plus-plus-compute", "1.0.0")
ALL_CODE_POINTS = range(0x110000)
# every code point but the surrogates (a text with a lone one is rejected before tokenization)
ALL_CHARACTERS = [chr(cp) for cp in ALL_CODE_POINTS if not 0xD800 <= cp <= 0xDFFF]
JS_WHITESPACE_SCRIPT = Path(__file__).resolve().parents[1] / "tools" / "js_whitespace.mjs"


def semantics_line(marker: str) -> str:
    (line,) = [s for s in oracle.load_contract(*TOOL)["semantics"] if marker in s]
    return line


def contract_whitespace() -> set[int]:
    """The code points of "every whitespace code point removed: U+0009-U+000D, ...", parsed from the contract."""
    line = semantics_line("whitespace code point removed")
    listed = line[line.index(":") + 1 : line.index(". No Unicode normalization")]
    code_points: set[int] = set()
    for first, last in re.findall(r"U\+([0-9A-F]{4,6})(?:-U\+([0-9A-F]{4,6}))?", listed):
        code_points.update(range(int(first, 16), int(last or first, 16) + 1))
    return code_points


def test_the_parsed_list_is_the_one_the_contract_prints():
    # U+0009-U+000D 5, U+001C-U+001F 4, U+0020, U+0085, U+00A0, U+1680 4, U+2000-U+200A 11,
    # U+2028, U+2029, U+202F, U+205F, U+3000 5: 29 code points, counted from the line by hand
    parsed = contract_whitespace()
    assert len(parsed) == 29
    assert {0x0009, 0x000D, 0x001C, 0x001F, 0x0085, 0x2000, 0x200A, 0x3000} <= parsed
    assert not {0x0008, 0x000E, 0x001B, 0x0021, 0x200B, 0xFEFF, 0x180E} & parsed


def test_oracle_whitespace_set_equals_the_contract_list():
    assert set(chrf.WHITESPACE_CODE_POINTS) == contract_whitespace()
    assert chrf.WHITESPACE == frozenset(map(chr, contract_whitespace()))


def test_removal_and_splitting_act_on_exactly_the_listed_code_points():
    whitespace = {chr(cp) for cp in contract_whitespace()}
    # every code point once, each between two letters, so no word starts or ends with a mark
    text = "xx" + "xx".join(ALL_CHARACTERS) + "xx"
    without = chrf.remove_whitespace(text)
    assert len(text) - len(without) == len(whitespace)  # each code point occurs once in text
    assert set(text) - set(without) == whitespace
    tokens = chrf.word_tokens(text)
    assert "".join(tokens) == without  # the words are the pieces between listed code points
    assert len(tokens) == len(whitespace) + 1


def test_python_isspace_happens_to_equal_the_list():
    assert {ord(ch) for ch in ALL_CHARACTERS if ch.isspace()} == contract_whitespace()


def test_javascript_whitespace_is_not_the_list():
    # Written out from ECMA-262 WhiteSpace + LineTerminator: it adds U+FEFF and lacks
    # U+001C-U+001F and U+0085, which the contract lists.
    whitespace = contract_whitespace()
    assert 0xFEFF not in whitespace
    assert {0x001C, 0x001D, 0x001E, 0x001F, 0x0085} <= whitespace
    if shutil.which("node") is None:
        pytest.skip("node is not on PATH: JavaScript's \\s not measured")
    js_whitespace = set(
        json.loads(
            subprocess.run(
                ["node", str(JS_WHITESPACE_SCRIPT)], capture_output=True, text=True, check=True, timeout=120
            ).stdout
        )
    )
    assert js_whitespace - whitespace == {0xFEFF}
    assert whitespace - js_whitespace == {0x001C, 0x001D, 0x001E, 0x001F, 0x0085}


def contract_punctuation() -> str:
    """The 32 marks of "one of the 32 ASCII punctuation characters !"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"."""
    line = semantics_line("32 ASCII punctuation characters")
    return line.split("32 ASCII punctuation characters ", 1)[1].split(" ", 1)[0]


def test_punctuation_is_the_32_ascii_marks():
    assert contract_punctuation() == string.punctuation
    assert len(string.punctuation) == 32
    assert chrf.PUNCTUATION == frozenset(string.punctuation)


def marks_split_off(make_word) -> set[str]:
    """Which code points X are split off the word make_word(X), over every non-whitespace X."""
    candidates = [ch for ch in ALL_CHARACTERS if ord(ch) not in chrf.WHITESPACE_CODE_POINTS]
    tokens = chrf.word_tokens(" ".join(make_word(ch) for ch in candidates))
    return {token for token in tokens if len(token) == 1}


def test_only_the_listed_marks_split_off():
    assert marks_split_off(lambda x: "ab" + x) == set(string.punctuation)
    assert marks_split_off(lambda x: x + "ab") == set(string.punctuation)
    # U+3002 and U+00BF are named in unsupported_operations: never split
    assert chrf.word_tokens("ab\u3002") == ["ab\u3002"]
    assert chrf.word_tokens("\u00bfab") == ["\u00bfab"]


def test_chrf_ignores_exactly_the_listed_whitespace_in_scores():
    # A hypothesis differing from its reference only by one listed whitespace code point in
    # the middle of a word scores 100 on the character orders but splits the word; with an
    # unlisted code point (U+FEFF, JavaScript's \s) the character n-grams change instead.
    for cp in sorted(contract_whitespace()):
        out = oracle.execute(*TOOL, {"hypotheses": ["ab" + chr(cp) + "cd"], "references": ["ab cd"]})
        assert out["score"] == "100.000000", hex(cp)
    out = oracle.execute(*TOOL, {"hypotheses": ["ab\ufeffcd"], "references": ["ab cd"]})
    assert out["score"] != "100.000000"
    assert out["word_tokens"][0]["hypothesis"] == ["ab\ufeffcd"]

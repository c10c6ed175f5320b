"""Tokens named like JavaScript's inherited object properties are fixture tokens of every tool with tokens.

An implementation that counts n-grams in a plain JavaScript object (npm bleu-score does)
reads an inherited function for ``constructor`` or ``toString`` and loses writes to
``__proto__``. Every BLEU tool whose input holds tokens, and the chrF tools whose word
tokens (or long character n-grams) can spell them, has a fixture topic
``javascript-property-names`` using each of the five names; the faulty implementation
tests/mutants/bleu_javascript_object_counts.py is caught by it on bleu-corpus-compute,
where no fixture held these names before. (bleu-brevity-penalty takes lengths only;
chrf-compute has character n-grams of at most 6 code points, shorter than every name.)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conformance import compare
from conformance.fixtures import load_cases
from conformance.targets.inprocess import InProcessTarget

TESTS_DIR = Path(__file__).resolve().parent
TOPIC = "javascript-property-names"
NAMES = {"__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"}
TOOLS_WITH_TOKENS = [
    "bleu-ngrams-count",
    "bleu-corpus-compute",
    "bleu-sentence-components",
    "bleu-sentence-compute",
    "chrf-components",
    "chrf-plus-plus-compute",
]


def topic_cases(tool_id: str):
    return [case for case in load_cases(None) if case.tool_id == tool_id and f"/{TOPIC}#" in case.case_id]


def strings_in(value) -> set[str]:
    text = json.dumps(value)
    return {name for name in NAMES if name in text}


@pytest.mark.parametrize("tool_id", TOOLS_WITH_TOKENS)
def test_every_tool_with_tokens_has_the_five_names_as_fixture_tokens(tool_id):
    cases = topic_cases(tool_id)
    assert cases, f"fixtures/{tool_id}/1.0.0/{TOPIC}.json is missing"
    assert set().union(*(strings_in(case.input) for case in cases)) == NAMES


def load_mutant():
    sys.path.insert(0, str(TESTS_DIR))
    try:
        import mutants

        return mutants.load("bleu_javascript_object_counts")
    finally:
        sys.path.remove(str(TESTS_DIR))


def test_the_plain_object_counter_fails_every_bleu_corpus_compute_case_of_the_topic():
    target = InProcessTarget("python:mutants.bleu_javascript_object_counts", load_mutant().execute)
    cases = topic_cases("bleu-corpus-compute")
    verdicts = {
        case.case_id: compare.check(case, target.call(case.tool_id, case.version, case.input)) for case in cases
    }
    assert {verdict.outcome for verdict in verdicts.values()} == {"failed"}, verdicts
    # the names read as inherited properties, so the counts turned into NaN: a schema violation at matches
    assert all(verdict.mismatch.pointer.startswith("/matches") for verdict in verdicts.values())

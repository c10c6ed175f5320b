"""Every faulty implementation names its class of bug (``CLASS``), one of the classes the catch
rate is given for (benchmarks/bench_classes.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

import mutants  # noqa: E402

# What a bug breaks; integer-width to precision-rounding are the representation boundaries of issue 14,
# limit-form a limit measured on another form than the contract's (escaped, lowercased, UTF-16, distinct, per item).
CLASSES = {
    "semantics",
    "unicode",
    "rounding",
    "output-shape",
    "validation",
    "over-rejection",
    "integer-width",
    "derived-key",
    "plain-object-map",
    "in-key-check",
    "precision-rounding",
    "limit-form",
    # answers right one at a time, wrong together (strategies/relations.py)
    "caching",
    "state",
    "concurrency",
    "relation",
}


@pytest.mark.parametrize("name", mutants.names())
def test_mutant_names_its_class(name):
    assert mutants.bug_class(mutants.load(name)) in CLASSES, f"{name}: CLASS must be one of {sorted(CLASSES)}"

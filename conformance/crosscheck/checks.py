"""Every check of every tool's adapter, and how one is evaluated on an input."""

from __future__ import annotations

import oracle
from conformance.crosscheck.adapters import checks
from conformance.crosscheck.comparison import Comparison
from conformance.crosscheck.model import Check

CHECKS: list[Check] = list(checks())
CHECKS_BY_ID = {check.id: check for check in CHECKS}
LIBRARIES = ("sacrebleu", "nltk", "fastchrf", "fast-bleu", "torchmetrics", "npm-bleu-score")
REQUIRED = ("sacrebleu", "nltk")  # the crosscheck extra; the others are checked where installed (the matrix extra)
MODULES = {"fast-bleu": ("fast_bleu",), "torchmetrics": ("torchmetrics", "torch")}  # what each needs to import
OTHER_RUNTIMES = ("npm-bleu-score",)  # not Python: the library's implementation module says what is missing


def installed(library: str) -> bool:
    import importlib.util

    if library in OTHER_RUNTIMES:
        from conformance.implementations import library as implementation

        return not implementation(library).missing()
    return all(importlib.util.find_spec(module) is not None for module in MODULES.get(library, (library,)))


def oracle_output(check: Check, payload: dict) -> dict:
    return oracle.execute(check.tool_id, check.version, payload)


def compare_safely(check: Check, payload: dict, expected: dict) -> Comparison:
    """The check's comparison; a library that raises on a valid input disagrees (with nothing to excuse it)."""
    try:
        return check.compare(payload, expected)
    except Exception as exc:  # any library failure is reported, never crashes the run
        comparison = Comparison()
        comparison.exact("raised", None, f"{type(exc).__name__}: {exc}")
        return comparison


def evaluate(check: Check, payload: dict) -> Comparison:
    return compare_safely(check, payload, oracle_output(check, payload))

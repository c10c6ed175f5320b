"""A failure's signature: what makes two failing cases the same cause.

A generated property keeps generating after its first failure until it has seen a few distinct
signatures, and the reports group failures by signature (and by the catalogued divergence that
explains them: reports.groups). The signature is (tool, the class of the JSON pointer of the
first telling difference with array indices replaced by ``*``, the kind of difference, the
contract clause it breaks). It is cheap: naming a divergence may call the library, so only
the reports do it.

    explain(result) -> Cause               kind, pointer class, clause (compare.clause), divergence; where the
                                           answer shows its cause beyond the first difference (a chrF++
                                           answer's word tokens, its exact score), the cause it shows
                                           (compare.answer_causes)
    failure_signature(result) -> tuple     the signature of a failed or errored case

``result`` is a CaseResult or its report.json form (a dict): the reports group the results of
report.json, the session the results it holds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from conformance.compare.answer_causes import AnswerCause, answer_cause
from conformance.compare.clause import (
    Clause,
    fixture_clause,
    output_clause,
    pointer_class,
    rejection_clause,
    schema_clause,
    semantics_line,
    unattributed,
)
from conformance.compare.diff import is_number
from conformance.compare.floats import FIXED_BY_CONTRACT, on_decimal_grid
from conformance.compare.library_floats import on_percent_scale
from conformance.compare.schema import SCHEMA_VIOLATION
from conformance.model import CaseResult

__all__ = ["Cause", "explain", "failure_kind", "failure_signature", "pointer_class"]

MALFORMED_REJECTION = "rejection without an error body"
SERVER_ERROR_ON_VALID, SERVER_ERROR_ON_INVALID = "server error on a valid input", "server error on an invalid input"


@dataclass(frozen=True)
class Cause:
    tool_id: str
    pointer_class: str
    kind: str
    clause: Clause
    divergence: Any  # conformance.crosscheck.model.Divergence | None

    @property
    def signature(self) -> tuple[str, ...]:
        """A mechanism the answer shows is one cause wherever it shows first (its key names it): no pointer class."""
        where = "" if self.clause.mechanism else self.pointer_class
        return (self.tool_id, where, self.kind, self.clause.key)


def _as_dict(result: CaseResult | dict) -> dict:
    return result.to_dict() if isinstance(result, CaseResult) else result


def failure_kind(result: CaseResult | dict) -> str:
    """What went wrong, in a few words: the second half of a group's title."""
    entry = _as_dict(result)
    case, response, mismatch = entry["case"], entry["response"] or {}, entry["mismatch"] or {}
    rejection_expected = case["expect"]["kind"] == "error"
    if response.get("kind") == "server_error":
        return SERVER_ERROR_ON_INVALID if rejection_expected else SERVER_ERROR_ON_VALID
    if entry["outcome"] == "errored" or response.get("kind") == "transport_error":
        return "transport error"
    if response.get("kind") == "malformed_rejection":
        return MALFORMED_REJECTION
    if rejection_expected:
        if response.get("kind") == "result":
            return "answered an invalid input"
        return "wrong error code" if mismatch.get("pointer") == "/error/code" else "other"
    if response.get("kind") == "rejection":
        return f"refused by {response['refused_by']}" if response.get("refused_by") else "rejected a valid input"
    message = str(mismatch.get("message", ""))
    if message.startswith(SCHEMA_VIOLATION):
        return "violates the output_schema"
    for start, kind in (
        ("missing key", "missing key"),
        ("unexpected key", "unexpected key"),
        ("expected an ", "wrong type"),
    ):
        if message.startswith(start):
            return kind
    if " items, got " in message:
        return "wrong length"
    return "wrong value" if mismatch else "other"


def explain(result: CaseResult | dict, divergence: bool = True, implementation: str = "") -> Cause:
    """The cause of a failed or errored case: its kind, where, the clause it breaks, and (unless
    ``divergence`` is false) the catalogued divergence explaining it (``implementation``: the library the
    target is, whose own entry is preferred)."""
    import oracle

    entry = _as_dict(result)
    case, mismatch = entry["case"], entry["mismatch"]
    tool = oracle.tool(case["tool_id"], case["version"])
    kind = failure_kind(entry)
    pointer = mismatch["pointer"] if mismatch else ""
    where = pointer_class(pointer)
    try:
        shown = _answer_cause(tool, entry, kind, pointer)
        if shown is not None:  # the answer shows more than its first difference: one cause wherever it shows
            kind, where = "wrong value", shown.pointer_class
            clause = semantics_line(tool, shown.line, shown.mechanism)
        else:
            clause = _clause(tool, entry, kind, pointer)
    except (RecursionError, ArithmeticError, LookupError, TypeError, ValueError) as exc:  # a pathological input
        clause = unattributed(tool, f"the suite could not attribute it ({type(exc).__name__})")
    found = (
        _divergence(case, pointer, entry["response"], kind, implementation)
        if divergence and kind in DIVERGING_KINDS
        else _crash(case, entry["response"], implementation)
        if divergence and kind == SERVER_ERROR_ON_VALID
        else None
    )
    return Cause(case["tool_id"], where, kind, clause, found)


def _answer_cause(tool, entry: dict, kind: str, pointer: str) -> AnswerCause | None:
    """What a schema-valid answer to a valid input shows of its cause beyond its first difference."""
    if kind not in ("wrong value", "wrong length") or entry["case"]["expect"]["kind"] != "output":
        return None
    response = entry["response"] or {}
    if response.get("kind") != "result" or response.get("expressed"):  # a partial answer: only its own fields
        return None
    return answer_cause(tool, entry["case"]["input"], response.get("result"), pointer)


# the kinds of failure a library's own answer can show: a value, or a value outside the output_schema
DIVERGING_KINDS = ("wrong value", "violates the output_schema")


def _clause(tool, entry: dict, kind: str, pointer: str) -> Clause:
    """The clause alone: never depends on the catalogue (a divergence is named beside it, not instead)."""
    case, mismatch = entry["case"], entry["mismatch"]
    if kind == "transport error":
        return unattributed(tool, "the target gave no answer to judge")
    if case["expect"]["kind"] == "error":
        return rejection_clause(tool, case["input"])
    if kind == SERVER_ERROR_ON_VALID:  # one cause, whatever the input: not split by what a fixture tests
        return unattributed(tool, "every rule of the contract answers this input; the target failed on it instead")
    if kind in ("rejected a valid input", MALFORMED_REJECTION) or kind.startswith("refused by "):
        # a valid input rejected: the clause the fixture was written for, where it names one
        return fixture_clause(tool, case["case_id"]) or unattributed(
            tool, "every rule of the contract accepts this input; the target's own rule rejects it"
        )
    if kind == "violates the output_schema":
        return schema_clause(tool, pointer, mismatch["expected"])
    actual = (entry["response"] or {}).get("result")
    return output_clause(tool, case["input"], pointer, _rounding_settled(case["input"], mismatch), actual)


def _rounding_settled(payload: Any, mismatch: dict | None) -> bool | None:
    """Whether the ``decimals`` line is the one a differing value breaks: not when the contract fixes
    the value whatever the rounding (0, 1); yes when no toFixed gives the value; else unknown."""
    if mismatch is None:
        return None
    if FIXED_BY_CONTRACT in str(mismatch["message"]):
        return False
    digits, actual = payload.get("decimals") if isinstance(payload, dict) else None, mismatch["actual"]
    if (
        isinstance(digits, int)
        and not isinstance(digits, bool)
        and 0 <= digits <= 15
        and is_number(actual)
        and math.isfinite(actual)
        and not on_decimal_grid(actual, digits)
    ):
        return True
    return None


def _divergence(case: dict, pointer: str, response: dict | None, kind: str, implementation: str = ""):
    """The catalogued divergence whose library answer is the target's, or None; never raises (a model
    that fails is "not modelled", and a failure of the catalogue itself names nothing). A library's float
    on 0..1 is compared on the models' 0..100 scale."""
    from conformance.crosscheck.catalogue import explaining_failure  # the catalogue's second use

    if not response:
        return None  # no answer: no output a library's could be
    try:
        output = on_percent_scale(response.get("result"), (response.get("expressed") or {}).get("library_floats"))
        return explaining_failure(
            case["tool_id"],
            case["input"],
            pointer,
            output,
            out_of_bounds=kind == "violates the output_schema",
            implementation=implementation,
        )
    except Exception:  # noqa: BLE001 - naming a divergence is an addition to the cause, never its condition
        return None


def _crash(case: dict, response: dict | None, implementation: str = ""):
    """The catalogued crash whose model raises what the target raised on a valid input (``fault``: "raised NAME"),
    those the library ``implementation`` shows first, or None; never raises."""
    import oracle
    from conformance.divergences import name_crash

    fault = (response or {}).get("fault") or ""
    try:
        return name_crash(oracle.tool(case["tool_id"], case["version"]), case["input"], fault, implementation)
    except Exception:  # noqa: BLE001 - naming a crash is an addition to the cause, never its condition
        return None


def failure_signature(result: CaseResult | dict) -> tuple[str, ...]:
    """The signature of a failed or errored case (what groups it with others of the same cause)."""
    try:
        return explain(result, divergence=False).signature
    except RecursionError:  # an input nested too deeply even to copy: one cause of its own
        case = result.case.tool_id if isinstance(result, CaseResult) else result["case"]["tool_id"]
        return (case, "", "nested too deeply to explain", "unattributed:")

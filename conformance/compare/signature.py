"""A failure's signature: what makes two failing cases the same cause.

Cases with one signature are one group in the reports, and a generated property keeps
generating after its first failure until it has seen a few distinct signatures. The
signature is (tool, the class of the JSON pointer of the first telling difference with
array indices replaced by ``*``, the kind of difference, the outcome).
"""

from __future__ import annotations

import re

from conformance.model import CaseResult

_INDEX = re.compile(r"/\d+(?=/|$)")


def pointer_class(pointer: str) -> str:
    """``/segments/3/precisions/0`` -> ``/segments/*/precisions/*``: one class for every index."""
    return _INDEX.sub("/*", pointer)


def failure_signature(result: CaseResult) -> tuple[str, ...]:
    """The signature of a failed or errored case (what groups it with others of the same cause)."""
    mismatch = result.mismatch
    kind = _kind(result)
    where = pointer_class(mismatch.pointer) if mismatch is not None else ""
    return (result.case.tool_id, where, kind, result.outcome)


def _kind(result: CaseResult) -> str:
    response = result.response
    if result.outcome == "errored" or (response is not None and response.kind == "transport_error"):
        return "transport_error"
    if result.mismatch is None:
        return "other"
    expected, actual = result.mismatch.expected, result.mismatch.actual
    if type(expected) is not type(actual):
        return "type"
    return "value"

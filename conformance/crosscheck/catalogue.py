"""The divergence catalogue: every known way a library departs from the contracts.

The entries are declared by the library modules (conformance/implementations/), per tool; each
names the library function responsible, the contract clause it departs from, and
``applies(input)``: the condition on a tool input under which the mechanism can change a
compared value. A disagreement is explained only by an entry that lists its check and
applies to its input; anything else is an oracle bug or a new divergence, and fails the
cross-check.

Each mechanism was verified by running the library (tests/test_crosscheck.py holds every
entry to a reproducer where it applies and the values differ).
"""

from __future__ import annotations

import math
import re
from typing import Any

from conformance.crosscheck.adapters import agreements, checks, divergences
from conformance.crosscheck.comparison import REL_TOL
from conformance.crosscheck.model import Agreement, Divergence

CATALOGUE: list[Divergence] = list(divergences())
CATALOGUE_BY_ID = {divergence.id: divergence for divergence in CATALOGUE}
AGREEMENTS: list[Agreement] = list(agreements())
SIX_DECIMALS = re.compile(r"[0-9]{1,3}\.[0-9]{6}")  # a chrF score as the contracts write it
HALF_STEP = 5e-7  # half of 1e-6: how far a six-decimal rounding lies from the value rounded


def explaining(check_id: str, payload: dict, differences: list[str] | None = None) -> list[str]:
    """The ids of the catalogue entries that apply to ``payload`` for ``check_id`` (and can change a differing value).

    The differences are explained when every differing value is one an applicable entry can change
    (``explains``).
    """
    return [
        d.id
        for d in CATALOGUE
        if check_id in d.checks
        and d.applies(payload)
        and (differences is None or any(d.changes(name) for name in differences))
    ]


def explains(divergence_ids: list[str], differences: list[str]) -> bool:
    entries = [CATALOGUE_BY_ID[i] for i in divergence_ids]
    return all(any(d.changes(name) for d in entries) for name in differences)


# ---------------------------------------------------------------- run failures: the catalogue's second use


def explaining_failure(
    tool_id: str, payload: Any, pointer: str, output: Any, out_of_bounds: bool = False, implementation: str = ""
) -> Divergence | None:
    """The catalogued divergence that explains a run failure, or None.

    ``pointer`` is where the target's ``output`` first differs from the contract's, or (``out_of_bounds``)
    where it breaks the output_schema's bounds: explained only by an entry of that kind. An entry explains
    it only when it is about this tool (one of its checks compares the tool) and can change that field (its
    ``fields``), it applies to the input, and the library's own
    answer (``Divergence.answer``) is the target's in every output field the entry can change that the
    tool's output has, not only the first differing one: the same "looks like" a cross-check would see.
    A value near the library's but not it, or an input the model cannot take, explains nothing.
    Where several entries do (two libraries sharing a mechanism), the first whose ``libraries`` include
    ``implementation`` (the library the target is, ``implementation:NAME``) is named, else the first.
    """
    field = pointer.split("/")[1].replace("~1", "/").replace("~0", "~") if pointer.count("/") else None
    if field is None or not isinstance(output, dict) or field not in output or not isinstance(payload, dict):
        return None
    about_tool = {check.id for check in checks() if check.tool_id == tool_id}
    candidates = [
        d
        for d in CATALOGUE
        if d.library_output is not None
        and d.out_of_bounds == out_of_bounds
        and about_tool.intersection(d.checks)
        and d.changes_output_field(field)
    ]
    own = [d for d in candidates if implementation in d.libraries]
    for divergence in [*own, *(d for d in candidates if d not in own)]:
        if not _applies(divergence, payload):
            continue
        answer = divergence.answer(payload)
        if (
            answer is not None
            and field in answer
            and _whole_answer_agrees(answer, output, divergence.output_fields & output_field_names(tool_id))
        ):
            return divergence
    return None


def _applies(divergence: Divergence, payload: dict) -> bool:
    try:
        return bool(divergence.applies(payload))
    except Exception:  # noqa: BLE001 - a condition that cannot judge an input does not apply to it
        return False


def output_field_names(tool_id: str) -> frozenset[str]:
    """The top-level fields of the tool's output_schema."""
    import oracle

    tool = next(t for t in oracle.tools() if t.id == tool_id)
    return frozenset(tool.contract.output_schema.get("properties", {}))


def _whole_answer_agrees(answer: dict, output: dict, fields: frozenset[str]) -> bool:
    """Does the target answer what the library does in every one of ``fields`` either side holds?"""
    return all(
        name in answer and name in output and agrees(answer[name], output[name])
        for name in fields
        if name in answer or name in output
    )


def agrees(library: Any, target: Any) -> bool:
    """Is the target's value the library's wherever the library's (partial) value says something?
    Numbers within REL_TOL (0 only equals 0), a boolean never a number, a chrF score (a float on the
    0..100 scale) any six-decimal text within half a step of it, the rest exactly."""
    if isinstance(library, dict):
        return isinstance(target, dict) and all(k in target and agrees(v, target[k]) for k, v in library.items())
    if isinstance(library, list):
        return isinstance(target, list) and len(library) == len(target) and all(map(agrees, library, target))
    if isinstance(library, bool) or isinstance(target, bool):
        return type(library) is type(target) and library == target
    if isinstance(library, (int, float)) and isinstance(target, (int, float)):
        return math.isclose(library, target, rel_tol=REL_TOL, abs_tol=0.0)
    if isinstance(library, float) and isinstance(target, str) and SIX_DECIMALS.fullmatch(target):
        return abs(float(target) - library) <= HALF_STEP * (1 + REL_TOL) + REL_TOL * abs(library)
    return library == target

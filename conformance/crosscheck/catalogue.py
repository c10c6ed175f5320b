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

from typing import Any

from conformance.crosscheck.adapters import agreements, divergences
from conformance.crosscheck.comparison import agrees as agrees  # the comparison a model and an answer share
from conformance.crosscheck.model import Agreement, Divergence

CATALOGUE: list[Divergence] = list(divergences())
CATALOGUE_BY_ID = {divergence.id: divergence for divergence in CATALOGUE}
AGREEMENTS: list[Agreement] = list(agreements())


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
):
    """The mechanisms (conformance/divergences.py) that explain a run failure, or None.

    ``pointer`` is where the target's ``output`` first differs from the contract's, or (``out_of_bounds``)
    where it breaks the output_schema's bounds. They are named only where the oracle's computation with them
    changed (their model) reproduces the target's answer on every field the model changes, the first
    differing field among them (``divergences.name_failure``): whichever library the target is
    (``implementation`` names nothing by itself: where two groups explain as much, its own come first).
    """
    import oracle
    from conformance.divergences import name_failure

    field = pointer.split("/")[1].replace("~1", "/").replace("~0", "~") if pointer.count("/") else None
    if field is None or not isinstance(output, dict) or field not in output or not isinstance(payload, dict):
        return None
    tool = next(t for t in oracle.tools() if t.id == tool_id)
    return name_failure(tool, payload, output, field, out_of_bounds, implementation)


def output_field_names(tool_id: str) -> frozenset[str]:
    """The top-level fields of the tool's output_schema."""
    import oracle

    tool = next(t for t in oracle.tools() if t.id == tool_id)
    return frozenset(tool.contract.output_schema.get("properties", {}))

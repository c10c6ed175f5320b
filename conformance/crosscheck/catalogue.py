"""The divergence catalogue: every known way sacreBLEU or NLTK departs from the contracts.

The entries are declared by the tools' adapters (conformance/crosscheck/adapters/); each
names the library function responsible, the contract clause it departs from, and
``applies(input)``: the condition on a tool input under which the mechanism can change a
compared value. A disagreement is explained only by an entry that lists its check and
applies to its input; anything else is an oracle bug or a new divergence, and fails the
cross-check.

Each mechanism was verified by running the library (tests/test_crosscheck.py holds every
entry to a reproducer where it applies and the values differ).
"""

from __future__ import annotations

from conformance.crosscheck.adapters import agreements, divergences
from conformance.crosscheck.model import Agreement, Divergence

CATALOGUE: list[Divergence] = list(divergences())
CATALOGUE_BY_ID = {divergence.id: divergence for divergence in CATALOGUE}
AGREEMENTS: list[Agreement] = list(agreements())


def explaining(check_id: str, payload: dict, differences: list[str] | None = None) -> list[str]:
    """The ids of the catalogue entries that apply to ``payload`` for ``check_id`` (and can change a differing value).

    The differences are explained when every differing value is one an applicable entry can change
    (``explains``).
    """
    return [d.id for d in CATALOGUE if check_id in d.checks and d.applies(payload)
            and (differences is None or any(d.changes(name) for name in differences))]


def explains(divergence_ids: list[str], differences: list[str]) -> bool:
    entries = [CATALOGUE_BY_ID[i] for i in divergence_ids]
    return all(any(d.changes(name) for d in entries) for name in differences)

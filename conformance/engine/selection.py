"""``--families``: which generated families a run generates cases for.

A user whose implementation supports only part of the input space restricts generation to
it. Each pattern is an ``fnmatch`` pattern (``*``, ``?``, ``[...]``; ``*`` also crosses
"/"), matched against a family's name (``valid/shared-ngrams``, ``invalid/*``) and against
its property id (``generated/bleu-corpus-compute/valid/*``); a family is kept when any
pattern matches either. ``--families`` restricts the generated properties only: fixture
cases are hand-written and few, and ``-k`` (pytest's keyword expression over every case and
property id) restricts both. A pattern that matches no family of the selected tools is a
usage error: it is almost always a typo, and a run that silently generates nothing is worse.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from typing import Protocol


class _Family(Protocol):
    @property
    def name(self) -> str: ...


class _Property(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def family(self) -> _Family: ...


def split_patterns(text: str | None) -> list[str]:
    """``"valid/*, generated/x/invalid/*"`` -> the non-empty patterns, stripped."""
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def matches(pattern: str, family_name: str, property_id: str) -> bool:
    return fnmatch.fnmatchcase(family_name, pattern) or fnmatch.fnmatchcase(property_id, pattern)


def unmatched_patterns(patterns: Iterable[str], specs: Iterable[_Property]) -> list[str]:
    """The patterns that match no family of ``specs``."""
    specs = list(specs)
    return [pattern for pattern in patterns if not any(matches(pattern, spec.family.name, spec.id) for spec in specs)]


def select_families(patterns: list[str], specs: Iterable[_Property]) -> list:
    """The specs whose family matches some pattern (every spec when there is no pattern)."""
    if not patterns:
        return list(specs)
    return [spec for spec in specs if any(matches(pattern, spec.family.name, spec.id) for pattern in patterns)]

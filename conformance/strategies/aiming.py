"""Aimed features recorded by checking the drawn example: a family's features as predicates.

Where a strategy's branches are not explicit (a hypothesis built by an edit that may leave it
unchanged, a drawn count that may or may not exceed another), the feature is recorded by a
predicate on the drawn case, so the event says what the input really has::

    with_aims(families, {"valid/clipping": {"clipped by the largest reference count": clipped}})

gives each named family a strategy that records (``base.aimed``) every feature whose predicate
the drawn case satisfies, and declares those features in ``Family.aims``. Recording draws
nothing, so a seed gives the same examples as before.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from hypothesis.strategies import SearchStrategy

from conformance.strategies.base import Family, GeneratedCase, aimed

Predicate = Callable[[GeneratedCase], bool]
Features = Mapping[str, Predicate]


def recording(strategy: SearchStrategy[GeneratedCase], features: Features) -> SearchStrategy[GeneratedCase]:
    """The strategy, recording each feature whose predicate holds for the drawn case."""

    def record(generated: GeneratedCase) -> GeneratedCase:
        for feature, has in features.items():
            if has(generated):
                aimed(feature)
        return generated

    return strategy.map(record)


def with_aims(families: Iterable[Family], features_by_family: Mapping[str, Features]) -> list[Family]:
    """The families, each one named in ``features_by_family`` recording and declaring its features."""
    families = list(families)
    unknown = set(features_by_family) - {family.name for family in families}
    if unknown:
        raise ValueError(f"aimed features for families that do not exist: {sorted(unknown)}")
    return [
        dataclasses.replace(
            family,
            strategy=recording(family.strategy, features_by_family[family.name]),
            aims=(*family.aims, *features_by_family[family.name]),
        )
        if family.name in features_by_family
        else family
        for family in families
    ]


# --- predicates shared by the tools' catalogues --------------------------------------------


def accepted(generated: GeneratedCase) -> bool:
    return generated.expect.kind == "output"


def rejected(generated: GeneratedCase) -> bool:
    return generated.expect.kind == "error"


# A boundary family's two sides of its limit.
LIMIT_SIDES: Features = {"at the limit (accepted)": accepted, "one past the limit (rejected)": rejected}


def option(key: str, *values: Any) -> Predicate:
    """The input sets ``key`` to one of ``values`` (as JSON: 4 and 4.0 differ, true is not 1)."""
    wanted = {json.dumps(value) for value in values}
    return lambda generated: (
        isinstance(generated.input, dict) and key in generated.input and json.dumps(generated.input[key]) in wanted
    )


def integral_float(key: str) -> Predicate:
    """The input writes ``key`` as a float with no fraction, such as 4.0."""
    return lambda generated: isinstance(generated.input, dict) and isinstance(generated.input.get(key), float)


def of_type(kind: type | tuple[type, ...], exclude: tuple[type, ...] = ()) -> Predicate:
    return lambda generated: isinstance(generated.input, kind) and not isinstance(generated.input, exclude)


NOT_AN_OBJECT: Features = {
    "an array": of_type(list),
    "a string": of_type(str),
    "a number": of_type((int, float), exclude=(bool,)),
    "null": lambda generated: generated.input is None,
    "a boolean": of_type(bool),
}


def texts_of(payload: Any) -> list[str]:
    """Every string of an input, at any depth (tokens, texts, keys excluded)."""
    if isinstance(payload, str):
        return [payload]
    if isinstance(payload, dict):
        return [text for value in payload.values() for text in texts_of(value)]
    if isinstance(payload, list):
        return [text for item in payload for text in texts_of(item)]
    return []


def any_text(test: Callable[[str], bool]) -> Predicate:
    return lambda generated: any(test(text) for text in texts_of(generated.input))


def unknown_key(known: Iterable[str]) -> Predicate:
    names = set(known)
    return lambda generated: isinstance(generated.input, dict) and bool(set(generated.input) - names)


def missing_key(required: Iterable[str]) -> Predicate:
    names = tuple(required)
    return lambda generated: isinstance(generated.input, dict) and any(name not in generated.input for name in names)


# --- token inputs (the BLEU tools): segments of either form -----------------------------------


def segments(payload: Any) -> list[tuple[list, list]]:
    """(hypothesis tokens, reference token lists) of each segment of a corpus input
    (``hypotheses``) or a one-segment input (``hypothesis``)."""
    if not isinstance(payload, dict):
        return []
    if "hypotheses" in payload:
        return list(zip(payload.get("hypotheses") or [], payload.get("references") or []))
    return [(payload.get("hypothesis") or [], payload.get("references") or [])]


def in_a_segment(test: Callable[[list, list], bool]) -> Predicate:
    """Some segment's (hypothesis, references) satisfies ``test``."""
    return lambda generated: any(test(hypothesis, references) for hypothesis, references in segments(generated.input))


def tokens(payload: Any) -> list[str]:
    return [
        token
        for hypothesis, references in segments(payload)
        for token in [*hypothesis, *(t for reference in references for t in reference)]
    ]


def any_token(test: Callable[[str], bool]) -> Predicate:
    return lambda generated: any(isinstance(token, str) and test(token) for token in tokens(generated.input))


def ngrams(tokens: list, n: int) -> set[tuple]:
    return {tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


def longest_match(hypothesis: list, references: list) -> int:
    """The largest n such that some hypothesis n-gram occurs in some reference (0: none)."""
    n = 0
    while n < len(hypothesis) and any(ngrams(hypothesis, n + 1) & ngrams(reference, n + 1) for reference in references):
        n += 1
    return n


# Scans of whole texts run on every drawn case, some of them a megabyte: in C, not per character.
_SURROGATE, _HIGH_SURROGATE, _LOW_SURROGATE = (
    re.compile(f"[{first}-{last}]")
    for first, last in (("\ud800", "\udfff"), ("\ud800", "\udbff"), ("\udc00", "\udfff"))
)


def surrogate_in(value: Any, which: re.Pattern = _SURROGATE) -> bool:
    """Some string of ``value`` (at any depth) holds a lone surrogate (of the ``which`` half)."""
    return any(which.search(text) for text in texts_of(value))


def high_surrogate_in(value: Any) -> bool:
    return surrogate_in(value, _HIGH_SURROGATE)


def low_surrogate_in(value: Any) -> bool:
    return surrogate_in(value, _LOW_SURROGATE)


def multi_byte(text: str) -> bool:
    return not text.isascii()


def utf8_width(character: str) -> int:
    return len(character.encode("utf-8", "surrogatepass"))

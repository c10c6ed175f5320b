"""What a strategy produces: a generated case, grouped into named families.

Every tool module exposes ``families(tool_id, version) -> list[Family]``. A family
is aimed at one hard part of its contract; its strategy draws ``GeneratedCase``s
whose expectation is either "answer" (the expected output is computed later by
the oracle under every reading of the open points) or "reject with this code".
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

import conformance.strategies.aim_counts as aim_counts
from conformance.model import Expectation
from oracle.contracts import contract

CATEGORIES = ("valid", "boundary", "invalid")

EXPECT_OUTPUT = Expectation("output")
INVALID_INPUT = Expectation("error", "invalid_input")
LIMIT_EXCEEDED = Expectation("error", "limit_exceeded")
# The contract leaves the code open (a rule that is both a schema rule and a named limit).
ANY_ERROR = Expectation("error", "any")


def composite(function: Callable[..., Any]) -> Callable[..., SearchStrategy[Any]]:
    """``hypothesis.strategies.composite``, with a label that is the same in every process.

    Hypothesis labels a composite strategy by the repr of its function's constants, and labels steer
    how it mutates and shrinks examples. A comprehension or lambda inside the function is a constant
    whose repr holds its memory address, so two processes labelled one strategy differently and the
    same seed could shrink to different cases: a run over ``-n`` workers or ``--shard``s would not
    report what the one-process run does. The function Hypothesis sees is a wrapper whose one
    varying constant is the strategy's qualified name (a keyword default), so its label depends on
    that name and on ``PYTHONHASHSEED`` alone, which ``conformance run`` fixes (conformance/cli.py).
    """
    name = f"{function.__module__}.{function.__qualname__}"

    def definition(draw: Any, *args: Any, _strategy_name: str = name, **kwargs: Any) -> Any:
        return function(draw, *args, **kwargs)

    return functools.wraps(function)(st.composite(definition))


def sampled_by_index(values: tuple) -> SearchStrategy[Any]:
    """``sampled_from(values)`` drawn by index: sampled_from labels itself (``composite`` says why labels
    matter) by its elements' hashes, and the hash of None is its address before Python 3.12."""
    return st.integers(0, len(values) - 1).map(values.__getitem__)


@dataclass(frozen=True)
class GeneratedCase:
    input: Any
    expect: Expectation
    description: str  # what this case aims at
    # A case of several requests (conformance/steps.py): each step a dict {tool_id, version, input, expect,
    # description} and how they are sent, "sequence" or "burst"; ``input`` is then the first step's.
    steps: tuple[dict, ...] = ()
    sending: str = ""


@dataclass(frozen=True)
class Family:
    name: str  # "<category>/<topic>", e.g. "valid/shared-ngrams"
    category: str  # "valid" | "boundary" | "invalid"
    strategy: SearchStrategy[GeneratedCase]
    summary: str = ""  # one line for the docs (describe_families)
    # The aimed features this family promises to produce, each recorded with ``aimed(feature)``
    # by the strategy when a drawn example has it; the project's tests check each is reached.
    aims: tuple[str, ...] = ()
    # The share of the profile's examples this family runs: a case of several requests costs several
    # (strategies/relations.py), so those families run fewer examples, at least MIN_SHARED_EXAMPLES.
    examples_share: float = 1.0
    min_examples: int = 0  # with a share: at least this many (0: MIN_SHARED_EXAMPLES), or the profile's, if fewer

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES or not self.name.startswith(self.category + "/"):
            raise ValueError(f"family {self.name!r}: category must be one of {CATEGORIES} and prefix the name")

    def settings(self, profile: settings) -> settings:
        """The run's settings for this family: the profile's, with its share of the examples."""
        if self.examples_share == 1.0:
            return profile
        share = math.ceil(profile.max_examples * self.examples_share)
        least = self.min_examples or MIN_SHARED_EXAMPLES
        return settings(profile, max_examples=max(min(least, profile.max_examples), share))


MIN_SHARED_EXAMPLES = 5  # a family with a share of the examples still runs this many (or the profile's, if fewer)

AIMED_EVENT_PREFIX = "aimed: "


def aimed(feature: str) -> None:
    """Record that the example being drawn has one of its family's aimed features.

    A Hypothesis ``event``: it shows in Hypothesis's statistics, and the run collects it
    per family (the report's feature counts): ``aim_counts`` counts it in the collector open, if any.
    """
    event(AIMED_EVENT_PREFIX + feature)
    aim_counts.note(feature)


def case(input: Any, expect: Expectation, description: str) -> GeneratedCase:
    return GeneratedCase(input=input, expect=expect, description=description)


def limits(tool_id: str, version: str) -> dict:
    """The contract's named limits: the strategies read every bound from the contract."""
    return dict(contract(tool_id, version).limits)


def input_schema(tool_id: str, version: str) -> dict:
    return contract(tool_id, version).document()["input_schema"]


def semantics(tool_id: str, version: str) -> list[str]:
    return list(contract(tool_id, version).semantics)

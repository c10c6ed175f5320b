"""One generated family run as a Hypothesis property.

Each example is judged by the session; a failing one raises, so Hypothesis shrinks the input
and re-runs the minimal example last: that one is kept as the property's failure. A target
found unhealthy stops the property (unittest.SkipTest, which Hypothesis passes straight through).
"""

from __future__ import annotations

import unittest
from dataclasses import dataclass, field
from typing import Callable

import hypothesis.errors
from hypothesis import given, seed, settings

from conformance.model import Case, CaseResult


class TargetFailure(Exception):
    """A target's answer did not conform: Hypothesis shrinks on it."""


class TargetErrored(Exception):
    """A target failed to answer one input (crash, 5xx, garbage): shrunk like a failure."""


class Unhealthy(unittest.SkipTest):
    """The circuit breaker tripped: the property is not finished."""


class NotServed(unittest.SkipTest):
    """The target does not serve the property's (draft) tool: the property is not run."""


@dataclass
class PropertyRun:
    """The outcome of one property: its counts, and the failure to report (None if every example passed)."""

    stats: dict = field(default_factory=lambda: {"examples": 0, "passed": 0, "failed": 0, "errored": 0})
    failure: CaseResult | None = None
    flaky: bool = False


def run_property(strategy, run_settings: settings, run_seed: int, make_case: Callable[[int, object], Case],
                 judge: Callable[[Case], CaseResult], outcome: PropertyRun) -> PropertyRun:
    """Generate cases (as many as the settings say) into ``outcome``, judge each; raises Unhealthy
    (the target became unhealthy), or whatever the suite itself broke on."""
    last_failure: list[CaseResult] = []

    @run_settings
    @seed(run_seed)
    @given(strategy)
    def prop(generated) -> None:
        case = make_case(outcome.stats["examples"], generated)
        outcome.stats["examples"] += 1
        result = judge(case)
        if result.outcome == "skipped":
            raise Unhealthy(result.message)
        outcome.stats[result.outcome] = outcome.stats.get(result.outcome, 0) + 1
        if result.outcome != "passed":
            last_failure[:] = [result]
            raise (TargetFailure if result.outcome == "failed" else TargetErrored)(result.message)

    try:
        prop()
    except (TargetFailure, TargetErrored):
        outcome.failure = last_failure[0]  # Hypothesis re-ran the minimal example last
    except hypothesis.errors.Flaky:
        if not last_failure:
            raise
        # The target answered the same input differently on another try. A wrong answer
        # given some of the time is still a wrong answer: report the last one seen.
        outcome.failure, outcome.flaky = last_failure[0], True
    return outcome

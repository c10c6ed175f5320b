"""One generated family run as a Hypothesis property, kept going past its first failure.

Each example is judged by the session; a failing one raises, so Hypothesis shrinks the input
and re-runs the minimal example last: that one is kept as the property's failure. A target
found unhealthy stops the property (unittest.SkipTest, which Hypothesis passes straight through).

One bug must not hide the others, so a property does not stop at its first failure: it runs
again in *rounds*, each a fresh Hypothesis run under a seed derived from the run's seed and
the round number, in which a failure whose signature (compare.signature) an earlier round
reported is counted but does not raise, so Hypothesis neither stops nor shrinks on it. The
first new signature of a round is shrunk like the first failure (Hypothesis keeps a shrink
only if it still fails with a signature not yet reported) and reported as its own result.
Rounds stop at ``max_failures`` distinct signatures, when the family's example budget (the
profile's count, shared by every round) is spent, when a round finds nothing new, or once the
property has judged ``KEEP_GOING_CALLS`` times that budget (generated and shrunk examples alike:
shrinking is what a budget of generated examples does not bound). The first round is exactly the
single run of a property that stops at its first failure (``max_failures`` 1), and every round is
fixed by the seed, so the same seed gives the same cases and results on any machine, however
loaded: no bound is a clock (a bound in seconds made a burst on a loaded machine stop a round
earlier than on a quiet one, and two runs of one seed disagree).

An example the target did not answer in time (``costly``: a transport error that cost at least
half a time-out) is reported as found, not shrunk, and ends the property: each try of a smaller
input could hang as long again, and a target hanging on one kind of input would spend the
breaker's time-out budget on shrinking alone (engine/health.py), ending a run that can conclude.
"""

from __future__ import annotations

import random
import unittest
import warnings
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import hypothesis.errors
from hypothesis import given, seed, settings

from conformance.compare.signature import failure_signature
from conformance.model import Case, CaseResult, field_name, is_not_applicable

DEFAULT_MAX_FAILURES = 3  # distinct failure signatures reported per property
KEEP_GOING_CALLS = 10  # no further round starts once a property has judged this many times its example budget
NOT_SHRUNK = "not shrunk, and the property ended: each smaller try could take a time-out again"
LARGE_REPR_WARNING = "Generating overly large repr"  # Hypothesis's warning (a regex of the message's start)


class TargetFailure(Exception):
    """A target's answer did not conform: Hypothesis shrinks on it."""


class TargetErrored(Exception):
    """A target failed to answer one input (crash, 5xx, garbage): shrunk like a failure."""


class TargetHung(unittest.SkipTest):
    """A target did not answer one input in time: reported as found (a SkipTest, which Hypothesis
    passes straight through, so it is not shrunk) and the property ends."""


class Unhealthy(unittest.SkipTest):
    """The circuit breaker tripped: the property is not finished."""


class NotServed(unittest.SkipTest):
    """The target does not serve the property's (draft) tool: the property is not run."""


# Why a property stopped (its entry's "stopped_by", described in report.schema.json): passed, max_failures,
# examples, no_new_failure, judged, unhealthy, time_out.


@dataclass
class PropertyRun:
    """The outcome of one property: its counts, and the failures to report (none if every example
    passed), one per distinct signature, in the order found."""

    stats: dict = field(default_factory=lambda: {"examples": 0, "passed": 0, "failed": 0, "errored": 0})
    failures: list[CaseResult] = field(default_factory=list)
    flaky: set[str] = field(default_factory=set)  # case ids of failures the target did not repeat
    not_applicable: Counter = field(default_factory=Counter)  # "not applicable: CAUSE" -> examples
    judged_fields: set[str] = field(default_factory=set)  # of partial answers (an implementation's): what was judged
    not_expressed: set[str] = field(default_factory=set)  # ... and what the library does not compute

    def note_expressed(self, result: CaseResult) -> None:
        expressed = result.response.expressed if result.response is not None else None
        if expressed is not None:
            self.judged_fields.update(map(field_name, expressed.fields))
            self.not_expressed.update(map(field_name, expressed.not_expressed))

    @property
    def all_not_applicable(self) -> str:
        """The (most frequent) not-applicable message when the implementation could express no example ("" else)."""
        examples = self.stats["examples"]
        if examples and sum(self.not_applicable.values()) == examples:
            return self.not_applicable.most_common(1)[0][0]
        return ""

    @property
    def failure(self) -> CaseResult | None:
        """The first failure found (the one a property stopping at its first failure reports)."""
        return self.failures[0] if self.failures else None


def round_seed(run_seed: int, round_number: int) -> int:
    """Round 0 runs under the run's seed itself; each later round under a seed derived from it."""
    if round_number == 0:
        return run_seed
    return random.Random(f"keep-going {run_seed} {round_number}").randrange(2**32)


def run_property(
    strategy,
    run_settings: settings,
    run_seed: int,
    make_case: Callable[[int, object], Case],
    judge: Callable[[Case], CaseResult],
    outcome: PropertyRun,
    max_failures: int = 1,
    signature: Callable[[CaseResult], Hashable] = failure_signature,
    costly: Callable[[CaseResult], bool] = lambda result: False,
    stopped: Callable[[], str] = lambda: "",
) -> PropertyRun:
    """Generate cases into ``outcome`` and judge each, round after round until one of the bounds
    above; raises Unhealthy (the target became unhealthy), or whatever the suite itself broke on.
    ``stopped``: why the run has stopped ("" while it goes on): then no round starts, nothing is drawn."""
    budget = run_settings.max_examples
    most_judged = KEEP_GOING_CALLS * budget
    reported: set = set()
    outcome.stats.update(distinct_failures=0, repeated_failures=0)
    for round_number in range(max(max_failures, 1)):
        if round_number and outcome.stats["examples"] >= most_judged:
            stopped_by = "judged"
            break
        try:
            if reason := stopped():
                raise Unhealthy(f"not run: the run stopped early ({reason})")
            found, generated = _run_round(
                strategy,
                settings(run_settings, max_examples=budget),
                round_seed(run_seed, round_number),
                make_case,
                judge,
                outcome,
                reported,
                signature,
                costly,
            )
        except Unhealthy:
            if not outcome.failures:
                raise
            stopped_by = "unhealthy"  # keep what earlier rounds found; the run ends unconcluded anyway
            break
        budget -= generated
        if found is None:
            stopped_by = "no_new_failure" if round_number else "passed"
            break
        outcome.failures.append(found)
        reported.add(signature(found))
        outcome.stats["distinct_failures"] = len(outcome.failures)
        if costly(found):
            stopped_by = "time_out"
            break
        if budget <= 0:
            stopped_by = "examples"
            break
    else:
        stopped_by = "max_failures"
    outcome.stats["stopped_by"] = stopped_by
    return outcome


def _run_round(
    strategy,
    round_settings: settings,
    round_seed_value: int,
    make_case,
    judge,
    outcome: PropertyRun,
    reported: set,
    signature,
    costly,
) -> tuple[CaseResult | None, int]:
    """One Hypothesis run; (its minimal new failure or None, the examples it generated)."""
    last_failure: list[CaseResult] = []
    generated = [0]  # examples judged before the round's first failure: after it, Hypothesis only shrinks

    @round_settings
    @seed(round_seed_value)
    @given(strategy)
    def prop(drawn) -> None:
        case = make_case(outcome.stats["examples"], drawn)
        result = judge(case)
        if result.outcome == "skipped" and not is_not_applicable(result.outcome, result.message):
            raise Unhealthy(result.message)  # not sent: the run stopped (an example never sent is not counted)
        outcome.stats["examples"] += 1
        if not last_failure:
            generated[0] += 1
        outcome.note_expressed(result)
        if is_not_applicable(result.outcome, result.message):  # counted by cause, neither passed nor failed
            outcome.not_applicable[result.message] += 1
            outcome.stats["not_applicable"] = outcome.stats.get("not_applicable", 0) + 1
            return
        outcome.stats[result.outcome] = outcome.stats.get(result.outcome, 0) + 1
        if result.outcome == "passed":
            return
        if signature(result) in reported:  # an earlier round reported this cause: counted, not re-reported
            outcome.stats["repeated_failures"] += 1
            return
        last_failure[:] = [result]
        if costly(result):
            result.message += f" ({NOT_SHRUNK})"
            raise TargetHung(result.message)
        raise (TargetFailure if result.outcome == "failed" else TargetErrored)(result.message)

    try:
        with warnings.catch_warnings():
            # Hypothesis writes the minimal failing example's repr for its own report, which the suite never
            # shows (it reports the failure itself, its input cut to size): of a large input, it warns.
            warnings.filterwarnings("ignore", LARGE_REPR_WARNING, hypothesis.errors.HypothesisWarning)
            prop()
    except (TargetFailure, TargetErrored, TargetHung):
        return last_failure[0], generated[0]  # the minimal example, which Hypothesis re-ran last (a hung one: as drawn)
    except hypothesis.errors.Flaky:
        if not last_failure:
            raise
        # The target answered the same input differently on another try. A wrong answer
        # given some of the time is still a wrong answer: report the last one seen.
        outcome.flaky.add(last_failure[0].case.case_id)
        return last_failure[0], generated[0]
    except hypothesis.errors.Unsatisfiable:
        if reported:  # a later round's small budget drew nothing valid: nothing new found
            return None, generated[0]
        raise
    return None, generated[0]

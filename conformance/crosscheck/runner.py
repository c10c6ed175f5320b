"""Runs the cross-checks: generate inputs, compare, classify, shrink.

Per tool, Hypothesis generates ``examples`` inputs from a fixed seed (same seed,
same inputs), and as many from each check's own inputs (``Check.inputs``) for that
check alone. Every check of that tool classifies each input as not comparable,
agreed, explained (the values differ and a catalogue entry applies) or
unexplained. ``hypothesis.find`` searches up to SHRINK_EXAMPLES inputs for an
unexplained disagreement of the same check and shrinks it to a minimal reproducer
(if the search does not meet one, the run's own input is reported as generated);
and finds for each catalogue entry the smallest input where it applies and the
values really differ, for the report.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field

from hypothesis import find, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import NoSuchExample

from conformance.crosscheck.adapters import inputs
from conformance.crosscheck.catalogue import CATALOGUE, Divergence, explaining, explains
from conformance.crosscheck.checks import CHECKS, CHECKS_BY_ID, Check, compare_safely, evaluate, oracle_output
from conformance.crosscheck.comparison import Comparison
from conformance.hypothesis_profiles import CROSSCHECK_GENERATE, CROSSCHECK_SHRINK

SHRINK_EXAMPLES = 2000  # how many inputs a search may try to hit a condition before shrinking


@dataclass
class CheckStatistics:
    compared: int = 0
    agreed: int = 0
    explained: int = 0
    not_comparable: int = 0
    unexplained: int = 0


@dataclass
class Reproducer:
    """A minimal input on which ``check`` disagrees, with both sides' values."""

    check: Check
    input: dict
    comparison: Comparison
    divergence_ids: list[str] = field(default_factory=list)
    shrunk: bool = True  # False: shrinking did not hit the condition again, this is the input as generated


@dataclass
class CrosscheckResult:
    seed: int
    examples: int
    libraries: list[str]
    statistics: dict[str, CheckStatistics]  # by check id
    fired: dict[str, int]  # divergence id -> inputs on which it explained a disagreement
    unexplained: list[Reproducer]
    reproducers: dict[str, Reproducer | None]  # divergence id -> minimal reproducer (None: not found)

    @property
    def exit_code(self) -> int:
        return 1 if self.unexplained else 0


def check_inputs(check: Check):
    """The strategy of the inputs the check is compared on: its own, else its tool's."""
    return check.inputs if check.inputs is not None else inputs(check.tool_id)


def input_groups(checks: list[Check]):
    """(strategy, the checks compared on its inputs), tool by tool: the tool's INPUTS for its checks without
    inputs of their own, then each check with its own."""
    for tool_id in sorted({check.tool_id for check in checks}):
        shared = [c for c in checks if c.tool_id == tool_id and c.inputs is None]
        if shared:
            yield inputs(tool_id), shared
        for check in checks:
            if check.tool_id == tool_id and check.inputs is not None:
                yield check.inputs, [check]


def generate_inputs(strategy, count: int, seed: int) -> list[dict]:
    """``count`` distinct inputs of the strategy, the same for the same seed."""
    collected: dict[str, dict] = {}

    @hypothesis_seed(seed)
    @settings(settings.get_profile(CROSSCHECK_GENERATE), max_examples=count)
    @given(strategy)
    def collect(payload: dict) -> None:
        collected.setdefault(json.dumps(payload, sort_keys=True), copy.deepcopy(payload))

    collect()
    return list(collected.values())


def classify(check: Check, payload: dict, comparison: Comparison) -> tuple[str, list[str]]:
    """("not_comparable" | "agreed" | "explained" | "unexplained", ids of the entries that explain it)."""
    if comparison.not_comparable:
        return "not_comparable", []
    if not comparison.differences:
        return "agreed", []
    ids = explaining(check.id, payload, comparison.differences)
    return ("explained", ids) if ids and explains(ids, comparison.differences) else ("unexplained", ids)


def is_unexplained(check: Check, payload: dict) -> bool:
    return classify(check, payload, evaluate(check, payload))[0] == "unexplained"


def shrink(tool_id: str, condition, seed: int, examples: int = SHRINK_EXAMPLES, strategy=None) -> dict | None:
    """The minimal input of the tool's strategy (or ``strategy``) satisfying ``condition`` (``hypothesis.find``),
    or None.

    Hypothesis searches up to ``examples`` inputs for one that satisfies the condition, then shrinks it;
    the same seed finds the same input.
    """
    try:
        found = find(
            strategy if strategy is not None else inputs(tool_id),
            condition,
            settings=settings(settings.get_profile(CROSSCHECK_SHRINK), max_examples=examples),
            random=random.Random(seed),
        )
    except NoSuchExample:
        return None
    return copy.deepcopy(found)


def divergence_reproducer(divergence: Divergence, seed: int, libraries: list[str]) -> Reproducer | None:
    """The smallest generated input where the entry applies and one of its checks' values really differ.

    Preferably one where no other entry applies, so that the reproducer shows this mechanism alone.
    """
    checks = [CHECKS_BY_ID[check_id] for check_id in divergence.checks if CHECKS_BY_ID[check_id].library in libraries]
    for alone in (True, False):
        for check in checks:

            def differs(payload: dict, check: Check = check, alone: bool = alone) -> bool:
                if not divergence.applies(payload):
                    return False
                differences = evaluate(check, payload).differences
                ids = explaining(check.id, payload, differences)
                if alone:
                    return ids == [divergence.id] and explains(ids, differences)
                return divergence.id in ids

            found = shrink(check.tool_id, differs, seed, strategy=check_inputs(check))
            if found is not None:
                comparison = evaluate(check, found)
                return Reproducer(check, found, comparison, explaining(check.id, found, comparison.differences))
    return None


def run_crosscheck(libraries: list[str], examples: int, seed: int, find_reproducers: bool = True) -> CrosscheckResult:
    checks = [check for check in CHECKS if check.library in libraries]
    statistics = {check.id: CheckStatistics() for check in checks}
    # (the first check of the group of inputs, input index): each input counted once, whichever checks it fired on
    fired: dict[str, set] = {divergence.id: set() for divergence in CATALOGUE}
    first_failure: dict[str, dict] = {}

    for strategy, group in input_groups(checks):
        for index, payload in enumerate(generate_inputs(strategy, examples, seed)):
            expected = oracle_output(group[0], payload)
            for check in group:
                outcome, ids = classify(check, payload, compare_safely(check, payload, expected))
                stats = statistics[check.id]
                setattr(stats, outcome, getattr(stats, outcome) + 1)
                stats.compared += outcome != "not_comparable"
                for divergence_id in ids if outcome == "explained" else []:
                    fired[divergence_id].add((group[0].id, index))
                if outcome == "unexplained":
                    first_failure.setdefault(check.id, payload)

    unexplained = []
    for check_id, payload in first_failure.items():
        check = next(c for c in checks if c.id == check_id)
        minimal = shrink(
            check.tool_id, lambda p, check=check: is_unexplained(check, p), seed, strategy=check_inputs(check)
        )
        found = minimal if minimal is not None else payload
        unexplained.append(Reproducer(check, found, evaluate(check, found), shrunk=minimal is not None))

    reproducers = {
        divergence.id: divergence_reproducer(divergence, seed, libraries) if find_reproducers else None
        for divergence in CATALOGUE
        if set(divergence.libraries) & set(libraries)
    }
    fired_counts = {divergence_id: len(inputs) for divergence_id, inputs in fired.items()}
    return CrosscheckResult(seed, examples, libraries, statistics, fired_counts, unexplained, reproducers)

"""A case made of several requests: its steps as cases, sent in order or all at once, judged one by one.

Answers can be right one at a time and wrong together: a target that caches answers by part of
the input (the hypotheses only, an option left out of the key) or keeps state between requests
(counts accumulated, the previous max_order remembered) answers a later request of a *sequence*
wrong; one that shares mutable state across threads (a global buffer) mixes the requests of a
*burst* up. Such a case (``Case.steps``, built by strategies/relations.py) is sent here:

- ``SEQUENCE``: the steps one after the other, each once the previous one is answered;
- ``BURST``: every step at once, from threads of its own released together by a barrier,
  whatever ``--workers`` is (an in-process target is called from those threads; a ``jsonl:``
  pool opens a process per concurrent caller; ``cmd:`` runs the commands side by side).

Nothing new is asserted: each step is judged against the oracle's answer to its own input, and
the case's verdict is that of its first wrong step in step order (``first_wrong``); a shrunk
failing case is therefore the shortest sequence Hypothesis found that still goes wrong.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from conformance.model import Case, Expectation, Verdict

SEQUENCE, BURST = "sequence", "burst"
SENDINGS = (SEQUENCE, BURST)
BARRIER_SECONDS = 30.0  # a burst's threads wait at most this long for each other (then go anyway)
WRONG = ("failed", "errored")


def step_cases(case: Case) -> list[Case]:
    """Each step of a multi-request case as a case of its own (its id: the case's, with ``#step-N``)."""
    return [
        Case(
            tool_id=step["tool_id"],
            version=step["version"],
            case_id=f"{case.case_id}#step-{number}",
            origin=case.origin,
            category=case.category,
            input=step["input"],
            expect=Expectation(**step["expect"]),
            description=step.get("description", ""),
            seed=case.seed,
            wire=case.wire,
        )
        for number, step in enumerate(case.steps, 1)
    ]


def step_dict(tool_id: str, version: str, input: Any, expect: Expectation, description: str) -> dict:
    """One step as ``Case.steps`` holds it (plain JSON: report.json and reproducers carry it as it is)."""
    return {
        "tool_id": tool_id,
        "version": version,
        "input": input,
        "expect": {"kind": expect.kind, "error_code": expect.error_code, "output": expect.output},
        "description": description,
    }


def keeping(case: Case, keep: Callable[[dict], bool]) -> Case:
    """The case with only the steps ``keep`` accepts (a step of a tool the run does not select)."""
    steps = [step for step in case.steps if keep(step)]
    return case if len(steps) == len(case.steps) else replace(case, steps=steps)


def send(call: Callable[[Case], Any], steps: Sequence[Case], sending: str) -> list[Any]:
    """Every step's answer, in step order: called one after the other, or released together."""
    if sending != BURST or len(steps) < 2:
        return [call(step) for step in steps]
    barrier = threading.Barrier(len(steps))

    def released(step: Case) -> Any:
        try:
            barrier.wait(BARRIER_SECONDS)
        except threading.BrokenBarrierError:  # a thread was slow to start: send anyway
            pass
        return call(step)

    with concurrent.futures.ThreadPoolExecutor(len(steps), thread_name_prefix="conformance-burst") as pool:
        return list(pool.map(released, steps))


def first_wrong(verdicts: Sequence[Verdict]) -> int | None:
    """The index of the first failed or errored step, None when none is."""
    return next((index for index, verdict in enumerate(verdicts) if verdict.outcome in WRONG), None)


def deciding_step(verdicts: Sequence[Verdict]) -> int:
    """The step whose verdict is the case's: the first wrong one, else the first that is not passed
    (a step the implementation cannot express), else the first."""
    wrong = first_wrong(verdicts)
    if wrong is not None:
        return wrong
    return next((index for index, verdict in enumerate(verdicts) if verdict.outcome != "passed"), 0)


def at_step(case: Case, index: int, verdicts: Sequence[Verdict]) -> Case:
    """The case as its record shows it: the deciding step's tool, input and expectation, with every
    step (each with its outcome) and which one went wrong first."""
    steps = [{**step, "outcome": verdict.outcome} for step, verdict in zip(case.steps, verdicts)]
    step = case.steps[index]
    wrong = first_wrong(verdicts)
    return replace(
        case,
        tool_id=step["tool_id"],
        version=step["version"],
        input=step["input"],
        expect=Expectation(**step["expect"]),
        steps=steps,
        failing_step=wrong,
    )


def judged(case: Case, verdicts: Sequence[Verdict]) -> tuple[Case, int, Verdict]:
    """The case's verdict from its steps': (the case as its record shows it, the deciding step, the
    verdict, its message saying which step went wrong)."""
    index = deciding_step(verdicts)
    verdict = verdicts[index]
    if verdict.outcome in WRONG:
        verdict = Verdict(
            verdict.outcome, f"{step_label(index, len(verdicts), case.sending)}: {verdict.message}", verdict.mismatch
        )
    return at_step(case, index, verdicts), index, verdict


def step_label(index: int, count: int, sending: str) -> str:
    """ "step 2 of 3 (sequence)"."""
    return f"step {index + 1} of {count} ({sending})"

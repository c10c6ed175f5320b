"""Is the target healthy enough to judge? The preflight and the circuit breaker.

A preflight call (each selected contract's first example) must get some answer, right or
wrong, and not "not found" (a draft tool answered "not found" is reported as not served, and any tool
so answered by a target that may implement some tools only: ``cmd:``, ``jsonl:``, ``python:``).

During the run the breaker (in the manner of resilience4j's CircuitBreaker, count-based) watches
every call, timed on the session's own clock, and trips on the first of:
  * MAX_CONSECUTIVE_TRANSPORT_ERRORS transport errors in a row (a dead target);
  * a failure rate: at least FAILURE_RATE of the last WINDOW_CALLS calls were transport errors,
    judged once MINIMUM_CALLS calls are in the window (a target that answers three requests and
    hangs on the fourth: 5 of 20);
  * a time-out budget: the time lost waiting (the whole duration of each call that ended in a
    transport error or was answered only after retries, so an HTTP/MCP call costing up to three
    time-outs counts all three) is spent from BUDGET_TIMEOUTS x --timeout, which every call refills
    by REFILL_TIMEOUTS_PER_CALL x --timeout, up to the full budget. A time-out in one call of 20 can
    go on for ever; more, or a burst of slow retries, ends the run. It is counted in call-seconds:
    with --workers N concurrent time-outs each count, so the budget runs out up to N times sooner
    in wall-clock time, never later, and the run's bound holds for any N.
At the default --timeout (10 s) a target hanging on one call in four therefore loses 50 to 75 s before
it is stopped (benchmarks/bench_breaker.py), and one failing one call in 100 runs to its verdict; so does one
hanging on one kind of input, since a generated example that cost a time-out is not shrunk
(``cost_a_time_out``, engine/properties.py). Whatever trips the breaker, it does so
once: ``on_trip`` (the session ends the calls in flight) is called, and no new call starts.

``stopped_by`` says who stopped the run: "preflight", "contract_drift" (engine.drift) or "breaker".
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from conformance.model import TargetResponse
from conformance.targets.base import DEFAULT_TIMEOUT
from oracle.contracts import DRAFT, contract

MAX_CONSECUTIVE_TRANSPORT_ERRORS = 5
WINDOW_CALLS = 40  # the sliding window: the outcomes of the last 40 calls
MINIMUM_CALLS = 20  # the failure rate is judged once the window holds this many calls
FAILURE_RATE = 0.25  # trip when at least this share of the window were transport errors
BUDGET_TIMEOUTS = 6  # the time-out budget, in --timeout units (60 s at the default 10 s)
REFILL_TIMEOUTS_PER_CALL = 1 / 20  # each call gives back this much of a --timeout (0.5 s at 10 s)

PREFLIGHT, CONTRACT_DRIFT, BREAKER = "preflight", "contract_drift", "breaker"
ANSWERED = ("result", "rejection", "malformed_rejection", "not_applicable")  # what shows a target answering


class HealthMonitor:
    """The preflight and the circuit breaker (thread-safe: fixture calls may run in a pool)."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, on_trip: Callable[[], Any] | None = None) -> None:
        self.timeout = float(timeout)
        self.on_trip = on_trip
        self.calls = self.transport_errors = self.consecutive = self.retries = 0
        self.window: deque[bool] = deque(maxlen=WINDOW_CALLS)  # True: that call was a transport error
        self.budget_s = self.capacity_s = BUDGET_TIMEOUTS * self.timeout
        self.refill_s = REFILL_TIMEOUTS_PER_CALL * self.timeout
        self.time_lost_s = 0.0
        self.server_errors = 0  # inputs that failed the same way twice while the target answered others
        self.last_answered = float("-inf")  # when a call last got an answer (not a fault, not a failure)
        self.reason = self.stopped_by = ""
        self.interrupted = ""  # "interrupted by SIGTERM": a signal stopped the run (not a verdict on the target)
        self._lock = threading.Lock()

    @property
    def unhealthy(self) -> bool:
        return bool(self.reason)

    @property
    def stopping(self) -> bool:
        """No call starts any more: the breaker tripped, or a signal came."""
        return bool(self.reason or self.interrupted)

    @property
    def stop_reason(self) -> str:
        return self.reason or self.interrupted

    def interrupt(self, signal_name: str) -> None:
        """A signal stops the run (conformance/termination.py, from its watcher thread): the calls in flight
        end (``on_trip`` closes the target), none starts after, and none is judged or counted."""
        with self._lock:
            first = not self.interrupted
            self.interrupted = self.interrupted or f"interrupted by {signal_name}"
        if first and self.on_trip is not None:
            self.on_trip()

    def trip(self, reason: str, stopped_by: str = BREAKER) -> None:
        with self._lock:
            first = not self.reason
            if first:
                self.reason, self.stopped_by = reason, stopped_by
        if first and self.on_trip is not None:
            self.on_trip()

    def call(self, target, tool_id: str, version: str, payload: Any, wire: Any = None) -> TargetResponse | None:
        """One call to the target, timed and recorded; None when the breaker had tripped meanwhile and the
        call failed (it was cut short by the stop: not a verdict on its input). ``wire``: the input's
        wire form (conformance/wire.py), for a target that carries one."""
        started = time.monotonic()
        response = _send(target, tool_id, version, payload, wire)
        if self.interrupted:  # cut short by the stop, or answered after it: not a verdict, not counted
            return None
        tripped_before = self.unhealthy
        if response.kind == "transport_error" and response.fault and not tripped_before:
            if getattr(target, "in_process", False):
                return self._own_fault(target, tool_id, version, payload, response, started)
            return self._sent_again(target, tool_id, version, payload, wire, response, started)
        self.record(response, time.monotonic() - started)
        return None if tripped_before and response.kind == "transport_error" else response

    def _sent_again(
        self, target, tool_id: str, version: str, payload: Any, wire: Any, first: TargetResponse, started: float
    ) -> TargetResponse | None:
        """A fault the input may have caused (a 5xx, garbage, a crash, a hang: ``TargetResponse.fault``) is
        sent once more. Failing the same way again while the target answers other inputs, it is a server
        error: a failure of the case, which the breaker does not count. Otherwise (it did not come back, or
        the target answers nothing) both calls are what they were: the transport's failures."""
        again_started = time.monotonic()
        again = _send(target, tool_id, version, payload, wire)
        if again.kind != "transport_error" or again.fault != first.fault or self.unhealthy:
            self.record(first, again_started - started)
            self.record(again, time.monotonic() - again_started)
            again.retries += first.retries
            return None if self.unhealthy and again.kind == "transport_error" else again
        if not self._answers_others(target, tool_id, version, payload, started):
            self.record(first, again_started - started)
            self.record(again, time.monotonic() - again_started)
            return None if self.unhealthy else again
        again = dataclasses.replace(
            again,
            detail=f"{again.detail} (the same when the input was sent again, while the target answers other inputs)",
        )
        return self._judged_server_error(first, again)

    def _own_fault(
        self, target, tool_id: str, version: str, payload: Any, fault: TargetResponse, started: float
    ) -> TargetResponse | None:
        """An in-process target's exception: no transport stands between, so it is the implementation's own
        even when it would not come back (a race between the threads of a burst): a server error at once,
        while the target answers other inputs (another tool's example computed, or this tool's: a library
        failing on every example of one tool, as on each max_order below 4, still computes the others); an
        outage when it answers nothing."""
        if not (
            self._computes_another_tool(target, tool_id)
            or self._answers_others(target, tool_id, version, payload, started)
        ):
            self.record(fault, time.monotonic() - started)
            return None if self.unhealthy else fault
        return self._judged_server_error(fault, fault)

    def _computes_another_tool(self, target, tool_id: str) -> bool:
        """Does the in-process target compute another tool? The first example of each other tool is asked until
        one is answered with a result (not counted: a question of its own, not a call of the run)."""
        from oracle.registry import tool_keys

        for other, other_version in tool_keys():
            if other != tool_id and not self.stopping:
                example = contract(other, other_version).document()["examples"][0]["input"]
                if target.call(other, other_version, example).kind == "result":
                    return True
        return False

    def _judged_server_error(self, first: TargetResponse, last: TargetResponse) -> TargetResponse:
        """The fault as a failure of its case: counted apart, neither an outage nor time lost."""
        with self._lock:
            self.server_errors += 1
        for response in (first, last) if first is not last else (first,):
            self.record(dataclasses.replace(response, kind="server_error", retries=0), 0.0)
        return dataclasses.replace(
            last, kind="server_error", retries=first.retries + (last.retries if last is not first else 0)
        )

    def _answers_others(self, target, tool_id: str, version: str, payload: Any, since: float) -> bool:
        """Does the target answer other inputs? Yes if any call was answered after ``since``; else the
        tool's first contract example that is not this input is asked (the preflight's question)."""
        with self._lock:
            if self.last_answered > since:
                return True
        examples = [example["input"] for example in contract(tool_id, version).document()["examples"]]
        other = next((example for example in examples if example != payload), None)
        if other is None:
            return False
        probe_started = time.monotonic()
        probe = target.call(tool_id, version, other)
        self.record(probe, time.monotonic() - probe_started)
        return probe.kind in ANSWERED

    def cost_a_time_out(self, response: TargetResponse | None) -> bool:
        """A transport error that took at least half a --timeout (a hang, or a slow failure): trying a
        similar input again would cost as much (engine/properties.py does not shrink it)."""
        return (
            response is not None
            and response.kind in ("transport_error", "server_error")
            and response.duration_ms >= 500 * self.timeout
        )

    def record(self, response: TargetResponse, elapsed_s: float | None = None) -> None:
        """Count one call's outcome; ``elapsed_s`` is its wall-clock duration (default: what the target measured)."""
        if elapsed_s is None:
            elapsed_s = response.duration_ms / 1000
        failed = response.kind == "transport_error"
        with self._lock:
            if response.kind in ANSWERED:
                self.last_answered = time.monotonic()
            self.calls += 1
            self.retries += response.retries
            self.window.append(failed)
            self.transport_errors += failed
            self.consecutive = self.consecutive + 1 if failed else 0
            lost = elapsed_s if failed or response.retries else 0.0
            self.time_lost_s += lost
            self.budget_s = min(self.capacity_s, self.budget_s + self.refill_s) - lost
            reason = "" if self.reason else self._verdict(response)
        if reason:
            self.trip(reason)

    def _verdict(self, response: TargetResponse) -> str:
        """Why the breaker trips after this call ("" if it does not); under the lock."""
        in_window = sum(self.window)
        if self.consecutive >= MAX_CONSECUTIVE_TRANSPORT_ERRORS:
            why = f"{self.consecutive} transport errors in a row"
        elif len(self.window) >= MINIMUM_CALLS and in_window >= FAILURE_RATE * len(self.window):
            why = (
                f"{in_window} of the last {len(self.window)} calls were transport errors (the breaker trips at "
                f"{FAILURE_RATE:.0%} of the last {WINDOW_CALLS} calls, from {MINIMUM_CALLS} calls on); "
                f"{self.time_lost_s:.1f} s lost to time-outs and retries"
            )
        elif self.budget_s < 0:
            why = (
                f"the time-out budget is spent: {self.time_lost_s:.1f} s lost to time-outs and retries in "
                f"{self.calls} calls (budget {self.capacity_s:g} s = {BUDGET_TIMEOUTS} x --timeout, each call "
                f"refilling {self.refill_s:g} s); {in_window} of the last {len(self.window)} calls were "
                f"transport errors"
            )
        else:
            return ""
        return f"{why}; last: {response.detail or response.kind}"

    def figures(self) -> dict:
        """The breaker's counts for the report header (report.schema.json: breaker)."""
        with self._lock:
            return {
                "calls": self.calls,
                "transport_errors": self.transport_errors,
                "server_errors": self.server_errors,
                "window_calls": len(self.window),
                "window_transport_errors": sum(self.window),
                "time_lost_s": round(self.time_lost_s, 3),
                "time_budget_s": self.capacity_s,
                "time_budget_left_s": round(self.budget_s, 3),
            }

    def preflight(self, target, tools: list[tuple[str, str]]) -> list[str]:
        """The first published tool's first contract example must get some answer (right or wrong)
        and not "not found", or the run stops at once: nothing can be concluded about a target
        that does not answer, or does not serve a published tool (a wrong base URL, not deployed).

        Each draft tool is asked its first example too: one the target answers "not found" for is
        not served yet and is returned (its cases are skipped, not failed). Any other answer to a
        draft's question, even a transport error, only means it is served: the run judges it.
        """
        contracts = [contract(tool_id, version) for tool_id, version in tools]
        if getattr(target, "implements_some_tools", False):
            return self._preflight_each(target, contracts)
        first = next((found for found in contracts if found.status != DRAFT), contracts[0])
        response = self._ask(target, first)
        if response.kind == "transport_error":
            self._unusable(target, first, f"it did not answer the {first.label} contract example: {response.detail}")
        elif _not_found(response) and first.status != DRAFT:
            self._unusable(
                target,
                first,
                f"it answers 'not found' for the published tool {first.label} "
                f"({response.detail or response.error_code}): a wrong address, or the tool is not deployed",
            )
        else:
            self.record(response)
        if self.unhealthy:
            return []
        return [
            found.label
            for found in contracts
            if found.status == DRAFT
            and _not_found(response if found is first else self._ask_counting_retries(target, found))
        ]

    def _preflight_each(self, target, contracts) -> list[str]:
        """A target that may implement some tools only (a program or module written for one: ``cmd:``, ``jsonl:``,
        ``python:``): each selected tool's first example is asked, and a tool answered "not found" is not
        served (skipped, listed in the header), published or draft. The target must answer some example
        (a wrong answer too): one that answers none is unusable. Session.start stops a run that judges no
        tool, saying to pass --tools."""
        not_served, unanswered = [], []
        for found in contracts:
            response = self._ask(target, found)
            if _not_found(response):
                not_served.append(found.label)
            elif response.kind == "transport_error":
                unanswered.append((found, response.detail))
            else:
                self.record(response)
        if unanswered and len(unanswered) + len(not_served) == len(contracts):
            found, detail = unanswered[0]
            self._unusable(target, found, f"it did not answer the {found.label} contract example: {detail}")
            return []
        return not_served

    def _unusable(self, target, found, why: str) -> None:
        """Stop the run at the preflight: the target unusable, why, the call to try by hand on the contract's
        example, and what to check for this kind of target (its ``preflight_hint``)."""
        example = found.document()["examples"][0]["input"]
        try:
            call = target.reproduce_hint(found.tool_id, found.version, example)
        except Exception:  # noqa: BLE001 - a hint must never hide the stop itself
            call = ""
        call = call if len(call) <= 500 else ""  # a command too long to type helps nobody
        hint = getattr(target, "preflight_hint", "")
        self.trip(
            f"preflight: {why}" + (f"; try by hand: {call}" if call else "") + (f"; {hint}" if hint else ""),
            PREFLIGHT,
        )

    @staticmethod
    def _ask(target, found) -> TargetResponse:
        return target.call(found.tool_id, found.version, found.document()["examples"][0]["input"])

    def _ask_counting_retries(self, target, found) -> TargetResponse:
        """A draft's question: not a call the breaker judges, but its retries count like any other."""
        response = self._ask(target, found)
        with self._lock:
            self.retries += response.retries
        return response


def _send(target, tool_id: str, version: str, payload: Any, wire: Any) -> TargetResponse:
    """The target's answer, the input in its wire form where it has one (conformance/wire.py)."""
    return target.call(tool_id, version, payload) if wire is None else target.call(tool_id, version, payload, wire)


def _not_found(response: TargetResponse) -> bool:
    return response.kind == "rejection" and (response.status == 404 or response.error_code == "not_found")

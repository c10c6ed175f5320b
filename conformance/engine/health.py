"""Is the target healthy enough to judge? The preflight and the circuit breaker.

A preflight call (each selected contract's first example) must get some answer, right or
wrong, and not "not found" (a draft tool answered "not found" is reported as not served). During the run the breaker trips after
MAX_CONSECUTIVE_TRANSPORT_ERRORS transport errors in a row, or when more than half of the
first EARLY_WINDOW calls were transport errors: a dead, hanging or garbage-answering target
ends the run fast (exit 3) instead of timing out case after case.
"""

from __future__ import annotations

import threading

from conformance.model import TargetResponse
from oracle.contracts import DRAFT, contract

MAX_CONSECUTIVE_TRANSPORT_ERRORS = 5
EARLY_WINDOW = 20


class HealthMonitor:
    """The circuit breaker over transport errors (thread-safe: fixture calls may run in a pool)."""

    def __init__(self) -> None:
        self.calls = self.transport_errors = self.consecutive = self.retries = 0
        self.reason = ""
        self._lock = threading.Lock()

    @property
    def unhealthy(self) -> bool:
        return bool(self.reason)

    def trip(self, reason: str) -> None:
        with self._lock:
            self.reason = self.reason or reason

    def record(self, response: TargetResponse) -> None:
        with self._lock:
            self.calls += 1
            self.retries += response.retries
            if response.kind != "transport_error":
                self.consecutive = 0
                return
            self.transport_errors += 1
            self.consecutive += 1
            if self.reason:
                return
            if self.consecutive >= MAX_CONSECUTIVE_TRANSPORT_ERRORS:
                self.reason = f"{self.consecutive} transport errors in a row; last: {response.detail}"
            elif self.calls <= EARLY_WINDOW and self.transport_errors > EARLY_WINDOW // 2:
                self.reason = (f"{self.transport_errors} of the first {self.calls} calls were transport errors; "
                               f"last: {response.detail}")

    def preflight(self, target, tools: list[tuple[str, str]]) -> list[str]:
        """The first published tool's first contract example must get some answer (right or wrong)
        and not "not found", or the run stops at once: nothing can be concluded about a target
        that does not answer, or does not serve a published tool (a wrong base URL, not deployed).

        Each draft tool is asked its first example too: one the target answers "not found" for is
        not served yet and is returned (its cases are skipped, not failed). Any other answer to a
        draft's question, even a transport error, only means it is served: the run judges it.
        """
        contracts = [contract(tool_id, version) for tool_id, version in tools]
        first = next((found for found in contracts if found.status != DRAFT), contracts[0])
        response = self._ask(target, first)
        if response.kind == "transport_error":
            self.trip(f"preflight: the target did not answer the {first.label} contract example: {response.detail}")
        elif _not_found(response) and first.status != DRAFT:
            self.trip(f"preflight: the target answers 'not found' for {first.label} "
                      f"({response.detail or response.error_code}): a wrong base URL, or the tool is not deployed")
        else:
            self.record(response)
        if self.unhealthy:
            return []
        return [found.label for found in contracts if found.status == DRAFT
                and _not_found(response if found is first else self._ask_counting_retries(target, found))]

    @staticmethod
    def _ask(target, found) -> TargetResponse:
        return target.call(found.tool_id, found.version, found.document()["examples"][0]["input"])

    def _ask_counting_retries(self, target, found) -> TargetResponse:
        """A draft's question: not a call the breaker judges, but its retries count like any other."""
        response = self._ask(target, found)
        with self._lock:
            self.retries += response.retries
        return response


def _not_found(response: TargetResponse) -> bool:
    return response.kind == "rejection" and (response.status == 404 or response.error_code == "not_found")

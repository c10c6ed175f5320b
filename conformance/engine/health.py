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
        """Each tool's first contract example must get some answer (right or wrong), or the run stops.

        A draft tool the target answers "not found" for is not served yet: returned (its cases are
        skipped, not failed). "Not found" for a published tool stops the run: nothing can be
        concluded about a tool the target does not serve (a wrong base URL, or not deployed).
        """
        not_served = []
        for tool_id, version in tools:
            found = contract(tool_id, version)
            response = target.call(tool_id, version, found.document()["examples"][0]["input"])
            if response.kind == "transport_error":
                self.trip(f"preflight: the target did not answer the {tool_id}@{version} contract example: "
                          f"{response.detail}")
            elif response.kind == "rejection" and (response.status == 404 or response.error_code == "not_found"):
                if found.status == DRAFT:
                    not_served.append(found.label)
                    continue
                self.trip(f"preflight: the target answers 'not found' for {tool_id}@{version} "
                          f"({response.detail or response.error_code}): a wrong base URL, or the tool is not deployed")
            else:
                self.record(response)
            if self.unhealthy:
                break
        return not_served

"""SIGTERM and SIGINT stop a run, and are never lost.

``timeout``, a CI cancellation, ``docker stop`` and Kubernetes end a process with SIGTERM, whose
default action kills it on the spot: no report, and the processes a ``jsonl:`` or ``cmd:`` target
started left running; Ctrl-C sends SIGINT, whose default raises KeyboardInterrupt wherever Python is.
An exception raised wherever Python is can be lost: inside a garbage-collection callback or a
``__del__`` it is swallowed (Hypothesis has such callbacks), and raised in the middle of the suite's
own bookkeeping it can leave that broken. So while a test of the run is on (its setup done, its
teardown not yet), ``StopSignals`` only *records* the signal (an attribute and an Event set in the
handler), and acts on it where nothing can swallow it:

  * a watcher thread, woken by the Event, calls ``on_signal`` (the session ends the calls in flight:
    processes killed, connections cut, MCP calls cancelled; no call starts after it, engine/health.py),
    so the test ends within moments;
  * the main thread raises the interruption at points the suite controls (``check``, before and after
    each test; pytest's own ``KeyboardInterrupt`` machinery then stops the session as on Ctrl-C):
    ``Terminated`` for SIGTERM, ``KeyboardInterrupt`` for SIGINT, again at each such point until pytest
    has taken it. The session's finish writes the partial report, marked ``interrupted``, and the run
    exits 143 (128 + SIGTERM) or 3 (SIGINT).

Between tests (pytest's own code, a process of ``-n`` waiting for its next test, the controller of
``-n``, which runs none and relays the signal to its processes) the handler also raises, once, as
Python's default SIGINT handler does: none of the suite's code runs there, and nothing else would
reach a point that checks. Not before ``start`` though: pytest writes no report of a session interrupted
while it starts (its ``pytest_sessionstart``, where the controller of ``-n`` starts its processes, is
outside what its session finish covers), so a signal then is recorded and raised by ``start``, at the
session's first step (its collection).

Before any of that, from the first moments of `conformance run` (conformance/cli.py) until its handlers are
installed, ``record_early`` records a signal (the imports of pytest and Hypothesis take most of a second):
``install`` takes it over, and ``start`` raises it, as for a signal while the session starts. `conformance
matrix` records its first moments the same way (its ``Stop``, conformance/matrix/rows.py, takes the signal over
and starts no row).

Once the reports are being written (``hold``) a signal is recorded as ``late`` and sets ``CUT``: what only
adds to the reports and may take long (naming each failure's divergence, conformance/divergences.py) stops
there, the reports are written at once, marked interrupted.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

NAMES = {signal.SIGTERM: "SIGTERM", signal.SIGINT: "SIGINT"}
# set by a signal while the reports are being written: work that only adds to them stops
CUT = threading.Event()


class Terminated(KeyboardInterrupt):
    """The run was asked to stop by SIGTERM."""


def interruption_for(name: str) -> KeyboardInterrupt:
    return Terminated("SIGTERM") if name == "SIGTERM" else KeyboardInterrupt()


EARLY: list[str] = []  # the first signal that came before a run's handlers were installed (record_early)
BEFORE_EARLY: dict[int, Any] = {}  # the handlers record_early replaced, put back by ``StopSignals.restore``


def record_early() -> None:
    """Until ``StopSignals.install``, SIGTERM and SIGINT are recorded, not acted on (the run has started nothing
    yet): its session acts on them once it starts. Only for a command that installs ``StopSignals`` after."""
    for signum in NAMES:
        BEFORE_EARLY[signum] = signal.signal(signum, _record)


def _record(signum: int, frame: FrameType | None) -> None:
    EARLY[:] = EARLY or [NAMES.get(signal.Signals(signum), "SIGTERM")]


def install_handler(handler: Callable[[int, FrameType | None], Any]) -> tuple[dict[int, Any], str]:
    """``handler`` for SIGTERM and SIGINT. Returns the handlers to put back (those before ``record_early``'s,
    if it ran) and the signal it recorded ("" if none), which the caller acts on as on one received now."""
    previous: dict[int, Any] = {}
    for signum in NAMES:
        replaced = signal.signal(signum, handler)
        previous[signum] = BEFORE_EARLY.get(signum, replaced) if replaced is _record else replaced
    return previous, EARLY[0] if EARLY else ""


class StopSignals:
    """SIGTERM and SIGINT recorded, from ``install`` until ``hold`` or ``restore``; acted on by ``check``
    (the main thread, before and after each test) and ``on_signal`` (a watcher thread)."""

    def __init__(self, raise_at_once: bool = False) -> None:
        self.raise_at_once = raise_at_once
        self.received = ""  # "SIGTERM" or "SIGINT": the first signal while armed
        self.late = ""  # the first signal while the reports were being written (held)
        self.held = False
        self.delivered = False  # pytest took the interruption (its keyboard-interrupt hook ran)
        self.in_test = False  # a test of the run is running (its setup passed, its teardown not yet)
        self.armed = False
        self.started = False  # the session has started (``start``): the handler may raise between tests
        self.on_signal: Callable[[str], Any] | None = None
        self._previous: dict[int, Any] = {}  # what signal.signal returned, per signal
        self._woken = threading.Event()
        self._raised = False  # the handler raised once already

    def install(self, on_signal: Callable[[str], Any] | None = None) -> None:
        if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
            return
        self.on_signal = on_signal
        self._previous, early = install_handler(self._handle)
        self.armed = True
        if early:  # a signal before these handlers (record_early): raised by ``start``
            self.received = early
            self._woken.set()
        threading.Thread(target=self._watch, name="conformance-signals", daemon=True).start()

    def start(self) -> None:
        """The session has started: a signal recorded before is raised now, and the handler may raise."""
        self.started = True
        self.check()

    def hold(self) -> None:
        """From now on a signal is only recorded (``late``) and cuts short what only adds to the reports."""
        self.armed = False
        self.held = True

    def restore(self) -> None:
        self.armed = self.held = False
        for signum, previous in self._previous.items():
            if previous is not None:
                signal.signal(signum, previous)
        self._previous.clear()

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        """The handler: it records and wakes the watcher. Once the session has started (``start``), between
        tests (pytest's own code, or a process of -n waiting for its next test, or the controller of -n waiting
        on its processes) it also raises, once: nothing of the suite's runs there, and nothing else would reach
        a point that checks."""
        if not self.armed:
            if self.held:
                self.late = self.late or NAMES.get(signal.Signals(signum), "SIGTERM")
                CUT.set()
            return
        self.received = self.received or NAMES.get(signal.Signals(signum), "SIGTERM")
        self._woken.set()
        if self.started and (self.raise_at_once or not self.in_test) and not self._raised:
            self._raised = True
            raise interruption_for(self.received)

    def _watch(self) -> None:
        self._woken.wait()
        if self.on_signal is not None and self.armed:
            self.on_signal(self.received)

    def check(self) -> None:
        """At a point the suite controls (main thread): raise the recorded signal's interruption until pytest
        has taken it (a raise from the handler that something swallowed is raised again here)."""
        if self.received and self.armed and not self.delivered:
            raise interruption_for(self.received)


def interruption(exception: BaseException) -> str:
    """The signal a KeyboardInterrupt stands for: "SIGTERM" (Terminated) or "SIGINT" (Ctrl-C)."""
    return "SIGTERM" if isinstance(exception, Terminated) else "SIGINT"

"""StopSignals, in this process (conformance/termination.py): when the handler records and when it raises.

Each test installs the handlers, sends this process a real signal with os.kill and restores them. Python
runs a handler in the main thread between two bytecodes, so ``delivered`` spins until it has run.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from conformance.termination import StopSignals, Terminated


def delivered(signals: StopSignals, signum: int) -> None:
    os.kill(os.getpid(), signum)
    deadline = time.monotonic() + 5
    while not signals.received and time.monotonic() < deadline:
        time.sleep(0.001)


@pytest.fixture
def signals():
    stop = StopSignals()
    stop.install()
    yield stop
    stop.restore()


def test_a_signal_before_the_session_starts_is_recorded_and_raised_at_its_first_step(signals):
    # pytest writes no report of a session interrupted while it starts: the handler must not raise then
    delivered(signals, signal.SIGTERM)
    assert signals.received == "SIGTERM"
    with pytest.raises(Terminated):
        signals.start()


def test_once_started_a_signal_between_tests_is_raised_by_the_handler(signals):
    signals.start()
    with pytest.raises(KeyboardInterrupt) as raised:
        delivered(signals, signal.SIGINT)
    assert not isinstance(raised.value, Terminated)  # SIGINT stays Ctrl-C's KeyboardInterrupt
    assert signals.received == "SIGINT"


def test_during_a_test_a_signal_is_only_recorded_and_raised_at_the_next_check(signals):
    signals.start()
    signals.in_test = True
    delivered(signals, signal.SIGTERM)
    signals.in_test = False
    with pytest.raises(Terminated):
        signals.check()

"""StopSignals, in this process (conformance/termination.py): when the handler records and when it raises.

Each test installs the handlers, sends this process a real signal with os.kill and restores them. Python
runs a handler in the main thread between two bytecodes, so ``delivered`` spins until it has run.
"""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from conformance import termination
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


@pytest.fixture
def early_sigterm(monkeypatch):
    """``record_early`` ran and a SIGTERM, then a SIGINT, came before the command installed its handlers; the
    handlers of before are put back after the test."""
    monkeypatch.setattr(termination, "EARLY", [])
    monkeypatch.setattr(termination, "BEFORE_EARLY", {})
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        termination.record_early()
        os.kill(os.getpid(), signal.SIGTERM)  # recorded only: this process goes on
        deadline = time.monotonic() + 5
        while not termination.EARLY and time.monotonic() < deadline:
            time.sleep(0.001)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        assert termination.EARLY == ["SIGTERM"]  # the first one is kept
        yield before
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def test_a_signal_before_the_handlers_are_installed_is_recorded_and_raised_once_the_session_starts(early_sigterm):
    """`conformance run` records a signal from its first moments (``record_early``, while pytest and Hypothesis
    import): before, a SIGTERM then ended the process on the spot, with no report, and a SIGINT printed a trace."""
    stop = StopSignals()
    stop.install()
    assert stop.received == "SIGTERM"
    with pytest.raises(Terminated):
        stop.start()
    stop.restore()
    # what was there before record_early is back, not its recorder
    assert {signum: signal.getsignal(signum) for signum in early_sigterm} == early_sigterm


def test_a_signal_before_the_matrix_installs_its_handlers_stops_it_before_its_first_row(early_sigterm, tmp_path):
    """`conformance matrix` records its first moments too (its imports): the signal counts as received, no row
    starts, and the handlers of before are back after it. Before, a SIGTERM then ended it with no matrix."""
    from conformance.matrix.rows import Display, Row, Stop, run_rows

    stop = Stop()
    stop.install()
    assert stop.received == "SIGTERM"
    row = Row("a-library", [sys.executable, "-c", "pass"], tmp_path / "row", tmp_path / "row.jsonl")
    with open(tmp_path / "shown.txt", "w", encoding="utf-8") as stream:
        assert run_rows([row], 1, Display(stream, live=False), stop) == "SIGTERM"
    assert row.process is None  # never started
    stop.restore()
    assert {signum: signal.getsignal(signum) for signum in early_sigterm} == early_sigterm

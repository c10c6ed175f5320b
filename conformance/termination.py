"""SIGTERM stops a run as Ctrl-C does.

``timeout``, a CI cancellation, ``docker stop`` and Kubernetes end a process with SIGTERM, whose
default action kills it on the spot: no report, and the processes a ``jsonl:`` or ``cmd:`` target
started left running. While a run is on, ``SigtermHandler`` makes SIGTERM raise ``Terminated`` (a
KeyboardInterrupt) in the main thread, so pytest stops the session exactly as on Ctrl-C: the
session's finish writes the partial report, marked ``interrupted: "SIGTERM"``, and closes the target
(ending every process, connection and session it holds), and the run exits 143 (128 + SIGTERM).
Once the reports are being written (``hold``) a SIGTERM is ignored: the run ends right after anyway.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any


class Terminated(KeyboardInterrupt):
    """The run was asked to stop by SIGTERM."""


class SigtermHandler:
    """SIGTERM as a KeyboardInterrupt in the main thread, from ``install`` until ``hold`` or ``restore``."""

    def __init__(self) -> None:
        self.previous: Callable[[int, FrameType | None], Any] | int | None = None  # what signal.signal returns
        self.armed = False

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
            return
        self.previous = signal.signal(signal.SIGTERM, self._handle)
        self.armed = True

    def hold(self) -> None:
        """From now on a SIGTERM is ignored (the run is finishing)."""
        self.armed = False

    def restore(self) -> None:
        self.armed = False
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)
            self.previous = None

    def _handle(self, signum, frame) -> None:
        if self.armed:
            self.armed = False  # one interruption: the partial report must get written
            raise Terminated("SIGTERM")


def interruption(exception: BaseException) -> str:
    """The signal a KeyboardInterrupt stands for: "SIGTERM" (raised by the handler above) or "SIGINT" (Ctrl-C)."""
    return "SIGTERM" if isinstance(exception, Terminated) else "SIGINT"

"""The matrix's rows run: one ``conformance run`` per library, N at a time, shown as they go, stopped on a signal.

Each row is a subprocess in a process group of its own (``start_new_session``), writing its reports and a
progress file (``conformance run --progress-file``, conformance/progress_file.py) that this process follows:
per row and tool, checks done of the total collected, failures so far, time taken. On a terminal one status
line is redrawn; otherwise (a pipe, a CI log) a line is printed as each tool and each row finishes.

SIGTERM or SIGINT stops the matrix: the signal is recorded (``Stop``, or from the command's first moments
``termination.record_early``) and relayed to every running row's process group; a row still running
``GRACE_SECONDS`` later is killed (SIGKILL, its whole group), rows not started never start. ``conformance
run`` writes its partial report on either signal, so the partial matrix holds what each row had judged.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from conformance.progress_file import Follower
from conformance.termination import NAMES, install_handler

POLL_SECONDS = 0.2  # how often the rows' progress files and exits are looked at
REDRAW_SECONDS = 0.5
GRACE_SECONDS = 5.0  # a signalled row writes its partial report within this, or is killed


@dataclass
class Row:
    """One library's run: its command, where it writes, and how it went."""

    name: str
    command: list[str]
    run_dir: Path
    progress_path: Path  # the run's --progress-file
    estimate: float = 0.0  # expected seconds (the last matrix's), to start the longest rows first
    progress: Follower = field(init=False)
    process: subprocess.Popen | None = None
    started: float = 0.0
    seconds: float = 0.0
    exit_code: int | None = None
    signalled: str = ""  # the signal relayed to it, if any
    killed: bool = False  # it outlived the grace after the signal

    def __post_init__(self) -> None:
        self.progress = Follower(self.progress_path)

    @property
    def running(self) -> bool:
        return self.process is not None and self.exit_code is None

    def elapsed(self) -> float:
        if self.process is None:
            return 0.0
        return self.seconds if self.exit_code is not None else time.monotonic() - self.started

    def checks(self) -> tuple[int, int, int]:
        """(checks done, of how many (0 while unknown), failed so far)."""
        follower = self.progress
        tools = follower.order
        return (
            sum(follower.done(tool) for tool in tools),
            sum(follower.totals.values()),
            sum(follower.failed(tool) for tool in tools),
        )


class Stop:
    """SIGTERM and SIGINT, recorded (the first one) while installed; the loop acts on it."""

    def __init__(self) -> None:
        self.received = ""
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        """The handlers; a signal ``record_early`` recorded (conformance/cli.py) counts as received now."""
        self._previous, early = install_handler(self._handle)
        self.received = self.received or early

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.received = self.received or NAMES[signal.Signals(signum)]

    def restore(self) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous if previous is not None else signal.SIG_DFL)
        self._previous.clear()


def seconds_text(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds >= 60 else f"{seconds} s"


def checks_text(done: int, total: int, failed: int) -> str:
    """``12/40 checks, 2 failed``: done of the total (when known), failures so far."""
    text = f"{done}/{total} checks" if total else f"{done} checks"
    return text + (f", {failed} failed" if failed else "")


class Display:
    """What the matrix shows while it runs: a redrawn line on a terminal, whole lines in a pipe."""

    def __init__(self, stream: TextIO, live: bool | None = None) -> None:
        self.stream = stream
        self.live = stream.isatty() if live is None else live
        self._shown = False
        self._drawn = 0.0
        self.began = time.monotonic()

    def line(self, text: str) -> None:
        self._clear()
        self.stream.write(text + "\n")
        self.stream.flush()

    def tool_done(self, row: Row, tool: str) -> None:
        if self.live:  # the status line shows it
            return
        follower = row.progress
        self.line(
            f"  {row.name} · {tool}: "
            f"{checks_text(follower.done(tool), follower.totals.get(tool, 0), follower.failed(tool))}"
            f" [{seconds_text(row.elapsed())}]"
        )

    def row_done(self, row: Row, rows_done: int, rows: int) -> None:
        done, total, failed = row.checks()
        how = {0: "conformant", 1: "not conformant", 143: "stopped by SIGTERM"}.get(
            row.exit_code if row.exit_code is not None else -1, "could not conclude"
        )
        if row.killed:
            how = f"killed after {row.signalled} (no report)"
        self.line(
            f"[{rows_done}/{rows}] {row.name}: {how}, {checks_text(done, total, failed)} in "
            f"{seconds_text(row.seconds)} (exit {row.exit_code})"
        )

    def status(self, rows: list[Row], force: bool = False) -> None:
        if not self.live or (not force and time.monotonic() - self._drawn < REDRAW_SECONDS):
            return
        self._drawn = time.monotonic()
        finished = sum(1 for row in rows if row.exit_code is not None)
        parts = [f"matrix {finished}/{len(rows)} rows, {seconds_text(self._drawn - self.began)}"]
        for row in rows:
            if row.running:
                follower, tool = row.progress, row.progress.current()
                now = f" {tool} {follower.done(tool)}/{follower.totals.get(tool, '?')} ·" if tool else ""
                parts.append(f"{row.name}{now} {checks_text(*row.checks())} [{seconds_text(row.elapsed())}]")
        width = shutil.get_terminal_size((120, 24)).columns - 1
        self.stream.write("\r\x1b[2K" + " | ".join(parts)[:width])
        self.stream.flush()
        self._shown = True

    def _clear(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[2K")
            self._shown = False

    def close(self) -> None:
        self._clear()
        self.stream.flush()


def signal_group(row: Row, signum: int) -> None:
    """``signum`` to the row's whole process group (the run and whatever it started)."""
    if row.process is None:
        return
    try:
        os.killpg(row.process.pid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def start(row: Row) -> None:
    row.run_dir.mkdir(parents=True, exist_ok=True)
    (row.run_dir / "report.json").unlink(missing_ok=True)  # a report left by an earlier matrix is not this one's
    row.started = time.monotonic()
    row.process = subprocess.Popen(row.command, stdout=subprocess.DEVNULL, start_new_session=True)


def reap(row: Row) -> bool:
    """True when the row's process just ended (its group's leftovers are killed with it)."""
    assert row.process is not None
    code = row.process.poll()
    if code is None:
        return False
    row.seconds = time.monotonic() - row.started
    row.exit_code = code if code >= 0 else 128 - code  # killed by signal N: 128 + N, as a shell says
    signal_group(row, signal.SIGKILL)  # anything it started and left behind
    return True


def run_rows(
    rows: list[Row],
    processes: int,
    display: Display,
    stop: Stop,
    clock: Callable[[], float] = time.monotonic,
) -> str:
    """Run the rows, ``processes`` at a time (the longest expected first); "" when all ran, else the signal
    that stopped them (rows never started keep ``process`` None)."""
    waiting = sorted(rows, key=lambda row: -row.estimate)  # stable: the same order for equal estimates
    finished = 0
    deadline: float | None = None
    while True:
        if stop.received and deadline is None:  # relay the signal, once, and stop starting rows
            deadline = clock() + GRACE_SECONDS
            waiting = []
            for row in rows:
                if row.running:
                    row.signalled = stop.received
                    signal_group(row, signal.SIGTERM if stop.received == "SIGTERM" else signal.SIGINT)
        if deadline is not None and clock() > deadline:
            for row in rows:
                if row.running:
                    row.killed = True
                    signal_group(row, signal.SIGKILL)
        while waiting and sum(1 for row in rows if row.running) < processes:
            start(waiting.pop(0))
        for row in rows:
            if row.process is None or row.exit_code is not None:
                continue
            for tool in row.progress.poll():
                display.tool_done(row, tool)
            if reap(row):
                for tool in row.progress.poll():
                    display.tool_done(row, tool)
                finished += 1
                display.row_done(row, finished, len(rows))
        if not waiting and not any(row.running for row in rows):
            display.close()
            return stop.received
        display.status(rows)
        time.sleep(POLL_SECONDS)


def default_processes() -> int:
    """-n auto: the CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


SHORT = {"conformant": "ok", "not_applicable": "n/a", "not_run": "not run"}


def short(cell: dict) -> str:
    """A cell in a few characters: ok, N failing (failure groups), n/a, not run."""
    if cell["status"] == "failing":
        return f"{len(cell['failure_groups'])} failing"
    return SHORT.get(cell["status"], cell["status"])


def summary(document: dict, written: list[Path]) -> str:
    """The end of the matrix's output: each tool x implementation in short, each row's run, the files."""
    names = [row["name"] for row in document["implementations"]]
    cells = {(cell["tool"], cell["implementation"]): cell for cell in document["cells"]}
    table = [["tool", *names]] + [
        [tool.partition("@")[0], *(short(cells[tool, name]) for name in names)] for tool in document["tools"]
    ]
    widths = [max(len(line[column]) for line in table) for column in range(len(table[0]))]
    lines = ["", *("  ".join(text.ljust(width) for text, width in zip(line, widths)).rstrip() for line in table), ""]
    for row in document["implementations"]:
        ran = "not run" if row["exit_code"] is None else f"exit {row['exit_code']} in {seconds_text(row['duration_s'])}"
        lines.append(f"{row['name']} {row['version'] or '(not installed)'}: {ran}")
    interrupted = document["header"].get("interrupted")
    if interrupted:
        lines.append(f"INTERRUPTED BY {interrupted}: a partial matrix, of the rows judged before it")
    lines.append("wrote " + ", ".join(str(path) for path in written))
    return "\n".join(lines)

"""What a run shows while it works (what it prints when it ends is conformance/reports/console.py).

A check is one test of the suite: a fixture case or a generated property, each counted once, as the
end-of-run table counts them. When every check of a tool this process runs is done, one compact line
says so: the tool, its checks done, how many of them fail (failed or errored), how many were skipped
(when any were: a run that stopped skips the checks left) and the time since the run started. On a
terminal a status line is also redrawn in place below those lines (checks done of all, failing,
skipped, elapsed, the property running now), cut to the terminal's width; in a pipe or a CI log
nothing is redrawn, so the log reads top to bottom.

``listing`` (``conformance run -v``) adds one line per tool's fixture cases and per generated property
as each finishes.
"""

from __future__ import annotations

import shutil
import time
from collections import Counter, defaultdict
from collections.abc import Callable

from conformance.model import OUTCOMES

REDRAW_SECONDS = 0.1  # a terminal need not be redrawn faster than a person reads
NOT_PASSING = ("failed", "errored")


def elapsed_text(seconds: float) -> str:
    """``9.4s``, ``2:33``, ``1:02:09``."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def not_passing(counts: Counter) -> str:
    """``2 failing``, or ``0 failing · 137 skipped``: the skipped are said only when there are any."""
    return f"{counts['failing']} failing" + (f" · {counts['skipped']} skipped" if counts["skipped"] else "")


class Progress:
    def __init__(
        self,
        write: Callable[[str], None],
        live: bool,
        shown: bool = True,
        listing: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ):
        """``write`` prints text as is (the plugin routes it around pytest's capture).

        ``shown`` False: nothing while the run works (pytest shows its own progress);
        ``live``: a terminal, where a status line is redrawn; ``listing``: a line per group (-v).
        """
        self.write = write
        self.shown = shown
        self.live = live and shown
        self.listing = listing and shown
        self.clock = clock
        self.started = clock()
        self.expected: dict[str, int] = {}  # checks per tool this process runs
        self.checks: dict[str, Counter] = defaultdict(Counter)  # per tool: "done", "failing", "skipped"
        self._line_shown = False
        self._last_draw = 0.0
        self.current = ""  # the property running now, shown on the live line

    # -- the checks (tests) ---------------------------------------------------------------

    def expect(self, checks_per_tool: dict[str, int]) -> None:
        """The checks of each tool this run will do (known once the tests are collected)."""
        self.expected = dict(checks_per_tool)

    def check_done(self, tool_id: str, failing: bool, skipped: bool = False) -> None:
        """One check (a fixture case or a generated property) finished."""
        counts = self.checks[tool_id]
        counts["done"] += 1
        counts["failing"] += int(failing)
        counts["skipped"] += int(skipped)
        if self.shown and counts["done"] == self.expected.get(tool_id):
            self.line(self.tool_line(tool_id))
        elif self.live:
            self._maybe_draw()

    def tool_line(self, tool_id: str) -> str:
        width = max(map(len, self.expected), default=len(tool_id))
        counts = self.checks[tool_id]
        checks = f"{counts['done']:>5} " + ("check" if counts["done"] == 1 else "checks")
        return f"  {tool_id:<{width}}  {checks} · {not_passing(counts)} · {elapsed_text(self.elapsed())}"

    def elapsed(self) -> float:
        return self.clock() - self.started

    # -- the engine's events (conformance.engine.session) -----------------------------------------

    def case_done(self, tool_id: str, outcome: str) -> None:
        """A fixture case or a generated example was judged: the live line's clock moves on."""
        if self.live:
            self._maybe_draw()

    def property_started(self, property_id: str) -> None:
        self.current = property_id

    def group_done(self, label: str, counts: dict[str, int]) -> None:
        """A tool's fixtures or one generated family finished."""
        if not self.listing:
            return
        detail = ", ".join(f"{counts[key]} {key}" for key in ("passed", *OUTCOMES[1:], "examples") if counts.get(key))
        self.line(f"    {label}: {detail or 'nothing run'}")

    # -- output -------------------------------------------------------------------------------

    def line(self, text: str) -> None:
        """A whole line of output (clearing the live status line first, and drawing it again after)."""
        self._clear()
        self.write(text + "\n")
        if self.live and self.checks:
            self._draw()

    def close(self) -> None:
        self._clear()
        self.live = False

    def status(self) -> str:
        every = sum(self.checks.values(), Counter())
        parts = [
            f"{every['done']}/{sum(self.expected.values())} checks",
            not_passing(every),
            elapsed_text(self.elapsed()),
        ]
        return " · ".join(parts) + (f"  {self.current}" if self.current else "")

    def _maybe_draw(self) -> None:
        if time.monotonic() - self._last_draw >= REDRAW_SECONDS:
            self._draw()

    def _draw(self) -> None:
        self._last_draw = time.monotonic()
        width = max(shutil.get_terminal_size().columns - 1, 20)  # never wrapped: \r redraws one line only
        self.write("\r\x1b[2K" + self.status()[:width])
        self._line_shown = True

    def _clear(self) -> None:
        if self._line_shown:
            self.write("\r\x1b[2K")
            self._line_shown = False

"""What a run shows while it works (what it prints when it ends is conformance/reports/console.py).

On a terminal one status line is redrawn in place (cases done and failed per tool);
otherwise (CI logs, pipes) a plain line is printed each time a tool's fixtures or
one generated family finish, so a log reads top to bottom.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable

from conformance.model import OUTCOMES

REDRAW_SECONDS = 0.1  # a terminal need not be redrawn faster than a person reads
NOT_PASSING = ("failed", "errored")


class Progress:
    def __init__(self, write: Callable[[str], None], live: bool, per_group: bool = True):
        """``write`` prints text as is (the plugin routes it around pytest's capture).

        ``per_group`` False: no status line or group lines (when pytest shows its own progress).
        """
        self.write = write
        self.live = live and per_group
        self.per_group = per_group
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self._line_shown = False
        self._last_draw = 0.0
        self.current = ""  # the property running now, shown on the live line

    def case_done(self, tool_id: str, outcome: str) -> None:
        self.counts[tool_id][outcome] += 1
        self.counts[tool_id]["done"] += 1
        if self.live and time.monotonic() - self._last_draw >= REDRAW_SECONDS:
            self._draw()

    def property_started(self, property_id: str) -> None:
        self.current = property_id

    def group_done(self, label: str, counts: dict[str, int]) -> None:
        """A tool's fixtures or one generated family finished."""
        if not self.per_group:
            return
        if self.live:
            self._draw()
            return
        detail = ", ".join(f"{counts[key]} {key}" for key in ("passed", *OUTCOMES[1:], "examples") if counts.get(key))
        self.line(f"  {label}: {detail or 'nothing run'}")

    def line(self, text: str) -> None:
        """A whole line of output (clearing the live status line first)."""
        self._clear()
        self.write(text + "\n")

    def close(self) -> None:
        self._clear()

    def _status(self) -> str:
        parts = []
        for tool_id, counts in self.counts.items():
            bad = sum(counts[outcome] for outcome in NOT_PASSING)
            parts.append(f"{tool_id} {counts['done']}" + (f" ({bad} failing)" if bad else ""))
        return "done: " + " | ".join(parts) + (f"  [{self.current}]" if self.current else "")

    def _draw(self) -> None:
        self._last_draw = time.monotonic()
        self.write("\r\x1b[2K" + self._status()[:200])
        self._line_shown = True

    def _clear(self) -> None:
        if self._line_shown:
            self.write("\r\x1b[2K")
            self._line_shown = False

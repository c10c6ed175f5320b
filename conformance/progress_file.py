"""``conformance run --progress-file PATH``: the run's progress as JSON lines another process can follow.

``conformance matrix`` runs one ``conformance run`` per library and shows their progress live from
these files, whatever the runs print. Each line is one JSON object, appended and flushed as it happens:

    {"totals": {"bleu-corpus-compute": 120, ...}}     the checks of each tool, once collected
    {"tool": "bleu-corpus-compute", "outcome": "failed"}   one check (a fixture case or a generated
                                                      property) finished: passed, failed, skipped, ...

A reader (``Follower``) reads only whole lines, from where it stopped, so a line being written is read
next time. Under ``-n`` the controller writes the checks as its processes report them; the totals are
then unknown (no process collects them all).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import IO


class Writer:
    """The writing end, in ``conformance run``: one line per event, flushed at once."""

    def __init__(self, path: str | Path) -> None:
        self._file: IO[str] = open(path, "w", encoding="utf-8")  # noqa: SIM115 (open for the run's life)
        self._seen: set[str] = set()

    def _line(self, record: dict) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()

    def totals(self, tools_of_checks: dict[str, str]) -> None:
        """``tools_of_checks``: each check's id -> its tool."""
        self._line({"totals": dict(Counter(tools_of_checks.values()))})

    def check_done(self, check_id: str, tool: str, outcome: str) -> None:
        """Once per check: a later report of the same check (its teardown) is not counted again."""
        if check_id in self._seen:
            return
        self._seen.add(check_id)
        self._line({"tool": tool, "outcome": outcome})

    def close(self) -> None:
        self._file.close()


class Follower:
    """The reading end: ``poll`` reads the lines written since the last poll."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._offset = 0
        self.totals: dict[str, int] = {}
        self.counts: dict[str, Counter] = defaultdict(Counter)  # tool -> outcome -> checks
        self.order: list[str] = []  # the tools, in the order their checks were first seen or collected
        self.last = ""  # the tool of the last check read

    def poll(self) -> list[str]:
        """Read what is new; return the tools whose last check (of a known total) just finished."""
        try:
            with open(self.path, "rb") as file:
                file.seek(self._offset)
                data = file.read()
        except OSError:
            return []
        end = data.rfind(b"\n") + 1  # a line still being written is read next time
        self._offset += end
        finished = []
        for raw in data[:end].splitlines():
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            if "totals" in record:
                self.totals.update(record["totals"])
                self.order += [tool for tool in record["totals"] if tool not in self.order]
            elif "tool" in record:
                tool = record["tool"]
                if tool not in self.order:
                    self.order.append(tool)
                self.counts[tool][record.get("outcome", "")] += 1
                self.last = tool
                if self.done(tool) == self.totals.get(tool):
                    finished.append(tool)
        return finished

    def done(self, tool: str) -> int:
        return sum(self.counts[tool].values())

    def failed(self, tool: str) -> int:
        return self.counts[tool]["failed"]

    def current(self) -> str:
        """The tool of the check that finished last (the first collected one before any did)."""
        return self.last or (self.order[0] if self.order else "")

"""The readings section of every report: where the target read an open point otherwise than the oracle.

    reading_rows(document) -> [ReadingRow]   # from report.json's "readings", catalogue order

Each row is one open point (reports/ambiguities.md), the reading the target took, how many
cases passed only under it and a few of their ids; report.md, report.html and the console
summary render the same rows. Such cases pass: the section is a map of the target, not a
list of faults.
"""

from __future__ import annotations

from dataclasses import dataclass

from conformance.reports.text import prose

INTRODUCTION = (
    "Cases that passed only under another reasonable reading of an open point of the contracts "
    "(reports/ambiguities.md): how the target reads them. They pass; they are not failures."
)
SHOWN_CASES = 5  # case ids shown per point in the reports (report.json keeps up to 50)


@dataclass
class ReadingRow:
    point_id: str
    title: str
    reading: str
    count: int
    cases: list[str]  # the first SHOWN_CASES ids, made visible
    other_readings: list[str]

    def cases_text(self) -> str:
        more = self.count - len(self.cases)
        return ", ".join(self.cases) + (f" (+{more} more)" if more > 0 else "")


def reading_rows(document: dict) -> list[ReadingRow]:
    readings = document.get("readings") or {}
    rows = []
    for point_id, entry in readings.items():
        if not isinstance(entry, dict):
            continue
        cases = [prose(str(case_id)) for case_id in entry.get("cases", [])[:SHOWN_CASES]]
        others = [prose(str(name)) for name in (entry.get("other_readings") or {})]
        rows.append(
            ReadingRow(
                prose(str(point_id)),
                prose(str(entry.get("title", ""))),
                prose(str(entry.get("reading", ""))),
                int(entry.get("count", len(cases))),
                cases,
                others,
            )
        )
    return rows


def console_lines(document: dict) -> list[str]:
    """The console's lines: one per open point."""
    rows = reading_rows(document)
    if not rows:
        return []
    lines = ["\nreadings of open points the target took (these cases pass; see reports/ambiguities.md):"]
    for row in rows:
        lines.append(f"  {row.point_id} {row.title}: {row.reading} — {row.count} case(s), e.g. {row.cases_text()}")
    return lines

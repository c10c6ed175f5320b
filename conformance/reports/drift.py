"""The contract drift findings of a run's header, in words (console, report.md, report.html).

The preflight (conformance.engine.drift) puts one finding per tool in the header's
``contract_drift`` (report.schema.json), and ``contract_drift_allowed`` when
``--allow-contract-drift`` let a drifted run go on. Each finding is one line: the tool, its
class, and its first differences, each classified by the contract gate.
"""

from __future__ import annotations

from conformance.reports.text import prose

MAX_CHANGES_SHOWN = 10  # per tool in one line; report.json keeps them all
DRIFT_HEADING = "contract drift (the contract the target publishes, against the suite's)"


def change_line(change: dict) -> str:
    """``breaking /limits/max_segments: limit max_segments lowered 1000 -> 500``."""
    return f"{change['change_class']} {change['pointer'] or '/'}: {change['message']}"


def finding_line(finding: dict) -> str:
    """One finding in one line, its first changes classified (a finding as report.json holds it)."""
    line = f"{finding['tool']}: {finding['status'].replace('_', ' ')}"
    changes = finding.get("changes") or []
    if changes:
        shown = [change_line(change) for change in changes[:MAX_CHANGES_SHOWN]]
        more = f"; and {len(changes) - MAX_CHANGES_SHOWN} more" if len(changes) > MAX_CHANGES_SHOWN else ""
        line += f" ({len(changes)} difference{'s' * (len(changes) != 1)}: {'; '.join(shown)}{more})"
    if finding.get("detail"):
        line += f" — {finding['detail']}"
    return line


def drift_lines(header: dict) -> list[str]:
    """Every finding of the header, one line each, made visible (none when the target was not asked)."""
    findings = header.get("contract_drift")
    if not isinstance(findings, list):
        return []
    lines = [prose(finding_line(finding)) for finding in findings if isinstance(finding, dict)]
    if header.get("contract_drift_allowed") and any(
        isinstance(f, dict) and f.get("status") in ("additive", "breaking") for f in findings
    ):
        lines.append("--allow-contract-drift: the run went on, judged against the suite's contracts")
    return lines

"""Every contract file a change touches, judged: linted, classified against the base, re-validated.

`conformance contracts changed` lints and classifies; `conformance contracts gate` also
re-validates the oracle and the golden fixtures against each changed contract
(revalidate.py). A changed file is compared with the same path at the merge base; a new
version file with the highest earlier version of its tool there; a new tool is linted only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from conformance.gate.checkout import Checkout, predecessor, read_at, tool_version
from conformance.gate.diff import DRAFT, DiffReport, diff_contracts
from conformance.gate.findings import Finding
from conformance.gate.lint import lint_contract, read_contract
from conformance.gate.revalidate import Revalidation, revalidate

# Lint rules after which the file is no contract the oracle can load: nothing to re-validate.
UNLOADABLE = frozenset({"json", "contract-object", "required-field", "field-type", "schema-valid"})
SHOWN_FINDINGS = 20  # per contract and kind; the count says how many more


@dataclass
class ContractVerdict:
    path: str  # relative to the checkout's top
    findings: list[Finding] = field(default_factory=list)  # lint's errors and warnings
    notes: int = 0  # lint's info findings, counted only
    baseline: str = ""  # REV:path it was compared with; "" for a new tool
    report: DiffReport | None = None
    draft: bool = False  # a draft before and after: it may change without a bump
    revalidation: Revalidation | None = None
    problem: str = ""  # why it could not be judged (removed, unreadable)

    @property
    def label(self) -> str:
        return "@".join(tool_version(self.path))

    @property
    def lint_errors(self) -> int:
        return sum(f.severity == "error" for f in self.findings)

    @property
    def failed(self) -> bool:
        return bool(
            self.problem
            or self.lint_errors
            or (self.report and self.report.violations)
            or (self.revalidation and self.revalidation.findings)
        )

    def change(self) -> str:
        """The classification in a few words."""
        if self.report is None:
            return "new tool: linted only" if not self.problem else self.problem
        report = self.report
        if self.draft:
            return f"{report.change_class} change of a draft {report.old_version} -> {report.new_version}: no bump required"
        return (
            f"{report.change_class} change {report.old_version} -> {report.new_version}: "
            f"requires a {report.required_bump} bump, given {report.actual_bump}"
        )

    def summary(self) -> str:
        parts = [self.change()]
        if self.lint_errors:
            parts.append(f"{self.lint_errors} lint error(s)")
        if self.report and self.report.violations:
            parts.append(f"{len(self.report.violations)} version violation(s)")
        if self.revalidation and not self.revalidation.implemented:
            parts.append("not re-validated (the oracle does not implement it)")
        elif self.revalidation:
            parts.append(f"{self.revalidation.failed} of {self.revalidation.cases} fixture case(s) failed")
        return f"{'FAIL' if self.failed else 'PASS'}  {self.path}  " + "; ".join(parts)

    def text(self) -> str:
        lines = [f"== {self.path}: {'FAIL' if self.failed else 'PASS'}"]
        if self.problem:
            lines.append(f"  {self.problem}")
        lines.append(
            f"  lint: {self.lint_errors} error(s), {len(self.findings) - self.lint_errors} warning(s), "
            f"{self.notes} note(s)"
        )
        lines += _shown(self.findings)
        if self.report is not None:
            lines += ["  " + line for line in self.report.text().splitlines()]
        elif not self.problem:
            lines.append("  a new tool: no earlier version to compare with")
        if self.revalidation is not None:
            lines.append(f"  oracle and fixtures: {self.revalidation.summary(self.label)}")
            lines += _shown(self.revalidation.findings)
        return "\n".join(lines)


def _shown(findings: list[Finding]) -> list[str]:
    lines = ["    " + finding.line() for finding in findings[:SHOWN_FINDINGS]]
    if len(findings) > SHOWN_FINDINGS:
        lines.append(f"    ... and {len(findings) - SHOWN_FINDINGS} more")
    return lines


def _baseline(checkout: Checkout, base: str, relative: str) -> tuple[str, object]:
    """(REV:path, its JSON) of what the file is compared with; ("", None) for a new tool."""
    shown = base[:12]  # a commit, named as git log --oneline would
    old = read_at(checkout, base, relative)
    if old is not None:
        return f"{shown}:{relative}", old
    earlier = predecessor(checkout, base, relative)
    return (f"{shown}:{earlier}", read_at(checkout, base, earlier)) if earlier else ("", None)


def judge(checkout: Checkout, base: str, relative: str, *, allow: list[dict], revalidating: bool) -> ContractVerdict:
    verdict = ContractVerdict(relative)
    path = checkout.path(relative)
    if not path.is_file():
        verdict.problem = "removed: a published contract version must not be deleted"
        return verdict
    new, unreadable = read_contract(path, relative)
    findings = unreadable or lint_contract(new, relative, path)
    verdict.findings = [f for f in findings if f.severity != "info"]
    verdict.notes = len(findings) - len(verdict.findings)
    if not isinstance(new, dict):
        verdict.problem = "not classified: the file is not a contract object (see lint)"
        return verdict
    try:
        verdict.baseline, old = _baseline(checkout, base, relative)
    except ValueError as exc:
        verdict.problem = f"the base's version cannot be read ({exc}): the change cannot be classified"
        return verdict
    if isinstance(old, dict):
        verdict.report = diff_contracts(old, new, old_label=verdict.baseline, new_label=relative, allow=allow)
        verdict.draft = old.get("status") == DRAFT and new.get("status") == DRAFT
    elif verdict.baseline:
        verdict.problem = f"{verdict.baseline} is not a contract object: the change cannot be classified"
    if revalidating and not any(f.rule in UNLOADABLE for f in findings if f.severity == "error"):
        verdict.revalidation = revalidate(*tool_version(relative))
    return verdict

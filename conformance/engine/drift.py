"""Contract drift: does the target publish the contract the suite checks it against?

At preflight, a target that can say which contract it serves (the optional
``published_contract(tool_id, version)`` capability, conformance.targets.published; the
HTTP target has it) is asked for each selected tool it serves, and what it publishes is
compared with the suite's contract by the contract gate's own classification
(conformance.gate.diff_contracts, suite contract -> published one). One finding per tool:

    identical      the same contract                                   noted
    editorial      descriptions, wording, examples added               noted
    additive       the target's contract accepts more (a raised limit) the run stops (exit 3)
    breaking       it accepts less, or answers differently             the run stops (exit 3)
    not_published  the target answers 404: it does not publish it      noted
    unreadable     garbage, oversized, not a contract, no answer       noted

An additive or breaking drift stops the run because the suite's verdicts would be about a
contract the target does not claim: it would call a raised limit's answers wrong, or miss
what changed. ``--allow-contract-drift`` lets such a run go on (the header says so). An
unreadable answer is noted, not failed: the published contract is the operator's check, and
the execute endpoint, not this one, is what the run judges. A draft tool the target does not
serve is not asked (its cases are skipped anyway); a served draft is compared like any
other contract (the gate notes a draft that was published).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from urllib.parse import urlsplit

from conformance.gate.diff import diff_contracts
from conformance.gate.lint import REQUIRED_FIELDS
from conformance.reports.drift import change_line
from conformance.targets.published import PublishedContract
from oracle.contracts import contract

BLOCKING = ("additive", "breaking")


@dataclass(frozen=True)
class DriftFinding:
    tool: str  # tool@version
    status: str  # identical | editorial | additive | breaking | not_published | unreadable
    detail: str = ""
    changes: list[dict] = field(default_factory=list)  # the gate's Change.to_dict() for each difference

    @property
    def blocking(self) -> bool:
        return self.status in BLOCKING

    def to_dict(self) -> dict:
        return asdict(self)


def not_a_contract(document: dict) -> str:
    """Why a published object cannot be compared as a contract ("" when it can): the gate's required fields."""
    for name, kind in REQUIRED_FIELDS.items():
        if not isinstance(document.get(name), kind):
            return f"its {name!r} is {'missing' if name not in document else 'not a ' + kind.__name__}"
    return ""


def at_suite_address(suite_document: dict, document: dict) -> tuple[dict, str]:
    """The published contract with the suite's ``execute_url`` when it names the same path on a host:
    a deployment that writes its own address (``https://host/v1/...``) for the suite's relative
    ``/v1/...`` changes where the tool is, not what it does. Also a note saying so ("" if none)."""
    ours, theirs = suite_document.get("execute_url"), document.get("execute_url")
    if not isinstance(ours, str) or not isinstance(theirs, str) or ours == theirs or urlsplit(ours).netloc:
        return document, ""
    if urlsplit(theirs).path != ours:
        return document, ""
    return {**document, "execute_url": ours}, f"execute_url names the deployment's own address, {theirs}"


def compare_published(suite_document: dict, tool: str, published: PublishedContract) -> DriftFinding:
    """One tool's finding: the published contract classified against the suite's."""
    if published.not_published:
        return DriftFinding(tool, "not_published", "its contract URL answers 404")
    if published.document is None:
        return DriftFinding(tool, "unreadable", published.problem or "no contract came back")
    problem = not_a_contract(published.document)
    if problem:
        return DriftFinding(tool, "unreadable", f"what the target publishes is not a contract: {problem}")
    document, address_note = at_suite_address(suite_document, published.document)
    try:
        report = diff_contracts(suite_document, document, old_label="suite", new_label="target")
    except Exception as exc:  # a shape the gate cannot walk: the target's problem, never the run's crash
        return DriftFinding(tool, "unreadable", f"the gate could not compare it: {type(exc).__name__}: {exc}"[:300])
    detail = "; ".join(filter(None, [address_note, *report.notes]))
    if not report.changes:
        return DriftFinding(tool, "identical", detail)
    return DriftFinding(tool, report.change_class, detail, [change.to_dict() for change in report.changes])


def check_drift(target, tools: list[tuple[str, str]]) -> list[DriftFinding] | None:
    """A finding per tool, or None when the target cannot say which contract it serves."""
    published_contract = getattr(target, "published_contract", None)
    if published_contract is None:
        return None
    findings: list[DriftFinding] = []
    unanswered = ""
    for tool_id, version in tools:
        suite = contract(tool_id, version)
        if unanswered:  # one slow or dead contract endpoint costs the preflight one timeout, not one per tool
            findings.append(DriftFinding(suite.label, "unreadable", f"not asked: {unanswered}"))
            continue
        answer = published_contract(tool_id, version)
        findings.append(compare_published(suite.document(), suite.label, answer))
        if answer.unanswered:
            unanswered = f"the contract endpoint did not answer for {suite.label}"
    return findings


def stop_reason(findings: list[DriftFinding]) -> str:
    """Why a run with additive or breaking drift stops (the health monitor's reason, repeated by every
    case it skips; the reports head it "contract drift"): each drifted tool with its first difference of
    that class; the header has them all."""
    drifted = []
    for finding in (finding for finding in findings if finding.blocking):
        first = next(change for change in finding.changes if change["change_class"] == finding.status)
        others = len(finding.changes) - 1
        drifted.append(
            f"{finding.tool} {finding.status} ({change_line(first)}"
            + (f"; {others} more difference{'s' * (others != 1)}" if others else "")
            + ")"
        )
    return (
        f"{'; '.join(drifted)}: the suite would judge the target by a contract it does not publish "
        f"(--allow-contract-drift judges it by the suite's contracts anyway)"
    )

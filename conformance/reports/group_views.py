"""The failure groups of report.json as every report shows them: one GroupView per group.

    group_views(document) -> [GroupView]   biggest first, as report.json orders them

A view gives the group's title (count, tool, where, what), the clause it breaks, the catalogued
divergence explaining it (or that none does), its smallest input, that input's first difference
and whole-output diff, and its members. report.md, report.html and the console lead with them.
"""

from __future__ import annotations

from dataclasses import dataclass

from conformance.reports.failures import Block, difference_values, whole_output_diff
from conformance.reports.groups import clause_label, clause_text
from conformance.reports.text import counted, holds_unusual, prose, render_escaped, render_value

MAX_MEMBERS_SHOWN = 12  # the rest are counted; report.json lists every member
GROUP_PROSE_FACTS = frozenset({"breaks", "divergence", "members"})


@dataclass
class GroupView:
    number: int
    title: str
    facts: list[tuple[str, str]]  # labels in GROUP_PROSE_FACTS or prose_labels are sentences, the rest values
    blocks: list[Block]
    brief: str = ""  # one line after the title in the list of groups: the clause, the divergence
    prose_labels: frozenset[str] = frozenset()  # this group's other sentences ("actual": missing, say)

    @property
    def anchor(self) -> str:
        return f"group-{self.number}"

    def is_prose(self, label: str) -> bool:
        return label in GROUP_PROSE_FACTS or label in self.prose_labels


def members_text(members: list[str]) -> str:
    shown = ", ".join(prose(member) for member in members[:MAX_MEMBERS_SHOWN])
    more = len(members) - MAX_MEMBERS_SHOWN
    return shown + (f" … and {more} more (all in report.json)" if more > 0 else "")


def _difference_facts(difference: dict | None, result: dict | None) -> tuple[list[tuple[str, str]], frozenset[str]]:
    """The smallest member's first difference: where, and both values there (or what is missing or extra)."""
    if difference is None:
        return [], frozenset()
    response = result["response"] if result is not None else None
    expected_output = result["expected"] if result is not None else None
    actual_output = response["result"] if response is not None and response["kind"] == "result" else None
    values, sentences = difference_values(
        difference["pointer"], difference["expected"], difference["actual"], expected_output, actual_output
    )
    return [("first difference at", difference["pointer"] or "/ (the whole output)"), *values], sentences


def _diff_block(result: dict | None) -> list[Block]:
    """The smallest member's expected-vs-actual output diff, where both are outputs."""
    if result is None or result["response"] is None or result["response"]["kind"] != "result":
        return []
    if result["case"]["expect"]["kind"] != "output":
        return []
    diff, note = whole_output_diff(result["expected"], result["response"]["result"])
    return [Block("expected output (oracle) → actual output, smallest member", diff, note, kind="diff")] if diff else []


def group_view(number: int, group: dict, results_by_id: dict[str, dict]) -> GroupView:
    divergence = group["divergence"]
    facts = [
        ("breaks", prose(clause_text(group["clause"]))),
        (
            "divergence",
            prose(f"{divergence['explanation']} ({divergence['id']})") if divergence else "none catalogued explains it",
        ),
    ]
    smallest, note = render_value(group["smallest"])
    facts.append(("smallest input", smallest + (f" ({note})" if note else "")))
    if holds_unusual(group["smallest"]):  # look-alike inputs told apart: every unusual character by its code point
        escaped, note = render_escaped(group["smallest"])
        facts.append(("smallest input, escaped", escaped + (f" ({note})" if note else "")))
    facts.append(("smallest case", prose(group["smallest_case"])))
    smallest_result = results_by_id.get(group["smallest_case"])
    difference, sentences = _difference_facts(group["difference"], smallest_result)
    facts += difference
    facts.append(("members", members_text(group["members"])))
    title = f"{group['count']}× {prose(group['title'])}"
    brief = f"breaks {clause_label(group['clause'])}" + (f" · {divergence['id']}" if divergence else "")
    return GroupView(number, title, facts, _diff_block(smallest_result), prose(brief), sentences)


def group_views(document: dict) -> list[GroupView]:
    results_by_id = {result["case"]["case_id"]: result for result in document.get("results", [])}
    return [
        group_view(number, group, results_by_id) for number, group in enumerate(document.get("failure_groups", []), 1)
    ]


def groups_heading(document: dict) -> str:
    """``Failure groups: 3 causes of 34 failures, biggest first``."""
    groups = document.get("failure_groups", [])
    failures = sum(group["count"] for group in groups)
    return f"Failure groups: {counted(len(groups), 'cause')} of {counted(failures, 'failure')}, biggest first"

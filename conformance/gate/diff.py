"""`conformance contracts diff OLD NEW`: classify every change and check the version bump.

breaking needs a major bump, additive a minor, editorial a patch; a published
version's file changed in place (same version, any change) is a violation too.
A changed `semantics` line cannot be judged by structure: it is shown word-diffed
and counts as breaking unless an allow-list file reviewed with the change marks
it editorial (in the spirit of oasdiff's ignore files):

    {"editorial": [{"contract": "chrf-plus-plus-compute", "text": "<the new line, or the removed one>",
                    "reason": "typo fix, no change in meaning"}]}
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from conformance.gate.findings import BUMP_RANK, CLASSES, REQUIRED_BUMP, Change, pointer
from conformance.gate.schema_diff import diff_schema

SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$")
DRAFT = "draft"  # a contract with "status": "draft" may change without a version bump
EDITORIAL_FIELDS = ("description", "supported_operations", "unsupported_operations", "pricing")
RULE_FIELDS = ("id", "version", "execute_url", "semantics", "limits", "input_schema", "output_schema", "examples")
# Every top-level key of a contract, each judged by its own rule below. Any other key (a hosted
# GET's updated_at, links or etag) is read by nothing in the suite, so it cannot change a rule the
# suite holds a target to: its changes are editorial, named as not a contract key.
CONTRACT_KEYS = (*RULE_FIELDS, "status", *EDITORIAL_FIELDS)


def parse_semver(text: str) -> tuple[int, int, int] | None:
    match = SEMVER.match(text) if isinstance(text, str) else None
    return (int(match.group(1)), int(match.group(2)), int(match.group(3))) if match else None


def version_bump(old: str, new: str) -> str:
    """ "major" | "minor" | "patch" | "none" | "downgrade" | "invalid"."""
    a, b = parse_semver(old), parse_semver(new)
    if a is None or b is None:
        return "invalid"
    if b < a:
        return "downgrade"
    if b[0] > a[0]:
        return "major"
    if b[1] > a[1]:
        return "minor"
    if b[2] > a[2]:
        return "patch"
    return "none"


def word_diff(old: str, new: str) -> str:
    """[-removed-]{+added+} over words, like `git diff --word-diff`."""
    a, b = old.split(), new.split()
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(" ".join(a[i1:i2]))
        if op in ("delete", "replace"):
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if op in ("insert", "replace"):
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out)


def load_allow_list(path: str | None) -> list[dict]:
    if not path:
        return []
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    entries = data.get("editorial", []) if isinstance(data, dict) else None
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("text"), str) and e.get("reason") for e in entries
    ):
        raise ValueError(f'{path}: expected {{"editorial": [{{"contract", "text", "reason"}}]}}, each with a reason')
    return entries


def _allowed(allow: list[dict], contract_id: str, text: str | None) -> dict | None:
    for entry in allow:
        if entry["text"] == text and entry.get("contract", contract_id) == contract_id:
            return entry
    return None


def diff_semantics(old: list, new: list, contract_id: str, allow: list[dict]) -> list[Change]:
    changes = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        removed, added = old[i1:i2], new[j1:j2]
        for k in range(max(len(removed), len(added))):
            before = removed[k] if k < len(removed) else None
            after = added[k] if k < len(added) else None
            where = pointer("semantics", j1 + k if after is not None else i1 + k)
            key = after if after is not None else before
            entry = _allowed(allow, contract_id, key)
            klass = "editorial" if entry else "breaking"
            reason = f" (allow-listed as editorial: {entry['reason']})" if entry else " (breaking unless allow-listed)"
            if before is not None and after is not None:
                changes.append(
                    Change(
                        klass,
                        where,
                        "semantics-line-changed",
                        "semantics line changed" + reason,
                        word_diff(str(before), str(after)),
                    )
                )
            elif after is not None:
                changes.append(
                    Change(
                        klass, where, "semantics-line-added", "semantics line added" + reason, "{+" + str(after) + "+}"
                    )
                )
            else:
                changes.append(
                    Change(
                        klass,
                        where,
                        "semantics-line-removed",
                        "semantics line removed" + reason,
                        "[-" + str(before) + "-]",
                    )
                )
    return changes


def diff_limits(old: dict, new: dict) -> list[Change]:
    """A lower or new limit rejects inputs that were accepted: breaking. A higher or removed one: additive."""
    changes = []
    for name in sorted(set(old) | set(new)):
        before, after = old.get(name), new.get(name)
        if before == after:
            continue
        where = pointer("limits", name)
        if before is None:
            changes.append(Change("breaking", where, "limit-added", f"limit {name} = {after} added"))
        elif after is None:
            changes.append(Change("additive", where, "limit-removed", f"limit {name} (was {before}) removed"))
        elif not isinstance(before, (int, float)) or not isinstance(after, (int, float)):
            changes.append(Change("breaking", where, "limit-changed", f"limit {name}: {before!r} -> {after!r}"))
        elif after < before:
            changes.append(Change("breaking", where, "limit-lowered", f"limit {name} lowered {before} -> {after}"))
        else:
            changes.append(Change("additive", where, "limit-raised", f"limit {name} raised {before} -> {after}"))
    return changes


def diff_examples(old: list, new: list) -> list[Change]:
    """An example whose input stays but whose output changes documents a behaviour change."""
    changes = []
    old_by_input = {json.dumps(e.get("input"), sort_keys=True): e for e in old if isinstance(e, dict)}
    new_by_input = {json.dumps(e.get("input"), sort_keys=True): e for e in new if isinstance(e, dict)}
    for i, example in enumerate(new):
        key = json.dumps(example.get("input"), sort_keys=True) if isinstance(example, dict) else None
        previous = old_by_input.get(key) if key is not None else None
        if previous is None:
            changes.append(Change("editorial", pointer("examples", i), "example-added", "example added"))
        elif previous.get("output") != example.get("output"):
            changes.append(
                Change(
                    "breaking",
                    pointer("examples", i, "output"),
                    "example-output-changed",
                    "the same example input now has a different output: a behaviour change",
                )
            )
    for key in old_by_input.keys() - new_by_input.keys():
        changes.append(Change("editorial", pointer("examples"), "example-removed", "an example was removed"))
    return changes


def spelling(name: str) -> str:
    """A key without case or separators: ``inputSchema`` and ``input-schema`` spell ``input_schema``."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def lookalike(name: str) -> str | None:
    """The contract key another key spells differently (``Limits``, ``inputSchema``), or None."""
    return next((key for key in CONTRACT_KEYS if key != name and spelling(key) == spelling(name)), None)


def other_field_change(name: str, old: dict, new: dict) -> Change:
    """A top-level key no rule above judged: a contract key (status) or one spelt like a contract key
    that says something other than that key counts as breaking; any other key is editorial."""
    where = pointer(name)
    if name in CONTRACT_KEYS:
        return Change(
            "breaking",
            where,
            "unjudged-field-changed",
            f"field {name!r} changed; the gate cannot judge it, so it counts as breaking",
        )
    twin = lookalike(name)
    if twin is not None and name in new and new[name] != new.get(twin):
        return Change(
            "breaking",
            where,
            "contract-key-spelt-otherwise",
            f"top-level field `{name}` spells the contract key `{twin}` otherwise and says something "
            f"else; the gate cannot tell which one holds, so it counts as breaking",
        )
    how = "extra top-level field" if name not in old else "top-level field"
    what = "" if name not in old else (" removed" if name not in new else " changed")
    restates = f", restating `{twin}`" if twin else ""
    return Change(
        "editorial",
        where,
        "non-contract-field-" + ("added" if name not in old else what.strip()),
        f"{how} `{name}`{what} (not a contract key{restates})",
    )


@dataclass
class DiffReport:
    old_label: str
    new_label: str
    contract_id: str
    old_version: str
    new_version: str
    changes: list[Change] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def change_class(self) -> str:
        classes = {c.change_class for c in self.changes}
        return max(classes, key=CLASSES.index) if classes else "none"

    @property
    def required_bump(self) -> str:
        return REQUIRED_BUMP.get(self.change_class, "none")

    @property
    def actual_bump(self) -> str:
        return version_bump(self.old_version, self.new_version)

    def to_dict(self) -> dict:
        return {
            "old": self.old_label,
            "new": self.new_label,
            "contract": self.contract_id,
            "old_version": self.old_version,
            "new_version": self.new_version,
            "change_class": self.change_class,
            "required_bump": self.required_bump,
            "actual_bump": self.actual_bump,
            "ok": not self.violations,
            "violations": self.violations,
            "notes": self.notes,
            "changes": [c.to_dict() for c in self.changes],
        }

    def text(self) -> str:
        lines = [
            f"{self.contract_id}: {self.old_version} -> {self.new_version} ({self.old_label} -> {self.new_label})",
            f"  change class: {self.change_class}; requires a {self.required_bump} bump; "
            f"version bump given: {self.actual_bump}",
        ]
        for klass in reversed(CLASSES):
            for change in (c for c in self.changes if c.change_class == klass):
                lines.append(f"  {klass.upper():9} {change.pointer or '/'}  {change.message}  [{change.kind}]")
                if change.detail:
                    lines.append(f"            {change.detail}")
        lines += [f"  NOTE      {note}" for note in self.notes]
        lines += [f"  VIOLATION {v}" for v in self.violations] or ["  OK: the version bump matches the change"]
        return "\n".join(lines)


def diff_contracts(
    old: dict, new: dict, *, old_label: str = "old", new_label: str = "new", allow: list[dict] | None = None
) -> DiffReport:
    allow = allow or []
    contract_id = str(new.get("id", old.get("id", "?")))
    report = DiffReport(old_label, new_label, contract_id, str(old.get("version")), str(new.get("version")))
    changes = report.changes
    if old.get("id") != new.get("id"):
        changes.append(Change("breaking", pointer("id"), "id-changed", f"id {old.get('id')!r} -> {new.get('id')!r}"))
    if old.get("execute_url") != new.get("execute_url") and old.get("execute_url") is not None:
        expected_move = old.get("version") != new.get("version")
        changes.append(
            Change(
                "editorial" if expected_move else "breaking",
                pointer("execute_url"),
                "execute-url-changed",
                "execute_url changed" + (" with the version" if expected_move else ""),
            )
        )
    for name in EDITORIAL_FIELDS:
        if old.get(name) != new.get(name):
            changes.append(Change("editorial", pointer(name), f"{name}-changed", f"{name} changed"))
    changes += diff_semantics(list(old.get("semantics", [])), list(new.get("semantics", [])), contract_id, allow)
    changes += diff_limits(old.get("limits", {}) or {}, new.get("limits", {}) or {})
    changes += diff_schema(old.get("input_schema", {}), new.get("input_schema", {}), "input", ("input_schema",))
    changes += diff_schema(old.get("output_schema", {}), new.get("output_schema", {}), "output", ("output_schema",))
    changes += diff_examples(list(old.get("examples", [])), list(new.get("examples", [])))
    old_draft, new_draft = old.get("status") == DRAFT, new.get("status") == DRAFT
    if old_draft and not new_draft and "status" not in new:
        report.notes.append("the draft is published: its other changes are classified like any other change")
    judged = {*RULE_FIELDS, *EDITORIAL_FIELDS, *(("status",) if old_draft and "status" not in new else ())}
    for name in sorted((set(old) | set(new)) - judged):
        if name not in old or name not in new or old[name] != new[name]:
            changes.append(other_field_change(name, old, new))

    bump = report.actual_bump
    if old_draft and new_draft and bump in ("none", *BUMP_RANK):
        if changes:
            report.notes.append("a draft may change without a version bump until it is published")
        return report
    if bump == "invalid":
        report.violations.append(f"version {report.old_version!r} -> {report.new_version!r} is not semver")
    elif bump == "downgrade":
        report.violations.append(f"version went down: {report.old_version} -> {report.new_version}")
    elif bump == "none" and changes and old_draft:
        report.violations.append(
            f"the published contract differs from its draft {report.old_version}: the change is "
            f"{report.change_class} and requires a {report.required_bump} bump over the draft's version"
        )
    elif bump == "none" and changes:
        report.violations.append(
            f"published version {report.new_version} changed in place: a published contract is immutable; "
            f"publish the change as a new version (this change requires a {report.required_bump} bump)"
        )
    elif BUMP_RANK[bump] < BUMP_RANK[report.required_bump]:
        report.violations.append(
            f"the change is {report.change_class} and requires a {report.required_bump} bump, "
            f"but the version only had a {bump} bump ({report.old_version} -> {report.new_version})"
        )
    return report

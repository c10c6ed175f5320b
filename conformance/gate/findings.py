"""What the contract gate reports: findings (lint) and changes (diff)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from conformance.jsonio import json_pointer

SEVERITIES = ("error", "warning", "info")

# Change classes, weakest first, and the version bump each requires.
CLASSES = ("editorial", "additive", "breaking")
REQUIRED_BUMP = {"editorial": "patch", "additive": "minor", "breaking": "major"}
BUMP_RANK = {"none": 0, "patch": 1, "minor": 2, "major": 3}


def pointer(*parts) -> str:
    """RFC 6901 JSON pointer of the parts."""
    return json_pointer(parts)


@dataclass
class Finding:
    severity: str  # error | warning | info
    contract: str  # file or tool@version
    pointer: str  # where in the contract
    rule: str  # short rule id, e.g. "example-reproduces"
    message: str

    def to_dict(self) -> dict:
        return asdict(self)

    def line(self) -> str:
        return f"{self.severity.upper():7} {self.contract}#{self.pointer or '/'} [{self.rule}] {self.message}"


@dataclass
class Change:
    change_class: str  # editorial | additive | breaking
    pointer: str
    kind: str  # short id, e.g. "input-enum-value-removed"
    message: str
    detail: str = ""  # e.g. a word diff of a semantics line

    def to_dict(self) -> dict:
        return asdict(self)

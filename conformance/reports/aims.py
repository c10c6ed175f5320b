"""The aimed features a run reached, per generated property: the rows report.md and report.html show.

Read from the document's ``properties`` (``aimed_features``, ``aims_not_reached``; see
strategies.aim_counts), never from the in-memory records. A property with neither key (an older
report, a property not run) has no row.
"""

from __future__ import annotations

from dataclasses import dataclass

TITLE = "Aimed features reached"
HEADING = ["property", "examples", "aims reached", "examples with each feature", "not reached"]


@dataclass(frozen=True)
class AimRow:
    property_id: str
    examples: str
    reached: str  # "k/n": features with at least one example, of all listed
    counts: str  # "feature ×count; ..."
    not_reached: str


def aim_rows(document: dict) -> list[AimRow]:
    rows = []
    for entry in document.get("properties", []):
        features = entry.get("aimed_features")
        missing = entry.get("aims_not_reached")
        if not isinstance(features, dict) or not isinstance(missing, list):
            continue
        rows.append(
            AimRow(
                property_id=str(entry.get("id") or f"generated/{entry.get('tool_id')}/{entry.get('family')}"),
                examples=str(entry.get("examples", "?")),
                reached=f"{sum(1 for count in features.values() if count)}/{len(features)}",
                counts="; ".join(f"{name} ×{count}" for name, count in features.items() if count),
                not_reached="; ".join(map(str, missing)),
            )
        )
    return rows

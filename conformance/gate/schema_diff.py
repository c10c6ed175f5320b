"""Structural, direction-aware comparison of two JSON Schemas.

An input schema is what the tool ACCEPTS: narrowing it breaks callers whose
inputs used to be accepted; widening it is additive. An output schema is what
the tool may RETURN: widening it (a new enum value, integer to number, a field
no longer required) breaks consumers; narrowing it is additive. A new optional
output property is additive by convention (consumers ignore fields they do not
know), although ``additionalProperties: false`` makes it formally a widening.
Only annotation keywords (title, description, examples, $comment) are editorial.
"""

from __future__ import annotations

from typing import Any

from conformance.gate.findings import Change, pointer

ANNOTATIONS = frozenset({"title", "description", "examples", "$comment", "default", "deprecated"})
UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
HANDLED = (
    ANNOTATIONS
    | set(UPPER_BOUNDS)
    | set(LOWER_BOUNDS)
    | {
        "type",
        "enum",
        "const",
        "required",
        "properties",
        "additionalProperties",
        "items",
        "pattern",
        "uniqueItems",
    }
)


def _class(direction: str, widening: bool) -> str:
    """Input: narrowing breaks. Output: widening breaks."""
    if direction == "input":
        return "additive" if widening else "breaking"
    return "breaking" if widening else "additive"


def _types(schema: dict) -> set[str] | None:
    t = schema.get("type")
    if t is None:
        return None
    return {t} if isinstance(t, str) else set(t)


def _covers(types: set[str], t: str) -> bool:
    return t in types or (t == "integer" and "number" in types)


def _allowed_values(schema: dict) -> list | None:
    if "const" in schema:
        return [schema["const"]]
    if "enum" in schema:
        return list(schema["enum"])
    return None


def diff_schema(old: Any, new: Any, direction: str, path: tuple = ()) -> list[Change]:
    """Every difference between two schemas, each classified by what it does to its side."""
    where = pointer(*path)
    changes: list[Change] = []

    def add(widening: bool, kind: str, message: str) -> None:
        changes.append(Change(_class(direction, widening), where, f"{direction}-{kind}", message))

    if not isinstance(old, dict) or not isinstance(new, dict):
        if old != new:  # boolean schemas or malformed: judge conservatively
            changes.append(Change("breaking", where, f"{direction}-schema-replaced", "schema replaced"))
        return changes

    # type: a type no longer allowed narrows; a new one widens (number covers integer)
    old_types, new_types = _types(old), _types(new)
    if old_types != new_types:
        if old_types is None or new_types is None:
            add(
                old_types is not None,
                "type-constraint",
                f"type constraint {'removed' if new_types is None else 'added'}",
            )
        else:
            lost = {t for t in old_types if not _covers(new_types, t)}
            gained = {t for t in new_types if not _covers(old_types, t)}
            if lost:
                add(False, "type-narrowed", f"type no longer allows {', '.join(sorted(lost))}")
            if gained:
                add(True, "type-widened", f"type now also allows {', '.join(sorted(gained))}")

    # enum / const
    old_values, new_values = _allowed_values(old), _allowed_values(new)
    if old_values != new_values:
        if old_values is None or new_values is None:
            add(old_values is not None, "enum-constraint", f"enum/const {'removed' if new_values is None else 'added'}")
        else:
            removed = [v for v in old_values if v not in new_values]
            added = [v for v in new_values if v not in old_values]
            if removed:
                add(False, "enum-value-removed", f"value(s) {removed} no longer allowed")
            if added:
                add(True, "enum-value-added", f"value(s) {added} now allowed")

    # numeric and size bounds
    for keyword in UPPER_BOUNDS + LOWER_BOUNDS:
        before, after = old.get(keyword), new.get(keyword)
        if before == after:
            continue
        upper = keyword in UPPER_BOUNDS
        if before is None:
            add(False, f"{keyword}-added", f"{keyword} {after} added")
        elif after is None:
            add(True, f"{keyword}-removed", f"{keyword} {before} removed")
        else:
            widening = after > before if upper else after < before
            add(widening, f"{keyword}-{'raised' if after > before else 'lowered'}", f"{keyword} {before} -> {after}")

    if old.get("pattern") != new.get("pattern"):
        if "pattern" not in old:
            add(False, "pattern-added", f"pattern {new['pattern']!r} added")
        elif "pattern" not in new:
            add(True, "pattern-removed", f"pattern {old['pattern']!r} removed")
        else:  # two regular expressions cannot be compared structurally: judge it breaking
            changes.append(
                Change(
                    "breaking",
                    where,
                    f"{direction}-pattern-changed",
                    f"pattern {old['pattern']!r} -> {new['pattern']!r}",
                )
            )

    if old.get("uniqueItems", False) != new.get("uniqueItems", False):
        add(not new.get("uniqueItems", False), "uniqueItems-changed", "uniqueItems changed")

    # required: a newly required field narrows; a field no longer required widens
    old_required, new_required = set(old.get("required", [])), set(new.get("required", []))
    for name in sorted(new_required - old_required):
        add(False, "field-now-required", f"{name!r} is now required")
    for name in sorted(old_required - new_required):
        add(True, "field-no-longer-required", f"{name!r} is no longer required")

    # properties
    old_props, new_props = old.get("properties", {}), new.get("properties", {})
    closed_before = old.get("additionalProperties", True) is False
    for name in sorted(set(old_props) | set(new_props)):
        sub = path + ("properties", name)
        if name not in new_props:
            changes.append(Change("breaking", pointer(*sub), f"{direction}-field-removed", f"field {name!r} removed"))
        elif name not in old_props:
            if direction == "output" and name not in new_required:
                changes.append(
                    Change(
                        "additive",
                        pointer(*sub),
                        "output-optional-field-added",
                        f"optional output field {name!r} added",
                    )
                )
            elif direction == "output":
                changes.append(
                    Change("additive", pointer(*sub), "output-field-added", f"required output field {name!r} added")
                )
            else:
                # a new input field widens what a closed object accepts (the required check above
                # already flagged it if it is required)
                add(closed_before, "field-added", f"input field {name!r} added")
        else:
            changes += diff_schema(old_props[name], new_props[name], direction, sub)

    if old.get("additionalProperties", True) != new.get("additionalProperties", True):
        before, after = old.get("additionalProperties", True), new.get("additionalProperties", True)
        if isinstance(before, dict) or isinstance(after, dict):
            changes += diff_schema(
                before if isinstance(before, dict) else {},
                after if isinstance(after, dict) else {},
                direction,
                path + ("additionalProperties",),
            )
        else:
            add(bool(after), "additionalProperties-changed", f"additionalProperties {before} -> {after}")

    if "items" in old or "items" in new:
        changes += diff_schema(old.get("items", {}), new.get("items", {}), direction, path + ("items",))

    for keyword in sorted((set(old) | set(new)) - HANDLED):
        if old.get(keyword) != new.get(keyword):
            changes.append(
                Change(
                    "breaking",
                    pointer(*path, keyword),
                    f"{direction}-unjudged-keyword",
                    f"keyword {keyword!r} changed; the gate cannot judge it structurally",
                )
            )
    for keyword in sorted(ANNOTATIONS):
        if old.get(keyword) != new.get(keyword):
            changes.append(
                Change("editorial", pointer(*path, keyword), f"{direction}-annotation", f"{keyword} changed")
            )
    return changes

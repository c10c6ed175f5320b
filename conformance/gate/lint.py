"""`conformance contracts lint [PATH...]`: is each contract well-formed and self-consistent?

Checks, each finding naming the contract, a JSON pointer and the rule:
required fields and their types; no top-level key outside the contract's own (a warning:
a typo, or metadata the suite never reads); id/version match the path and semver; the
execute_url; both schemas valid JSON Schema 2020-12; every example's input and
output valid under the schemas and reproduced by the oracle (where it
implements that tool@version); limits against the schema keywords that state
the same bound.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema

import oracle
from conformance.compare import compare_output
from conformance.gate.diff import CONTRACT_KEYS, lookalike, parse_semver
from conformance.gate.findings import Finding, pointer

REQUIRED_FIELDS = {
    "id": str,
    "version": str,
    "description": str,
    "semantics": list,
    "limits": dict,
    "input_schema": dict,
    "output_schema": dict,
    "examples": list,
}
RECOMMENDED_FIELDS = ("supported_operations", "unsupported_operations", "execute_url")
TOOL_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

# The schema keyword that restates a named limit, where the schema restates it.
LIMIT_KEYWORDS = {
    "max_segments": "maxItems",
    "max_references_per_segment": "maxItems",
    "max_token_bytes": "maxLength",
    "max_length": "maximum",
}


def _bound_places(schema: Any, path: tuple) -> list[tuple[tuple, str, Any]]:
    """(path, keyword, value) of every maxItems, maxLength and maximum inside an array property."""
    found = []
    if isinstance(schema, dict):
        for keyword in set(LIMIT_KEYWORDS.values()):
            if keyword in schema:
                found.append(((*path, keyword), keyword, schema[keyword]))
        if "items" in schema:
            found += _bound_places(schema["items"], (*path, "items"))
    return found


def limit_places(contract: dict) -> list[tuple[tuple, str, Any]]:
    """The bounds of the input's lists and their items: where a named limit can be restated
    (the scalar options' bounds, such as max_order's maximum, are the schema's own)."""
    properties = _get(contract, ("input_schema", "properties")) or {}
    return [
        place
        for name, prop in properties.items()
        if isinstance(prop, dict) and prop.get("type") == "array"
        for place in _bound_places(prop, ("input_schema", "properties", name))
    ]


def _get(document: Any, path: tuple) -> Any:
    for part in path:
        if not isinstance(document, dict) or part not in document:
            return None
        document = document[part]
    return document


def lint_contract(contract: Any, label: str, path: Path | None = None) -> list[Finding]:
    findings: list[Finding] = []

    def add(severity: str, where: str, rule: str, message: str) -> None:
        findings.append(Finding(severity, label, where, rule, message))

    if not isinstance(contract, dict):
        add("error", "", "contract-object", "a contract is a JSON object")
        return findings
    for name, kind in REQUIRED_FIELDS.items():
        if name not in contract:
            add("error", pointer(name), "required-field", f"required field {name!r} is missing")
        elif not isinstance(contract[name], kind):
            add("error", pointer(name), "field-type", f"{name!r} must be a JSON {kind.__name__}")
    for name in RECOMMENDED_FIELDS:
        if name not in contract:
            add("warning", pointer(name), "recommended-field", f"field {name!r} is missing")
    for name in (key for key in contract if key not in CONTRACT_KEYS):  # a typo, or metadata nothing reads
        twin = lookalike(name)
        add(
            "warning",
            pointer(name),
            "contract-key",
            f"top-level field {name!r} is not a contract key: the suite reads nothing of it and `contracts diff` "
            f"counts its changes as editorial" + (f" (did you mean {twin!r}?)" if twin else ""),
        )
    tool_id, version = contract.get("id"), contract.get("version")
    if isinstance(tool_id, str) and not TOOL_ID.match(tool_id):
        add("error", pointer("id"), "id-format", f"id {tool_id!r} is not kebab-case")
    if isinstance(version, str) and parse_semver(version) is None:
        add("error", pointer("version"), "semver", f"version {version!r} is not semver MAJOR.MINOR.PATCH")
    if path is not None and isinstance(tool_id, str) and isinstance(version, str):
        if path.parent.name != tool_id or path.stem != version:
            add(
                "error",
                pointer("id"),
                "path-matches-id",
                f"the file should be contracts/{tool_id}/{version}.json, not .../{path.parent.name}/{path.name}",
            )
    if isinstance(tool_id, str) and isinstance(version, str) and "execute_url" in contract:
        expected_url = f"/v1/tools/{tool_id}/versions/{version}/execute"
        if contract["execute_url"] != expected_url:
            add("error", pointer("execute_url"), "execute-url", f"execute_url should be {expected_url}")
    for i, line in enumerate(contract.get("semantics", []) if isinstance(contract.get("semantics"), list) else []):
        if not isinstance(line, str) or not line.strip():
            add("error", pointer("semantics", i), "semantics-line", "each semantics line is a non-empty string")
    for name, value in (contract.get("limits") or {}).items() if isinstance(contract.get("limits"), dict) else []:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            add("error", pointer("limits", name), "limit-value", f"limit {name} must be a non-negative integer")

    validators = {}
    for side in ("input_schema", "output_schema"):
        schema = contract.get(side)
        if not isinstance(schema, dict):
            continue
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
            validators[side] = jsonschema.Draft202012Validator(schema)
        except jsonschema.SchemaError as exc:
            add(
                "error",
                pointer(side, *exc.absolute_path),
                "schema-valid",
                f"not a valid JSON Schema 2020-12: {exc.message[:200]}",
            )

    findings += _lint_examples(contract, label, validators)
    findings += _lint_limits(contract, label)
    return findings


def _lint_examples(contract: dict, label: str, validators: dict) -> list[Finding]:
    findings = []
    examples = contract.get("examples")
    if not isinstance(examples, list):
        examples = []
    tool_id, version = contract.get("id"), contract.get("version")
    tool = (
        oracle.tool(tool_id, version)
        if isinstance(tool_id, str) and isinstance(version, str) and oracle.implemented(tool_id, version)
        else None
    )
    if not examples:
        findings.append(Finding("warning", label, pointer("examples"), "has-examples", "no examples"))
    for i, example in enumerate(examples):
        if not isinstance(example, dict) or "input" not in example or "output" not in example:
            findings.append(
                Finding(
                    "error",
                    label,
                    pointer("examples", i),
                    "example-shape",
                    "an example is an object with input and output",
                )
            )
            continue
        for key, side in (("input", "input_schema"), ("output", "output_schema")):
            if side in validators:
                for error in validators[side].iter_errors(example[key]):
                    findings.append(
                        Finding(
                            "error",
                            label,
                            pointer("examples", i, key, *error.absolute_path),
                            f"example-{key}-valid",
                            f"not valid under {side}: {error.message[:200]}",
                        )
                    )
        if tool is not None:
            try:
                actual = tool.execute(example["input"])
            except oracle.ContractError as exc:
                findings.append(
                    Finding(
                        "error",
                        label,
                        pointer("examples", i),
                        "example-reproduces",
                        f"the oracle rejects the example input: {exc.code}: {exc.message}",
                    )
                )
                continue
            # the suite's own comparison policy: exact fields exact, libm-dependent floats within
            # their error bound (an example computed by another runtime's exp/log must not fail lint)
            mismatch = compare_output(tool, example["input"], actual, example["output"])
            if mismatch is not None:
                findings.append(
                    Finding(
                        "error",
                        label,
                        pointer("examples", i, "output") + mismatch.pointer,
                        "example-reproduces",
                        f"the oracle's output differs: {mismatch.message}",
                    )
                )
    if examples and tool is None and isinstance(tool_id, str):
        findings.append(
            Finding(
                "info",
                label,
                pointer("examples"),
                "example-reproduces",
                f"the oracle does not implement {tool_id}@{version}: examples checked against the schemas only",
            )
        )
    return findings


def _lint_limits(contract: dict, label: str) -> list[Finding]:
    findings = []
    limits = contract.get("limits")
    if not isinstance(limits, dict):
        limits = {}
    places = limit_places(contract)
    for name, value in limits.items():
        keyword = LIMIT_KEYWORDS.get(name)
        restating = [(place, v) for place, k, v in places if k == keyword and v == value] if keyword else []
        if not keyword or not any(k == keyword for _, k, _ in places):
            findings.append(
                Finding(
                    "info",
                    label,
                    pointer("limits", name),
                    "limit-enforced-in-prose",
                    f"{name} = {value} has no schema keyword that states it: only an implementation enforces it",
                )
            )
        elif not restating:
            findings.append(
                Finding(
                    "warning",
                    label,
                    pointer("limits", name),
                    "limit-matches-schema",
                    f"the schema does not restate {name} = {value}",
                )
            )
        for place, keyword_value in restating if keyword == "maxLength" and name == "max_token_bytes" else ():
            # maxLength counts code points; the limit counts UTF-8 bytes. Every code point is at
            # least one byte, so a token within the byte limit is always within maxLength when
            # maxLength >= the byte limit: then the byte limit is the binding one.
            findings.append(
                Finding(
                    "info",
                    label,
                    pointer(*place),
                    "limit-units",
                    f"maxLength {keyword_value} counts code points, {name} {value} counts UTF-8 bytes: the byte "
                    f"limit is binding (a token of {value} code points may have up to {4 * value} bytes and is "
                    "rejected by the limit; maxLength alone never rejects a token the byte limit accepts)",
                )
            )
    named = {(LIMIT_KEYWORDS[name], value) for name, value in limits.items() if name in LIMIT_KEYWORDS}
    for place, keyword, keyword_value in places:
        if (keyword, keyword_value) not in named:
            findings.append(
                Finding(
                    "error",
                    label,
                    pointer(*place),
                    "limit-matches-schema",
                    f"the schema says {keyword} {keyword_value} here but no limit of the contract "
                    f"does ({', '.join(f'{n} {v}' for n, v in limits.items() if n in LIMIT_KEYWORDS)})",
                )
            )
    return findings


def _label(path: Path) -> str:
    """The path as the user would write it: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def read_contract(path: Path, label: str) -> tuple[Any, list[Finding]]:
    """The parsed file, or None and the finding saying why it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8")), []
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, [Finding("error", label, "", "json", f"cannot read the contract: {exc}")]


def lint_paths(paths: list[Path]) -> list[Finding]:
    findings: list[Finding] = []
    for path in paths:
        contract, unreadable = read_contract(path, _label(path))
        findings += unreadable or lint_contract(contract, _label(path), path)
    return findings

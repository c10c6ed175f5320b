"""The oracle and the golden fixtures of one tool@version, re-validated against its (changed) contract.

The oracle reads the contract file as it now is, so a changed schema or limit changes what it
accepts. Each fixture case of the tool@version is held to the new contract: an output case's
input valid under input_schema and its output under output_schema, then the oracle's answer
equal to the fixture's (by the suite's own comparison policy: libm floats within their
bound), and an error case rejected with its code. A fixture is hand-computed, so a
disagreement is a finding for the maintainer, never resolved by taking the oracle's side.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

import oracle
from conformance import fixtures
from conformance.compare.verdict import compare_output
from conformance.gate.findings import Finding, pointer


@dataclass
class Revalidation:
    implemented: bool  # does the oracle implement the tool@version at all?
    cases: int = 0  # fixture cases checked
    failed: int = 0  # of which some finding names
    findings: list[Finding] = field(default_factory=list)

    def summary(self, label: str) -> str:
        if not self.implemented:
            return f"not re-validated: the oracle does not implement {label} (its examples checked against the schemas only)"
        return f"{self.cases} fixture case(s) of {label} checked against the oracle under this contract, {self.failed} failed"


def _schema_findings(
    where: str, base: str, side: str, validator: jsonschema.Draft202012Validator, value: Any
) -> list[Finding]:
    errors = sorted(validator.iter_errors(value), key=lambda e: len(e.absolute_path))
    return [
        Finding(
            "error",
            where,
            base + pointer(*error.absolute_path),
            f"fixture-{side.split('_')[0]}-valid",
            f"not valid under the contract's {side}: {error.message[:200]}",
        )
        for error in errors[:1]  # the shallowest says it; the fixture is read whole by the maintainer
    ]


def _oracle_findings(tool: Any, where: str, base: str, raw: dict) -> list[Finding]:
    """Does the oracle answer the fixture case as the fixture says?"""
    expect = fixtures.expectation(raw["expect"])

    def finding(message: str, at: str = "/expect") -> list[Finding]:
        return [Finding("error", where, base + at, "fixture-reproduces", f"case {raw['id']!r}: {message}")]

    try:
        actual = tool.execute(raw["input"])
    except oracle.ContractError as exc:
        if expect.kind == "output":
            return finding(f"the oracle rejects the input: {exc.code}: {exc.message[:200]}")
        if expect.error_code not in ("any", exc.code):
            return finding(f"the oracle rejects it with {exc.code}, the fixture expects {expect.error_code}")
        return []
    except Exception as exc:  # an oracle crash on a fixture is a finding, never the gate's traceback
        return finding(f"the oracle raised {type(exc).__name__}: {str(exc)[:200]}")
    if expect.kind == "error":
        return finding(f"the oracle answers an input the fixture expects rejected ({expect.error_code})")
    assert expect.output is not None  # an output expectation holds the fixture's (schema-checked) output
    mismatch = compare_output(tool, raw["input"], expect.output, actual)
    if mismatch is None:
        return []
    return finding(
        f"the oracle's output differs (expected: the fixture's, got: the oracle's): {mismatch.message}",
        "/expect/output" + mismatch.pointer,
    )


def fixture_files(tool_id: str, version: str) -> list[Path]:
    """``fixtures/<tool-id>/<version>/*.json``."""
    return [
        path for path in fixtures.fixture_paths() if (path.parent.parent.name, path.parent.name) == (tool_id, version)
    ]


def _well_formed(path: Path, where: str, validator: jsonschema.Draft202012Validator) -> tuple[dict | None, str, str]:
    """The file's content when it is a fixture file of its place, else (None, pointer, what is wrong)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, "", f"cannot read the fixture file: {exc}"
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        return None, pointer(*error.absolute_path), f"not a fixture file (fixture.schema.json): {error.message[:200]}"
    place = (path.parent.parent.name, path.parent.name)
    if (data["tool"], data["version"]) != place:
        return None, "", f"the file says {data['tool']}@{data['version']} but sits in the folder of {'@'.join(place)}"
    return data, "", ""


def revalidate(tool_id: str, version: str) -> Revalidation:
    if not oracle.implemented(tool_id, version):
        return Revalidation(implemented=False)
    tool = oracle.tool(tool_id, version)
    result = Revalidation(implemented=True)
    files = fixture_files(tool_id, version)
    if not files:
        result.findings.append(
            Finding(
                "error",
                f"fixtures/{tool_id}/{version}/",
                "",
                "has-fixtures",
                f"the oracle implements {tool_id}@{version} but it has no golden fixtures",
            )
        )
    file_validator = jsonschema.Draft202012Validator(fixtures.schema())
    for path in files:
        where = f"fixtures/{path.relative_to(fixtures.fixtures_dir()).as_posix()}"
        data, at, wrong = _well_formed(path, where, file_validator)
        if data is None:
            result.findings.append(Finding("error", where, at, "fixture-well-formed", wrong))
            continue
        for index, raw in enumerate(data["cases"]):
            result.cases += 1
            base = pointer("cases", index)
            found = []
            if "output" in raw["expect"]:
                found += _schema_findings(
                    where, base + "/input", "input_schema", tool.contract.input_validator, raw["input"]
                )
                found += _schema_findings(
                    where,
                    base + "/expect/output",
                    "output_schema",
                    tool.contract.output_validator,
                    raw["expect"]["output"],
                )
            found = found or _oracle_findings(tool, where, base, raw)
            result.failed += bool(found)
            result.findings += found
    return result

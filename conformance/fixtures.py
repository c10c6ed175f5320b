"""Golden fixtures: ``fixtures/<tool-id>/<version>/<topic>.json`` as harness cases.

Each file holds one topic of hand-computed cases (format: ``fixtures/fixture.schema.json``).
In a source checkout the files are read from the repository's ``fixtures/`` folder; an
installed wheel carries a copy under ``conformance/_data/fixtures``.
"""

from __future__ import annotations

import json
from pathlib import Path

from conformance.model import Case, Expectation

_PACKAGE_DIR = Path(__file__).resolve().parent
SCHEMA_FILE = "fixture.schema.json"


def fixtures_dir() -> Path:
    for candidate in (_PACKAGE_DIR.parent / "fixtures", _PACKAGE_DIR / "_data" / "fixtures"):
        if (candidate / SCHEMA_FILE).is_file():
            return candidate
    raise FileNotFoundError("no fixtures/ folder found beside the conformance package")


def schema() -> dict:
    return json.loads((fixtures_dir() / SCHEMA_FILE).read_text(encoding="utf-8"))


def fixture_paths() -> list[Path]:
    """Every ``<tool-id>/<version>/<topic>.json``, sorted (the schema file sits one level up)."""
    return sorted(fixtures_dir().glob("*/*/*.json"))


def load_files() -> list[tuple[Path, dict]]:
    """Every fixture file with its parsed content, in path order."""
    return [(path, json.loads(path.read_text(encoding="utf-8"))) for path in fixture_paths()]


def case_category(expect: dict, tags: list[str]) -> str:
    """An error expectation is "invalid"; an output tagged "boundary" is "boundary"; else "valid"."""
    if "error" in expect:
        return "invalid"
    return "boundary" if "boundary" in tags else "valid"


def expectation(expect: dict) -> Expectation:
    if "error" in expect:
        return Expectation(kind="error", error_code=expect["error"])
    return Expectation(kind="output", output=expect["output"])


def to_case(data: dict, raw_case: dict) -> Case:
    tool, version, topic = data["tool"], data["version"], data["topic"]
    tags = list(raw_case.get("tags", []))
    return Case(
        tool_id=tool,
        version=version,
        case_id=f"{tool}/{version}/{topic}#{raw_case['id']}",
        origin="fixture",
        category=case_category(raw_case["expect"], tags),
        input=raw_case["input"],
        expect=expectation(raw_case["expect"]),
        description=raw_case["description"],
        tags=tags,
    )


def load_cases(tools: set[str] | None = None) -> list[Case]:
    """Every fixture case, optionally only for the given tool ids, in file then case order."""
    cases: list[Case] = []
    for _, data in load_files():
        if tools is not None and data["tool"] not in tools:
            continue
        cases.extend(to_case(data, raw_case) for raw_case in data["cases"])
    return cases


def find_case(case_id: str) -> Case | None:
    """The fixture case with this stable id ("<tool>/<version>/<topic>#<id>"), if any."""
    for case in load_cases():
        if case.case_id == case_id:
            return case
    return None

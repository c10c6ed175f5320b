"""Known failures: deviations of a target that its owner has acknowledged.

File format (JSON; schema ``conformance/schemas/known-failures.schema.json``)::

    {"known_failures": [
        {"id": "bleu-corpus-compute/1.0.0/brevity#short-hypothesis", "reason": "issue #12: bp uses exp(1 - c/r)"},
        {"id": "generated/chrf-plus-plus-compute/valid/whitespace", "reason": "U+0085 not treated as space",
         "target": "http://localhost:8080"}
    ]}

``id`` is a fixture case id or a property id (``generated/<tool>/<family>``); generated
examples have no stable id of their own. ``reason`` is required: an unexplained known
failure is a silenced alarm. ``target`` (optional) limits the entry to the run whose
``--target`` is exactly that string. A listed case that fails is "xfailed"; one that
passes is "fixed" (it fails the run only under ``--strict``). An id that matches no case
or property of the suite is a usage error: it is almost always a typo or a renamed case.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from conformance import schemas
from conformance.model import CaseResult

REASON_CHARS = 300  # a failure message is a good first reason; a whole diff is not


class KnownFailuresError(ValueError):
    """The known-failures file cannot be used (a usage error, exit 2)."""


@dataclass(frozen=True)
class KnownFailure:
    id: str
    reason: str
    target: str | None = None


SHAPE = 'an object {"known_failures": [...]}'


def parse(data: object, source: str = "known-failures file") -> list[KnownFailure]:
    """The entries of a known-failures file, validated against ``known-failures.schema.json``."""
    error = schemas.first_error("known-failures", data)
    if error is not None:
        if error.validator in ("type", "required") and list(error.absolute_path) in ([], ["known_failures"]):
            # the file's shape itself is wrong: say what the file must look like
            if isinstance(data, dict):
                detail = schemas.explain(error, describe=False)
            else:
                detail = f"got {schemas.json_type(data)}"
            raise KnownFailuresError(f"{source}: expected {SHAPE}; {detail}")
        raise KnownFailuresError(f"{source}: {schemas.explain(error)}")
    assert isinstance(data, dict)  # the schema holds: an object
    entries, seen = [], set()
    for index, entry in enumerate(data["known_failures"]):
        target = entry.get("target")
        key = (entry["id"], target)
        if key in seen:  # beyond JSON Schema: uniqueness of (id, target) among entries that differ in reason
            raise KnownFailuresError(f"{source}: /known_failures/{index}: {entry['id']} is listed twice")
        seen.add(key)
        entries.append(KnownFailure(entry["id"], entry["reason"].strip(), target))
    return entries


def load(path: str | Path) -> list[KnownFailure]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise KnownFailuresError(f"cannot read known-failures file {path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise KnownFailuresError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    return parse(data, str(path))


def for_target(entries: Iterable[KnownFailure], target_spec: str) -> dict[str, KnownFailure]:
    """The entries that apply to this target, by id."""
    return {entry.id: entry for entry in entries if entry.target in (None, target_spec)}


def unmatched(entries: Iterable[KnownFailure], suite_ids: set[str]) -> list[str]:
    """Ids listed in the file that name no case or property of the suite."""
    return sorted({entry.id for entry in entries} - suite_ids)


def entries_from_run(results: Iterable[CaseResult], property_id_of) -> list[dict]:
    """The known-failures list describing a run's current deviations.

    A fixture case is listed by its id; a generated example by its property's id.
    The reason starts as the failure message, so the file says what is wrong even
    before anyone edits it; entries already known keep their reason.
    """
    return _entries(
        (
            result.case.case_id if result.case.origin == "fixture" else property_id_of(result.case),
            result.outcome,
            result.known_failure_reason,
            result.message,
        )
        for result in results
    )


def entries_from_document(results: Iterable[dict], property_of) -> list[dict]:
    """As entries_from_run, from report.json's results (a run merged from several processes);
    ``property_of(case_id)`` is a generated case's property id."""
    return _entries(
        (
            result["case"]["case_id"]
            if result["case"]["origin"] == "fixture"
            else property_of(result["case"]["case_id"]),
            result["outcome"],
            result["known_failure_reason"],
            result["message"],
        )
        for result in results
    )


def _entries(rows: Iterable[tuple[str, str, str, str]]) -> list[dict]:
    """(listed id, outcome, known-failure reason, message) per result -> the entries, by id."""
    listed: dict[str, dict] = {}
    for case_id, outcome, known_reason, message in rows:
        if outcome not in ("failed", "errored", "xfailed") or case_id in listed:
            continue
        listed[case_id] = {"id": case_id, "reason": known_reason or _first_line(message) or outcome}
    return [listed[key] for key in sorted(listed)]


def write(path: str | Path, entries: list[dict]) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"known_failures": entries}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _first_line(message: str) -> str:
    line = message.strip().splitlines()[0] if message.strip() else ""
    return line if len(line) <= REASON_CHARS else line[: REASON_CHARS - 3] + "..."

"""The report.json document: built from a RunRecord, validated, and read by every report.

    report_document(record) -> dict      # validated against report.schema.json
    checks(document) -> [Check]          # THE unit every report counts
    served_checks(document) -> [Check]   # those of the tools served: the tables of report.md and report.html
    totals(document) -> {outcome: n}     # the counts every report shows

``report.json`` is ``RunRecord.to_dict()`` with its totals and its failure groups (groups.py:
the failures by cause, biggest first), made JSON-safe and validated against
``report.schema.json`` before anything is written. Every other format (markdown.py,
html.py, junit.py, console.py) is rendered from this document, never from the in-memory
records, so they cannot see more, or other, than report.json says.

What is counted: one **check** per fixture case, and one per generated property (one tool x
family), whose outcome is the property's (the worst of its entry and its recorded examples),
with the number of generated examples it sent alongside. The document keeps every fixture
result and every failing (shrunk) generated example in ``results``, and every property in
``properties``; its ``totals``, the console's table and verdict, report.md, report.html and
junit.xml all count checks, so one run gives one set of numbers everywhere.
"""

from __future__ import annotations

import datetime as _dt
import functools
import json
import math
import platform
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

from conformance import __version__
from conformance.model import OUTCOMES, RunRecord
from conformance.reports.drift import DRIFT_HEADING, drift_lines
from conformance.reports.groups import failure_groups
from conformance.reports.text import LONE_SURROGATE, MAX_DEPTH, counted, json_scalar, prose, render_value
from conformance.targets.implementation import implementation_name

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "report.schema.json"

CATEGORY_ORDER = ("valid", "boundary", "invalid")
PROBLEM_OUTCOMES = ("failed", "errored")


# ---------------------------------------------------------------- the header


def utc_timestamp(moment: _dt.datetime | None = None) -> str:
    """ISO 8601 in UTC with millisecond precision, e.g. ``2026-11-30T09:15:02.123Z``."""
    moment = moment or _dt.datetime.now(_dt.timezone.utc)
    if moment.tzinfo is None:
        raise ValueError("utc_timestamp needs an aware datetime")
    return moment.astimezone(_dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def build_header(
    *,
    target: str,
    contracts: Iterable[str],
    seed: int | None,
    profile: str,
    started: str,
    finished: str,
    command: str | None = None,
    strict: bool = False,
    retries: int = 0,
    **extra: Any,
) -> dict:
    """The run header report.schema.json requires; ``extra`` keys (timeout, workers, ...) are kept."""
    return {
        "suite_version": __version__,
        "contracts": list(contracts),
        "target": target,
        "seed": seed,
        "profile": profile,
        "started": started,
        "finished": finished,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "command": command if command is not None else " ".join(["conformance", *sys.argv[1:]]),
        "strict": strict,
        "retries": retries,
        **extra,
    }


def run_duration(header: dict) -> float:
    """Seconds from ``started`` to ``finished`` (0 when either is missing or unreadable)."""
    try:
        started = _dt.datetime.fromisoformat(str(header["started"]).replace("Z", "+00:00"))
        finished = _dt.datetime.fromisoformat(str(header["finished"]).replace("Z", "+00:00"))
    except (KeyError, ValueError):
        return 0.0
    return max((finished - started).total_seconds(), 0.0)


# ---------------------------------------------------------------- building and validating


def json_safe(value: Any, depth: int = 0) -> Any:
    """A copy of a record's ``to_dict()`` (or of one result's) that ``json.dumps(allow_nan=False)``
    accepts: non-finite numbers become the strings "NaN"/"Infinity"/"-Infinity", tuples lists,
    keys strings, anything else its repr."""
    if depth > MAX_DEPTH:
        return f"<nested deeper than {MAX_DEPTH} levels>"
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        return value if value.bit_length() < 10_000 else f"<integer of {value.bit_length():,} bits>"
    if isinstance(value, float):
        return value if math.isfinite(value) else json_scalar(value)
    if isinstance(value, dict):
        return {str(key): json_safe(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item, depth + 1) for item in value]
    return repr(value)


def dump_report_json(document: dict) -> str:
    """Compact JSON, non-ASCII kept, each lone surrogate written as its ``\\uXXXX`` escape
    (still the same JSON string, but now encodable as UTF-8)."""
    text = json.dumps(document, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text) + "\n"


@functools.lru_cache(maxsize=1)
def report_validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


class ReportSchemaError(ValueError):
    """The run record does not match report.schema.json: a bug in the harness, not the target."""


def build_document(record: RunRecord, baseline: Any = None) -> dict:
    """The report.json document, not validated (report_document validates it); with a ``baseline``
    (reports.baseline.Baseline, under `run --baseline`), its ``baseline_diff`` against this run."""
    for index, result in enumerate(record.results):
        if result.outcome not in OUTCOMES:  # to_dict() could not even count it
            raise ReportSchemaError(
                f"report.json: /results/{index}/outcome {result.outcome!r} is not one of {', '.join(OUTCOMES)}"
            )
    return with_baseline(document_from_parts(record.to_dict()), baseline)


def document_from_parts(parts: dict) -> dict:
    """The report.json document of a record's parts (``RunRecord.to_dict()``, or several runs' parts
    merged: reports/merge.py): its totals and failure groups computed, not validated."""
    document = dict(parts)
    # the one definition of what is counted: once per fixture case and once per generated property
    document = json_safe({"header": document.pop("header"), "totals": totals(document), **document})
    implementation = implementation_name(str(document["header"].get("target", "")))
    document["failure_groups"] = json_safe(failure_groups(problem_results(document), implementation))  # by cause
    return document


def with_baseline(document: dict, baseline: Any = None) -> dict:
    """The document with its ``baseline_diff`` against a ``baseline`` (reports.baseline.Baseline, under
    `run --baseline`; computed on the whole run's document, after -n merged its processes')."""
    if baseline is not None:
        document["baseline_diff"] = json_safe(baseline.diff(document))
    return document


def report_document(record: RunRecord, baseline: Any = None) -> dict:
    """The report.json document, validated against report.schema.json."""
    return validated(build_document(record, baseline))


def schema_error(document: Any) -> str:
    """Where and how a document breaks report.schema.json ("" if it does not)."""
    error = jsonschema.exceptions.best_match(report_validator().iter_errors(document))
    if error is None:
        return ""
    where = "/" + "/".join(str(part) for part in error.absolute_path)
    return f"at {where}: {error.message[:300]}"


def validated(document: dict) -> dict:
    """The document, once it matches report.schema.json (ReportSchemaError: a harness bug)."""
    error = schema_error(document)
    if error:
        raise ReportSchemaError(f"report.json does not match report.schema.json {error}")
    return document


# ---------------------------------------------------------------- what is counted


def tool_label(tool_id: str, version: str) -> str:
    return f"{tool_id}@{version}"


def fixture_topic(case_id: str) -> str:
    """``<tool>/<version>/<topic>#<id>`` -> ``<topic>``."""
    path = case_id.split("#", 1)[0]
    parts = path.split("/")
    return parts[2] if len(parts) >= 3 else path


def property_name(tool_id: str, family: str) -> str:
    """The property's id and JUnit testcase name: ``generated/<tool>/<family>``."""
    return f"generated/{tool_id}/{family}"


def property_of_case(case_id: str, known: Iterable[str] = ()) -> str:
    """The property a generated case id belongs to: ``generated/<tool>/<family>/<n>`` (a family
    name may itself contain "/") or the property's own id (a result standing for the property)."""
    known = set(known)
    if case_id in known:
        return case_id
    head, _, tail = case_id.rpartition("/")
    if head in known or (tail.isdigit() and head.count("/") >= 2):
        return head
    return case_id


def is_problem(outcome: str, strict: bool) -> bool:
    """Does this outcome make the run non-conformant?"""
    return outcome in PROBLEM_OUTCOMES or (strict and outcome == "fixed")


def combined_outcome(outcomes: Iterable[str]) -> str:
    """The outcome of a group of examples: its worst member."""
    present = set(outcomes)
    for outcome in ("failed", "errored", "fixed", "xfailed", "passed", "skipped"):
        if outcome in present:
            return outcome
    return "passed"


def outcome_state(counts: dict[str, int], strict: bool) -> str:
    """ "bad" if any check makes the run fail, "warn" for skips and known failures, "ok" if all
    passed (or were fixed), "none" if there are none."""
    if not sum(counts.values()):
        return "none"
    if any(counts.get(o) for o in OUTCOMES if is_problem(o, strict)):
        return "bad"
    return "ok" if counts.get("passed", 0) + counts.get("fixed", 0) == sum(counts.values()) else "warn"


@dataclass
class Check:
    """One unit of counting: a fixture case, or a generated property (one tool x family)."""

    id: str  # the fixture case id, or the property id generated/<tool>/<family>
    kind: str  # "fixture" | "property"
    tool_id: str
    version: str
    results: list[dict] = field(default_factory=list)  # the fixture's result; a property's recorded examples
    summary: dict = field(default_factory=dict)  # a property's entry in the document's "properties"

    @property
    def tool(self) -> str:
        return tool_label(self.tool_id, self.version)

    @property
    def category(self) -> str:
        if self.kind == "property" and self.summary.get("category"):
            return str(self.summary["category"])
        if self.results:
            return str(self.results[0]["case"]["category"])
        return str(self.summary.get("family", "")).split("/")[0]

    @property
    def outcome(self) -> str:
        outcomes = [result["outcome"] for result in self.results]
        if self.summary.get("outcome") in OUTCOMES:
            outcomes.append(self.summary["outcome"])
        return combined_outcome(outcomes)

    @property
    def examples(self) -> int | None:
        """Generated examples sent (a property); None for a fixture case or when not recorded."""
        examples = self.summary.get("examples")
        return examples if isinstance(examples, int) and not isinstance(examples, bool) else None

    def deciding_result(self) -> dict | None:
        """The recorded result that gave the check its outcome, if any."""
        return next((result for result in self.results if result["outcome"] == self.outcome), None)

    def message(self) -> str:
        result = self.deciding_result()
        if result is not None:
            return str(result["message"] or (result["mismatch"] or {}).get("message", ""))
        return str(self.summary.get("message", ""))

    def known_failure_reason(self) -> str:
        result = self.deciding_result()
        if result is not None:
            return str(result["known_failure_reason"])
        return str(self.summary.get("known_failure_reason", ""))

    def recorded_failures(self, strict: bool) -> int:
        return sum(is_problem(result["outcome"], strict) for result in self.results)


def checks(document: dict) -> list[Check]:
    """Every check of a run: each fixture case, then each property (the document's entries,
    plus any property that has generated results but no entry)."""
    results = document.get("results", [])
    fixtures = [
        Check(r["case"]["case_id"], "fixture", r["case"]["tool_id"], r["case"]["version"], [r])
        for r in results
        if r["case"]["origin"] == "fixture"
    ]
    properties: dict[str, Check] = {}
    for entry in document.get("properties", []):
        tool_id, version = str(entry.get("tool_id", "")), str(entry.get("version", ""))
        name = str(entry.get("id") or property_name(tool_id, str(entry.get("family", ""))))
        properties[name] = Check(name, "property", tool_id, version, summary=entry)
    for result in results:
        case = result["case"]
        if case["origin"] == "generated":
            name = property_of_case(case["case_id"], properties)
            properties.setdefault(name, Check(name, "property", case["tool_id"], case["version"])).results.append(
                result
            )
    return fixtures + list(properties.values())


def served_checks(document: dict) -> list[Check]:
    """The checks of the tools the target serves. A tool not served (header.not_served: answered 'not found' at
    preflight) has only skipped checks: the tables of report.md and report.html leave them out and say how many
    (``not_served_note``), report.json and the totals keep them. A one-tool implementation's report was else
    seven tools of skipped rows for one of results."""
    not_served = _not_served(document["header"])
    return [check for check in checks(document) if check.tool not in not_served]


def not_served_note(document: dict) -> str:
    not_served = _not_served(document["header"])
    left_out = sum(1 for check in checks(document) if check.tool in not_served)
    if not left_out:
        return ""
    return (
        f"The {counted(left_out, 'check')} of the {counted(len(not_served), 'tool')} not served (skipped: the "
        "target answered 'not found' for them) are left out of the tables below; report.json lists each."
    )


def _not_served(header: dict) -> set[str]:
    """header.not_served (TOOL@VERSION, absent when every tool is served) as a set."""
    return set(header.get("not_served") or [])


def count(found: Iterable[Check]) -> dict[str, int]:
    """Checks by outcome, every outcome present (0 when none)."""
    counts = {outcome: 0 for outcome in OUTCOMES}
    for check in found:
        counts[check.outcome] += 1
    return counts


def totals(document: dict) -> dict[str, int]:
    """The counts of a run, as report.json's ``totals`` and every other report give them."""
    return count(checks(document))


# An outcome as a person reads it, where its name would be ambiguous: "fixed" is a known failure
# that passes now, never a failure group fixed since a baseline (reports/baseline_views.py).
# report.json, junit.xml's types and the known-failures file keep the outcome names.
_OUTCOME_WORDS = {"fixed": ("known failure now passing", "known failures now passing")}


def outcome_word(outcome: str, count: int = 1) -> str:
    """``known failure now passing`` for "fixed" (plural when ``count`` is not 1); other outcomes as named."""
    singular, plural = _OUTCOME_WORDS.get(outcome, (outcome, outcome))
    return singular if count == 1 else plural


def outcome_count(count: int, outcome: str) -> str:
    """``3 passed``, ``1 known failure now passing``."""
    return f"{count} {outcome_word(outcome, count)}"


def totals_text(counts: dict[str, int]) -> str:
    """``3 passed · 6 failed · 1 errored · 1 skipped · 1 xfailed · 1 known failure now passing``."""
    return " · ".join(outcome_count(counts[outcome], outcome) for outcome in OUTCOMES)


def is_strict(document: dict) -> bool:
    return bool(document["header"].get("strict"))


def problem_results(document: dict) -> list[dict]:
    """The results that make the run non-conformant: each gets a failure section."""
    return [result for result in document["results"] if is_problem(result["outcome"], is_strict(document))]


# ---------------------------------------------------------------- tables of checks


@dataclass
class Cell:
    counts: dict[str, int] = field(default_factory=lambda: {outcome: 0 for outcome in OUTCOMES})

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def text(self) -> str:
        if not self.total:
            return "–"
        extra = [outcome_count(self.counts[o], o) for o in OUTCOMES if o != "passed" and self.counts[o]]
        return " · ".join([f"{self.counts['passed']}/{self.total} passed", *extra])

    def state(self, strict: bool) -> str:
        return outcome_state(self.counts, strict)


@dataclass
class Matrix:
    title: str
    row_heading: str
    columns: list[str]
    rows: list[tuple[str, list[Cell]]]


def _matrix(
    title: str, row_heading: str, keyed: Iterable[tuple[str, str, str]], column_order: Iterable[str] = ()
) -> Matrix:
    """Count outcomes by (row, column) from (row, column, outcome) triples."""
    cells: dict[tuple[str, str], Cell] = {}
    row_names: list[str] = []
    seen_columns: set[str] = set()
    for row, column, outcome in keyed:
        row, column = prose(row), prose(column)
        if row not in row_names:
            row_names.append(row)
        seen_columns.add(column)
        cells.setdefault((row, column), Cell()).counts[outcome] += 1
    columns = [c for c in column_order if c in seen_columns] + sorted(seen_columns - set(column_order))
    rows = [(row, [cells.get((row, column), Cell()) for column in columns]) for row in sorted(row_names)]
    return Matrix(title, row_heading, columns, rows)


def summary_matrices(document: dict) -> list[Matrix]:
    """Checks by tool x category (a property's examples are counted in its own table); then
    fixture cases by topic x tool; of the tools served."""
    found = served_checks(document)
    by_category = _matrix(
        "Checks by tool and category (a fixture case or a generated property each)",
        "tool",
        ((check.tool, check.category, check.outcome) for check in found),
        CATEGORY_ORDER,
    )
    by_topic = _matrix(
        "Fixture cases by tool and topic",
        "topic",
        ((check.tool, fixture_topic(check.id), check.outcome) for check in found if check.kind == "fixture"),
    )
    # The topic matrix reads better transposed: few tools, many topics.
    by_topic = Matrix(
        by_topic.title,
        "topic",
        [row for row, _ in by_topic.rows],
        [(topic, [cells[i] for _, cells in by_topic.rows]) for i, topic in enumerate(by_topic.columns)],
    )
    return [matrix for matrix in (by_category, by_topic) if matrix.rows and matrix.columns]


@dataclass
class Listing:
    """The checks with one outcome that are listed rather than explained (known failures, skips)."""

    outcome: str
    title: str
    rows: list[tuple[str, str]]  # (visible check id, visible reason), at most MAX_LISTED
    total: int


LISTED = (
    ("xfailed", "Known failures (still failing)"),
    ("fixed", "Known failures now passing"),
    ("skipped", "Skipped"),
)


def listings(document: dict, limit: int) -> list[Listing]:
    """Known failures, those now passing (unless --strict made them failures) and skips, by check; of the tools
    served."""
    found = served_checks(document)
    listed = []
    for outcome, title in LISTED:
        if outcome == "fixed" and is_strict(document):
            continue  # under --strict a known failure now passing is a failure
        selected = [check for check in found if check.outcome == outcome]
        if selected:
            rows = [(prose(c.id), prose(c.known_failure_reason() or c.message())) for c in selected[:limit]]
            listed.append(Listing(outcome, title, rows, len(selected)))
    return listed


# ---------------------------------------------------------------- the run, in words


VERDICTS = {
    0: "conformant",
    1: "NOT conformant",
    2: "usage error",
    3: "could not conclude",
    4: "usage error",
    5: "no tests collected",
    143: "stopped by SIGTERM",
}

# Who stopped a run early (the header's stopped_by, engine.health), in words.
STOPS = {
    "breaker": "target unhealthy",
    "contract_drift": "contract drift",
    "preflight": "target unusable",
}


def verdict_phrase(exit_code: int) -> str:
    return VERDICTS.get(exit_code, f"exit code {exit_code}")


def stop_heading(document: dict) -> str:
    """What stopped the run early ("target unhealthy", "contract drift", ...); "" if nothing did or it is not said."""
    if not document["unhealthy_reason"]:
        return ""
    return STOPS.get(document["header"].get("stopped_by"), "")


def stop_text(document: dict) -> str:
    """``contract drift: REASON``: why the run stopped early, headed by what stopped it ("" if nothing did)."""
    heading = stop_heading(document)
    reason = prose(document["unhealthy_reason"])
    return f"{heading}: {reason}" if heading else reason


def interruption_text(document: dict) -> str:
    """``interrupted by SIGTERM: ...`` when a signal stopped the run, else ""."""
    signal = document["header"].get("interrupted")
    if not signal:
        return ""
    return (
        f"interrupted by {prose(signal)}: the run did not finish; this partial report holds the checks done before it"
    )


def verdict(document: dict) -> tuple[str, str]:
    """(headline, state) from the exit code: ``NOT CONFORMANT``, "bad"; what stopped or interrupted it."""
    interrupted = interruption_text(document)
    if interrupted:  # whatever it would have concluded, it did not get there
        headline = interrupted.replace("interrupted by", "INTERRUPTED BY", 1)
    else:
        headline = verdict_phrase(document["exit_code"]).upper()
    if document["unhealthy_reason"]:
        headline += f"; {stop_text(document)}" if interrupted else f": {stop_text(document)}"
    return headline, {0: "ok", 1: "bad"}.get(document["exit_code"], "warn")


def breaker_text(figures: dict) -> str:
    """The header's breaker figures in one line."""
    try:
        return (
            f"{figures['calls']} calls, {figures['transport_errors']} transport errors "
            f"({figures['window_transport_errors']} of the last {figures['window_calls']}); "
            f"{figures['time_lost_s']:g} s lost to time-outs and retries "
            f"(budget {figures['time_budget_s']:g} s, {figures['time_budget_left_s']:g} s left)"
        )
    except (KeyError, TypeError, ValueError):
        return render_value(figures)[0]


def harness_errors(document: dict) -> list[str]:
    """Errors of the suite itself (not of the target) that the runner put in the header."""
    errors = document["header"].get("harness_errors") or []
    return [prose(error) for error in errors] if isinstance(errors, list) else [prose(errors)]


_HEADER_LABELS = {
    "suite_version": "suite version",
    "contracts": "contracts",
    "target": "target",
    "seed": "seed",
    "profile": "profile",
    "started": "started (UTC)",
    "finished": "finished (UTC)",
    "python": "Python version",
    "platform": "platform",
    "command": "command",
    "strict": "strict",
    "retries": "retries",
    "interrupted": "interrupted by",
    "stopped_by": "stopped early by",
    "breaker": "circuit breaker",
    "largest_bodies": "largest valid body sent (compact JSON), of the largest a valid input can produce",
    "not_served": "not served (tools the target answers 'not found' for)",
    "examples_per_family": "generated examples per family",
    "timeout_s": "time-out per request",
    "workers": "concurrent requests (--workers)",
    "max_failures_per_property": "distinct failures sought per property",
    "families": "families selected (--families)",
    "keyword": "cases selected (-k)",
    "shard": "shard (--shard)",
    "contract_drift": DRIFT_HEADING,
    "contract_drift_allowed": "--allow-contract-drift",
    "hypothesis": "Hypothesis version",
    "pytest": "pytest version",
}

# Read with another key's row (retries_made: with retries), or a section of their own (harness_errors);
# contract_digests are for `conformance diff` only.
_NOT_SHOWN = ("retries_made", "harness_errors", "contract_digests")


def retries_text(header: dict) -> str:
    """The one row about retries: how many a call may have (the header's ``retries``), for which
    failures, and how many the run made (``retries_made``)."""
    allowed = header.get("retries")
    if isinstance(allowed, int) and not isinstance(allowed, bool) and allowed > 0:
        text = (
            f"up to {allowed} per call, for transport failures only (refused, reset, no answer within "
            "the time-out, HTTP 408/429/502/503/504); a call is sent again, never judged twice"
        )
    elif allowed in (0, None):
        text = "none: calls to this kind of target are not sent again"
    else:
        text = str(allowed)
    made = header.get("retries_made")
    if isinstance(made, int) and not isinstance(made, bool):
        text += f"; {made} made in this run"
    return text


def _empty(value: Any) -> bool:
    return value is None or value == [] or value == {} or value == ""


def _header_value_text(key: str, value: Any, header: dict) -> str:
    """One header value in words (before prose() makes it visible)."""
    if key == "contract_drift":
        return " | ".join(drift_lines(header)) or "none"
    if key == "breaker" and isinstance(value, dict):
        return breaker_text(value)
    if key == "largest_bodies" and isinstance(value, dict):  # of the tools served: the others were sent nothing
        from conformance.wire import figures_text

        not_served = _not_served(header)
        return figures_text({tool: figures for tool, figures in value.items() if tool not in not_served}) or "none"
    if key == "stopped_by":
        return STOPS.get(value, str(value))
    if key == "retries":
        return retries_text(header)
    if key == "examples_per_family" and isinstance(value, dict):
        return ", ".join(f"{family} {count}" for family, count in value.items())
    if key == "timeout_s" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:g} s"
    if key == "shard" and isinstance(value, dict) and {"index", "total"} <= set(value):
        return f"{value['index']} of {value['total']}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return value if isinstance(value, str) else render_value(value)[0]


def header_rows(document: dict) -> list[tuple[str, str]]:
    """The run header as (label, text) rows in words, known keys first, in a fixed order; a list
    that is empty (no tool not served) gives no row. report.json keeps the keys themselves."""
    header = document["header"]
    rows = []
    for key, label in _HEADER_LABELS.items():
        if key in header and not (key == "not_served" and _empty(header[key])):
            rows.append((label, prose(_header_value_text(key, header[key], header))))
        if key == "finished" and "started" in header:
            rows.append(("duration", f"{run_duration(header):.1f} s"))
    for key, value in header.items():
        if key not in _HEADER_LABELS and key not in _NOT_SHOWN:
            rows.append((prose(key.replace("_", " ")), prose(_header_value_text(key, value, header))))
    return rows

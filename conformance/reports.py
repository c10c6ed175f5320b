"""The reports of a run: report.json, junit.xml, report.md and report.html.

    write_reports(record, report_dir, junit_path=None)

``report.json`` is ``RunRecord.to_dict()`` made JSON-safe and validated against
``report.schema.json`` before anything is written. The three human/CI reports are
rendered from one list of failure views (``failure_view``), so markdown, HTML and
JUnit always say the same thing.

Everything a target sent back is untrusted: it can be huge, contain markup, control
characters, lone surrogates or look-alike whitespace. So every string shown to a
person goes through ``visible()`` (whitespace and invisible code points become
glyphs or ``⟨U+XXXX⟩``; lone surrogates can then be written as UTF-8), every value
is rendered with a size budget and a truncation note, and each output format
escapes on top of that (HTML escaping, markdown code spans, XML-safe text).
"""

from __future__ import annotations

import datetime as _dt
import difflib
import functools
import html
import json
import math
import platform
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator
from xml.etree import ElementTree

import jsonschema

from conformance import __version__
from conformance.model import OUTCOMES, CaseResult, Mismatch, RunRecord, TargetResponse

SCHEMA_PATH = Path(__file__).with_name("report.schema.json")

# Size budgets (characters of rendered text) for the human reports; report.json keeps everything.
VALUE_LIMIT = 400  # a value at the first difference, shown inline
INPUT_INLINE_LIMIT = 2_000  # beyond this the input is referred to by its reproducer file
BLOCK_LIMIT = 6_000  # any code block (input excerpt, raw response)
DIFF_MAX_LINES = 400  # pretty-printed outputs longer than this get no whole-output diff
MAX_DETAILED_FAILURES = 200  # sections per report; the rest are listed by id only
MAX_LISTED = 500  # rows of the known-failure and skipped lists
MAX_DEPTH = 100  # JSON nesting kept in report.json (a python: target can return anything)
STRING_CAP = 100_000  # characters of one string made visible before the budgets above cut it

CATEGORY_ORDER = ("valid", "boundary", "invalid")
PROBLEM_OUTCOMES = ("failed", "errored")

OUTCOME_MEANING = {
    "passed": "passed",
    "failed": "failed: a wrong answer",
    "errored": "errored: a transport or target error, not an answer",
    "skipped": "skipped",
    "xfailed": "known failure: listed as expected, still failing",
    "fixed": "fixed: a listed known failure now passes; remove it from the known-failures file",
}


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


# ---------------------------------------------------------------- visible text

_GLYPHS = {" ": "␣", "\t": "⇥", "\n": "↵"}
# Literal glyphs are escaped too, so that the rendering stays one-to-one.
_SELF_ESCAPED = frozenset("␣⇥↵⟨")
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})
_MARK_CATEGORIES = frozenset({"Mn", "Me", "Mc"})
# Default-ignorable code points outside the categories above (fillers, variation selectors).
_IGNORABLE = frozenset(
    chr(value)
    for low, high in (
        (0x034F, 0x034F),
        (0x115F, 0x1160),
        (0x17B4, 0x17B5),
        (0x180B, 0x180F),
        (0x3164, 0x3164),
        (0xFE00, 0xFE0F),
        (0xFFA0, 0xFFA0),
        (0xE0100, 0xE01EF),
    )
    for value in range(low, high + 1)
)


def code_point(ch: str) -> str:
    return f"⟨U+{ord(ch):04X}⟩"


def visible(text: str, *, spaces: bool = True) -> str:
    """Show what a string really holds: ``a b`` -> ``a␣b``, tab ``⇥``, newline ``↵``, and
    ``⟨U+00A0⟩`` for every other whitespace, control, format, private-use, unassigned or
    lone-surrogate code point. ``spaces=False`` keeps U+0020 as is (for prose).

    Combining marks are shown as code points unless the string is in NFC and the mark sits
    on a visible base character: then an NFC/NFD difference (which these contracts never
    normalize away) is visible, while ordinary accented or Indic text stays readable.
    """
    if text.isascii() and text.isprintable():  # the common case: only the space needs a glyph
        return text.replace(" ", "␣") if spaces else text
    try:
        nfc = unicodedata.is_normalized("NFC", text)
    except (UnicodeError, ValueError):  # lone surrogates
        nfc = False
    out: list[str] = []
    previous_shown = False  # was the previous code point shown as itself (a base a mark can sit on)?
    for ch in text:
        if ch == " ":
            out.append(" " if not spaces else "␣")
            previous_shown = False
            continue
        if ch in _GLYPHS:
            out.append(_GLYPHS[ch])
            previous_shown = False
            continue
        category = unicodedata.category(ch)
        if ch in _SELF_ESCAPED or category in _INVISIBLE_CATEGORIES or ch in _IGNORABLE:
            out.append(code_point(ch))
            previous_shown = False
        elif category in _MARK_CATEGORIES and not (nfc and previous_shown):
            out.append(code_point(ch))
        else:
            out.append(ch)
            previous_shown = True
    return "".join(out)


# In a command line only these are shown as code points: they cannot be pasted into a terminal
# (controls, line separators) or written at all (lone surrogates).
_UNPASTEABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def command_text(command: str) -> tuple[str, str]:
    """(a command exactly as it must be pasted, or with ⟨U+XXXX⟩ where it cannot be; a note then).

    Other invisible characters (a no-break space in a chrF input, say) stay as they are, so the
    command still runs, with a note naming them: copying from a page can change them.
    """
    shown = _UNPASTEABLE.sub(lambda match: code_point(match.group()), command)
    if shown != command:
        return shown, "holds characters a terminal cannot take, shown as ⟨U+XXXX⟩: use the replay command instead"
    invisible = sorted({ch for ch in command if ch != " " and visible(ch, spaces=False) != ch})
    if invisible:
        named = ", ".join(f"U+{ord(ch):04X}" for ch in invisible[:5]) + (", …" if len(invisible) > 5 else "")
        return command, f"holds invisible or combining characters ({named}) that copying may change: replay is exact"
    return command, ""


def visible_lines(text: str) -> str:
    """Multi-line untrusted text (a raw response): each line made visible, spaces kept."""
    return "\n".join(visible(line, spaces=False) for line in text.split("\n"))


def truncate(text: str, limit: int) -> tuple[str, str]:
    """(text cut to ``limit`` characters, a note saying what was cut or "")."""
    if len(text) <= limit:
        return text, ""
    return text[:limit] + " …", f"truncated: {len(text) - limit:,} more characters; the full value is in report.json"


# ---------------------------------------------------------------- rendering values


def _json_scalar(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    try:
        return json.dumps(value)
    except ValueError:  # an integer too long for str()
        return f"<integer of {value.bit_length():,} bits>"


def _value_pieces(value: Any, indent: int | None, level: int) -> Iterator[str]:
    """JSON text of ``value`` in pieces, strings made visible; lazy so a budget can stop it early."""
    if level > MAX_DEPTH:
        yield f"<nested deeper than {MAX_DEPTH} levels>"
    elif isinstance(value, str):
        # Every budget is far below STRING_CAP, so a string cut here is always reported as truncated.
        yield json.dumps(visible(value[:STRING_CAP]), ensure_ascii=False)
    elif value is None or isinstance(value, (bool, int, float)):
        yield _json_scalar(value)
    elif isinstance(value, (list, tuple)) and indent and _is_short_flat(value):
        yield (
            "["
            + ", ".join(
                _json_scalar(item) if not isinstance(item, str) else json.dumps(visible(item), ensure_ascii=False)
                for item in value
            )
            + "]"
        )
    elif isinstance(value, (list, tuple, dict)):
        is_object = isinstance(value, dict)
        opening, closing = ("{", "}") if is_object else ("[", "]")
        if not value:
            yield opening + closing
            return
        inner = "\n" + " " * (indent * (level + 1)) if indent else ""
        yield opening
        items = value.items() if is_object else enumerate(value)
        for position, (key, item) in enumerate(items):
            yield ("," if position else "") + inner
            if is_object:
                yield json.dumps(visible(str(key)), ensure_ascii=False) + (": " if indent else ":")
            yield from _value_pieces(item, indent, level + 1)
        yield ("\n" + " " * (indent * level) if indent else "") + closing
    else:
        yield json.dumps(visible(repr(value)), ensure_ascii=False)


def _is_short_flat(items: list | tuple) -> bool:
    """A short list of scalars (counts, tokens) stays on one line even when indenting."""
    if len(items) > 16 or not all(item is None or isinstance(item, (str, bool, int, float)) for item in items):
        return False
    return sum(len(item) if isinstance(item, str) else 8 for item in items) <= 80


def render_value(value: Any, limit: int = VALUE_LIMIT, *, indent: int | None = None) -> tuple[str, str]:
    """(JSON-like text with visible strings, truncation note or ""), at most ``limit`` characters."""
    pieces: list[str] = []
    size = 0
    for piece in _value_pieces(value, indent, 0):
        pieces.append(piece)
        size += len(piece)
        if size > limit:
            return "".join(pieces)[:limit] + " …", "truncated; the full value is in report.json"
    return "".join(pieces), ""


# ---------------------------------------------------------------- report.json


def _json_safe(value: Any, depth: int = 0) -> Any:
    """A copy that ``json.dumps(allow_nan=False)`` accepts: non-finite numbers become the strings
    "NaN"/"Infinity"/"-Infinity", tuples lists, keys strings, anything else its repr."""
    if depth > MAX_DEPTH:
        return f"<nested deeper than {MAX_DEPTH} levels>"
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        return value if value.bit_length() < 10_000 else f"<integer of {value.bit_length():,} bits>"
    if isinstance(value, float):
        return value if math.isfinite(value) else _json_scalar(value)
    if isinstance(value, dict):
        return {str(key): _json_safe(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(item, depth + 1) for item in value]
    return repr(value)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def dump_report_json(document: dict) -> str:
    """Compact JSON, non-ASCII kept, each lone surrogate written as its ``\\uXXXX`` escape
    (still the same JSON string, but now encodable as UTF-8)."""
    text = json.dumps(document, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text) + "\n"


@functools.lru_cache(maxsize=1)
def _report_validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


class ReportSchemaError(ValueError):
    """The run record does not match report.schema.json: a bug in the harness, not the target."""


def report_document(record: RunRecord) -> dict:
    """The report.json document, validated against report.schema.json."""
    for index, result in enumerate(record.results):
        if result.outcome not in OUTCOMES:  # to_dict() could not even count it
            raise ReportSchemaError(
                f"report.json: /results/{index}/outcome {result.outcome!r} is not one of {', '.join(OUTCOMES)}"
            )
    document = _json_safe(record.to_dict())
    error = jsonschema.exceptions.best_match(_report_validator().iter_errors(document))
    if error is not None:
        where = "/" + "/".join(str(part) for part in error.absolute_path)
        raise ReportSchemaError(f"report.json does not match report.schema.json at {where}: {error.message[:300]}")
    return document


# ---------------------------------------------------------------- grouping results


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


@dataclass
class PropertyGroup:
    """A generated property with the recorded examples that belong to it."""

    name: str  # generated/<tool>/<family>
    tool_id: str
    version: str
    summary: dict = field(default_factory=dict)  # the record's properties entry, if any
    results: list[CaseResult] = field(default_factory=list)

    @property
    def category(self) -> str:
        if self.summary.get("category"):
            return str(self.summary["category"])
        if self.results:
            return self.results[0].case.category
        return str(self.summary.get("family", "")).split("/")[0]

    @property
    def outcome(self) -> str:
        outcomes = [result.outcome for result in self.results]
        if self.summary.get("outcome") in OUTCOMES:
            outcomes.append(self.summary["outcome"])
        return combined_outcome(outcomes)


def property_groups(record: RunRecord) -> list[PropertyGroup]:
    """Every property: the record's entries, plus any property that has results but no entry."""
    groups: dict[str, PropertyGroup] = {}
    for entry in record.properties:
        tool_id, version = str(entry.get("tool_id", "")), str(entry.get("version", ""))
        name = str(entry.get("id") or property_name(tool_id, str(entry.get("family", ""))))
        groups[name] = PropertyGroup(name, tool_id, version, summary=entry)
    for result in record.results:
        if result.case.origin == "generated":
            name = property_of_case(result.case.case_id, groups)
            groups.setdefault(name, PropertyGroup(name, result.case.tool_id, result.case.version)).results.append(
                result
            )
    return list(groups.values())


@dataclass
class Cell:
    counts: dict[str, int] = field(default_factory=lambda: {outcome: 0 for outcome in OUTCOMES})

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def text(self) -> str:
        if not self.total:
            return "–"
        extra = [f"{self.counts[o]} {o}" for o in OUTCOMES if o != "passed" and self.counts[o]]
        return " · ".join([f"{self.counts['passed']}/{self.total} passed", *extra])

    def state(self, strict: bool) -> str:
        """ "bad" if any case makes the run fail, "warn" for skips and known failures, else "ok"."""
        if not self.total:
            return "none"
        if any(self.counts[o] for o in OUTCOMES if is_problem(o, strict)):
            return "bad"
        return "ok" if self.counts["passed"] + self.counts["fixed"] == self.total else "warn"


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
        row, column = visible(row, spaces=False), visible(column, spaces=False)
        if row not in row_names:
            row_names.append(row)
        seen_columns.add(column)
        cells.setdefault((row, column), Cell()).counts[outcome] += 1
    columns = [c for c in column_order if c in seen_columns] + sorted(seen_columns - set(column_order))
    rows = [(row, [cells.get((row, column), Cell()) for column in columns]) for row in sorted(row_names)]
    return Matrix(title, row_heading, columns, rows)


def summary_matrices(record: RunRecord) -> list[Matrix]:
    """Tool x category, counting each fixture case and each generated property once (a property's
    examples are counted in its own table); then fixture cases by topic x tool."""
    checks = [
        (tool_label(r.case.tool_id, r.case.version), r.case.category, r.outcome)
        for r in record.results
        if r.case.origin == "fixture"
    ] + [(tool_label(g.tool_id, g.version), g.category, g.outcome) for g in property_groups(record)]
    by_category = _matrix(
        "Checks by tool and category (a fixture case or a generated property each)", "tool", checks, CATEGORY_ORDER
    )
    by_topic = _matrix(
        "Fixture cases by tool and topic",
        "topic",
        (
            (tool_label(r.case.tool_id, r.case.version), fixture_topic(r.case.case_id), r.outcome)
            for r in record.results
            if r.case.origin == "fixture"
        ),
    )
    # The topic matrix reads better transposed: few tools, many topics.
    by_topic = Matrix(
        by_topic.title,
        "topic",
        [row for row, _ in by_topic.rows],
        [(topic, [cells[i] for _, cells in by_topic.rows]) for i, topic in enumerate(by_topic.columns)],
    )
    return [matrix for matrix in (by_category, by_topic) if matrix.rows and matrix.columns]


def verdict(record: RunRecord) -> tuple[str, str]:
    """(headline, state) from the exit code."""
    headline = {
        0: "CONFORMANT",
        1: "NOT CONFORMANT",
        2: "USAGE ERROR OR INTERRUPTED",
        3: "COULD NOT CONCLUDE",
        4: "USAGE ERROR",
        5: "NO TESTS COLLECTED",
    }.get(record.exit_code, f"EXIT CODE {record.exit_code}")
    if record.unhealthy_reason:
        headline += f": {visible(record.unhealthy_reason, spaces=False)}"
    return headline, {0: "ok", 1: "bad"}.get(record.exit_code, "warn")


def harness_errors(record: RunRecord) -> list[str]:
    """Errors of the suite itself (not of the target) that the runner put in the header."""
    errors = record.header.get("harness_errors") or []
    return (
        [visible(str(error), spaces=False) for error in errors]
        if isinstance(errors, list)
        else [visible(str(errors), spaces=False)]
    )


def header_rows(record: RunRecord) -> list[tuple[str, str]]:
    """The run header as (label, text) rows, known keys first, in a fixed order."""
    header = record.header
    labels = {
        "suite_version": "suite version",
        "contracts": "contracts",
        "target": "target",
        "seed": "seed",
        "profile": "profile",
        "started": "started (UTC)",
        "finished": "finished (UTC)",
        "python": "python",
        "platform": "platform",
        "command": "command",
        "strict": "strict",
        "retries": "retries",
    }
    rows = []
    for key, label in labels.items():
        if key in header:
            value = header[key]
            if isinstance(value, bool):
                text = "yes" if value else "no"
            else:
                text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            rows.append((label, visible(text, spaces=False)))
        if key == "finished" and "started" in header:
            rows.append(("duration", f"{_duration_seconds(header):.1f} s"))
    for key, value in header.items():
        if key not in labels and key != "harness_errors":  # those get a section of their own
            text = visible(value, spaces=False) if isinstance(value, str) else render_value(value)[0]
            rows.append((visible(str(key), spaces=False), text))
    return rows


# ---------------------------------------------------------------- one failure, format-neutral


@dataclass
class Block:
    label: str
    text: str
    note: str = ""  # e.g. what was truncated
    kind: str = "code"  # "code" (JSON) | "diff" | "command" | "text"


# Facts that are sentences (shown as text); every other fact is a value (shown as code).
PROSE_FACTS = frozenset({"outcome", "description", "why", "detail", "target said", "known failure reason"})


@dataclass
class FailureView:
    number: int
    outcome: str
    title: str
    facts: list[tuple[str, str]]  # (label, text); labels in PROSE_FACTS are sentences, the rest values
    blocks: list[Block]

    @property
    def anchor(self) -> str:
        return f"failure-{self.number}"


def _describe_number(value: Any) -> str:
    return (
        _json_scalar(value)
        if isinstance(value, (int, float)) and not isinstance(value, bool)
        else render_value(value, 40)[0]
    )


def numeric_difference(delta: Any, tolerance: Any) -> str:
    """``|expected − actual| = 1.8e-11, tolerance 4.4e-16 (41,021× the tolerance)``.

    Three significant digits, unless the difference is so close to the tolerance that they
    would look equal: then every digit.
    """
    numbers = all(
        isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in (delta, tolerance)
    )
    ratio = delta / tolerance if numbers and tolerance > 0 else None
    close_call = ratio is not None and 0.99 <= ratio <= 1.01

    def show(value: Any) -> str:
        if isinstance(value, float) and math.isfinite(value) and not close_call:
            return f"{value:.3g}"
        return _describe_number(value)

    text = f"|expected − actual| = {show(delta)}"
    if tolerance is None:
        return text + " (compared exactly)"
    text += f", tolerance {show(tolerance)}"
    if ratio is not None:
        precision = ".6g" if close_call else ".3g"
        text += f" ({ratio:,.0f}× the tolerance)" if ratio >= 100 else f" ({ratio:{precision}}× the tolerance)"
    return text


def whole_output_diff(expected: Any, actual: Any) -> tuple[str, str]:
    """A unified diff of the pretty-printed values, or ("", reason) when there is none to show."""
    if not isinstance(expected, (dict, list)) or not isinstance(actual, (dict, list)):
        return "", ""
    budget = DIFF_MAX_LINES * 80
    expected_text, expected_cut = render_value(expected, budget, indent=2)
    actual_text, actual_cut = render_value(actual, budget, indent=2)
    expected_lines, actual_lines = expected_text.split("\n"), actual_text.split("\n")
    if expected_cut or actual_cut or max(len(expected_lines), len(actual_lines)) > DIFF_MAX_LINES:
        return "", "outputs too large for a whole-output diff; see the first difference above and report.json"
    diff = difflib.unified_diff(expected_lines, actual_lines, "expected", "actual", lineterm="", n=3)
    return "\n".join(diff), ""


def _case_facts(result: CaseResult, header: dict) -> list[tuple[str, str]]:
    case = result.case
    case_label = case.case_id if case.origin == "fixture" else f"generated ({case.case_id})"
    facts = [
        ("outcome", OUTCOME_MEANING.get(result.outcome, result.outcome)),
        ("tool", tool_label(case.tool_id, case.version)),
        ("case", visible(case_label, spaces=False)),
        ("category", visible(case.category, spaces=False)),
    ]
    if case.description:
        facts.append(("description", visible(case.description, spaces=False)))
    seed = case.seed if case.seed is not None else header.get("seed")
    if seed is not None:
        facts.append(("seed", str(seed)))
    return facts


def _mismatch_facts(mismatch: Mismatch, why: str) -> list[tuple[str, str]]:
    """Where the answer first differs, both values there, and the numeric delta against the tolerance."""
    pointer = json.dumps(visible(mismatch.pointer), ensure_ascii=False)
    facts = [
        ("first difference at", f"JSON pointer {pointer}" + (" (the whole output)" if not mismatch.pointer else ""))
    ]
    for label, value in (("expected", mismatch.expected), ("actual", mismatch.actual)):
        text, note = render_value(value)
        facts.append((label, text + (f" ({note})" if note else "")))
    if mismatch.delta is not None:
        facts.append(("numeric difference", numeric_difference(mismatch.delta, mismatch.tolerance)))
    if mismatch.message and mismatch.message not in why:
        facts.append(("detail", visible(mismatch.message, spaces=False)))
    return facts


def _response_facts(response: TargetResponse) -> list[tuple[str, str]]:
    """How a rejection or a transport error looked: kind, status, error code, explanation."""
    facts = []
    if response.kind != "result":
        said = [response.kind.replace("_", " ")]
        if response.status is not None:
            said.append(f"status {response.status}")
        if response.error_code:
            said.append(f"error code {render_value(response.error_code, 80)[0]}")
        if response.detail:
            said.append(visible(response.detail, spaces=False))
        facts.append(("target said", ", ".join(said)))
    if response.retries:
        facts.append(("retries", str(response.retries)))
    return facts


def _input_parts(result: CaseResult) -> tuple[list[tuple[str, str]], Block]:
    """The (shrunk) input inline when small; else its beginning and the reproducer file holding it."""
    text, note = render_value(result.case.input, INPUT_INLINE_LIMIT)
    where = visible(result.reproducer_file, spaces=False)
    if note and result.reproducer_file:
        text, note = render_value(result.case.input, 300)
        return [("input", f"too large to show here; saved in {where}")], Block("input (beginning)", text, note)
    facts = [("reproducer file", where)] if result.reproducer_file else []
    return facts, Block("input", text, note)


def _answer_parts(result: CaseResult) -> tuple[list[tuple[str, str]], list[Block]]:
    """What was expected against what came back: a whole-output diff when both are outputs."""
    case, response = result.case, result.response
    answered = response is not None and response.kind == "result"
    facts: list[tuple[str, str]] = []
    blocks: list[Block] = []
    if case.expect.kind == "output" and answered:
        diff, note = whole_output_diff(result.expected, response.result)
        if diff or note:
            blocks.append(Block("expected → actual (whole output)", diff, note, kind="diff"))
    elif case.expect.kind == "output":
        text, note = render_value(result.expected)
        facts.append(("expected answer", f"an output: {text}" + (f" ({note})" if note else "")))
    else:
        code = case.expect.error_code
        wanted = f" with the code {code}" if code and code != "any" else " (any error code)"
        facts.append(("expected answer", "a rejection" + wanted))
        if answered:
            text, note = render_value(response.result, BLOCK_LIMIT, indent=2)
            blocks.append(Block("actual answer (should have been a rejection)", text, note))
    if response is not None and not answered and response.raw:
        # the target's own words: why it rejected, or what broke
        text, note = truncate(visible_lines(response.raw), BLOCK_LIMIT)
        blocks.append(Block("raw response", text, note, kind="text"))
    return facts, blocks


def failure_view(number: int, result: CaseResult, header: dict) -> FailureView:
    """Everything a person needs to understand and reproduce one failure."""
    case, mismatch, response = result.case, result.mismatch, result.response
    why = result.message or (mismatch.message if mismatch else "")
    facts = _case_facts(result, header)
    if why:
        facts.append(("why", visible(why, spaces=False)))
    if mismatch is not None:
        facts += _mismatch_facts(mismatch, why)
    if response is not None:
        facts += _response_facts(response)
    if result.known_failure_reason:
        facts.append(("known failure reason", visible(result.known_failure_reason, spaces=False)))
    input_facts, input_block = _input_parts(result)
    answer_facts, answer_blocks = _answer_parts(result)
    blocks = [input_block, *answer_blocks]
    for label, command in (("replay", result.replay), ("curl", result.curl)):
        if command:
            blocks.append(Block(label, *command_text(command), kind="command"))
    title = f"{result.outcome} · {tool_label(case.tool_id, case.version)} · {visible(case.case_id, spaces=False)}"
    return FailureView(number, result.outcome, title, facts + input_facts + answer_facts, blocks)


def problem_results(record: RunRecord) -> list[CaseResult]:
    strict = bool(record.header.get("strict"))
    return [result for result in record.results if is_problem(result.outcome, strict)]


def failure_views(record: RunRecord) -> list[FailureView]:
    problems = problem_results(record)[:MAX_DETAILED_FAILURES]
    return [failure_view(number, result, record.header) for number, result in enumerate(problems, 1)]


def failure_text(view: FailureView) -> str:
    """Plain text of one failure (the JUnit failure body)."""
    lines = [view.title, ""]
    lines += [f"{label}: {text}" for label, text in view.facts]
    for block in view.blocks:
        lines += ["", f"{block.label}:", block.text]
        if block.note:
            lines.append(f"({block.note})")
    return "\n".join(lines)


def listed(record: RunRecord, outcome: str) -> list[CaseResult]:
    return [result for result in record.results if result.outcome == outcome]


# ---------------------------------------------------------------- report.md

# Markdown's active characters; "_" only where it could open or close emphasis (not inside a word).
_MD_SPECIAL = re.compile(r"([\\`*\[\]<>|&~$]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")


def md_text(text: str) -> str:
    """Prose that markdown shows literally (no emphasis, links, HTML or table breaks)."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def md_code(text: str) -> str:
    """An inline code span that holds any text, backticks included."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    padding = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{padding}{text}{padding}{fence}"


def md_block(text: str, language: str = "") -> list[str]:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + language, text, fence]


def md_cell_code(text: str) -> str:
    """A code span inside a table cell: GitHub-flavoured tables split cells on "|" even within code."""
    return md_code(text).replace("|", "\\|")


def _md_table(heading: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(heading) + " |", "|" + "|".join("---" for _ in heading) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def render_markdown(record: RunRecord, views: list[FailureView] | None = None) -> str:
    header, totals = record.header, record.totals()
    strict = bool(header.get("strict"))
    headline, _ = verdict(record)
    lines = [
        "# Conformance report",
        "",
        f"**{md_text(headline)}** (exit code {record.exit_code}) — target {md_code(visible(str(header.get('target', '?')), spaces=False))}",
        "",
        " · ".join(f"{totals[outcome]} {outcome}" for outcome in OUTCOMES),
        "",
    ]
    errors = harness_errors(record)
    if errors:
        lines += [
            f"## Harness errors ({len(errors)})",
            "",
            "The suite itself failed here, so the run could not conclude:",
            "",
        ]
        lines += [f"- {md_code(error)}" for error in errors] + [""]
    lines += ["## Run", ""]
    lines += _md_table(["", ""], [[md_text(label), md_cell_code(text)] for label, text in header_rows(record)])
    for matrix in summary_matrices(record):
        lines += ["", f"## {matrix.title}", ""]
        lines += _md_table(
            [matrix.row_heading, *map(md_text, matrix.columns)],
            [
                [
                    md_text(row),
                    *(md_text(cell.text()) + (" ✗" if cell.state(strict) == "bad" else "") for cell in cells),
                ]
                for row, cells in matrix.rows
            ],
        )
    groups = property_groups(record)
    if groups:
        lines += ["", "## Generated properties", ""]
        lines += _md_table(
            ["property", "examples run", "outcome", "recorded failures"],
            [
                [
                    md_cell_code(group.name),
                    md_text(str(group.summary.get("examples", "?"))),
                    md_text(group.outcome),
                    str(sum(is_problem(r.outcome, strict) for r in group.results)),
                ]
                for group in groups
            ],
        )
    views = failure_views(record) if views is None else views
    problems = problem_results(record)
    lines += ["", f"## Failures ({len(problems)})", ""]
    if not problems:
        lines.append("None.")
    for view in views:
        lines += [f"### {view.number}. {md_text(view.title)}", ""]
        lines += [
            f"- **{md_text(label)}:** {md_text(text) if label in PROSE_FACTS else md_code(text)}"
            for label, text in view.facts
        ]
        for block in view.blocks:
            lines += ["", f"**{md_text(block.label)}**" + (f" ({md_text(block.note)})" if block.note else "")]
            if block.text:
                lines += md_block(block.text, {"diff": "diff", "command": "sh", "text": "text"}.get(block.kind, "json"))
        lines.append("")
    if len(problems) > len(views):
        lines.append(f"{len(problems) - len(views)} more failures are not shown here; see report.json:")
        lines += [f"- {md_code(visible(r.case.case_id, spaces=False))}" for r in problems[len(views) :][:MAX_LISTED]]
    for outcome, title in (
        ("xfailed", "Known failures (still failing)"),
        ("fixed", "Known failures now passing"),
        ("skipped", "Skipped"),
    ):
        results = listed(record, outcome)
        if outcome == "fixed" and strict or not results:
            continue  # under --strict the fixed cases are failures above
        lines += ["", f"## {title} ({len(results)})", ""]
        lines += [
            f"- {md_code(visible(r.case.case_id, spaces=False))}: {md_text(visible(r.known_failure_reason or r.message, spaces=False))}"
            for r in results[:MAX_LISTED]
        ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- report.html

_CSS = """
:root { color-scheme: light; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --line: #d0d7de; --muted: #57606a; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; margin: 0 auto; padding: 1.5rem; max-width: 1100px; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .6rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
.verdict { font-size: 1.2rem; font-weight: 700; padding: .6rem .9rem; border-radius: 6px; border: 1px solid; display: inline-block; }
.verdict.ok { color: var(--ok); background: #dafbe1; } .verdict.bad { color: var(--bad); background: #ffebe9; } .verdict.warn { color: var(--warn); background: #fff8c5; }
.totals { display: flex; flex-wrap: wrap; gap: .5rem; margin: 1rem 0; padding: 0; list-style: none; }
.totals li { border: 1px solid var(--line); border-radius: 6px; padding: .3rem .7rem; }
.totals b { font-size: 1.1rem; margin-right: .3rem; }
table { border-collapse: collapse; margin: .3rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .6rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.ok { background: #dafbe1; } td.bad { background: #ffebe9; font-weight: 600; } td.warn { background: #fff8c5; } td.none { color: var(--muted); }
table.run td:first-child { color: var(--muted); white-space: nowrap; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
td code, dd code { overflow-wrap: anywhere; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: .6rem; overflow: auto; max-height: 28rem; white-space: pre-wrap; overflow-wrap: anywhere; margin: .2rem 0 .8rem; }
details { border: 1px solid var(--line); border-radius: 6px; margin: .6rem 0; }
details > summary { cursor: pointer; padding: .5rem .8rem; font-weight: 600; overflow-wrap: anywhere; }
details[open] > summary { border-bottom: 1px solid var(--line); }
details > div { padding: .4rem .9rem .2rem; }
.badge { display: inline-block; border-radius: 1rem; padding: 0 .55rem; font-size: .8rem; color: #fff; margin-right: .4rem; }
.badge.failed, .badge.errored, .badge.fixed { background: var(--bad); } .badge.xfailed, .badge.skipped { background: var(--warn); } .badge.passed { background: var(--ok); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .3rem 0 .8rem; }
dt { color: var(--muted); } dd { margin: 0; }
.label { font-weight: 600; margin-top: .4rem; } .note { color: var(--muted); font-style: italic; font-weight: 400; }
.del { color: var(--bad); background: #ffebe9; display: block; } .add { color: var(--ok); background: #dafbe1; display: block; } .hunk { color: var(--muted); display: block; } .line { display: block; }
ul.plain { padding-left: 1.2rem; }
footer { margin-top: 2rem; color: var(--muted); font-size: .85rem; }
"""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _html_table(heading: list[str], rows: Iterable[list[tuple[str, str]]], css_class: str = "") -> str:
    """Rows of (cell html, cell class) pairs; heading cells are plain text."""
    head = "".join(f"<th>{_e(cell)}</th>" for cell in heading)
    body = "".join(
        "<tr>"
        + "".join(f'<td class="{_e(cls)}">{cell}</td>' if cls else f"<td>{cell}</td>" for cell, cls in row)
        + "</tr>"
        for row in rows
    )
    attribute = f' class="{css_class}"' if css_class else ""
    return (
        f"<table{attribute}>"
        + (f"<thead><tr>{head}</tr></thead>" if heading else "")
        + f"<tbody>{body}</tbody></table>"
    )


def _html_diff(text: str) -> str:
    classes = (("---", "hunk"), ("+++", "hunk"), ("@@", "hunk"), ("-", "del"), ("+", "add"))
    lines = []
    for line in text.split("\n"):
        css = next((cls for prefix, cls in classes if line.startswith(prefix)), "line")
        lines.append(f'<span class="{css}">{_e(line)}</span>')
    # one block-level span per line: a newline between them would show as an empty line
    return "".join(lines)


def _html_failure(view: FailureView) -> str:
    facts = "".join(
        f"<dt>{_e(label)}</dt><dd>{_e(text)}</dd>"
        if label in PROSE_FACTS
        else f"<dt>{_e(label)}</dt><dd><code>{_e(text)}</code></dd>"
        for label, text in view.facts
    )
    blocks = []
    for block in view.blocks:
        note = f' <span class="note">({_e(block.note)})</span>' if block.note else ""
        blocks.append(f'<div class="label">{_e(block.label)}{note}</div>')
        if block.text:
            content = _html_diff(block.text) if block.kind == "diff" else _e(block.text)
            blocks.append(f"<pre>{content}</pre>")
    opened = " open" if view.number <= 3 else ""
    return (
        f'<details id="{view.anchor}"{opened}><summary><span class="badge {_e(view.outcome)}">{_e(view.outcome)}</span>'
        f"{view.number}. {_e(view.title)}</summary><div><dl>{facts}</dl>{''.join(blocks)}</div></details>"
    )


def render_html(record: RunRecord, views: list[FailureView] | None = None) -> str:
    header, totals = record.header, record.totals()
    strict = bool(header.get("strict"))
    headline, state = verdict(record)
    target = visible(str(header.get("target", "?")), spaces=False)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        # Defence in depth: even if some target text escaped escaping, nothing could load or run.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Conformance report: {_e(target)}</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>Conformance report</h1>",
        f'<div class="verdict {state}">{_e(headline)}</div> <span>exit code {record.exit_code} · target <code>{_e(target)}</code></span>',
        '<ul class="totals">' + "".join(f"<li><b>{totals[o]}</b>{_e(o)}</li>" for o in OUTCOMES) + "</ul>",
        *(
            [
                f"<h2>Harness errors ({len(harness_errors(record))})</h2><p>The suite itself failed here, so the run could not conclude:</p>",
                '<ul class="plain">'
                + "".join(f"<li><code>{_e(error)}</code></li>" for error in harness_errors(record))
                + "</ul>",
            ]
            if harness_errors(record)
            else []
        ),
        "<h2>Run</h2>",
        _html_table(
            [], ([(_e(label), ""), (f"<code>{_e(text)}</code>", "")] for label, text in header_rows(record)), "run"
        ),
    ]
    for matrix in summary_matrices(record):
        parts.append(f"<h2>{_e(matrix.title)}</h2>")
        parts.append(
            _html_table(
                [matrix.row_heading, *matrix.columns],
                (
                    [(_e(row), ""), *((_e(cell.text()), cell.state(strict)) for cell in cells)]
                    for row, cells in matrix.rows
                ),
                "matrix",
            )
        )
    groups = property_groups(record)
    if groups:
        parts.append("<h2>Generated properties</h2>")
        parts.append(
            _html_table(
                ["property", "examples run", "outcome", "recorded failures"],
                (
                    [
                        (f"<code>{_e(visible(group.name, spaces=False))}</code>", ""),
                        (_e(str(group.summary.get("examples", "?"))), ""),
                        (
                            _e(group.outcome),
                            "bad"
                            if is_problem(group.outcome, strict)
                            else "ok"
                            if group.outcome in ("passed", "fixed")
                            else "warn",
                        ),
                        (str(sum(is_problem(r.outcome, strict) for r in group.results)), ""),
                    ]
                    for group in groups
                ),
            )
        )
    problems = problem_results(record)
    views = failure_views(record) if views is None else views
    parts.append(f"<h2>Failures ({len(problems)})</h2>")
    if not problems:
        parts.append("<p>None.</p>")
    parts += [_html_failure(view) for view in views]
    if len(problems) > len(views):
        parts.append(f"<p>{len(problems) - len(views)} more failures are not shown here; see report.json:</p>")
        parts.append(
            '<ul class="plain">'
            + "".join(
                f"<li><code>{_e(visible(r.case.case_id, spaces=False))}</code></li>"
                for r in problems[len(views) :][:MAX_LISTED]
            )
            + "</ul>"
        )
    for outcome, title in (
        ("xfailed", "Known failures (still failing)"),
        ("fixed", "Known failures now passing"),
        ("skipped", "Skipped"),
    ):
        results = listed(record, outcome)
        if outcome == "fixed" and strict or not results:
            continue
        parts.append(f"<h2>{_e(title)} ({len(results)})</h2>")
        parts.append(
            '<ul class="plain">'
            + "".join(
                f"<li><code>{_e(visible(r.case.case_id, spaces=False))}</code>: {_e(visible(r.known_failure_reason or r.message, spaces=False))}</li>"
                for r in results[:MAX_LISTED]
            )
            + "</ul>"
        )
    parts.append(
        "<footer>Strings are shown with visible whitespace: ␣ space, ⇥ tab, ↵ line feed, ⟨U+XXXX⟩ any other "
        "invisible or ambiguous code point. Full values are in report.json.</footer></body></html>"
    )
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------- junit.xml

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """Text XML 1.0 can carry (ElementTree escapes markup but not forbidden characters)."""
    return _XML_INVALID.sub(lambda match: code_point(match.group()), text)


def _seconds(milliseconds: float) -> str:
    return f"{max(milliseconds, 0.0) / 1000:.3f}"


def _duration_seconds(header: dict) -> float:
    try:
        started = _dt.datetime.fromisoformat(str(header["started"]).replace("Z", "+00:00"))
        finished = _dt.datetime.fromisoformat(str(header["finished"]).replace("Z", "+00:00"))
    except (KeyError, ValueError):
        return 0.0
    return max((finished - started).total_seconds(), 0.0)


def _one_line(text: str, limit: int = 500) -> str:
    return truncate(" ".join(text.split("\n")), limit)[0]


def _junit_outcome(element: ElementTree.Element, outcome: str, message: str, body: str, strict: bool) -> str:
    """Add the child element for ``outcome``; return the counter it belongs to ("" for a pass)."""
    if outcome == "failed" or (outcome == "fixed" and strict):
        child, counter = ElementTree.SubElement(element, "failure", type=outcome), "failures"
    elif outcome == "errored":
        child, counter = ElementTree.SubElement(element, "error", type="errored"), "errors"
    elif outcome in ("skipped", "xfailed"):
        child, counter = ElementTree.SubElement(element, "skipped"), "skipped"
    else:
        if outcome == "fixed":  # not strict: passes, with a note for whoever reads the log
            ElementTree.SubElement(element, "system-out").text = xml_text(message)
        return ""
    child.set("message", xml_text(_one_line(message)))
    if body:
        child.text = xml_text(body)
    return counter


def render_junit(record: RunRecord, views: list[FailureView] | None = None) -> str:
    header = record.header
    strict = bool(header.get("strict"))
    # the views stop at MAX_DETAILED_FAILURES: later failures get a message but no body
    views = failure_views(record) if views is None else views
    views_by_result = dict(zip(map(id, problem_results(record)), views, strict=False))
    suites: dict[str, ElementTree.Element] = {}
    counters: dict[str, dict[str, float]] = {}
    root = ElementTree.Element("testsuites", name="conformance")

    def suite_for(tool: str) -> ElementTree.Element:
        if tool not in suites:
            suite = ElementTree.SubElement(
                root, "testsuite", name=xml_text(tool), timestamp=str(header.get("started", ""))
            )
            properties = ElementTree.SubElement(suite, "properties")
            for key in (
                "suite_version",
                "target",
                "seed",
                "profile",
                "strict",
                "retries",
                "command",
                "python",
                "platform",
            ):
                if key in header:
                    ElementTree.SubElement(properties, "property", name=key, value=xml_text(str(header[key])))
            suites[tool] = suite
            counters[tool] = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0, "time": 0.0}
        return suites[tool]

    def add_case(tool: str, name: str, outcome: str, message: str, body: str, milliseconds: float) -> None:
        case = ElementTree.SubElement(
            suite_for(tool), "testcase", classname=xml_text(tool), name=xml_text(name), time=_seconds(milliseconds)
        )
        counter = _junit_outcome(case, outcome, message, body, strict)
        counters[tool]["tests"] += 1
        counters[tool]["time"] += max(milliseconds, 0.0) / 1000
        if counter:
            counters[tool][counter] += 1

    for result in record.results:
        if result.case.origin != "fixture":
            continue
        view = views_by_result.get(id(result))
        message = _junit_message(result)
        add_case(
            tool_label(result.case.tool_id, result.case.version),
            result.case.case_id,
            result.outcome,
            message,
            failure_text(view) if view else "",
            result.response.duration_ms if result.response else 0.0,
        )
    for group in property_groups(record):
        failing = [views_by_result[id(r)] for r in group.results if id(r) in views_by_result]
        message = _property_message(group)
        milliseconds = group.summary.get("duration_ms")
        if not isinstance(milliseconds, (int, float)):
            milliseconds = sum(r.response.duration_ms for r in group.results if r.response)
        body = f"{group.summary.get('examples', '?')} examples run\n\n" + "\n\n".join(
            failure_text(view) for view in failing
        )
        add_case(
            tool_label(group.tool_id, group.version), group.name, group.outcome, message, body.strip(), milliseconds
        )

    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for tool, suite in suites.items():
        for key, value in counters[tool].items():
            suite.set(key, f"{value:.3f}" if key == "time" else str(int(value)))
            if key in totals:
                totals[key] += int(value)
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{_duration_seconds(header):.3f}")
    root.set("timestamp", str(header.get("started", "")))
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


def _outcome_message(outcome: str, message: str, known_failure_reason: str) -> str:
    """The one-line JUnit message: the reason for a known failure, else what went wrong."""
    if outcome == "xfailed":
        return f"known failure: {known_failure_reason or message}"
    if outcome == "fixed":
        return f"fixed: listed as a known failure ({known_failure_reason}) but now passes"
    return visible(message or outcome, spaces=False)


def _junit_message(result: CaseResult) -> str:
    message = result.message or (result.mismatch.message if result.mismatch else "")
    return _outcome_message(result.outcome, message, result.known_failure_reason)


def _property_message(group: PropertyGroup) -> str:
    deciding = next((r for r in group.results if r.outcome == group.outcome), None)
    if deciding is not None:
        return _junit_message(deciding)
    summary = group.summary
    return _outcome_message(
        group.outcome, str(summary.get("message", "")), str(summary.get("known_failure_reason", ""))
    )


# ---------------------------------------------------------------- writing


def write_reports(record: RunRecord, report_dir: Path, junit_path: Path | None = None) -> dict[str, Path]:
    """Write report.json, junit.xml, report.md and report.html; return their paths by kind.

    report.json is validated first: a record that does not match the schema is a harness bug
    and raises ReportSchemaError before any file is written.
    """
    document = report_document(record)
    report_dir = Path(report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": report_dir / "report.json",
        "junit": Path(junit_path) if junit_path is not None else report_dir / "junit.xml",
        "markdown": report_dir / "report.md",
        "html": report_dir / "report.html",
    }
    views = failure_views(record)  # rendered once, shown three times
    contents = {
        "json": dump_report_json(document),
        "junit": render_junit(record, views),
        "markdown": render_markdown(record, views),
        "html": render_html(record, views),
    }
    for kind, path in paths.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        # visible() already escaped every lone surrogate; this only guarantees the write cannot fail.
        text = _LONE_SURROGATE.sub(lambda match: code_point(match.group()), contents[kind])
        path.write_text(text, encoding="utf-8", newline="\n")
    return paths

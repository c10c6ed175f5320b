"""The data the parts of the harness pass to each other.

    case sources (fixtures.py, strategies/)  ->  Case
    targets/                                ->  TargetResponse   (what came back, untrusted, capped)
    compare.py                              ->  Verdict          (outcome + first Mismatch)
    runner / pytest plugin                  ->  CaseResult       (one per fixture case / property example)
    reports/                                <-  RunRecord        (header + every CaseResult)

Everything here is plain data with ``to_dict()`` giving the report.json form, in which every
value (an input, an answer, the values of a difference) is kept to ``MAX_NESTING`` levels:
a ``python:`` target can answer a list nested 100,000 deep, or a cycle, and a case can hold one,
so a deeper part is replaced by a note saying it was cut, and every report, reproducer and diff
built from the record walks at most that deep. Nothing the strict JSON parser accepts is cut.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Literal

from conformance.jsonio import MAX_NESTING

CUT_NOTE = f"<cut: nested deeper than {MAX_NESTING} levels>"


def bounded(value: Any, room: int = MAX_NESTING) -> Any:
    """A copy of a JSON-like value with every array or object nested deeper than ``room`` levels
    replaced by CUT_NOTE (a value parse_json accepts comes back whole). Tuples become lists;
    other objects are kept as they are (report.json shows their repr)."""
    if isinstance(value, (dict, list, tuple)) and room <= 0:
        return CUT_NOTE
    if isinstance(value, dict):
        return {key: bounded(item, room - 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [bounded(item, room - 1) for item in value]
    return value


def too_deep(value: Any, room: int = MAX_NESTING) -> bool:
    """Is some array or object of the value nested deeper than ``room`` levels (what bounded cuts)?"""
    if not isinstance(value, (dict, list, tuple)):
        return False
    return room <= 0 or any(too_deep(item, room - 1) for item in (value.values() if isinstance(value, dict) else value))


def record_dict(data: Any) -> dict:
    """A dataclass as the record keeps it: its fields, nested dataclasses as dicts, values bounded."""
    return {
        part.name: record_dict(item) if is_dataclass(item) else bounded(item)
        for part in fields(data)
        for item in (getattr(data, part.name),)
    }


# Outcomes of one case. "failed" is a wrong answer; "errored" a transport or target error
# (timeout, refused, 5xx, garbage); "xfailed"/"fixed" come from a known-failures file.
Outcome = Literal["passed", "failed", "errored", "skipped", "xfailed", "fixed"]
OUTCOMES: tuple[str, ...] = ("passed", "failed", "errored", "skipped", "xfailed", "fixed")

# How the message of a case the implementation cannot express starts (a "skipped" outcome).
NOT_APPLICABLE = "not applicable"


def is_not_applicable(outcome: str, message: str) -> bool:
    return outcome == "skipped" and message.startswith(NOT_APPLICABLE + ":")


# Case categories: the generated families, and the topic-free category of a fixture case.
Category = Literal["valid", "boundary", "invalid"]


@dataclass(frozen=True)
class Expectation:
    """What a case requires of the target.

    kind "output": the target must answer; the expected output is the oracle's, computed
    under every reasonable reading of the contract's open points (compare.py). ``output`` is
    the literal expected output a fixture states (tests check it equals the oracle's).
    kind "error": the target must reject. ``error_code`` is "invalid_input", "limit_exceeded"
    (checked only where the contract names the code) or "any".
    """

    kind: Literal["output", "error"]
    error_code: str | None = None
    output: dict | None = None


@dataclass
class Case:
    tool_id: str
    version: str
    case_id: str  # stable: "<tool>/<version>/<topic>#<id>" for a fixture; "generated/<tool>/<family>/<n>" otherwise
    origin: Literal["fixture", "generated"]
    category: str  # "valid" | "boundary" | "invalid" (fixtures: derived from expect + tags)
    input: Any
    expect: Expectation
    description: str = ""
    tags: list[str] = field(default_factory=list)
    seed: int | None = None
    # A case made of several requests (conformance/steps.py): every step {tool_id, version, input, expect,
    # description}, sent in order ("sequence") or released together ("burst"). The case itself then
    # holds the step that went wrong first (``failing_step``, 0-based) once judged, or the first step.
    steps: list[dict] = field(default_factory=list)
    sending: str = ""
    failing_step: int | None = None
    # How the input goes on the wire (conformance/wire.py, WireForm.to_dict): {} is the compact form.
    wire: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return record_dict(self)


@dataclass(frozen=True)
class Expressed:
    """What a partial answer holds: only an ``implementation:`` target gives one (a library that computes
    some of the output's fields), never a real target, which must answer every field its schema requires.

    Fields are JSON pointer classes of the output ("/score", "/segments/*/score"): those the library
    computes (and the answer holds), those of the output_schema it does not, and those holding the
    library's float for an exact six-decimal value, with its scale (100: the 0..100 scale, 1: 0..1).
    """

    fields: tuple[str, ...]
    not_expressed: tuple[str, ...] = ()
    library_floats: dict = field(default_factory=dict)

    def judged_on(self) -> str:
        """ "on fields score, segment_scores (score_fraction not expressed)": what a verdict was judged on."""
        text = "on fields " + ", ".join(field_name(p) for p in self.fields)
        if self.not_expressed:
            text += f" ({', '.join(field_name(p) for p in self.not_expressed)} not expressed)"
        return text


def field_name(pointer_class: str) -> str:
    """ "/segments/*/score" -> "segments/*/score", "/segment_scores/*" -> "segment_scores": a pointer class
    as a reader names the field."""
    return pointer_class.lstrip("/").removesuffix("/*")


@dataclass
class TargetResponse:
    """What a target sent back, already size-capped and parsed defensively.

    kind "result": a well-formed answer; ``result`` is the output object (not yet validated).
    kind "rejection": a 4xx, an error body from a command/module target, or ContractError;
      ``refused_by`` names the layer in front of the implementation that refused the input
      before it ran (an MCP server's declared input schema), "" when the implementation did.
    kind "malformed_rejection": a complete answer that refuses, but neither in the contract's
      form nor by a layer that may (an MCP ``isError`` without an error body, to arguments its
      declared schema accepts): a failure whatever the case expects, not a transport problem.
    kind "transport_error": anything else (timeout, refused, dropped, 5xx, non-JSON, no envelope).
      ``fault`` says how, when the input may be its cause (a 5xx, garbage, a crash of the command or
      module, a dropped connection, no answer in time: "HTTP 500", "exit status 1", "raised
      KeyError"...), "" when the transport alone failed (refused, throttled, the run stopping).
    kind "server_error": a fault that came back the same way when the input was sent once more, while
      the target answered other inputs (engine/health.py): a failure of its case, never an outage.
    kind "not_applicable": the implementation's API cannot express this input (``detail`` says why, in
    words the same for every such input; an adapter of conformance/implementations/): the case is
    skipped "not applicable: DETAIL", neither passed nor failed.
    """

    kind: Literal["result", "rejection", "malformed_rejection", "transport_error", "server_error", "not_applicable"]
    result: Any = None
    status: int | None = None  # HTTP status or process exit code, where there is one
    error_code: str | None = None  # read from the common error-body shapes when present
    raw: str = ""  # what came back, truncated for reports
    detail: str = ""  # a human explanation: "HTTP 503", "timed out after 10 s", ...
    duration_ms: float = 0.0
    retries: int = 0
    refused_by: str = ""  # of a rejection: the layer that refused before the implementation ran, if any
    fault: str = ""  # of a transport error or a server error: how the target failed on this input
    # a partial answer of an implementation: target (None: a whole answer, held to the whole output_schema)
    expressed: Expressed | None = None

    def to_dict(self) -> dict:
        return record_dict(self)


@dataclass
class Mismatch:
    pointer: str  # JSON pointer of the first difference ("" is the whole output)
    expected: Any
    actual: Any
    message: str  # one readable sentence
    delta: float | None = None  # |expected - actual| for numbers
    tolerance: float | None = None  # the bound it was held to

    def to_dict(self) -> dict:
        return record_dict(self)


@dataclass
class Verdict:
    outcome: Outcome
    message: str = ""
    mismatch: Mismatch | None = None


@dataclass
class CaseResult:
    case: Case
    outcome: Outcome
    message: str = ""
    mismatch: Mismatch | None = None
    response: TargetResponse | None = None
    expected: Any = None  # the oracle's output or the expected rejection, for the diff
    replay: str = ""  # one-line replay command
    curl: str = ""  # for HTTP targets
    reproducer_file: str = ""  # saved JSON case, promotable into fixtures/
    known_failure_reason: str = ""

    def to_dict(self) -> dict:
        return record_dict(self)


@dataclass
class RunRecord:
    header: dict  # suite_version, contract versions, target, seed, profile, started/finished, python...
    results: list[CaseResult] = field(default_factory=list)
    properties: list[dict] = field(default_factory=list)  # per property: tool, family, examples run, outcome
    exit_code: int = 0
    unhealthy_reason: str = ""  # set when the run ended early because the target was unhealthy (exit 3)
    readings: dict = field(default_factory=dict)  # open point id -> the reading the target took (compare.readings)

    def to_dict(self) -> dict:
        """The record as plain data; report.json is this plus its totals (conformance.reports.document)."""
        results = [result.to_dict() for result in self.results]
        return {
            "header": self.header,
            "exit_code": self.exit_code,
            "unhealthy_reason": self.unhealthy_reason,
            "properties": self.properties,
            "results": results,
            "readings": self.readings,
        }

"""The verdict policy: does a response satisfy a case, given what is expected of it?

Rejections. An input the contract rejects must be rejected: a result fails ("answered an
input the contract rejects"), a transport error is
"errored". A fault that came back when the input was sent again, while the target answered other
inputs (a 5xx, garbage, a crash, a hang: a "server_error", engine/health.py), fails whatever the case
expects, quoting what the target said. The code is checked only when the case names one and the response carries one;
every code a reasonable reading could give passes (open points A6, A7, A14). A bare status
carries no code: the hosted service's statuses are unpublished (A12). Nor does a refusal by a
layer in front of the implementation (an MCP server's declared input schema, A17): it rejects,
without a code.

Malformed rejections (an MCP isError without an error body, to arguments the server's declared
schema accepts) fail whatever the case expects: the target refused, but not as the contract's
answers look.

Outputs. A result is validated against the contract's output_schema, then compared with the
output of every reasonable reading of the open points the input touches: it passes if it
matches any of them, and otherwise fails with the first difference from the oracle's own
reading: exact fields first (a wrong count explains a wrong score), then the libm floats. A partial
answer (only an ``implementation:`` target gives one) is judged on its fields alone (partial.py).
"""

from __future__ import annotations

from typing import Any

from conformance.compare.diff import first_difference
from conformance.compare.expected import Expected
from conformance.compare.floats import compare_float_field
from conformance.compare.partial import judge_partial
from conformance.compare.schema import output_schema_error
from conformance.jsonio import parse_json
from conformance.model import NOT_APPLICABLE, Case, Mismatch, TargetResponse, Verdict
from oracle.bleu_score import ScoreTerms
from oracle.errors import ContractError
from oracle.tool import Tool

CODED_ERRORS = ("invalid_input", "limit_exceeded")
RAW_EXCERPT = 300


def judge(case: Case, expected: Expected, response: TargetResponse) -> Verdict:
    if response.kind == "not_applicable":  # the implementation cannot express the case: nothing to judge
        return Verdict("skipped", f"{NOT_APPLICABLE}: {response.detail}")
    if case.expect.kind == "error":
        return _check_rejection(case, expected, response)
    return _check_output(case, expected, response)


def _check_rejection(case: Case, expected: Expected, response: TargetResponse) -> Verdict:
    if response.kind == "malformed_rejection":
        return _malformed_rejection(
            {"error": {"code": case.expect.error_code or "any", "message": "..."}},
            "rejected, but without the contract's error body",
            response,
        )
    if response.kind == "rejection":
        wanted = case.expect.error_code
        got = response.error_code or None  # only an error body carries a code (A12)
        if response.refused_by:  # before the implementation ran: no code to compare
            return Verdict("passed", f"{_excerpt(response)} (no error code: not compared)")
        if wanted not in CODED_ERRORS or got is None or got == wanted:
            return Verdict("passed", f"rejected ({got or 'no code given'})")
        acceptable = expected.acceptable_error_codes()
        if got in acceptable:
            return Verdict("passed", f"rejected with {got}, which a reasonable reading gives ({_joined(acceptable)})")
        return Verdict(
            "failed",
            f"rejected with code {got!r}, but the contract calls for {wanted!r}: {_excerpt(response)}",
            Mismatch("/error/code", wanted, got, f"error code {got!r} where the contract names {wanted!r}"),
        )
    if response.kind == "result":
        other = _reading_answering_with(expected, response.result)
        if other:
            return Verdict("passed", f"answered; the contract's open point allows it ({other})")
        return Verdict(
            "failed",
            "answered an input the contract rejects",
            Mismatch(
                "",
                {"error": case.expect.error_code or "any"},
                response.result,
                "answered an input the contract rejects",
            ),
        )
    if response.kind == "server_error":
        return _server_error(
            {"error": {"code": case.expect.error_code or "any", "message": "..."}},
            "failed on an invalid input the contract rejects (a rejection, never a server error)",
            response,
        )
    return Verdict("errored", response.detail or "transport error")


def _check_output(case: Case, expected: Expected, response: TargetResponse) -> Verdict:
    if response.kind == "transport_error":
        return Verdict("errored", response.detail or "transport error")
    if expected.oracle.output is not None:
        wanted = expected.oracle.output
    elif expected.other_outputs():  # the oracle's reading of an open point rejects, another answers
        wanted = expected.other_outputs()[0]
    else:
        return Verdict(
            "errored",
            f"the case expects an output but every reading rejects its input: {expected.oracle.error_message}",
        )
    if response.kind == "malformed_rejection":
        return _malformed_rejection(wanted, "rejected a valid input, without the contract's error body", response)
    if response.kind == "server_error":
        return _server_error(wanted, "failed on a valid input the contract answers", response)
    if response.kind == "rejection":
        rejecting = [b.reading for b in expected.readings if b.output is None]
        if rejecting:
            return Verdict("passed", f"rejected, as a reading of an open point does ({rejecting[0]})")
        if response.refused_by:
            return Verdict(
                "failed",
                f"refused an input the contract accepts ({response.refused_by} is narrower than the contract's "
                f"input_schema): {_excerpt(response)}",
                Mismatch(
                    "",
                    wanted,
                    rejection_as_sent(response),
                    f"over-rejection: the contract requires an output, {response.refused_by} refused the input",
                ),
            )
        code = response.error_code or "no code"
        return Verdict(
            "failed",
            f"rejected a valid input ({code}): {_excerpt(response)}",
            Mismatch(
                "",
                wanted,
                rejection_as_sent(response),
                f"over-rejection: the contract requires an output, the target answered with error {code!r}",
            ),
        )
    if response.expressed is not None:
        return judge_partial(expected, wanted, response.result, response.expressed, compare_output)
    schema_error = output_schema_error(expected.tool.contract, response.result)
    if schema_error is not None:
        return Verdict("failed", schema_error.message, schema_error)
    first = compare_output(expected.tool, case.input, wanted, response.result)
    if first is None:
        return Verdict("passed")
    for behaviour in expected.readings[1:]:
        if (
            behaviour.output is not None
            and compare_output(expected.tool, case.input, behaviour.output, response.result) is None
        ):
            return Verdict("passed", f"matches the output under another reading of an open point ({behaviour.reading})")
    return Verdict("failed", f"{first.pointer or 'output'}: {first.message}", first)


def _malformed_rejection(wanted: Any, what: str, response: TargetResponse) -> Verdict:
    """A refusal in no form the contract's answers take: a failure, for an invalid input as for a valid one."""
    return Verdict(
        "failed",
        f"{what}: {_excerpt(response)}",
        Mismatch("", wanted, rejection_as_sent(response), f"{what}: {response.detail}"),
    )


def _server_error(wanted: Any, what: str, response: TargetResponse) -> Verdict:
    """A fault the target repeated on this input while answering others (engine/health.py): a failure."""
    said = response.raw[:RAW_EXCERPT]
    return Verdict(
        "failed",
        f"{what}: {response.fault}, the same when sent again, while the target answers other inputs"
        + (f"; it said: {said}" if said else f" ({response.detail})"),
        Mismatch("", wanted, {"server_error": response.fault, "said": said}, f"server error: {response.fault}"),
    )


def _reading_answering_with(expected: Expected, result: Any) -> str:
    """The reading of an open point under which the input is answered with this result, if any."""
    for behaviour in expected.readings:
        if (
            behaviour.output is not None
            and output_schema_error(expected.tool.contract, result) is None
            and compare_output(expected.tool, expected.case.input, behaviour.output, result) is None
        ):
            return behaviour.reading
    return ""


def compare_output(
    tool: Tool, payload: Any, expected: dict, actual: Any, statistics: dict | None = None
) -> Mismatch | None:
    """The first telling difference between an expected output and the target's (schema-valid) output;
    ``statistics``: the whole expected output, where ``expected`` holds only the fields of a partial answer."""
    found = output_differences(tool, payload, expected, actual, statistics)
    return found[0] if found else None


def output_differences(
    tool: Tool, payload: Any, expected: dict, actual: Any, statistics: dict | None = None
) -> list[Mismatch]:
    """The differences, the telling one first: a score that does not even follow from the target's own
    statistics (a wrong mechanism of its own: NLTK's zero-precision floor) comes first, brevity_penalty
    before the bleu made from it; then the first exact field (a wrong count explains a wrong score);
    then the scores that differ only through those statistics. (At most one exact difference is
    listed: the whole-output diff of the reports shows every other one.)"""
    float_fields = [f for f in tool.float_fields if isinstance(expected, dict) and f in expected]
    exact = first_difference(expected, actual, "", skip_top_level=set(float_fields))
    if not isinstance(actual, dict) or any(field not in actual for field in float_fields):
        return [exact] if exact else []  # the structural difference says it
    if not float_fields:
        return [exact] if exact else []
    terms = _float_terms(tool, payload, statistics or expected)
    floats = [
        found
        for field in float_fields
        if (found := compare_float_field(field, payload, expected, terms, actual[field])) is not None
    ]
    if not floats:
        return [exact] if exact else []
    own = sorted(
        (m for m in floats if not _follows_from_own_statistics(tool, payload, actual, m.pointer[1:])),
        key=lambda m: m.pointer != "/brevity_penalty",
    )  # bleu is made from brevity_penalty
    derived = [m for m in floats if m not in own]
    return [*own, *([exact] if exact else []), *derived]


def _float_terms(tool: Tool, payload: Any, output: dict) -> ScoreTerms:
    """The exact statistics the tool's float fields are computed from (a tool with float fields has them)."""
    if tool.float_terms is None:
        raise TypeError(f"{tool.id}@{tool.version} has float fields but no float_terms")
    return tool.float_terms(payload, output)


def _follows_from_own_statistics(tool: Tool, payload: Any, actual: dict, field: str) -> bool:
    """Is the target's value of a float field what the contract's formula gives for the target's own
    counts and lengths (so that a difference in those explains it)? Unknown counts as yes."""
    try:
        terms = _float_terms(tool, payload, actual)
        return compare_float_field(field, payload, actual, terms, actual[field]) is None
    except (ArithmeticError, ValueError, TypeError, KeyError, IndexError):  # statistics too wrong to use
        return True


def rejection_as_sent(response: TargetResponse) -> Any:
    """The target's own rejection, for the "actual" side of a diff: its error body as it came back
    (an HTTP body, a command's stdout, an answer line) when that is a whole JSON error body;
    otherwise (an exception's text, a body cut to its excerpt, a body naming no error) the code
    and what the target said."""
    body = _error_body(response)
    if body is not None:
        return body
    return {"error": {"code": response.error_code, "message": response.raw[:RAW_EXCERPT] or response.detail}}


def _error_body(response: TargetResponse) -> dict | None:
    """The rejection's body, parsed, when it is a JSON object naming an error."""
    try:
        body = parse_json(response.raw) if response.raw else None
    except ContractError:
        return None
    return body if isinstance(body, dict) and ("error" in body or "code" in body) else None


def _excerpt(response: TargetResponse) -> str:
    """What the target said. For a rejection, its own words: the message of its error body, or an
    in-process exception's text; else (an HTTP body naming no error) how the transport saw it."""
    text = response.detail or response.raw
    if response.kind == "rejection" and not response.refused_by:  # a refusal's words are in its detail
        body = _error_body(response) or {}
        error = body.get("error")
        message = error.get("message") if isinstance(error, dict) else body.get("message")
        if isinstance(message, str) and message:
            text = message
        elif response.status is None and response.raw:
            text = response.raw
    return text if len(text) <= RAW_EXCERPT else text[:RAW_EXCERPT] + "..."


def _joined(codes: set[str]) -> str:
    return ", ".join(sorted(codes))

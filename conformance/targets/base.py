"""What every target shares: the defaults, the usage error, bounded excerpts, and the one
reading of an answer body.

An implementation answers with one JSON envelope, on stdout (``cmd:``) or in an HTTP body:
``{"result": ...}`` is an answer, an error body (``{"error": ...}``) a rejection whose code
is read from the common shapes, anything else garbage. ``read_envelope`` parses the body
strictly (conformance.jsonio.parse_json) and says which of the three it is; each transport
words the outcome in its own terms and adds what only it knows (exit status, HTTP status).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import oracle
from conformance.jsonio import parse_json

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_BYTES = 8 * 1024 * 1024  # far above the largest legal output (1,000,000 bytes)
DEFAULT_RETRIES = 2  # of a network target's transport failures (targets.retry_policy)
EXCERPT_CHARS = 500  # how much of a bad answer a report shows
# Faults every kind of target names alike (model.TargetResponse.fault: a failure the input may cause).
NO_ANSWER_IN_TIME, CONNECTION_DROPPED, OVER_THE_CAP = (
    "no answer in time",
    "connection dropped",
    "an answer over the size cap",
)


class TargetSpecError(ValueError):
    """The --target value cannot be used (a usage error, exit 2)."""


def excerpt(text: str | bytes, limit: int = EXCERPT_CHARS) -> str:
    """The start of what came back, readable and bounded, for reports."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def excerpt_keeping_end(text: str, limit: int = EXCERPT_CHARS) -> str:
    """A bounded excerpt that keeps both ends and cuts the middle: a traceback's last frame (the one
    that raised) and its exception line are at the end."""
    if len(text) <= limit:
        return text
    head = limit // 4
    tail = limit - head
    return f"{text[:head]}... [{len(text) - limit} chars cut] ...{text[-tail:]}"


# what Python writes between the tracebacks of a chain of exceptions (traceback.format_exception)
CHAIN_SEPARATOR = re.compile(
    r"(\nThe above exception was the direct cause of the following exception:\n\n"
    r"|\nDuring handling of the above exception, another exception occurred:\n\n)"
)


def excerpt_of_traceback(text: str, limit: int) -> str:
    """A bounded excerpt of a traceback that keeps the end of each traceback of its chain: the frame that raised
    and the exception line, both of the cause (a library's own traceback, run in another process) and of the
    exception that came of it; cutting the whole text's middle alone would cut the cause's end first."""
    parts = CHAIN_SEPARATOR.split(text)
    tracebacks, separators = parts[::2], parts[1::2]
    left = max(limit - sum(map(len, separators)), 0)
    shares = {}
    for number, index in enumerate(sorted(range(len(tracebacks)), key=lambda i: len(tracebacks[i]))):
        shares[index] = min(len(tracebacks[index]), left // (len(tracebacks) - number))  # shortest first, whole
        left -= shares[index]
    pieces = [excerpt_keeping_end(each, shares[index]) for index, each in enumerate(tracebacks)]
    return "".join(piece + separator for piece, separator in zip(pieces, [*separators, ""]))


def read_error_code(body: Any) -> str | None:
    """The error code in the common error-body shapes, if any.

    The hosted error body is not published, so the shapes seen in the wild are read:
    ``{"error": {"code": C}}``, ``{"error": C}`` and ``{"code": C}``.
    """
    if not isinstance(body, dict):
        return None
    error = body.get("error")
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        return error["code"]
    if isinstance(error, str):
        return error
    if isinstance(body.get("code"), str):
        return body["code"]
    return None


@dataclass(frozen=True)
class Envelope:
    """One answer body, read: what it is (``kind``) and what it holds."""

    kind: str  # "result", "rejection" or "garbage"
    body: Any = None  # the parsed JSON; None when the body is empty or not JSON
    empty: bool = False  # nothing but white space came back
    not_json: str | None = None  # why the body is not strict JSON, when it is not

    @property
    def result(self) -> Any:
        return self.body["result"]

    @property
    def error_code(self) -> str | None:
        """The error code the body names in a common shape (whatever its kind), if any."""
        return read_error_code(self.body)


def read_envelope(data: bytes, *, error_body_rejects: bool = True) -> Envelope:
    """An answer body as a result, a rejection or garbage.

    An object with "result" is an answer. Where the body is how a rejection is told (the
    command protocol), an object with "error" is a rejection, even beside "result". Over
    HTTP the status tells it, so there ``error_body_rejects`` is False: a 2xx body is an
    answer or garbage, never a rejection. Empty, non-JSON and any other JSON is garbage.
    """
    if not data.strip():
        return Envelope("garbage", empty=True)
    try:
        body = parse_json(data)
    except oracle.ContractError as exc:
        return Envelope("garbage", not_json=exc.message)
    return envelope_of(body, error_body_rejects=error_body_rejects)


def envelope_of(body: Any, *, error_body_rejects: bool = True) -> Envelope:
    """An answer body already parsed (e.g. inside an MCP tool result), read by read_envelope's rule."""
    if isinstance(body, dict):
        if error_body_rejects and "error" in body:
            return Envelope("rejection", body)
        if "result" in body:
            return Envelope("result", body)
    return Envelope("garbage", body)

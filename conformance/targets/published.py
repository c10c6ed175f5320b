"""A contract as a target publishes it: the optional ``published_contract`` capability of a target.

A target that can say which contract it serves has a method
``published_contract(tool_id, version) -> PublishedContract``; the preflight compares what it
says with the suite's own contract (conformance.engine.drift). The HTTP target reads
``GET {base}/v1/tools/{id}/versions/{v}``; another kind of target adds the method when it has
a way to ask.

What comes back is untrusted like any answer: ``read_published`` accepts only a strict-JSON
object (the transport has already capped its size and time), and says why anything else is
not a contract. A 404 means the target does not publish that contract, which is not a fault.
"""

from __future__ import annotations

from dataclasses import dataclass

import oracle
from conformance.jsonio import parse_json
from conformance.targets.base import excerpt

DETAIL_EXCERPT_CHARS = 80


@dataclass(frozen=True)
class PublishedContract:
    """What a target said about one contract: the document, "not published", or why it is unreadable."""

    document: dict | None = None
    not_published: bool = False
    problem: str = ""  # why no contract could be read (a transport failure, garbage, not an object)
    unanswered: bool = False  # no complete answer came (refused, timed out): asking again would cost as much


def read_published(status: int | None, body: bytes, content_type: str = "") -> PublishedContract:
    """A complete answer to ``GET .../versions/{v}`` as a contract, "not published" (404), or a problem."""
    if status == 404:
        return PublishedContract(not_published=True)
    shown = f"; the body starts {excerpt(body.strip(), DETAIL_EXCERPT_CHARS)!r}" if body.strip() else ""
    if status is None or not 200 <= status < 300:
        return PublishedContract(problem=f"HTTP {status}{shown}")
    try:
        document = parse_json(body)
    except oracle.ContractError as exc:
        return PublishedContract(
            problem=f"HTTP {status} but not JSON ({content_type or 'no Content-Type'}): {exc.message}{shown}"
        )
    if not isinstance(document, dict):
        return PublishedContract(problem=f"HTTP {status} JSON {type(document).__name__}, not a contract object")
    return PublishedContract(document=document)

"""The oracle behind the line protocol of ``jsonl:`` targets: ``python -m conformance.jsonl_oracle``.

Reads one request per line on stdin, ``{"id": N, "tool": ID, "version": V, "input": PAYLOAD}``,
and writes one answer line per request on stdout, ``{"id": N, "result": ...}`` or
``{"id": N, "error": {"code", "message"}}`` (conformance/schemas/jsonl-protocol.schema.json),
until its input ends. ``conformance run --target "jsonl:python -m conformance.jsonl_oracle"``
must pass, like ``cmd:conformance exec {tool}@{version}``: it is the protocol's reference
implementation, and the same oracle the other targets run, for comparing their speed.
"""

from __future__ import annotations

import sys
from typing import Any

import oracle
from conformance.jsonio import dump_json, parse_json


def answer(line: bytes) -> dict[str, Any]:
    """The answer to one request line (a request the oracle cannot read is answered invalid_input)."""
    request_id: Any = None
    try:
        request = parse_json(line)
        if not isinstance(request, dict) or not {"id", "tool", "version", "input"} <= set(request):
            raise oracle.ContractError("invalid_input", 'request: expected {"id", "tool", "version", "input"}')
        request_id = request["id"]
        return {
            "id": request_id,
            "result": oracle.execute(str(request["tool"]), str(request["version"]), request["input"]),
        }
    except oracle.ContractError as exc:
        return {"id": request_id, **exc.body()}


def main() -> int:
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:  # splits at b"\n" only
        out.write(dump_json(answer(line)).encode("utf-8") + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

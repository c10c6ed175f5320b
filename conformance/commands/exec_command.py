"""`conformance exec TOOL@VERSION [FILE|-]`: the oracle on one input.

Prints ``{"result": ...}`` (exit 0) or the error body (exit 1) on stdout; a
usage problem (bad TOOL@VERSION syntax, unreadable file) exits 2. This is also
the command protocol of ``cmd:`` targets, so ``cmd:conformance exec {tool}@{version}``
is a target that must pass.
"""

from __future__ import annotations

import sys

import oracle
from conformance.jsonio import dump_json, parse_json


def parse_tool_spec(spec: str) -> tuple[str, str]:
    tool_id, sep, version = spec.partition("@")
    if not sep or not tool_id or not version:
        raise ValueError(f"expected TOOL@VERSION, got {spec!r}")
    return tool_id, version


def register(subparsers) -> None:
    parser = subparsers.add_parser("exec", help="run the oracle on one input (JSON file or stdin)")
    parser.add_argument("tool", metavar="TOOL@VERSION")
    parser.add_argument("file", metavar="FILE|-", nargs="?", default="-")
    parser.set_defaults(func=run)


def run(args) -> int:
    try:
        tool_id, version = parse_tool_spec(args.tool)
    except ValueError as exc:
        print(f"conformance exec: {exc}", file=sys.stderr)
        return 2
    try:
        data = sys.stdin.buffer.read() if args.file == "-" else open(args.file, "rb").read()
    except OSError as exc:
        print(f"conformance exec: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        result = {"result": oracle.execute(tool_id, version, parse_json(data))}
        code = 0
    except oracle.ContractError as exc:
        result, code = exc.body(), 1
    sys.stdout.write(dump_json(result) + "\n")
    return code

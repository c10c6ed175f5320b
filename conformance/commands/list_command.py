"""`conformance list`: tools, versions and contract status."""

from __future__ import annotations

import oracle


def register(subparsers) -> None:
    parser = subparsers.add_parser("list", help="tools, versions and contract status")
    parser.set_defaults(func=run)


def run(args) -> int:
    rows = [("TOOL", "VERSION", "CONTRACT", "ORACLE", "PRICING")]
    for tool_id, version in oracle.available():
        contract = oracle.contract(tool_id, version)
        implemented = "implemented" if oracle.implemented(tool_id, version) else "contract only"
        pricing = contract.document().get("pricing", {}).get("status", "-")
        rows.append((tool_id, version, contract.status, implemented, pricing))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    return 0

"""`conformance list`: tools, versions and contract status; with ``--families``, each tool's
generated families and the aimed features each declares."""

from __future__ import annotations

import oracle


def register(subparsers) -> None:
    parser = subparsers.add_parser("list", help="tools, versions and contract status")
    parser.add_argument(
        "--families",
        action="store_true",
        help="also each tool's generated families and the aimed features they declare",
    )
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
    if getattr(args, "families", False):
        print_families()
    return 0


def print_families() -> None:
    from conformance import strategies

    for tool_id, version in strategies.supported():
        print(f"\n{tool_id}@{version}")
        for family in strategies.families(tool_id, version):
            print(f"  {family.name}: {'; '.join(family.aims) or '(no aimed feature declared)'}")

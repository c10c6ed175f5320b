"""The contract gate: `conformance contracts lint | diff | changed | gate`.

lint.py checks one contract; diff.py classifies the change between two versions
(schema_diff.py for the schemas) and checks the version bump; checkout.py reads the
git checkout (the base, the changed files); revalidate.py holds the oracle and the
golden fixtures to a changed contract; change_set.py judges every changed file with
them (`changed`: lint and classify; `gate`: also re-validate, the whole CI step, on
the checkout that holds the package's own contracts/). Exit 0 ok, 1 a violation (an
error finding, a bump smaller than the change requires, a fixture the oracle and the
new contract disagree on), 2 usage.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from oracle.contracts import contracts_dir


def register(subparsers) -> None:
    parser = subparsers.add_parser("contracts", help="the contract gate: lint, diff and version-bump rules")
    sub = parser.add_subparsers(dest="contracts_command", metavar="SUBCOMMAND")
    lint = sub.add_parser("lint", help="check contracts are well-formed and their examples reproduce")
    lint.add_argument("paths", nargs="*", metavar="PATH", help="contract files or folders (default: all of contracts/)")
    lint.add_argument("--format", choices=("text", "json"), default="text")
    lint.add_argument("--quiet", action="store_true", help="show errors and warnings only")
    lint.set_defaults(func=run_lint)
    diff = sub.add_parser("diff", help="classify the change between two versions and check the version bump")
    diff.add_argument("old", metavar="OLD", help="a file, or REV:path for a git revision")
    diff.add_argument("new", metavar="NEW", help="a file, or REV:path for a git revision")
    diff.add_argument("--allow", metavar="FILE", help="allow-list marking changed semantics lines editorial")
    diff.add_argument("--format", choices=("text", "json"), default="text")
    diff.set_defaults(func=run_diff)
    changed = sub.add_parser("changed", help="lint and diff every contract file changed since a git revision")
    changed.add_argument("--base", required=True, metavar="REV", help="e.g. origin/main")
    changed.add_argument("--allow", metavar="FILE")
    changed.add_argument("--format", choices=("text", "json"), default="text")
    changed.add_argument(
        "--affected-tools",
        action="store_true",
        help="only print the changed TOOL@VERSION list, comma-separated (for `run --tools`)",
    )
    changed.set_defaults(func=run_changed)
    gate = sub.add_parser(
        "gate",
        help="the whole gate of a change (CI): lint, classify against --base and enforce the bumps, "
        "re-validate the oracle and fixtures",
        description="Every contract file changed since the merge base of REV and HEAD (the working tree, "
        "committed or not) of the checkout holding this package's contracts/: linted, classified against "
        "the base with the version bump it requires enforced, the oracle and the golden fixtures "
        "re-validated against it. Exit 0 pass, 1 a gate failure, 2 a usage error.",
    )
    gate.add_argument("--base", required=True, metavar="REV", help="e.g. origin/main (fetched already)")
    gate.add_argument("--allow", metavar="FILE", help="allow-list marking changed semantics lines editorial")
    gate.set_defaults(func=run_gate)
    parser.set_defaults(func=lambda args: (parser.print_help(sys.stderr), 2)[1])


def _contract_files(paths: list[str]) -> list[Path]:
    if not paths:
        return sorted(contracts_dir().glob("*/*.json"))
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        files += sorted(path.glob("*/*.json")) + sorted(path.glob("*.json")) if path.is_dir() else [path]
    return files


def run_lint(args) -> int:
    from conformance.gate.lint import lint_paths

    files = _contract_files(args.paths)
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        print(f"conformance contracts lint: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    findings = lint_paths(files)
    errors = sum(f.severity == "error" for f in findings)
    if args.format == "json":
        print(
            json.dumps(
                {"files": [str(f) for f in files], "errors": errors, "findings": [f.to_dict() for f in findings]},
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        shown = [f for f in findings if not args.quiet or f.severity != "info"]
        for finding in shown:
            print(finding.line())
        print(
            f"{len(files)} contract(s), {errors} error(s), "
            f"{sum(f.severity == 'warning' for f in findings)} warning(s), {sum(f.severity == 'info' for f in findings)} note(s)"
        )
    return 1 if errors else 0


def read_contract_source(spec: str) -> tuple[dict | None, str]:
    """A file path, or REV:path read with `git show`; (None, label) when REV:path does not exist there."""
    path = Path(spec)
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8")), spec
    if ":" in spec:
        proc = subprocess.run(["git", "show", spec], capture_output=True)
        if proc.returncode != 0:
            return None, spec
        return json.loads(proc.stdout.decode("utf-8")), spec
    raise FileNotFoundError(spec)


def run_diff(args) -> int:
    from conformance.gate.diff import diff_contracts, load_allow_list

    try:
        allow = load_allow_list(args.allow)
        old, old_label = read_contract_source(args.old)
        new, new_label = read_contract_source(args.new)
    except (OSError, ValueError) as exc:
        print(f"conformance contracts diff: {exc}", file=sys.stderr)
        return 2
    if old is None or new is None:
        print(f"conformance contracts diff: cannot read {args.old if old is None else args.new}", file=sys.stderr)
        return 2
    report = diff_contracts(old, new, old_label=old_label, new_label=new_label, allow=allow)
    print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) if args.format == "json" else report.text())
    return 1 if report.violations else 0


def _changes(checkout, args) -> tuple[str, list[str], list[dict]]:
    """(merge base, changed contract files, allow-list) or CheckoutError / OSError / ValueError."""
    from conformance.gate.checkout import changed_contract_files, merge_base
    from conformance.gate.diff import load_allow_list

    base = merge_base(checkout, args.base)
    return base, changed_contract_files(checkout, base), load_allow_list(args.allow)


def run_changed(args) -> int:
    """Every contract file of the working folder's checkout changed since --base: linted and classified."""
    from conformance.gate.change_set import judge
    from conformance.gate.checkout import CheckoutError, checkout_around, tool_version

    try:
        checkout = checkout_around(Path.cwd())
        base, changed, allow = _changes(checkout, args)
    except (CheckoutError, OSError, ValueError) as exc:
        print(f"conformance contracts changed: {exc}", file=sys.stderr)
        return 2
    if args.affected_tools:
        print(",".join("@".join(tool_version(path)) for path in changed if checkout.path(path).is_file()))
        return 0
    verdicts = [judge(checkout, base, path, allow=allow, revalidating=False) for path in changed]
    if args.format == "json":
        print(json.dumps([v.report.to_dict() for v in verdicts if v.report], indent=2, ensure_ascii=False))
    elif verdicts:
        print("\n".join(v.text() for v in verdicts))
    failed = any(v.failed for v in verdicts)
    print(f"{len(changed)} changed contract file(s); {'VIOLATIONS' if failed else 'OK'}")
    return int(failed)


def run_gate(args) -> int:
    """The whole gate for a change of the project's contracts (the package's own checkout)."""
    from conformance.gate.change_set import judge
    from conformance.gate.checkout import CheckoutError, checkout_holding, same_work_tree

    try:
        checkout = same_work_tree(checkout_holding(contracts_dir()), Path.cwd())
        base, changed, allow = _changes(checkout, args)
    except (CheckoutError, OSError, ValueError) as exc:
        print(f"conformance contracts gate: {exc}", file=sys.stderr)
        return 2
    print(
        f"contract gate: {checkout.top / checkout.contracts} against {args.base} (merge base {base[:12]}): "
        f"{len(changed)} contract file(s) changed"
    )
    if not changed:
        print("contract gate: PASS (no contract file changed: nothing to check)")
        return 0
    verdicts = [judge(checkout, base, path, allow=allow, revalidating=True) for path in changed]
    for verdict in verdicts:
        print(f"\n{verdict.text()}")
    print("\nsummary:")
    print("\n".join("  " + verdict.summary() for verdict in verdicts))
    failed = sum(verdict.failed for verdict in verdicts)
    print(
        f"contract gate: {'FAIL' if failed else 'PASS'} ({failed} of {len(verdicts)} changed contract file(s) failed)"
    )
    return 1 if failed else 0

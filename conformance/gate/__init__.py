"""The contract gate: `conformance contracts lint` and `conformance contracts diff`.

lint.py checks one contract; diff.py classifies the change between two versions
(schema_diff.py for the schemas) and checks the version bump. Exit 0 ok, 1 a
violation (an error finding, or a bump smaller than the change requires), 2 usage.
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


def _predecessor(base: str, path: Path) -> str | None:
    """REV:path of the highest version of the same tool in `base` that is below path's version."""
    from conformance.gate.diff import parse_semver

    proc = subprocess.run(
        ["git", "ls-tree", "--name-only", base, f"{path.parent.as_posix()}/"], capture_output=True, text=True
    )
    mine = parse_semver(path.stem)
    earlier = [(parse_semver(Path(name).stem), name) for name in proc.stdout.splitlines()]
    earlier = [(v, name) for v, name in earlier if v is not None and mine is not None and v < mine]
    return f"{base}:{max(earlier)[1]}" if earlier else None


def run_changed(args) -> int:
    """Every contracts/*/*.json changed since --base: new files are linted, changed ones linted and diffed."""
    from conformance.gate.diff import diff_contracts, load_allow_list
    from conformance.gate.lint import lint_paths

    proc = subprocess.run(
        ["git", "diff", "--name-only", f"{args.base}...HEAD", "--", "contracts"], capture_output=True, text=True
    )
    if proc.returncode != 0:
        print(f"conformance contracts changed: git diff failed: {proc.stderr.strip()}", file=sys.stderr)
        return 2
    try:
        allow = load_allow_list(args.allow)
    except (OSError, ValueError) as exc:
        print(f"conformance contracts changed: {exc}", file=sys.stderr)
        return 2
    changed = [Path(line) for line in proc.stdout.splitlines() if line.endswith(".json")]
    if args.affected_tools:
        print(",".join(f"{p.parent.name}@{p.stem}" for p in changed if p.is_file()))
        return 0
    status, reports = 0, []
    for path in changed:
        if not path.is_file():
            print(f"REMOVED  {path}: a published contract version must not be deleted")
            status = 1
            continue
        findings = [f for f in lint_paths([path]) if f.severity != "info"]
        for finding in findings:
            print(finding.line())
        status |= any(f.severity == "error" for f in findings)
        old_spec = f"{args.base}:{path.as_posix()}"
        old, _ = read_contract_source(old_spec)
        if old is None:  # a new version file: compare it with the latest earlier version in the base
            old_spec = _predecessor(args.base, path)
            if old_spec is None:
                print(f"NEW      {path}: a new tool, linted only")
                continue
            old, _ = read_contract_source(old_spec)
        new = json.loads(path.read_text(encoding="utf-8"))
        report = diff_contracts(old, new, old_label=old_spec, new_label=str(path), allow=allow)
        reports.append(report.to_dict())
        print(report.text() if args.format == "text" else "")
        status |= bool(report.violations)
    if args.format == "json":
        print(json.dumps(reports, indent=2, ensure_ascii=False))
    print(f"{len(changed)} changed contract file(s); {'OK' if status == 0 else 'VIOLATIONS'}")
    return int(status)

"""The git checkout the gate reads: its base revision and the contract files changed since it.

Every git command runs at the checkout's top (``git -C TOP``), so the gate gives the same
answer from any working folder. The change is what a pull request shows: the merge base of
the base revision and HEAD against the working tree (committed, uncommitted and new files
alike), so a maintainer sees the verdict CI will give before committing.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from conformance.gate.diff import parse_semver

GIT_TIMEOUT_S = 120  # a local git command; a fetch is the action's step, never the gate's


class CheckoutError(Exception):
    """Git cannot answer (no work tree, an unknown revision, no common history): a usage error."""


@dataclass(frozen=True)
class Checkout:
    top: Path  # the work tree's top folder
    contracts: str  # the contracts folder, relative to top (posix)

    def path(self, relative: str) -> Path:
        return self.top / relative


def git(folder: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=GIT_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CheckoutError(f"git {' '.join(args)}: {exc}") from exc


def work_tree_top(folder: Path) -> Path | None:
    proc = git(folder, "rev-parse", "--show-toplevel")
    return Path(proc.stdout.strip()).resolve() if proc.returncode == 0 else None


def checkout_holding(contracts: Path) -> Checkout:
    """The checkout whose work tree holds the contracts folder."""
    top = work_tree_top(contracts) if contracts.is_dir() else None
    relative = contracts.resolve().relative_to(top).as_posix() if top else ""
    # a wheel's copy inside a virtualenv inside a checkout is in a work tree, but not tracked by it
    if top is None or not git(top, "ls-files", "--", relative).stdout.strip():
        raise CheckoutError(
            f"the contracts are read from {contracts}, which no git checkout tracks: the gate needs "
            "the project's source checkout, installed editable (pip install -e .)"
        )
    return Checkout(top, relative)


def checkout_around(folder: Path) -> Checkout:
    """The checkout whose work tree holds the folder, with its contracts in the top's contracts/."""
    top = work_tree_top(folder)
    if top is None:
        raise CheckoutError(f"{folder} is not inside a git work tree")
    return Checkout(top, "contracts")


def same_work_tree(checkout: Checkout, folder: Path) -> Checkout:
    """The checkout, unless the folder lies in another work tree (whose contracts the gate would not read)."""
    top = work_tree_top(folder)
    if top is not None and top != checkout.top:
        raise CheckoutError(
            f"this folder is in the git work tree {top}, but the installed package reads its contracts from "
            f"{checkout.top / checkout.contracts}: install this checkout (pip install -e .) or run the gate there"
        )
    return checkout


def merge_base(checkout: Checkout, rev: str) -> str:
    """The commit the change starts from: the merge base of ``rev`` and HEAD."""
    if rev.startswith("-") or git(checkout.top, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").returncode:
        raise CheckoutError(
            f"no revision {rev!r} in {checkout.top}: name a branch, tag or commit there "
            "(a remote branch must be fetched first, e.g. git fetch origin main, then --base origin/main)"
        )
    proc = git(checkout.top, "merge-base", rev, "HEAD")
    if proc.returncode:
        raise CheckoutError(
            f"{rev!r} and HEAD share no history in {checkout.top} (a shallow clone? fetch the whole history: "
            "git fetch --unshallow, or actions/checkout with fetch-depth: 0)"
        )
    return proc.stdout.strip()


def is_contract_file(relative: str, checkout: Checkout) -> bool:
    """``<contracts>/<tool-id>/<version>.json``."""
    path = PurePosixPath(relative)
    return path.suffix == ".json" and path.parent.parent.as_posix() == checkout.contracts


def tool_version(relative: str) -> tuple[str, str]:
    """(tool id, version) of ``<contracts>/<tool-id>/<version>.json``."""
    path = PurePosixPath(relative)
    return path.parent.name, path.stem


def changed_contract_files(checkout: Checkout, base: str) -> list[str]:
    """Every contract file (relative to top) that differs from ``base``: changed, removed or new."""
    listings = (
        ("diff", "--name-only", "--no-renames", base, "--", checkout.contracts),
        ("ls-files", "--others", "--exclude-standard", "--", checkout.contracts),
    )
    names: set[str] = set()
    for args in listings:
        proc = git(checkout.top, *args)
        if proc.returncode:
            raise CheckoutError(f"git {' '.join(args)}: {proc.stderr.strip()}")
        names |= {line for line in proc.stdout.splitlines() if is_contract_file(line, checkout)}
    return sorted(names)


def read_at(checkout: Checkout, rev: str, relative: str) -> Any:
    """The JSON of a file at a revision; None when it does not exist there."""
    proc = git(checkout.top, "show", f"{rev}:{relative}")
    return json.loads(proc.stdout) if proc.returncode == 0 else None


def predecessor(checkout: Checkout, rev: str, relative: str) -> str | None:
    """The highest version of the same tool at ``rev`` below this file's version (its path), if any."""
    path = PurePosixPath(relative)
    proc = git(checkout.top, "ls-tree", "--name-only", rev, f"{path.parent.as_posix()}/")
    mine = parse_semver(path.stem)
    earlier = [(parse_semver(PurePosixPath(name).stem), name) for name in proc.stdout.splitlines()]
    below = [(v, name) for v, name in earlier if v is not None and mine is not None and v < mine]
    return max(below)[1] if below else None

"""What a run was asked to do, checked before anything starts."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.engine.properties import DEFAULT_MAX_FAILURES
from conformance.hypothesis_profiles import RUN_EXAMPLES
from conformance.targets import DEFAULT_TIMEOUT
from oracle.contracts import available
from oracle.registry import module_name, tool_keys

# Hypothesis examples per generated family, by --profile and category (the settings profiles of the
# run's properties are registered from the same table).
PROFILES = RUN_EXAMPLES
DEFAULT_REPORT_DIR = "reports/latest"


class UsageError(ValueError):
    """An option that cannot be used (exit 2)."""


def parse_tools(text: str) -> list[tuple[str, str]]:
    """``ID[@VERSION],...`` -> (tool, version) pairs the oracle implements; ValueError names a bad one."""
    implemented = tool_keys()
    if not text.strip():
        return implemented
    selected: list[tuple[str, str]] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        tool_id, _, version = item.partition("@")
        matches = [(t, v) for t, v in implemented if t == tool_id and (not version or v == version)]
        if not matches:
            contract_only = [f"{t}@{v}" for t, v in available() if t == tool_id and (not version or v == version)]
            if contract_only:  # a maintainer added the contract; no oracle module implements it yet
                raise ValueError(
                    f"no oracle for {', '.join(contract_only)} (contract only): the suite judges a version once "
                    f"oracle/{module_name(tool_id)}.py implements it (conformance list shows what is implemented)"
                )
            known = ", ".join(f"{t}@{v}" for t, v in implemented)
            raise ValueError(f"unknown tool {item!r} (known: {known})")
        selected.extend(match for match in matches if match not in selected)
    return selected


@dataclass
class RunOptions:
    target: str
    tools: list[tuple[str, str]] = field(default_factory=tool_keys)
    profile: str = "default"
    seed: int | None = None
    report_dir: Path = Path(DEFAULT_REPORT_DIR)
    junit: str | None = None
    known_failures: str | None = None
    strict: bool = False
    write_known_failures: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    workers: int = 1
    fixtures: bool = True
    generated: bool = True
    max_failures_per_property: int = DEFAULT_MAX_FAILURES  # distinct failure signatures per property
    families: list[str] = field(default_factory=list)  # --families: fnmatch patterns (empty: every family)
    keyword: str = ""  # pytest's -k expression, as given (pytest applies it; recorded in the report header)
    allow_contract_drift: bool = False  # a target publishing a different contract is judged anyway
    baseline: str | None = None  # --baseline: a report (file or directory) this run is compared with at its end
    fail_on: str = "new"  # --fail-on: with --baseline, exit 1 on new failures only (new) or on any difference (any)
    shard: Any = None  # --shard K/N: engine.shards.Shard, this run's share of the checks (None: all of them)

    def __post_init__(self) -> None:
        if not self.target:
            raise UsageError(
                "the conformance suite needs --target (oracle, python:MODULE, cmd:COMMAND, jsonl:COMMAND or URL)"
            )
        if self.profile not in PROFILES:
            raise UsageError(f"--profile must be one of {', '.join(sorted(PROFILES))}")
        if self.timeout <= 0 or self.workers < 1:
            raise UsageError("--timeout must be > 0 and --workers >= 1")
        if self.max_failures_per_property < 1:
            raise UsageError("--max-failures-per-property must be >= 1 (1 stops each property at its first failure)")
        if not self.fixtures and not self.generated:
            raise UsageError("--no-generated and --no-fixtures together leave nothing to run")
        if self.fail_on not in ("new", "any"):
            raise UsageError("--fail-on must be new or any")
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(2**32)
        self.report_dir = Path(self.report_dir)

    @property
    def run_seed(self) -> int:
        """The run's seed: the one given, else the one __post_init__ chose."""
        assert self.seed is not None  # __post_init__ always sets one
        return self.seed

    def selection(self) -> dict:
        """What restricted the run's cases, for the report header (nothing when nothing did)."""
        chosen = {
            "families": self.families,
            "keyword": self.keyword,
            "shard": self.shard.to_dict() if self.shard else None,
        }
        return {name: value for name, value in chosen.items() if value}

    @property
    def examples(self) -> dict[str, int]:
        return PROFILES[self.profile]

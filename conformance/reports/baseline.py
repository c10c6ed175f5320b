"""What changed since a baseline run: two report.json documents compared (report.json ``baseline_diff``).

    load_report(path) -> document                 a report.json file, or a report directory holding one;
                                                  BaselineError (a usage error, exit 2) when it is neither
    compare(old, new, fail_on, baseline) -> diff  the baseline_diff object (report.schema.json)
    Baseline(document, source, fail_on).diff(new) the same, for `run --baseline` (reports call it)
    run_exit_code(run_exit, diff) -> int          what `conformance run --baseline` exits with

Failures are matched by cause, never by generated case id (shrinking and seeds differ between runs):
a cause is a failure group's signature without what may vary for the same bug, that is
(tool@version, JSON pointer class, kind, clause) — the catalogued divergence is left out (it is
named only when the library's answer equals the target's on the smallest input, which another
seed may not find), and so are counts, members and the smallest input. Groups of one run that
differ only by divergence are one cause here. Fixture case ids are stable: a fixture failing now
that did not fail in the baseline is a new failure even when its cause was already failing.

A cause failing only now is **new**; failing in both, **still failing** (with the change in its
count); failing only in the baseline, **fixed** when some check it failed in ran again, or **no
longer checked** when none did (not selected, skipped, or listed as a known failure now), which
is no evidence of a fix. A cause only generated cases showed, compared across two seeds, gets a
note: the other seed may just not have drawn it. The diff exits 1 under ``--fail-on new`` (the default: a nightly job
fails on regressions, not on known failures) when there is a new failure (a new cause, or a
newly failing fixture case), and under ``--fail-on any`` when the failures differ at all (new,
fixed, no longer checked, or a count changed); else 0. Pure functions over the documents.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import jsonschema

import conformance.reports.document as doc

FAIL_ON = ("new", "any")
REPORT_FILE = "report.json"
RAN = frozenset({"passed", "failed", "errored", "fixed"})  # outcomes of a check that was judged
# what a run's header says about the run that the diff lists when it changed (contracts and drift apart)
RUN_FIELDS = (
    "suite_version",
    "target",
    "profile",
    "seed",
    "strict",
    "max_failures_per_property",
    "families",
    "keyword",
)


class BaselineError(ValueError):
    """A report that cannot be compared (missing, not JSON, not a report of this schema): exit 2."""


# ---------------------------------------------------------------- reading a report


def load_report(path: str | Path) -> dict:
    """The report.json document at ``path`` (or ``path``/report.json), validated against this suite's schema."""
    path = Path(path)
    file = path / REPORT_FILE if path.is_dir() else path
    if not file.is_file():
        where = f"{path} holds no {REPORT_FILE}" if path.is_dir() else f"{path}: no such file or directory"
        raise BaselineError(where)
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BaselineError(f"{file}: cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise BaselineError(f"{file}: not a report.json (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{file}: not a report.json (not JSON: {exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise BaselineError(f"{file}: not a report.json (nested too deeply)") from None
    if not isinstance(document, dict) or "header" not in document or "results" not in document:
        raise BaselineError(f"{file}: not a report.json of `conformance run` (no header and results)")
    error = jsonschema.exceptions.best_match(doc.report_validator().iter_errors(document))
    if error is not None:
        where = "/" + "/".join(str(part) for part in error.absolute_path)
        version = document["header"].get("suite_version", "?") if isinstance(document["header"], dict) else "?"
        raise BaselineError(
            f"{file}: a report of an incompatible schema (written by suite {version}; at {where}: "
            f"{error.message[:200]})"
        )
    if "failure_groups" not in document:
        raise BaselineError(
            f"{file}: a report without failure_groups (written by suite "
            f"{document['header']['suite_version']}): run it again with this suite"
        )
    return document


@functools.lru_cache(maxsize=1)
def diff_validator() -> jsonschema.Draft202012Validator:
    """The validator of a baseline_diff object alone (diff.json of `conformance diff`)."""
    schema = doc.report_validator().schema
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/baseline_diff"})


# ---------------------------------------------------------------- causes


def cause_key(group: dict) -> tuple[str, ...]:
    """The stable part of a failure group's signature: tool@version, pointer class, kind, clause."""
    return (group["tool"], *group["signature"][1:])


def causes(document: dict) -> dict[tuple[str, ...], dict]:
    """The failure groups of a report by cause, groups of one cause (different divergences) merged."""
    merged: dict[tuple[str, ...], dict] = {}
    for group in document["failure_groups"]:
        key = cause_key(group)
        if key in merged:
            merged[key]["count"] += group["count"]
            merged[key]["members"] += group["members"]
        else:
            merged[key] = {
                "title": group["title"],
                "clause": group["clause"],
                "count": group["count"],
                "members": list(group["members"]),
                "smallest_case": group["smallest_case"],
            }
    return merged


def _outcomes(document: dict) -> dict[str, str]:
    """Each check's outcome, by check id (a fixture case id, a property id)."""
    return {check.id: check.outcome for check in doc.checks(document)}


def _check_of(case_id: str, outcomes: dict[str, str]) -> str:
    return doc.property_of_case(case_id, outcomes)


def _any_ran(members: list[str], outcomes: dict[str, str]) -> bool:
    """Whether a run judged some check these failing cases belong to."""
    return any(outcomes.get(_check_of(member, outcomes)) in RAN for member in members)


def _is_fixture(case_id: str) -> bool:
    return not case_id.startswith("generated/")  # generated case ids: generated/<tool>/<family>/<n>


def _entry(
    key: tuple[str, ...],
    group: dict,
    old_count: int,
    new_count: int,
    note: str = "",
    newly_failing: list[str] | None = None,
) -> dict:
    return {
        "cause": list(key),
        "title": group["title"],
        "clause": group["clause"],
        "old_count": old_count,
        "new_count": new_count,
        "newly_failing": newly_failing or [],
        "smallest_case": group["smallest_case"],
        "note": note,
    }


# ---------------------------------------------------------------- the diff


def compare(old: dict, new: dict, fail_on: str = "new", baseline: str = "") -> dict:
    """The baseline_diff object of ``new`` against ``old`` (``baseline``: where old was read from)."""
    if fail_on not in FAIL_ON:
        raise ValueError(f"fail_on must be one of {', '.join(FAIL_ON)}")
    old_causes, new_causes = causes(old), causes(new)
    old_outcomes, new_outcomes = _outcomes(old), _outcomes(new)
    old_failing = {result["case"]["case_id"] for result in doc.problem_results(old)}
    groups: dict[str, list[dict]] = {"new": [], "still_failing": [], "fixed": [], "no_longer_checked": []}
    for key, group in new_causes.items():
        before = old_causes.get(key)
        if before is None:
            note = (
                _seed_note(group, old, new, False)
                if _any_ran(group["members"], old_outcomes)
                else "the baseline did not run its checks"
            )
            groups["new"].append(_entry(key, group, 0, group["count"], note))
        else:
            newly = [m for m in group["members"] if _is_fixture(m) and m not in old_failing]
            groups["still_failing"].append(_entry(key, group, before["count"], group["count"], newly_failing=newly))
    for key, group in old_causes.items():
        if key not in new_causes:
            if _any_ran(group["members"], new_outcomes):
                groups["fixed"].append(_entry(key, group, group["count"], 0, _seed_note(group, old, new, True)))
            else:
                groups["no_longer_checked"].append(
                    _entry(
                        key,
                        group,
                        group["count"],
                        0,
                        "none of its checks was judged in this run (not selected, "
                        "skipped, or listed as a known failure)",
                    )
                )
    new_failures = len(groups["new"]) + sum(bool(entry["newly_failing"]) for entry in groups["still_failing"])
    changed = any(entry["old_count"] != entry["new_count"] for entry in groups["still_failing"])
    differs = new_failures or groups["fixed"] or groups["no_longer_checked"] or changed
    return {
        "baseline": _run_summary(old, baseline),
        "fail_on": fail_on,
        "exit_code": int(bool(new_failures if fail_on == "new" else differs)),
        "new_failures": new_failures,
        "groups": groups,
        "checks": {
            "added": sorted(set(new_outcomes) - set(old_outcomes)),
            "removed": sorted(set(old_outcomes) - set(new_outcomes)),
        },
        "run": [
            {"field": name, "old": old["header"].get(name), "new": new["header"].get(name)}
            for name in RUN_FIELDS
            if old["header"].get(name) != new["header"].get(name)
        ],
        "contracts": _contract_changes(old["header"], new["header"]),
        "contract_drift": _drift_changes(old["header"], new["header"]),
    }


def _seed_note(group: dict, old: dict, new: dict, fixed: bool) -> str:
    """A cause only generated cases show, under two seeds, may just not have been drawn by one of them."""
    if any(_is_fixture(member) for member in group["members"]) or old["header"]["seed"] == new["header"]["seed"]:
        return ""
    if fixed:
        return (
            "found only by generated cases and not under this run's seed: replay the baseline's reproducers "
            "to confirm the fix"
        )
    return "found only by generated cases, under another seed than the baseline's: it may predate the baseline"


def _run_summary(document: dict, baseline: str) -> dict:
    header = document["header"]
    return {
        "report": baseline,
        "target": header["target"],
        "started": header["started"],
        "suite_version": header["suite_version"],
        "seed": header["seed"],
        "profile": header["profile"],
        "exit_code": document["exit_code"],
        "totals": document["totals"],
    }


def _contract_changes(old: dict, new: dict) -> dict:
    """Contracts checked by one run only, and those both checked whose digests differ (where both recorded one)."""
    old_digests, new_digests = old.get("contract_digests") or {}, new.get("contract_digests") or {}
    both = [label for label in new["contracts"] if label in old["contracts"]]
    return {
        "added": [label for label in new["contracts"] if label not in old["contracts"]],
        "removed": [label for label in old["contracts"] if label not in new["contracts"]],
        "changed": [
            label
            for label in both
            if label in old_digests and label in new_digests and old_digests[label] != new_digests[label]
        ],
        "digests_compared": bool(old_digests and new_digests),
    }


def _drift_state(finding: dict | None) -> dict | None:
    if finding is None:
        return None
    return {
        "status": finding["status"],
        "changes": sorted(f"{change['change_class']} {change['pointer'] or '/'}" for change in finding["changes"]),
    }


def _drift_changes(old: dict, new: dict) -> list[dict]:
    """The tools whose published contract (header contract_drift) was classified differently; null: not asked."""
    old_findings = {f["tool"]: f for f in old.get("contract_drift") or ()}
    new_findings = {f["tool"]: f for f in new.get("contract_drift") or ()}
    changes = []
    for tool in sorted(set(old_findings) | set(new_findings)):
        before, after = _drift_state(old_findings.get(tool)), _drift_state(new_findings.get(tool))
        if before != after:
            changes.append({"tool": tool, "old": before, "new": after})
    return changes


@dataclass(frozen=True)
class Baseline:
    """The baseline of `conformance run --baseline OLD`: read before the run starts (a bad one is a usage
    error before any case is sent), compared with the run's own document when its reports are built."""

    document: dict
    source: str
    fail_on: str = "new"

    @classmethod
    def load(cls, path: str | Path, fail_on: str = "new") -> Baseline:
        return cls(load_report(path), str(path), fail_on)

    def diff(self, new: dict) -> dict:
        return compare(self.document, new, self.fail_on, self.source)


def run_exit_code(run_exit: int, diff: dict | None) -> int:
    """`conformance run --baseline`: a run that could not conclude (3) stays 3; otherwise the diff decides
    (0 no new failure, 1 a new one; under --fail-on any, 1 for any difference in failures). Without a
    baseline, the run's own code."""
    return diff["exit_code"] if diff is not None and run_exit in (0, 1) else run_exit

"""The suite's catch rate per class of bug, and the run-time cost of the default profile.

    python benchmarks/bench_classes.py                      # both parts
    python benchmarks/bench_classes.py --catch-only         # catch rate per class only
    python benchmarks/bench_classes.py --cost-only --baseline REV
    python benchmarks/bench_classes.py --recording-cost     # generation with and without recording

Catch rate: every faulty implementation of tests/mutants/ (its ``CLASS``) is judged as
``conformance run`` judges a target, on the golden fixtures and the generated families at the
quick and the default profile (seed ``--seed``), generated cases first (smallest input first).
Per class it prints the mutants, how many are caught at each profile, and how many of those by
a generated case (not only by a fixture); then every mutant a profile lets through.

Cost: ``conformance run --target oracle --profile default --seed 11`` of this tree and of
``--baseline REV`` (checked out into a temporary git worktree, run with the same Python),
side by side: wall time, examples sent, checks, and each family's share of the generated time,
as ratios against the baseline. The two trees run alternately (``--repeat``) and the fastest run
of each is compared, since other work on the machine slows any single run. Families the baseline lacks are listed as new. The issue allows
the default profile to grow by at most a third.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
sys.path[:0] = [str(ROOT), str(TESTS)]  # the mutants and the independent implementation live in tests/

import mutants  # noqa: E402

from conformance import compare, fixtures, strategies  # noqa: E402
from conformance.engine import PROFILES  # noqa: E402
from conformance.model import Case  # noqa: E402
from conformance.targets.inprocess import InProcessTarget  # noqa: E402

ALLOWED_GROWTH = 4 / 3  # "the default profile may grow by at most a third"


# --- catch rate per class ------------------------------------------------------------------


def generated_cases(profile: str, seed: int) -> list[Case]:
    counts = PROFILES[profile]
    cases = []
    for tool_id, version in strategies.supported():
        for family in strategies.families(tool_id, version):
            for i, example in enumerate(strategies.draw_examples(family.strategy, counts[family.category], seed=seed)):
                cases.append(
                    Case(
                        tool_id,
                        version,
                        f"generated/{tool_id}/{family.name}/{i}",
                        "generated",
                        family.category,
                        example.input,
                        example.expect,
                        example.description,
                        seed=seed,
                    )
                )
    return sorted(cases, key=lambda case: len(json.dumps(case.input, ensure_ascii=False)))


def catching(cases: list[Case], names: list[str]) -> dict[str, str]:
    """For each mutant, the first case (in the order given) that catches it, or ""; a mutant
    gets only the cases of the tools its bug touches; the oracle's expectation is computed once a case."""
    modules = {name: mutants.load(name) for name in names}
    targets = {name: InProcessTarget(f"python:mutants.{name}", module.execute) for name, module in modules.items()}
    tools = {name: mutants.changed_tools(module) for name, module in modules.items()}
    alive, caught = set(names), {name: "" for name in names}
    for case in cases:
        touched = [name for name in sorted(alive) if (case.tool_id, case.version) in tools[name]]
        if not touched:
            continue
        expected = compare.expect(case)
        for name in touched:
            response = targets[name].call(case.tool_id, case.version, case.input)
            if compare.judge(case, expected, response).outcome in ("failed", "errored"):
                caught[name] = case.case_id
                alive.discard(name)
        if not alive:
            break
    return caught


def catch_rates(seed: int, profiles: tuple[str, ...]) -> None:
    names = mutants.names()
    classes = {name: mutants.bug_class(mutants.load(name)) for name in names}
    fixture_cases = list(fixtures.load_cases())
    by_generated: dict[str, dict[str, str]] = {}
    by_any: dict[str, dict[str, str]] = {}
    for profile in profiles:
        started = time.monotonic()
        by_generated[profile] = catching(generated_cases(profile, seed), names)
        missed = [name for name in names if not by_generated[profile][name]]
        from_fixtures = catching(fixture_cases, missed)
        by_any[profile] = {name: by_generated[profile][name] or from_fixtures.get(name, "") for name in names}
        print(f"[{profile}: judged in {time.monotonic() - started:.0f} s]", file=sys.stderr)

    members: dict[str, list[str]] = defaultdict(list)
    for name in names:
        members[classes[name]].append(name)
    heading = ["class", "mutants"] + [
        f"{kind} {profile}" for profile in profiles for kind in ("caught", "by generated")
    ]
    rows = []
    for cls in sorted(members):
        row = [cls, str(len(members[cls]))]
        for profile in profiles:
            row.append(str(sum(1 for name in members[cls] if by_any[profile][name])))
            row.append(str(sum(1 for name in members[cls] if by_generated[profile][name])))
        rows.append(row)
    total = ["all", str(len(names))]
    for profile in profiles:
        total.append(str(sum(1 for name in names if by_any[profile][name])))
        total.append(str(sum(1 for name in names if by_generated[profile][name])))
    print(
        f"\nCatch rate per class (fixtures + generated cases, seed {seed}; 'by generated': caught by a generated case)"
    )
    print_table(heading, rows + [total])
    for profile in profiles:
        through = [f"{name} ({classes[name]})" for name in names if not by_any[profile][name]]
        fixture_only = [
            f"{name} ({classes[name]})" for name in names if by_any[profile][name] and not by_generated[profile][name]
        ]
        print(f"\n{profile}: let through: {', '.join(through) or 'none'}")
        print(f"{profile}: caught only by a fixture: {', '.join(fixture_only) or 'none'}")


# --- run-time cost ---------------------------------------------------------------------------


def timed_run(tree: Path, seed: int, report_dir: Path) -> dict:
    """``conformance run --target oracle --profile default`` of the code in ``tree``: wall time and report."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [
        sys.executable,
        "-m",
        "conformance",
        "run",
        "--target",
        "oracle",
        "--profile",
        "default",
        "--seed",
        str(seed),
        "--report-dir",
        str(report_dir),
    ]
    started, cpu_before = time.monotonic(), _children_cpu()
    completed = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    wall, cpu = time.monotonic() - started, _children_cpu() - cpu_before
    if completed.returncode != 0:
        raise SystemExit(
            f"the run in {tree} exited {completed.returncode}:\n{completed.stdout[-2000:]}{completed.stderr[-2000:]}"
        )
    document = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    return {"wall": wall, "cpu": cpu, "document": document}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def family_times(document: dict) -> dict[str, tuple[float, int]]:
    return {
        entry["id"]: (float(entry.get("duration_ms", 0.0)), int(entry.get("examples", 0)))
        for entry in document["properties"]
    }


def fastest(runs: list[dict]) -> dict:
    """The run with the least wall time: on a shared machine the others measure its load too."""
    return min(runs, key=lambda run: run["wall"])


def cost(seed: int, baseline: str, repeat: int) -> None:
    """Baseline and this tree run alternately ``repeat`` times each; the fastest run of each is compared."""
    with tempfile.TemporaryDirectory(prefix="bench-classes-") as scratch:
        scratch_dir = Path(scratch)
        tree = scratch_dir / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(tree), baseline], cwd=ROOT, check=True)
        try:
            commit = subprocess.run(
                ["git", "rev-parse", "--short", baseline], cwd=ROOT, check=True, capture_output=True, text=True
            ).stdout.strip()
            runs: dict[str, list[dict]] = {"baseline": [], "current": []}
            for i in range(repeat):
                runs["baseline"].append(timed_run(tree, seed, scratch_dir / f"baseline-report-{i}"))
                runs["current"].append(timed_run(ROOT, seed, scratch_dir / f"current-report-{i}"))
            before, after = fastest(runs["baseline"]), fastest(runs["current"])
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    print(
        f"\nwall times (s), alternating: baseline {[round(r['wall'], 1) for r in runs['baseline']]}, "
        f"this tree {[round(r['wall'], 1) for r in runs['current']]}; CPU times (s) "
        f"{[round(r['cpu'], 1) for r in runs['baseline']]} and {[round(r['cpu'], 1) for r in runs['current']]}; "
        "the fastest of each compared"
    )
    old, new = family_times(before["document"]), family_times(after["document"])
    old_generated = sum(ms for ms, _ in old.values()) or 1.0
    new_generated = sum(ms for ms, _ in new.values()) or 1.0
    old_examples = sum(n for _, n in old.values())
    new_examples = sum(n for _, n in new.values())
    checks = [sum(doc["totals"].values()) for doc in (before["document"], after["document"])]
    print(
        f"Run-time cost: conformance run --target oracle --profile default --seed {seed}; baseline {baseline} ({commit})"
    )
    print_table(
        ["", "baseline", "this tree", "ratio"],
        [
            ["wall time (s)", f"{before['wall']:.1f}", f"{after['wall']:.1f}", f"{after['wall'] / before['wall']:.2f}"],
            ["CPU time (s)", f"{before['cpu']:.1f}", f"{after['cpu']:.1f}", f"{after['cpu'] / before['cpu']:.2f}"],
            [
                "generated time (s)",
                f"{old_generated / 1000:.1f}",
                f"{new_generated / 1000:.1f}",
                f"{new_generated / old_generated:.2f}",
            ],
            ["examples sent", str(old_examples), str(new_examples), f"{new_examples / max(1, old_examples):.2f}"],
            ["checks", str(checks[0]), str(checks[1]), f"{checks[1] / max(1, checks[0]):.2f}"],
        ],
    )
    verdict = "within" if after["wall"] / before["wall"] <= ALLOWED_GROWTH else "OVER"
    print(f"wall-time growth {after['wall'] / before['wall'] - 1:+.0%}: {verdict} the allowed +33%")
    rows = []
    for name in sorted(set(old) | set(new), key=lambda n: -(new.get(n, (0.0, 0))[0])):
        old_ms, old_n = old.get(name, (0.0, 0))
        new_ms, new_n = new.get(name, (0.0, 0))
        rows.append(
            [
                name + ("" if name in old else "  (new)") + ("" if name in new else "  (gone)"),
                f"{old_ms / old_generated:.1%}",
                f"{new_ms / new_generated:.1%}",
                f"{new_ms / old_ms:.2f}" if old_ms else "-",
                f"{old_n}/{new_n}",
            ]
        )
    print("\nShare of the generated time per family (largest first)")
    print_table(["property", "baseline share", "this tree share", "time ratio", "examples"], rows)
    added = [name for name in new if name not in old]
    if added:
        share = sum(new[name][0] for name in added) / new_generated
        print(f"\nnew families: {len(added)}, {share:.1%} of this tree's generated time")


def recording_cost(seed: int, repeat: int) -> None:
    """Drawing every family's default-profile examples with and without recording their aimed
    features (strategies.aiming), alternately in this process: the cost of the recording alone."""
    from conformance.strategies import aim_counts, aiming

    real = aiming.recording

    def draw_all() -> float:
        started = time.process_time()  # CPU time: other work on the machine moves it less than wall time
        for tool_id, version in strategies.supported():
            for family in strategies.families(tool_id, version):
                with aim_counts.counting():
                    strategies.draw_examples(family.strategy, PROFILES["default"][family.category], seed=seed)
        return time.process_time() - started

    draw_all()  # warm the caches (the output-size family's threshold)
    times: dict[str, list[float]] = {"recorded": [], "plain": []}
    try:
        for _ in range(repeat):
            aiming.recording = real
            times["recorded"].append(draw_all())
            aiming.recording = lambda strategy, features: strategy
            times["plain"].append(draw_all())
    finally:
        aiming.recording = real
    print(
        f"\nGeneration only (CPU s), default profile, seed {seed}: with recording {[round(t, 1) for t in times['recorded']]}, "
        f"without {[round(t, 1) for t in times['plain']]}; ratio of the fastest "
        f"{min(times['recorded']) / min(times['plain']):.2f}"
    )


def print_table(heading: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(str(row[i])) for row in [heading, *rows]) for i in range(len(heading))]
    for row in [heading, ["-" * w for w in widths], *rows]:
        print("  ".join(str(cell).ljust(w) for cell, w in zip(row, widths)).rstrip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated cases of the catch rate")
    parser.add_argument("--run-seed", type=int, default=11, help="seed of the timed runs")
    parser.add_argument("--profiles", default="quick,default")
    parser.add_argument("--baseline", default="main", help="git revision the run-time cost is compared with")
    parser.add_argument("--repeat", type=int, default=2, help="timed runs of each tree, alternating")
    parser.add_argument("--catch-only", action="store_true")
    parser.add_argument("--cost-only", action="store_true")
    parser.add_argument(
        "--recording-cost",
        action="store_true",
        help="only the generation time with and without recording the aimed features",
    )
    args = parser.parse_args()
    if args.recording_cost:
        recording_cost(args.run_seed, args.repeat)
        return
    if not args.cost_only:
        catch_rates(args.seed, tuple(args.profiles.split(",")))
    if not args.catch_only:
        cost(args.run_seed, args.baseline, args.repeat)


if __name__ == "__main__":
    main()

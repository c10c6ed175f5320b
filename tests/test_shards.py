"""`conformance run --shard K/N` and `conformance merge-reports`, and `conformance run -n 2`: the
shares of a run, joined, are the one-process run (same checks, same outcomes, same failure groups),
and reports that are not the shares of one run are refused (exit 2).

The end-to-end runs are the commands a CI workflow runs, on one cheap tool at the quick profile,
against the oracle and against a mutant (tests/mutants/brevity_inverted_ratio.py, exp(1 - c/r)),
the runs of one comparison started side by side.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.engine.options import UsageError
from conformance.engine.shards import assign, parse_shard
from conformance.reports.merge import MergeError, check_shards

TESTS = Path(__file__).resolve().parent
TOOL = "bleu-brevity-penalty"
# the valid families (a burst and a sequence among them) and the invalid ones: the boundary families add
# time, not another way of drawing
RUN = ["--seed", "7", "--profile", "quick", "--tools", TOOL, "--families", "valid/*,invalid/*"]
TIMING = ("duration_ms", "elapsed_ms", "reproducer_file", "replay")  # what a share may say otherwise


def conformance(*args: str) -> list[str]:
    return [sys.executable, "-m", "conformance", *args]


def environment() -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}


def side_by_side(commands: list[list[str]]) -> list[subprocess.CompletedProcess]:
    """The commands run at once, each under a PYTHONHASHSEED of its own, as on machines of their own: a run
    draws and shrinks alike whatever its environment's (conformance/cli.py, fix_hash_seed)."""
    processes = [
        subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**environment(), "PYTHONHASHSEED": str(number)},
        )
        for number, command in enumerate(commands, 1)
    ]
    done = []
    for command, process in zip(commands, processes):
        out, err = process.communicate(timeout=240)
        done.append(subprocess.CompletedProcess(command, process.returncode, out, err))
    return done


def untimed(value):
    if isinstance(value, dict):
        return {key: untimed(item) for key, item in value.items() if key not in TIMING}
    if isinstance(value, list):
        return [untimed(item) for item in value]
    return value


def merge_reports(*args, capsys) -> tuple[int, str]:
    """`conformance merge-reports ARGS` in this process: its exit code and what it wrote to stderr."""
    code = main(["merge-reports", *map(str, args)])
    return code, capsys.readouterr().err


def report(directory: Path) -> dict:
    return json.loads((directory / "report.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=["oracle", "python:mutants.brevity_inverted_ratio"])
def sharded(request, tmp_path_factory) -> tuple[str, Path]:
    """The unsharded run in DIR/whole, its three shares in DIR/1..3 and the run over two processes in
    DIR/processes (same seed)."""
    target = request.param
    base = tmp_path_factory.mktemp("shards")
    runs = [conformance("run", "--target", target, *RUN, "--report-dir", str(base / "whole"))]
    runs += [
        conformance("run", "--target", target, *RUN, "--shard", f"{k}/3", "--report-dir", str(base / str(k)))
        for k in (1, 2, 3)
    ]
    runs.append(conformance("run", "--target", target, *RUN, "-n", "2", "--report-dir", str(base / "processes")))
    expected = 0 if target == "oracle" else 1
    for done in side_by_side(runs):
        assert done.returncode == expected, done.stdout[-2000:] + done.stderr[-2000:]
    (base / "processes.out").write_text(done.stdout, encoding="utf-8")
    return target, base


@pytest.mark.slow  # five whole runs side by side (sharded)
def test_two_processes_are_the_one_process_run(sharded):
    target, base = sharded
    whole, document = report(base / "whole"), report(base / "processes")
    for key in ("totals", "exit_code", "properties", "results", "failure_groups", "readings"):
        assert untimed(document[key]) == untimed(whole[key]), key
    assert document["header"]["processes"] == 2 and document["header"]["seed"] == 7
    output = (base / "processes.out").read_text(encoding="utf-8")
    assert output.count("conformance: target") == 1  # one run header, not one per process
    junit = (base / "processes" / "junit.xml").read_text(encoding="utf-8")
    assert junit.count("<testcase") == sum(whole["totals"].values())


@pytest.mark.slow  # five whole runs side by side (sharded)
def test_merged_shards_are_the_unsharded_run(sharded, tmp_path, capsys):
    target, base = sharded
    merged = tmp_path / "merged"
    code, err = merge_reports(base / "3", base / "1", base / "2", "--report-dir", merged, capsys=capsys)
    whole, shares = report(base / "whole"), [report(base / str(k)) for k in (1, 2, 3)]
    assert code == whole["exit_code"], err
    document = report(merged)
    assert [share["header"]["shard"] for share in shares] == [{"index": k, "total": 3} for k in (1, 2, 3)]
    assert "shard" not in document["header"]
    assert all(share["results"] or share["properties"] for share in shares)  # each share got some checks
    for key in ("totals", "exit_code", "properties", "results", "failure_groups", "readings"):
        assert untimed(document[key]) == untimed(whole[key]), key
    if target != "oracle":
        assert document["failure_groups"] and document["totals"]["failed"] > 0
        for result in document["results"]:  # the reproducers were copied beside the merged report
            if result["outcome"] == "failed":
                assert Path(result["reproducer_file"]).parent == merged / "reproducers"
                assert Path(result["reproducer_file"]).is_file()
    for view in ("report.md", "report.html", "junit.xml"):
        assert (merged / view).is_file()
    junit = (merged / "junit.xml").read_text(encoding="utf-8")
    assert junit.count("<testcase") == sum(whole["totals"].values())


@pytest.mark.parametrize(
    "shares, says",
    [
        (("1", "2"), "shard(s) 3 of 3 missing"),
        (("1", "2", "2", "3"), "shard 2/3 given twice"),
        (("1", "2", "3", "whole"), "not a shard's report"),
    ],
)
@pytest.mark.slow  # five whole runs side by side (sharded)
def test_merge_refuses_a_missing_or_repeated_shard(sharded, tmp_path, capsys, shares, says):
    target, base = sharded
    if target != "oracle":
        pytest.skip("one target is enough")
    code, err = merge_reports(*(base / share for share in shares), "--report-dir", tmp_path, capsys=capsys)
    assert code == 2 and says in err, err
    assert not (tmp_path / "report.json").exists()


@pytest.mark.slow  # five whole runs side by side (sharded)
def test_merge_refuses_shards_of_different_runs(sharded, tmp_path, capsys):
    target, base = sharded
    if target != "oracle":
        pytest.skip("one target is enough")
    other = report(base / "2")
    other["header"]["seed"] = 8
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "report.json").write_text(json.dumps(other), encoding="utf-8")
    (tmp_path / "garbage.json").write_text("{not json", encoding="utf-8")
    for given, says in (
        ([base / "1", tmp_path / "other", base / "3"], "their seed differs (7 and 8)"),
        ([base / "1", tmp_path / "garbage.json"], "not a JSON document"),
        ([tmp_path / "absent"], "cannot read it"),
    ):
        code, err = merge_reports(*given, "--report-dir", tmp_path / "out", capsys=capsys)
        assert code == 2 and says in err, err


@pytest.mark.parametrize("text", ["0/3", "4/3", "1/0", "2", "a/b", "1/3/4"])
def test_bad_shard_is_a_usage_error(text):
    with pytest.raises(UsageError, match="--shard"):
        parse_shard(text)


def test_longest_processing_time_assignment():
    # by hand: a(5)->1; b(4)->2; c(3)->2 (4 < 5: 7); d(3)->1 (5 < 7: 8); e(3)->2 (7 < 8: 10)
    costs = {"e": 3, "a": 5, "d": 3, "b": 4, "c": 3}
    assert assign(costs, 2) == {"a": 1, "b": 2, "c": 2, "d": 1, "e": 2}
    assert assign(costs, 1) == dict.fromkeys(costs, 1)
    assert sorted(assign(costs, 7).values()) == [1, 2, 3, 4, 5]  # more shares than checks: some get none


def test_check_shards_order_and_totals():
    def shard(index, total):
        return {"header": {"shard": {"index": index, "total": total}}}

    documents = [shard(2, 2), shard(1, 2)]
    assert check_shards(documents, ["b", "a"]) == [documents[1], documents[0]]
    with pytest.raises(MergeError, match="into 2 and 3"):
        check_shards([shard(1, 2), shard(2, 3)], ["a", "b"])


def test_processes_share_one_random_seed(tmp_path):
    done = subprocess.run(
        conformance(
            "run",
            "--target",
            "oracle",
            "--profile",
            "quick",
            "--tools",
            TOOL,
            "--generated-only",
            "-n",
            "2",
            "--report-dir",
            str(tmp_path),
        ),
        capture_output=True,
        text=True,
        env=environment(),
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    document = report(tmp_path)
    assert {entry["seed"] for entry in document["properties"]} == {document["header"]["seed"]}


def test_dead_target_ends_every_process_fast(tmp_path):
    started = time.monotonic()
    done = subprocess.run(
        conformance(
            "run",
            "--target",
            "http://127.0.0.1:9",
            "--profile",
            "quick",
            "--tools",
            TOOL,
            "-n",
            "2",
            "--timeout",
            "2",
            "--report-dir",
            str(tmp_path),
        ),
        capture_output=True,
        text=True,
        env=environment(),
        timeout=240,
    )
    assert done.returncode == 3, done.stdout[-2000:] + done.stderr[-2000:]
    document = report(tmp_path)
    assert document["header"]["stopped_by"] == "preflight" and document["unhealthy_reason"]
    assert document["totals"]["skipped"] == sum(document["totals"].values())
    assert time.monotonic() - started < 60  # preflight fails at once in each process, whatever the cases


def test_exitfirst_stops_every_process(tmp_path):
    done = subprocess.run(
        conformance(
            "run",
            "--target",
            "python:mutants.brevity_inverted_ratio",
            "--profile",
            "quick",
            "--tools",
            TOOL,
            "--seed",
            "7",
            "-x",
            "-n",
            "2",
            "--report-dir",
            str(tmp_path),
        ),
        capture_output=True,
        text=True,
        env=environment(),
        timeout=240,
    )
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    totals = report(tmp_path)["totals"]
    assert totals["failed"] >= 1 and sum(totals.values()) < 40  # the tool has 129 checks


LABELS = """
import json
from conformance.strategies import families, supported
print(json.dumps({f"{t}@{v} {f.name}": f.strategy.label for t, v in supported() for f in families(t, v)}))
"""


def test_every_family_is_labelled_alike_in_every_process():
    """Hypothesis steers mutation and shrinking by its strategies' labels, so the shares of a run draw and
    shrink as the one-process run only if every process labels every family alike (under the one hash
    seed `conformance run` fixes): no label from a memory address (a lambda or comprehension inside a
    plain ``st.composite`` function, a sampled_from over None). The remedy is named when one differs."""
    env = {**environment(), "PYTHONHASHSEED": "0"}
    first, second = (
        json.loads(
            subprocess.run([sys.executable, "-c", LABELS], capture_output=True, text=True, env=env, check=True).stdout
        )
        for _ in range(2)
    )
    assert first.keys() == second.keys() and len(first) > 100
    differ = sorted(name for name in first if first[name] != second[name])
    assert not differ, (
        f"labelled differently by two processes: {differ}; draw with conformance.strategies.base's composite "
        "and sampled_by_index, whose labels do not depend on addresses"
    )


@pytest.mark.parametrize("hash_seed, warned", [("1", True), ("0", False)])
def test_pytest_itself_says_when_its_hash_seed_draws_other_cases(tmp_path, hash_seed, warned):
    """`conformance run` fixes the hash seed; pytest run directly on the plugin cannot, so its header says so."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--pyargs", "conformance.suite", "-p", "conformance.pytest_plugin"]
        + ["--target", "oracle", "--tools", "bleu-brevity-penalty", "-p", "no:cacheprovider", "--co"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**environment(), "PYTHONHASHSEED": hash_seed},
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    said = f"conformance: PYTHONHASHSEED is '{hash_seed}', not '0'" in done.stdout
    assert said == warned, done.stdout[:2000]

"""`conformance matrix` as it runs: progress per row and tool, rows in parallel processes, stopped by a signal.

The rows are fake libraries (modules on CONFORMANCE_LIBRARY_PATH, conformance/implementations/__init__.py) answering
the brevity-penalty tool: one with the oracle's answer, one answering 1 where c = r = 0 (failing, on few inputs:
a run whose failures shrink at once), one slow (to be stopped).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conformance.progress_file import Follower, Writer

ROOT = Path(__file__).resolve().parent.parent
TOOL = "bleu-brevity-penalty@1.0.0"

LIBRARY = """
import time

import oracle
from conformance.implementations import Implementation

IMPLEMENTATION = Implementation(name="{name}", language="Python", distribution="{name}")
NOT_EXPRESSIBLE_OTHERWISE = "{name} only has a brevity penalty"


def library_version():
    return "0.1"


def bleu_brevity_penalty(payload):
    time.sleep({sleep})
    answer = oracle.execute("bleu-brevity-penalty", "1.0.0", payload)
    if {wrong} and answer.get("candidate_length") == 0 and answer.get("reference_length") == 0:
        answer["brevity_penalty"] = 1.0
    return answer
"""

FAKES = {"fake-exact": (0, False), "fake-both-empty": (0, True), "fake-slow": (0.05, False)}


def libraries(tmp_path: Path) -> Path:
    where = tmp_path / "libraries"
    where.mkdir(exist_ok=True)
    for name, (sleep, wrong) in FAKES.items():
        module = where / (name.replace("-", "_") + ".py")
        module.write_text(LIBRARY.format(name=name, sleep=sleep, wrong=wrong), encoding="utf-8")
    return where


def environment(tmp_path: Path) -> dict:
    return {**os.environ, "CONFORMANCE_LIBRARY_PATH": str(libraries(tmp_path)), "PYTHONPATH": str(ROOT)}


def matrix_command(report_dir: Path, *arguments: str) -> list[str]:
    return [sys.executable, "-m", "conformance.cli", "matrix", "--report-dir", str(report_dir), *arguments]


def run_matrix(tmp_path: Path, report_dir: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        matrix_command(report_dir, *arguments),
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=environment(tmp_path),
    )


# --- progress -------------------------------------------------------------------------------------------------


def test_the_follower_reads_whole_lines_and_names_the_tools_that_finished(tmp_path):
    path = tmp_path / "progress.jsonl"
    writer = Writer(path)
    follower = Follower(path)
    assert follower.poll() == []  # nothing written yet
    writer.totals({"a1": "bleu", "a2": "bleu", "b1": "chrf"})
    writer.check_done("a1", "bleu", "failed")
    writer.check_done("a1", "bleu", "failed")  # its teardown's report: counted once
    assert follower.poll() == [] and follower.done("bleu") == 1 and follower.failed("bleu") == 1
    with open(path, "a", encoding="utf-8") as file:  # a line being written is not read yet
        file.write('{"tool": "bleu", "outc')
    assert follower.poll() == [] and follower.done("bleu") == 1
    with open(path, "a", encoding="utf-8") as file:
        file.write('ome": "passed"}\n')
    assert follower.poll() == ["bleu"] and follower.done("bleu") == 2 and follower.totals == {"bleu": 2, "chrf": 1}
    writer.close()


@pytest.mark.slow  # a whole matrix run (the follower of its progress is checked above, quick)
def test_the_matrix_prints_each_tool_and_row_as_it_finishes_and_a_summary_in_a_pipe(tmp_path):
    completed = run_matrix(tmp_path, tmp_path / "out", "--implementations", "fake-exact,fake-both-empty")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    lines = completed.stdout.splitlines()
    assert "\r" not in completed.stdout and "\x1b" not in completed.stdout  # a pipe gets plain lines
    for name in ("fake-exact", "fake-both-empty"):
        report = json.loads((tmp_path / "out" / "runs" / name / "report.json").read_text(encoding="utf-8"))
        checks = sum(report["totals"].values())
        failed = report["totals"]["failed"]
        tool_line = f"  {name} · bleu-brevity-penalty: {checks}/{checks} checks" + (
            f", {failed} failed" if failed else ""
        )
        assert any(line.startswith(tool_line + " [") for line in lines), (tool_line, completed.stdout)
        assert any(line.startswith("[") and f"] {name}: " in line for line in lines), completed.stdout
    assert failed > 0  # the one answering 1 for c = r = 0 fails (the last report read is fake-both-empty's)
    header = next(line for line in lines if line.startswith("tool "))
    assert header.split() == ["tool", "fake-exact", "fake-both-empty"]
    document = json.loads((tmp_path / "out" / "matrix.json").read_text(encoding="utf-8"))
    groups = next(cell for cell in document["cells"] if cell["implementation"] == "fake-both-empty")["failure_groups"]
    penalty = next(line for line in lines if line.startswith("bleu-brevity-penalty "))
    assert penalty.split() == ["bleu-brevity-penalty", "ok", str(len(groups)), "failing"] and groups
    assert lines[-1].startswith("wrote ") and str(tmp_path / "out" / "matrix.json") in lines[-1]


# --- -n: rows in parallel, the same matrix -------------------------------------------------------------------


def without_timings(document: dict) -> dict:
    header = {key: value for key, value in document["header"].items() if key not in ("started", "finished")}
    rows = [{key: value for key, value in row.items() if key != "duration_s"} for row in document["implementations"]]
    return {**document, "header": header, "implementations": rows}


@pytest.mark.slow  # a whole-run comparison: the matrix twice
def test_the_matrix_is_the_same_whatever_the_number_of_processes(tmp_path):
    names = "fake-both-empty,fake-exact"
    documents = []
    for count in ("1", "2"):
        completed = run_matrix(tmp_path, tmp_path / count, "--implementations", names, "-n", count)
        assert completed.returncode == 0, completed.stdout + completed.stderr
        assert f"{count} at a time" in completed.stdout
        documents.append(json.loads((tmp_path / count / "matrix.json").read_text(encoding="utf-8")))
    one, two = (without_timings(document) for document in documents)
    assert [row["name"] for row in one["implementations"]] == names.split(",")  # as asked, not as finished
    assert one == two
    assert any(cell["failure_groups"] for cell in one["cells"])  # a matrix with content to differ in


def test_the_rows_overlap_under_n_and_the_longest_known_row_starts_first(tmp_path):
    from conformance.matrix.rows import Display, Row, Stop, run_rows

    def row(name: str, seconds: float, estimate: float) -> Row:
        script = f"import time; print(time.time()); time.sleep({seconds}); print(time.time())"
        return Row(name, [sys.executable, "-c", script], tmp_path / name, tmp_path / f"{name}.jsonl", estimate)

    rows = [row("short", 0.5, 1.0), row("long", 1.5, 9.0)]
    with open(tmp_path / "shown.txt", "w", encoding="utf-8") as stream:
        began = time.monotonic()
        assert run_rows(rows, 2, Display(stream, live=False), Stop()) == ""
        took = time.monotonic() - began
    assert all(r.exit_code == 0 for r in rows)
    assert took < 0.5 + 1.5  # side by side, not one after the other
    assert rows[1].started <= rows[0].started  # the longer estimate first
    shown = (tmp_path / "shown.txt").read_text(encoding="utf-8").splitlines()
    assert [line.split()[1] for line in shown] == ["short:", "long:"]  # rows as they finish


# --- signals --------------------------------------------------------------------------------------------------


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` now (Linux /proc), whatever its process group or session."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rpartition(")")[2].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Running (a zombie, dead but not yet reaped by its parent, is not)."""
    try:
        stat = open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace").read()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs Linux /proc")
def test_sigterm_stops_the_matrix_within_seconds_with_no_child_left_and_a_partial_matrix(tmp_path):
    from conformance.matrix.document import validate

    report_dir = tmp_path / "out"
    process = subprocess.Popen(
        matrix_command(report_dir, "--implementations", "fake-slow,fake-exact", "-n", "1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=environment(tmp_path),
    )
    try:
        deadline = time.monotonic() + 60
        running: set[int] = set()
        while time.monotonic() < deadline:  # until the slow row's run has judged checks
            running = descendants(process.pid)
            progress = list(Path(tempfile.gettempdir()).glob("conformance-matrix-*/fake-slow"))
            if running and any(path.stat().st_size > 200 for path in progress):
                break
            time.sleep(0.2)
        assert running, "the matrix started no row"
        running = descendants(process.pid)
        signalled = time.monotonic()
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=30)
        took = time.monotonic() - signalled
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 143, stdout + stderr
    assert took < 10, f"stopped {took:.1f} s after SIGTERM"
    time.sleep(0.5)
    assert not [pid for pid in running if alive(pid)], "a child of the matrix outlived it"
    document = validate(json.loads((report_dir / "matrix.json").read_text(encoding="utf-8")))
    assert document["header"]["interrupted"] == "SIGTERM"
    cells = {cell["implementation"]: cell for cell in document["cells"] if cell["tool"] == TOOL}
    assert cells["fake-exact"]["status"] == "not_run"  # never started: the slow row was the first
    slow = next(row for row in document["implementations"] if row["name"] == "fake-slow")
    assert slow["exit_code"] == 143 and sum(cells["fake-slow"]["counts"].values()) > 0  # its partial report
    assert "INTERRUPTED BY SIGTERM" in stdout and "Interrupted by SIGTERM" in (report_dir / "matrix.md").read_text()

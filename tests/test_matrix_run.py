"""`conformance matrix` as it runs: progress per row and tool, rows in parallel processes, stopped by a signal.

The rows are fake libraries (modules on CONFORMANCE_LIBRARY_PATH, conformance/implementations/__init__.py) answering
the brevity-penalty tool: one with the oracle's answer, one rounding it (failing), one slow (to be stopped).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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
    if {rounded} and isinstance(answer.get("brevity_penalty"), float):
        answer["brevity_penalty"] = round(answer["brevity_penalty"], 2)
    return answer
"""

FAKES = {"fake-exact": (0, False), "fake-rounded": (0, True), "fake-slow": (0.05, False)}


def libraries(tmp_path: Path) -> Path:
    where = tmp_path / "libraries"
    where.mkdir(exist_ok=True)
    for name, (sleep, rounded) in FAKES.items():
        module = where / (name.replace("-", "_") + ".py")
        module.write_text(LIBRARY.format(name=name, sleep=sleep, rounded=rounded), encoding="utf-8")
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


def test_the_matrix_prints_each_tool_and_row_as_it_finishes_and_a_summary_in_a_pipe(tmp_path):
    completed = run_matrix(tmp_path, tmp_path / "out", "--implementations", "fake-exact,fake-rounded")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    lines = completed.stdout.splitlines()
    assert "\r" not in completed.stdout and "\x1b" not in completed.stdout  # a pipe gets plain lines
    for name in ("fake-exact", "fake-rounded"):
        report = json.loads((tmp_path / "out" / "runs" / name / "report.json").read_text(encoding="utf-8"))
        checks = sum(report["totals"].values())
        failed = report["totals"]["failed"]
        tool_line = f"  {name} · bleu-brevity-penalty: {checks}/{checks} checks" + (
            f", {failed} failed" if failed else ""
        )
        assert any(line.startswith(tool_line + " [") for line in lines), (tool_line, completed.stdout)
        assert any(line.startswith("[") and f"] {name}: " in line for line in lines), completed.stdout
    assert failed > 0  # the rounded one fails (the last report read is fake-rounded's)
    header = next(line for line in lines if line.startswith("tool "))
    assert header.split() == ["tool", "fake-exact", "fake-rounded"]
    document = json.loads((tmp_path / "out" / "matrix.json").read_text(encoding="utf-8"))
    groups = next(cell for cell in document["cells"] if cell["implementation"] == "fake-rounded")["failure_groups"]
    penalty = next(line for line in lines if line.startswith("bleu-brevity-penalty "))
    assert penalty.split() == ["bleu-brevity-penalty", "ok", str(len(groups)), "failing"] and groups
    assert lines[-1].startswith("wrote ") and str(tmp_path / "out" / "matrix.json") in lines[-1]

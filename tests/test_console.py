"""The console of a run: a line per tool while it works, then the summary; nothing of pytest's own.

Every count it shows is report.json's; no stray progress character in any mode; a warning is said in one
line; `conformance replay` keeps each line short and writes what it cut to a file it names.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path

import pytest
from runs import TESTS
from test_replay import saved_failure

from conformance import progress
from conformance.cli import main
from conformance.engine.properties import PropertyRun, run_property
from conformance.hypothesis_profiles import run_settings
from conformance.model import Case, CaseResult, Expectation, Mismatch
from conformance.pytest_plugin import warning_line, warnings_text
from conformance.reports.text import LINE_LIMIT
from conformance.runner import pytest_args, register

TOOL = "bleu-brevity-penalty"
TOOL_LINE = re.compile(
    r"^  (?P<tool>[a-z-]+) +(?P<checks>\d+) checks? · (?P<failing>\d+) failing( · (?P<skipped>\d+) skipped)? · [\d.:]+s?$"
)
# what pytest prints when its terminal is on: a line of per-test characters, a [ NN%] column, its own totals
PYTEST_TRACES = re.compile(r"^[.sFExX]+( |$)|\[ *\d+%\]|\d+ (passed|failed|skipped)[,a-z ]* in [\d.]+s")


def checks_per_tool(report: dict) -> Counter:
    """Checks per tool from report.json: each fixture case result and each generated property once."""
    counts: Counter = Counter()
    for result in report["results"]:
        if result["case"]["origin"] == "fixture":
            counts[result["case"]["tool_id"]] += 1
    for entry in report["properties"]:
        counts[entry["tool_id"]] += 1
    return counts


def failing_per_tool(report: dict) -> Counter:
    counts: Counter = Counter()
    for result in report["results"]:
        if result["case"]["origin"] == "fixture" and result["outcome"] in ("failed", "errored"):
            counts[result["case"]["tool_id"]] += 1
    for entry in report["properties"]:
        counts[entry["tool_id"]] += entry["outcome"] in ("failed", "errored")
    return counts


def tool_lines(output: str) -> dict[str, tuple[int, int]]:
    return {
        match["tool"]: (int(match["checks"]), int(match["failing"]))
        for line in output.splitlines()
        if (match := TOOL_LINE.match(line))
    }


# -- the runs ----------------------------------------------------------------------------


def run_with_output(target: str, report_dir: Path, *options: str, timeout: float = 300) -> tuple[int, dict, str]:
    """`conformance run` in a process of its own, not on a terminal: its exit code, report.json, all it printed."""
    done = subprocess.run(
        [sys.executable, "-m", "conformance", "run", "--target", target, "--report-dir", str(report_dir), *options],
        capture_output=True,
        text=True,
        cwd=TESTS,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    return (
        done.returncode,
        json.loads((report_dir / "report.json").read_text(encoding="utf-8")),
        done.stdout + done.stderr,
    )


@pytest.mark.parametrize(
    "options",
    [
        ("--generated-only",),
        ("--fixtures-only",),
        ("--shard", "2/2"),
        pytest.param(("-n", "2"), marks=pytest.mark.slow),  # a whole run over two processes: the slow step
    ],
    ids=["generated-only", "fixtures-only", "shard", "processes"],
)
def test_each_mode_shows_a_line_per_tool_with_the_reports_counts_and_nothing_of_pytest(tmp_path, options):
    code, report, output = run_with_output(
        "oracle", tmp_path / "out", "--profile", "quick", "--tools", f"{TOOL},chrf-compute", *options, timeout=300
    )
    assert code == 0, output
    lines = output.splitlines()
    assert not [line for line in lines if PYTEST_TRACES.search(line)], output
    expected = checks_per_tool(report)
    assert {tool: checks for tool, (checks, _) in tool_lines(output).items()} == dict(expected), output
    assert sum(expected.values()) == sum(report["totals"].values())


def test_a_failing_run_counts_its_failures_as_the_report_does(tmp_path):
    code, report, output = run_with_output(
        "python:mutants.bleu_bp_inverted_ratio",
        tmp_path / "out",
        "--profile",
        "quick",
        "--tools",
        "bleu-corpus-compute",
        # fixtures and three families the mutant fails at their first examples (a whole quick run of it shrinks
        # hundreds of inputs: minutes)
        "--families",
        "valid/every-decimals,valid/segment-boundaries,boundary/decimals",
        timeout=300,
    )
    assert code == 1, output
    shown = tool_lines(output)
    assert shown["bleu-corpus-compute"] == (
        checks_per_tool(report)["bleu-corpus-compute"],
        failing_per_tool(report)["bleu-corpus-compute"],
    )
    assert shown["bleu-corpus-compute"][1] > 0
    assert not [line for line in output.splitlines() if PYTEST_TRACES.search(line)], output


@pytest.mark.slow  # a whole quick run of every tool; each mode's lines are checked on one tool by default
def test_a_passing_run_of_every_tool_fits_one_screen(tmp_path):
    code, report, output = run_with_output("oracle", tmp_path / "out", "--profile", "quick", timeout=600)
    assert code == 0, output
    lines = output.splitlines()
    assert len(lines) <= 40, output
    assert len(tool_lines(output)) == len(checks_per_tool(report)) == 8
    assert "generated/" not in output, "the per-property list is -v's"


def test_verbose_lists_each_property(tmp_path):
    code, report, output = run_with_output(
        "oracle", tmp_path / "out", "--profile", "quick", "--tools", TOOL, "--generated-only", "-v"
    )
    assert code == 0, output
    listed = [line.split(":")[0].strip() for line in output.splitlines() if line.startswith("    generated/")]
    assert listed == [entry["id"] for entry in report["properties"]]
    assert tool_lines(output) == {TOOL: (len(listed), 0)}


# -- the options ---------------------------------------------------------------------------


def parsed(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["run", "--target", "oracle", *argv])
    args.profile = args.profile or "default"
    return args


def test_pytest_terminal_is_off_unless_asked_twice():
    default = pytest_args(parsed())
    assert ["-p", "no:terminal"] == default[default.index("no:terminal") - 1 : default.index("no:terminal") + 1]
    assert "--conformance-quiet" in default and "--conformance-list" not in default
    assert "--conformance-list" in pytest_args(parsed("-v"))
    assert "no:terminal" not in pytest_args(parsed("-vv")) and "-v" in pytest_args(parsed("-vv"))


def test_verbose_is_explained_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert "-vv: pytest's own output" in " ".join(capsys.readouterr().out.split())


# -- progress ------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_tool_line_comes_when_its_last_check_is_done():
    out, clock = io.StringIO(), Clock()
    shown = progress.Progress(out.write, live=False, clock=clock)
    shown.expect({"bleu-ngrams-count": 3, "chrf-compute": 1})
    shown.check_done("bleu-ngrams-count", failing=False)
    shown.check_done("bleu-ngrams-count", failing=True)
    assert out.getvalue() == ""
    clock.now += 75
    shown.check_done("bleu-ngrams-count", failing=False)
    assert out.getvalue() == "  bleu-ngrams-count      3 checks · 1 failing · 1:15\n"
    shown.check_done("chrf-compute", failing=False)
    assert out.getvalue().splitlines()[-1] == "  chrf-compute           1 check · 0 failing · 1:15"


def test_a_tool_line_says_how_many_checks_were_skipped_when_any_were():
    """A run that stopped (a preflight stop, the breaker, a signal) skips the checks left: not "0 failing" alone."""
    out = io.StringIO()
    shown = progress.Progress(out.write, live=False, clock=Clock())
    shown.expect({"bleu-ngrams-count": 3})
    shown.check_done("bleu-ngrams-count", failing=True)
    shown.check_done("bleu-ngrams-count", failing=False, skipped=True)
    shown.check_done("bleu-ngrams-count", failing=False, skipped=True)
    assert out.getvalue() == "  bleu-ngrams-count      3 checks · 1 failing · 2 skipped · 0.0s\n"
    assert shown.status().startswith("3/3 checks · 1 failing · 2 skipped · ")


def test_the_live_line_fits_the_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    out = io.StringIO()
    shown = progress.Progress(out.write, live=True)
    shown.expect({"bleu-ngrams-count": 300})
    shown.property_started("generated/bleu-ngrams-count/valid/a-family-with-a-rather-long-name")
    shown.check_done("bleu-ngrams-count", failing=False)
    drawn = out.getvalue().split("\r\x1b[2K")[-1]
    assert drawn.startswith("1/300 checks · 0 failing") and len(drawn) <= 39


def test_nothing_is_drawn_in_a_pipe():
    out = io.StringIO()
    shown = progress.Progress(out.write, live=False)
    shown.expect({"bleu-ngrams-count": 2})
    shown.check_done("bleu-ngrams-count", failing=False)
    shown.case_done("bleu-ngrams-count", "passed")
    assert out.getvalue() == ""


# -- warnings ------------------------------------------------------------------------------


def test_a_large_failing_example_raises_no_warning_of_hypothesis():
    from hypothesis import strategies as st

    def case(number: int, drawn) -> Case:
        return Case(TOOL, "1.0.0", f"generated/p/{number}", "generated", "valid", drawn, Expectation("output"))

    def judge(case: Case) -> CaseResult:
        return CaseResult(case, "failed", "wrong", Mismatch("/bleu", 0, 1, "wrong"))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outcome = run_property(
            st.just({"hypotheses": ["word " * 20_000]}), run_settings("quick", "valid"), 1, case, judge, PropertyRun()
        )
    assert outcome.failures, "the example failed"
    assert not [warning for warning in caught if "repr" in str(warning.message)], [str(w.message) for w in caught]


def test_a_warning_is_said_in_one_line_of_what_it_is():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn("Something is slow. Use -Wignore to ignore it.\nmore", DeprecationWarning, stacklevel=1)
    line = warning_line(caught[0])
    assert line == "DeprecationWarning from Python: Something is slow"
    text = warnings_text(Counter({line: 3}))
    assert "\n" not in text and "3x" in text and "not about the target" in text


# -- replay --------------------------------------------------------------------------------


def test_replay_cuts_a_long_input_and_writes_it_whole_to_a_file_it_names(tmp_path, capfd):
    words = " ".join(f"w{number}" for number in range(8_000))
    payload = {"hypotheses": [[words]], "references": [[[words]]]}
    reproducer = saved_failure(tmp_path, case_input=payload)
    code = main(["replay", str(reproducer)])
    out = capfd.readouterr().out
    assert code == 1, out
    assert max(map(len, out.splitlines())) <= LINE_LIMIT + 120, "each line cut (its label and note aside)"
    named = re.search(r"whole input, expected output and answer: (\S+)", out)
    assert named, out
    saved = json.loads(Path(named[1]).read_text(encoding="utf-8"))
    assert saved["input"] == payload
    assert "report.json" not in out, "replay writes no report.json"


def test_replay_of_a_short_input_writes_nothing(tmp_path, capfd):
    reproducer = saved_failure(tmp_path, case_input={"hypotheses": [["a", "b"]], "references": [[["a", "b"]]]})
    assert main(["replay", str(reproducer)]) in (0, 1)
    out = capfd.readouterr().out
    assert "whole input" not in out and sorted(path.name for path in tmp_path.iterdir()) == [reproducer.name]

"""The command line: lazy subcommands, `--help`, usage errors, and what `conformance exec` loads.

A ``cmd:`` target starts ``conformance exec`` once per case, so exec must load the
oracle and little else; the test asserts on the set of imported modules (never on
time, which benchmarks/bench_startup.py measures).
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys

import pytest

from conformance.cli import COMMANDS, build_parser, chosen_command, main

PYTHON = sys.executable
INPUT = json.dumps({"hypotheses": [["the", "cat"]], "references": [[["the", "cat"]]]})
# Packages `conformance exec` must never import (test and server stacks, HTTP client, cross-check libraries).
HEAVY = {"hypothesis", "pytest", "_pytest", "starlette", "uvicorn", "requests", "sacrebleu", "nltk"}


def importtime_modules(argv: list[str], stdin: str) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run ``python -X importtime -m conformance ARGV``: the process and the modules its import statements loaded.

    (``-X importtime`` does not list a module loaded by ``importlib.import_module`` itself, only
    what that module imports in turn; ``modules_after_main`` sees everything.)
    """
    completed = subprocess.run(
        [PYTHON, "-X", "importtime", "-m", "conformance", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    modules = set()
    for line in completed.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            modules.add(line.rsplit("|", 1)[1].strip())
    return completed, modules - {"package"}  # "package" is the header's column name


def modules_after_main(argv: list[str], stdin: str) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run the CLI's main in a fresh interpreter, as ``python -m conformance ARGV`` does; then read sys.modules."""
    code = (
        "import json, runpy, sys\n"
        f"sys.argv = ['conformance', *{argv!r}]\n"
        "try:\n"
        "    runpy.run_module('conformance', run_name='__main__', alter_sys=True)\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)))\n"
        "sys.exit(code)\n"
    )
    completed = subprocess.run([PYTHON, "-c", code], input=stdin, capture_output=True, text=True, timeout=120)
    return completed, set(json.loads(completed.stderr.rsplit("\nMODULES ", 1)[1]))


def heavy(modules: set[str]) -> set[str]:
    return {name for name in modules if name.split(".")[0] in HEAVY}


@pytest.mark.parametrize(
    "payload, exit_code",
    [
        (INPUT, 0),
        (json.dumps({"hypotheses": [["the"]], "references": []}), 1),  # rejected by the contract
        ("not json", 1),
    ],
)
def test_exec_imports_none_of_the_heavy_packages(payload, exit_code):
    completed, modules = modules_after_main(["exec", "bleu-corpus-compute@1.0.0"], payload)
    assert completed.returncode == exit_code, completed.stderr[-2000:]
    assert json.loads(completed.stdout).keys() == {"result" if exit_code == 0 else "error"}
    assert {"oracle", "conformance.cli", "conformance.commands.exec_command"} <= modules
    assert heavy(modules) == set()
    # nor the other commands' modules
    assert modules & {module for name, module, _ in COMMANDS if name != "exec"} == set()


def test_exec_under_importtime_imports_none_of_the_heavy_packages():
    completed, modules = importtime_modules(["exec", "bleu-corpus-compute@1.0.0"], INPUT)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert "oracle" in modules
    assert heavy(modules) == set()


def test_the_check_would_see_a_heavy_command():
    completed, modules = modules_after_main(["run", "--help"], "")
    assert completed.returncode == 0
    assert {"pytest", "hypothesis"} <= heavy(modules)


def _registered_help(module_name: str) -> dict[str, str]:
    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers()
    importlib.import_module(module_name).register(subparsers)
    return {action.dest: action.help for action in subparsers._choices_actions}


def test_the_static_table_matches_what_each_module_registers():
    for name, module_name, help_text in COMMANDS:
        assert _registered_help(module_name) == {name: help_text}


def test_help_lists_every_command_with_its_help(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for name, _, help_text in COMMANDS:
        assert f"{name} {help_text}" in out


@pytest.mark.parametrize("name", [name for name, _, _ in COMMANDS])
def test_each_command_help_shows_its_own_options(name, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([name, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: conformance {name} ")
    if name == "run":
        for option in ("--target", "--profile", "--seed", "--report-dir", "--known-failures", "--fixtures-only"):
            assert option in out


@pytest.mark.parametrize(
    "argv", [["bogus"], ["run"], ["exec"], ["run", "--target", "oracle", "--no-such-option"], ["--no-such-option"]]
)
def test_usage_errors_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2


def test_no_command_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().err


def test_chosen_command_is_the_first_non_option():
    assert chosen_command(["exec", "x@1"]) == "exec"
    assert chosen_command(["--version"]) is None
    assert chosen_command(["-h", "run"]) == "run"
    assert chosen_command(["--", "list"]) == "list"
    assert chosen_command([]) is None


def test_build_parser_imports_only_the_chosen_command():
    parser = build_parser("list")
    args = parser.parse_args(["list"])
    assert args.func.__module__ == "conformance.commands.list_command"


def test_python_dash_m_conformance_works():
    completed = subprocess.run(
        [PYTHON, "-m", "conformance", "exec", "bleu-corpus-compute@1.0.0"],
        input=INPUT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0
    assert json.loads(completed.stdout)["result"]["candidate_length"] == 2
    completed = subprocess.run([PYTHON, "-m", "conformance", "--version"], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0 and completed.stdout.startswith("conformance ")


def test_a_contract_version_without_an_oracle_is_named_as_such(monkeypatch):
    """A maintainer added contracts/<tool>/2.0.0.json before its oracle: --tools says so, not "unknown tool"."""
    from conformance.engine import options

    monkeypatch.setattr(
        options, "available", lambda: [("chrf-plus-plus-compute", "1.0.0"), ("chrf-plus-plus-compute", "2.0.0")]
    )
    with pytest.raises(ValueError, match=r"no oracle for chrf-plus-plus-compute@2\.0\.0 \(contract only\)"):
        options.parse_tools("chrf-plus-plus-compute@2.0.0")
    with pytest.raises(ValueError, match="unknown tool 'chrf-plus-plus-compute@3.0.0'"):
        options.parse_tools("chrf-plus-plus-compute@3.0.0")
    assert options.parse_tools("chrf-plus-plus-compute@1.0.0") == [("chrf-plus-plus-compute", "1.0.0")]

"""The `conformance` command line.

Interface: ``conformance [--version] COMMAND [OPTIONS]`` with the commands of
``COMMANDS`` below (exec, list, run, serve, crosscheck, matrix, contracts, replay, diff); each
command's exit codes are documented in its own ``--help``. Usage errors exit 2
(argparse's own convention), and so does a missing command.

Each command lives in its own module, which exposes ``register(subparsers)``
adding its parser and setting ``func(args) -> exit code``. Only the chosen
command's module is imported: ``conformance exec``, which a ``cmd:`` target starts
once per case, must not pay for pytest, Hypothesis or the HTTP server. The other
commands are listed in ``--help`` from the static table below (name and one-line
help, which must match what each module registers; a test holds them to it).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from conformance import __version__

# (command, module providing it, one-line help), in the order `--help` lists them.
COMMANDS: list[tuple[str, str, str]] = [
    ("exec", "conformance.commands.exec_command", "run the oracle on one input (JSON file or stdin)"),
    ("list", "conformance.commands.list_command", "tools, versions and contract status"),
    ("run", "conformance.runner", "check a target against the contracts"),
    ("serve", "conformance.server", "serve the oracle over HTTP with the hosted API"),
    (
        "crosscheck",
        "conformance.crosscheck",
        "cross-check the oracle against sacreBLEU, NLTK and the libraries installed",
    ),
    ("matrix", "conformance.matrix", "run the suite against each real BLEU/chrF library: the compatibility matrix"),
    ("contracts", "conformance.gate", "the contract gate: lint, diff and version-bump rules"),
    (
        "merge-reports",
        "conformance.commands.merge_reports",
        "join the report directories of `run --shard K/N` into one report",
    ),
    ("replay", "conformance.replay", "re-send a saved failing case to its target and show the diff"),
    ("diff", "conformance.commands.diff_command", "what changed between two runs: new, fixed and still failing groups"),
]


# The commands that draw cases with Hypothesis. Its labels of strategies (conformance/strategies/base.py,
# ``composite``) hash strings, and they steer how it mutates and shrinks examples: the same seed gives the
# same cases, failures and counts in every process (one run, its -n workers, each --shard on each machine)
# only under one PYTHONHASHSEED. Such a command run from the command line re-executes itself once under
# this one; the others (exec, which a cmd: target starts once per case, above all) never pay for it.
GENERATING = {"run", "crosscheck", "matrix"}
HASH_SEED = "0"


def fix_hash_seed(command: str | None) -> None:
    """Re-execute this interpreter, with its own arguments, under PYTHONHASHSEED=HASH_SEED (a generating
    command whose process hashes strings otherwise; POSIX only: elsewhere exec does not replace the process)."""
    if command in GENERATING and os.environ.get("PYTHONHASHSEED") != HASH_SEED and os.name == "posix":
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(sys.executable, sys.orig_argv, {**os.environ, "PYTHONHASHSEED": HASH_SEED})


def chosen_command(argv: list[str]) -> str | None:
    """The command named on the command line, if any: the first argument that is not an option.

    The top-level parser has only flags without values (-h, --help, --version), so the
    first non-option argument is the command (or an unknown word argparse rejects).
    """
    for index, arg in enumerate(argv):
        if arg == "--":
            return argv[index + 1] if index + 1 < len(argv) else None
        if not arg.startswith("-"):
            return arg
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The top-level parser; only ``command``'s module is imported to configure its sub-parser.

    Every other command gets a placeholder sub-parser carrying its name and help, so
    ``conformance --help`` lists them all and an unknown command is still a usage error.
    """
    parser = argparse.ArgumentParser(
        prog="conformance",
        description="Conformance suite and reference oracle for the MT-metric tool contracts.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name, help_text in COMMANDS:
        if name == command:
            importlib.import_module(module_name).register(subparsers)
        else:
            subparsers.add_parser(name, help=help_text)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # from the command line (in-process callers pass their arguments)
        argv = sys.argv[1:]
        fix_hash_seed(chosen_command(argv))
        if chosen_command(argv) in ("run", "matrix"):  # a signal while they import is acted on once they start
            from conformance.termination import record_early

            record_early()
    parser = build_parser(chosen_command(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

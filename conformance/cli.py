"""The `conformance` command line (DESIGN.md, "CLI", fixed interface).

Each subcommand lives in its own module, which exposes ``register(subparsers)``
adding its parser and setting ``func(args) -> exit code``. Usage errors exit 2
(argparse's own convention, which the fixed interface adopts).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from conformance import __version__

# Modules that provide subcommands, in the order `--help` lists them.
COMMAND_MODULES = [
    "conformance.commands.exec_command",
    "conformance.commands.list_command",
    "conformance.runner",
    "conformance.server",
    "conformance.crosscheck",
    "conformance.gate",
    "conformance.replay",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="conformance",
        description="Conformance suite and reference oracle for the MT-metric tool contracts.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # not written yet: the command is simply absent
                continue
            raise
        if hasattr(module, "register"):
            module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

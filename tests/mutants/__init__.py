"""Plausible faulty implementations: each module has ONE realistic bug, named in its docstring.

Each subclasses one part of the independent implementation (tests/independent/) and
exposes ``execute(tool_id, version, payload)``; tests/test_power.py shows the suite
catches every one of them. Each also says which class of bug it is, ``CLASS = "..."`` (what it
breaks: semantics, unicode, rounding, output-shape, validation, over-rejection, or a
representation boundary: integer-width, derived-key, plain-object-map, in-key-check,
precision-rounding; or limit-form, a limit measured on the wrong form); benchmarks/bench_classes.py gives the suite's catch rate per class.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path


def names() -> list[str]:
    """Every mutant module name, sorted."""
    return sorted(m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)]) if not m.name.startswith("_"))


def load(name: str):
    return importlib.import_module(f"mutants.{name}")


def changed_tools(module) -> set[tuple[str, str]]:
    """The (tool_id, version)s whose tool object differs from the correct implementation's.

    On the other tools the mutant answers exactly as the independent implementation does,
    so the power test need not send it those cases.
    """
    from independent import Implementation

    correct = Implementation().tools
    mutated = module.execute.__self__.tools
    return {
        key
        for key, tool in mutated.items()
        if type(tool) is not type(correct[key])
        or type(getattr(tool, "statistics", None)) is not type(getattr(correct[key], "statistics", None))
    }


def bug_class(module) -> str:
    """The mutant's ``CLASS``, "unclassified" when it names none."""
    return str(getattr(module, "CLASS", "unclassified"))

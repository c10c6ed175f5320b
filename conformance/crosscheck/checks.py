"""Every check of every library module (conformance/implementations/), and how one is evaluated on an input."""

from __future__ import annotations

import oracle
from conformance.crosscheck.comparison import Comparison
from conformance.crosscheck.model import Check
from conformance.implementations import implementations

REQUIRED_EXTRA = "crosscheck"  # the libraries of this extra are always cross-checked; the others where installed


def checks() -> list[Check]:
    """Every library's checks, library by library (sorted by name), each library's in the registry's tool order."""
    from conformance.crosscheck.adapters import checks as declared

    return list(declared())


def libraries() -> list[str]:
    """The libraries that declare checks, those of the crosscheck extra first."""
    found = [library for library in implementations().values() if library.checks()]
    return [lib.name for lib in sorted(found, key=lambda lib: lib.implementation.extra != REQUIRED_EXTRA)]


CHECKS: list[Check] = checks()
CHECKS_BY_ID = {check.id: check for check in CHECKS}
REQUIRED = tuple(name for name, lib in implementations().items() if lib.implementation.extra == REQUIRED_EXTRA)


def installed(library: str) -> bool:
    from conformance.implementations import library as implementation

    return not implementation(library).missing()


def install_hint(names: list[str]) -> str:
    """How to install the libraries named: their extras, or what their modules say."""
    from conformance.implementations import library as implementation

    hints = []
    for name in names:
        declared = implementation(name).implementation
        hints.append(f"{name}: {declared.install or f'pip install .[{declared.extra}]'}")
    return "; ".join(hints)


def oracle_output(check: Check, payload: dict) -> dict:
    return oracle.execute(check.tool_id, check.version, payload)


def compare_safely(check: Check, payload: dict, expected: dict) -> Comparison:
    """The check's comparison; a library that raises on a valid input disagrees (with nothing to excuse it)."""
    try:
        return check.compare(payload, expected)
    except Exception as exc:  # any library failure is reported, never crashes the run
        comparison = Comparison()
        comparison.exact("raised", None, f"{type(exc).__name__}: {exc}")
        return comparison


def evaluate(check: Check, payload: dict) -> Comparison:
    return compare_safely(check, payload, oracle_output(check, payload))

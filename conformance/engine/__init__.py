"""The run engine, usable without pytest: one ``Session`` checks one target.

    options.py     RunOptions: what a run was asked to do (checked: a bad option is a UsageError)
    health.py      the preflight and the circuit breaker: transport errors in a row, their rate over a
                   sliding window, and the time-out budget
    properties.py  one generated family as a Hypothesis property: generate, shrink, keep the minimal failure,
                   and keep going in further rounds for other distinct failures (--max-failures-per-property)
    selection.py   --families: which generated families a run generates cases for
    shards.py      --shard K/N and -n: a run's checks dealt into shares by expected cost
    session.py     Session: target, prefetch, evaluation (expected output passed explicitly to the
                   verdict), known failures, reproducers, the run record and the exit code

``conformance.pytest_plugin`` is a thin layer of pytest hooks over a Session; ``conformance
replay`` judges one saved case with the same verdict.
"""

from conformance.engine.options import PROFILES, RunOptions, UsageError, parse_tools
from conformance.engine.session import (
    EXIT_NONCONFORMANT,
    EXIT_OK,
    EXIT_UNCONCLUDED,
    PropertySpec,
    Session,
    property_id,
    property_id_of_case,
    suite_ids,
)

__all__ = [
    "RunOptions",
    "UsageError",
    "PROFILES",
    "parse_tools",
    "Session",
    "PropertySpec",
    "property_id",
    "property_id_of_case",
    "suite_ids",
    "EXIT_OK",
    "EXIT_NONCONFORMANT",
    "EXIT_UNCONCLUDED",
]

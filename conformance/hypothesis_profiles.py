"""Every Hypothesis settings profile of the project, registered in one place.

Use sites take a profile by name (``settings.get_profile(name)``) and add only what
varies per call, the number of examples::

    @settings(settings.get_profile(DRAW_EXAMPLES), max_examples=count)

Changing a value here changes the examples a seed gives: a seed printed by an
earlier run then no longer reproduces its cases.

Profiles of the harness (no health checks, no example database, no deadline,
randomness from the seed alone):

``conformance.draw-examples``
    ``strategies.draw_examples``: a list of examples of a strategy, the same for the
    same seed (generation only; nothing fails, nothing is shrunk).
``conformance.crosscheck.generate``
    ``crosscheck.runner.generate_inputs``: the cross-check's inputs, the same for the
    same seed (generation only).
``conformance.crosscheck.shrink``
    ``crosscheck.runner.shrink``: ``hypothesis.find`` searching for an input satisfying
    a condition and shrinking it to a minimal reproducer, quietly, one bug at a time.
``conformance.run.<profile>.<category>``
    The generated properties of ``conformance run --profile <profile>``, one profile per
    category of family (valid, boundary, invalid): ``RUN_EXAMPLES`` examples each;
    explicit examples, then generation, then shrinking of the first failure only
    (report_multiple_bugs off), no reproduction blob (the run writes its own
    reproducer files). ``run_settings(profile, category)`` returns it. A property that
    fails runs again in further rounds under derived seeds with the remaining examples
    (``engine/properties.py``), each round under this profile.

Profiles of the project's own tests (tests/conftest.py loads ``project``):

``project``
    The default of the tests: no deadline (shared, noisy machines: speed is measured
    in benchmarks/, never asserted), no example database in the tree, and
    derandomized under CI (the CI environment variable set), so a red CI run is
    reproducible by running it again; the too_slow and data_too_large health checks off.
``tests.validation``
    tests/test_validation.py: the compiled schema check against jsonschema (150 examples).
``tests.oracle-properties``
    tests/test_oracle_properties.py: determinism of the oracle (30 examples, each runs
    every tool three times).
``tests.sacrebleu-agreement``
    tests/test_sacrebleu_agreement.py: the oracle against sacreBLEU (150 examples).
``tests.server-fuzz``
    tests/test_server_fuzz.py: requests to one shared server (100 examples); the
    function_scoped_fixture health check is off because the server fixture is
    deliberately shared across examples (and the project's other suppressions do not apply).

Settings a profile does not name (e.g. verbosity, print_blob, backend) are those of the
profile in force when this module is first imported (Hypothesis's default, or its ci
profile under CI), as they were at the use sites; the test profiles inherit from ``project``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, Verbosity, settings

# The harness's profiles.
DRAW_EXAMPLES = "conformance.draw-examples"
CROSSCHECK_GENERATE = "conformance.crosscheck.generate"
CROSSCHECK_SHRINK = "conformance.crosscheck.shrink"

# The tests' profiles.
PROJECT = "project"
TESTS_VALIDATION = "tests.validation"
TESTS_ORACLE_PROPERTIES = "tests.oracle-properties"
TESTS_SACREBLEU_AGREEMENT = "tests.sacrebleu-agreement"
TESTS_SERVER_FUZZ = "tests.server-fuzz"

# Hypothesis examples per generated family of `conformance run`, by --profile and category.
# Boundary families draw inputs at the size limits (up to 50,000 tokens), each costing ~100 ms of
# oracle time, and their space is small (each limit, both sides), so they get fewer examples.
# `default` is sized so the whole suite against the in-process oracle runs well under a minute.
RUN_EXAMPLES = {
    "quick": {"valid": 8, "boundary": 3, "invalid": 6},
    "default": {"valid": 60, "boundary": 12, "invalid": 40},
    "thorough": {"valid": 600, "boundary": 100, "invalid": 300},
}

settings.register_profile(
    DRAW_EXAMPLES,
    database=None,
    derandomize=False,
    deadline=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)
settings.register_profile(
    CROSSCHECK_GENERATE,
    database=None,
    phases=[Phase.generate],
    derandomize=False,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
settings.register_profile(
    CROSSCHECK_SHRINK,
    database=None,
    phases=[Phase.generate, Phase.shrink],
    derandomize=False,
    deadline=None,
    verbosity=Verbosity.quiet,
    report_multiple_bugs=False,
    suppress_health_check=list(HealthCheck),
)


def run_profile_name(profile: str, category: str) -> str:
    return f"conformance.run.{profile}.{category}"


for _profile, _sizes in RUN_EXAMPLES.items():
    for _category, _examples in _sizes.items():
        settings.register_profile(
            run_profile_name(_profile, _category),
            max_examples=_examples,
            database=None,
            deadline=None,
            derandomize=False,
            suppress_health_check=list(HealthCheck),
            report_multiple_bugs=False,
            print_blob=False,
            phases=(Phase.explicit, Phase.generate, Phase.shrink),
        )


def run_settings(profile: str, category: str) -> settings:
    """The settings of a generated property of ``conformance run --profile PROFILE`` in that category."""
    return settings.get_profile(run_profile_name(profile, category))


settings.register_profile(
    PROJECT,
    deadline=None,
    database=None,
    derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(TESTS_VALIDATION, parent=settings.get_profile(PROJECT), max_examples=150)
settings.register_profile(TESTS_ORACLE_PROPERTIES, parent=settings.get_profile(PROJECT), max_examples=30)
settings.register_profile(TESTS_SACREBLEU_AGREEMENT, parent=settings.get_profile(PROJECT), max_examples=150)
settings.register_profile(
    TESTS_SERVER_FUZZ,
    parent=settings.get_profile(PROJECT),
    max_examples=100,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

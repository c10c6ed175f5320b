"""The Hypothesis settings profiles (conformance/hypothesis_profiles.py) hold the values the use sites had.

A changed value changes the examples a seed gives, so each profile's values are pinned here.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis.errors import InvalidArgument

from conformance import hypothesis_profiles as profiles

ALL_HEALTH_CHECKS = list(HealthCheck)
NAMED = (
    "max_examples",
    "derandomize",
    "database",
    "verbosity",
    "phases",
    "report_multiple_bugs",
    "suppress_health_check",
    "deadline",
    "print_blob",
)


def normalised(resolved: dict) -> dict:
    resolved = dict(resolved)
    if "phases" in resolved:
        resolved["phases"] = tuple(resolved["phases"])
    if "suppress_health_check" in resolved:
        resolved["suppress_health_check"] = sorted(resolved["suppress_health_check"], key=lambda check: check.name)
    return resolved


def values(profile: settings, names=NAMED) -> dict:
    return normalised({name: getattr(profile, name) for name in names})


def expected(**named) -> dict:
    """The values ``named``, in the form ``values`` gives.

    The settings a use site did not name come from the profile in force (Hypothesis's
    default, or its ci profile under CI) and are not pinned.
    """
    return normalised(named)


PROJECT = dict(
    deadline=None,
    database=None,
    derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
HARNESS = {
    profiles.DRAW_EXAMPLES: expected(
        database=None,
        derandomize=False,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=ALL_HEALTH_CHECKS,
    ),
    profiles.CROSSCHECK_GENERATE: expected(
        database=None,
        phases=[Phase.generate],
        derandomize=False,
        deadline=None,
        suppress_health_check=ALL_HEALTH_CHECKS,
    ),
    profiles.CROSSCHECK_SHRINK: expected(
        database=None,
        phases=[Phase.generate, Phase.shrink],
        derandomize=False,
        deadline=None,
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        suppress_health_check=ALL_HEALTH_CHECKS,
    ),
}
TESTS = {
    profiles.TESTS_VALIDATION: expected(**PROJECT, max_examples=150),
    profiles.TESTS_ORACLE_PROPERTIES: expected(**PROJECT, max_examples=30),
    profiles.TESTS_SACREBLEU_AGREEMENT: expected(**PROJECT, max_examples=150),
    profiles.TESTS_SERVER_FUZZ: expected(
        **{**PROJECT, "suppress_health_check": [HealthCheck.function_scoped_fixture]}, max_examples=100
    ),
}


@pytest.mark.parametrize("name", sorted(HARNESS))
def test_harness_profiles_hold_the_values_of_their_use_sites(name):
    assert values(settings.get_profile(name), HARNESS[name]) == HARNESS[name]


@pytest.mark.parametrize("name", sorted(TESTS))
def test_test_profiles_are_the_project_profile_with_their_own_values(name):
    assert values(settings.get_profile(name), TESTS[name]) == TESTS[name]
    # and everything else as the project profile
    rest = [key for key in NAMED if key not in TESTS[name]]
    assert values(settings.get_profile(name), rest) == values(settings.get_profile(profiles.PROJECT), rest)


def test_the_project_profile_is_derandomized_under_ci_only():
    assert values(settings.get_profile(profiles.PROJECT), expected(**PROJECT)) == expected(**PROJECT)
    assert settings.get_profile(profiles.PROJECT).derandomize == bool(os.environ.get("CI"))


def test_run_profiles_match_the_run_properties():
    """What conformance/pytest_plugin.py:run_property sets for a generated property, per --profile and category."""
    from conformance.pytest_plugin import PROFILES

    assert profiles.RUN_EXAMPLES == PROFILES
    for profile, sizes in PROFILES.items():
        for category, examples in sizes.items():
            run = expected(
                max_examples=examples,
                database=None,
                deadline=None,
                derandomize=False,
                suppress_health_check=ALL_HEALTH_CHECKS,
                report_multiple_bugs=False,
                print_blob=False,
                phases=(Phase.explicit, Phase.generate, Phase.shrink),
            )
            assert values(profiles.run_settings(profile, category), run) == run
    with pytest.raises(InvalidArgument):
        profiles.run_settings("quick", "no-such-category")


def test_the_tests_run_under_the_project_profile():
    assert values(settings.default) == values(settings.get_profile(profiles.PROJECT))

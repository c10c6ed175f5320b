"""Settings for the project's own tests.

Hypothesis: the ``project`` profile of conformance/hypothesis_profiles.py (no deadline:
the machines are shared and noisy, speed is measured in benchmarks/, never asserted; no
example database in the tree; under CI the examples are derandomized, so a red CI run is
reproducible by running it again).

``-n auto``: one worker more than pytest-xdist would start, for the default run only.
"""

import os

import pytest
from hypothesis import settings

from conformance.hypothesis_profiles import PROJECT

settings.load_profile(PROJECT)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: without it (-p no:xdist) not an error
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """The worker count of ``-n auto`` for the test command: one more than the cores.

    Many of its tests wait rather than compute (on a target hung until its timeout, a server
    starting, a child process ending), and with one worker per core a core idles through each
    wait. Measured side by side on 2 cores (benchmarks are ratios, the machines are shared):
    3 workers took 0.84 and 0.87 of the time of 2, in two pairs of runs. The slow step's whole
    runs compute throughout and keep one worker per core; PYTEST_XDIST_AUTO_NUM_WORKERS still
    decides when it is set.
    """
    from xdist.plugin import pytest_xdist_auto_num_workers as one_worker_per_core  # called only under xdist

    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or config.option.markexpr != "not slow":
        return None
    return one_worker_per_core(config) + 1

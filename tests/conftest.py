"""Settings for the project's own tests.

Hypothesis: no deadline (the machines are shared and noisy: speed is measured in
benchmarks/, never asserted) and no example database in the tree. Under CI the
examples are derandomized, so a red CI run is reproducible by running it again.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "project",
    deadline=None,
    database=None,
    derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("project")

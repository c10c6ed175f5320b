"""Settings for the project's own tests.

Hypothesis: the ``project`` profile of conformance/hypothesis_profiles.py (no deadline:
the machines are shared and noisy, speed is measured in benchmarks/, never asserted; no
example database in the tree; under CI the examples are derandomized, so a red CI run is
reproducible by running it again).
"""

from hypothesis import settings

from conformance.hypothesis_profiles import PROJECT

settings.load_profile(PROJECT)

import os

from hypothesis import HealthCheck, settings

# Property tests: no per-example deadline (the first call may compile the numba kernel);
# in CI the examples are derandomized so a run is reproducible.
settings.register_profile(
    "default", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

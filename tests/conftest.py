import atexit
import os
import shutil
import tempfile

from hypothesis import HealthCheck, settings

# The tests' own store (ui.kit.links): a throwaway SQLite file, never the app's default one;
# the servers the browser tests start inherit it. A test may open another (links.use_store).
if "PERCEPTRON_STORE" not in os.environ:
    _STORE_DIR = tempfile.mkdtemp(prefix="perceptron-store-")
    atexit.register(shutil.rmtree, _STORE_DIR, ignore_errors=True)
    os.environ["PERCEPTRON_STORE"] = os.path.join(_STORE_DIR, "s.sqlite3")

# Property tests: no per-example deadline (the first call may compile the numba kernel);
# in CI the examples are derandomized so a run is reproducible.
settings.register_profile(
    "default", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings

# The tests' own store (ui.app.links): a throwaway SQLite file, never the app's default one;
# the servers the browser tests start inherit it. A test may open another (links.use_store).
# Each pytest-xdist worker has its own (a worker inherits the environment of the process
# that started it, whose store it must not share: that process removes it at exit).
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
if os.environ.get("PERCEPTRON_STORE_OF_TESTS", _WORKER) != _WORKER or (
    "PERCEPTRON_STORE" not in os.environ
):
    _STORE_DIR = tempfile.mkdtemp(prefix=f"perceptron-store-{_WORKER}-")
    atexit.register(shutil.rmtree, _STORE_DIR, ignore_errors=True)
    os.environ["PERCEPTRON_STORE"] = os.path.join(_STORE_DIR, "s.sqlite3")
    os.environ["PERCEPTRON_STORE_OF_TESTS"] = _WORKER


@pytest.fixture(autouse=True)
def fresh_client_counts():
    """Every test starts with no client counted (ui.server.clients keeps its counts per
    process, and one worker runs many tests)."""
    from ui.server import clients

    clients.reset()
    yield


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "serial: times the app against the clock; runs alone, after the parallel tests",
    )


# Property tests: no per-example deadline (the first call may compile the numba kernel);
# in CI the examples are derandomized so a run is reproducible.
settings.register_profile(
    "default", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


# The parallel run hands out whole files in collection order, each to the next free worker:
# a long file handed out last runs alone at the end while the other workers idle. So the
# files that start servers and browsers go first, the most tests first within each tier.
_TIERS = ("deploy", "browser", "load")


def pytest_collection_modifyitems(config, items):
    def file_of(item) -> str:
        return item.nodeid.split("::")[0]

    per_file: dict[str, int] = {}
    for item in items:
        per_file[file_of(item)] = per_file.get(file_of(item), 0) + 1

    def cost(path: str) -> tuple[int, int, str]:
        parts = path.split("/")
        tier = next((i for i, name in enumerate(_TIERS) if name in parts[:-1]), len(_TIERS))
        return tier, -per_file[path], path

    items.sort(key=lambda item: cost(file_of(item)))  # stable: a file's order kept

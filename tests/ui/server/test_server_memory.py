"""ui.server.memory: freed memory goes back to the system, at most every TRIM_EVERY s; the
cyclic collector looks at young objects every GC_YOUNG allocations."""

import gc
import sys
import time
import weakref
from pathlib import Path

import numpy as np
import pytest

from ui.server import memory


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024


@pytest.mark.skipif(memory._LIBC is None or not sys.platform.startswith("linux"), reason="glibc")
def test_a_trim_gives_freed_memory_back_and_waits_its_turn(monkeypatch):
    monkeypatch.setattr(memory, "_last", time.monotonic() - memory.TRIM_EVERY - 1)
    # many mid-sized blocks (below the mmap threshold: they stay in the heap when freed)
    blocks = [np.ones(8_000) for _ in range(4_000)]  # 64 kB each: 256 MB
    del blocks[:-1]  # the last one pins the top of the heap, so only a trim returns the rest
    before = rss_mb()
    assert memory.trim_now_and_then()
    after = rss_mb()
    assert before - after > 100, (before, after)
    assert not memory.trim_now_and_then()  # not again within TRIM_EVERY
    assert memory.trim_now_and_then(time.monotonic() + memory.TRIM_EVERY + 1)


def test_the_collector_waits_for_gc_young_allocations_and_still_collects_cycles():
    assert gc.get_threshold()[0] == memory.GC_YOUNG
    assert gc.get_threshold()[1:] == (10, 10)  # the older generations: Python's own

    class Node:
        pass

    gc.collect()
    node = Node()
    node.self = node  # a reference cycle: only the collector frees it
    alive = weakref.ref(node)
    del node
    junk = [[] for _ in range(2 * memory.GC_YOUNG)]  # allocations enough for a collection
    del junk
    assert alive() is None


def test_the_launchers_give_the_server_the_memory_settings_the_app_sets():
    """scripts/run.py (the README's command) and the tests' launcher put glibc's settings in
    the server's environment, so the threads made before the app's import obey them too;
    they are the ones ui.server.memory sets at import."""
    import importlib.util

    root = Path(__file__).resolve().parents[3]
    spec = importlib.util.spec_from_file_location(
        "environment", root / "scripts" / "environment.py"
    )
    assert spec is not None and spec.loader is not None
    environment = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(environment)
    assert environment.SERVER_ENV == memory.MALLOC_ENV
    assert "SERVER_ENV" in (root / "scripts" / "run.py").read_text(encoding="utf-8")

"""kit.memory: freed memory goes back to the system, at most every TRIM_EVERY s."""

import sys
import time

import numpy as np
import pytest

from ui.kit import memory


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

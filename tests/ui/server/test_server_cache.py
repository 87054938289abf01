"""``ui.server.cache``: results by value within a byte budget, a TTL, one heavy computation at a
time, and a share of heavy computing per session."""

import pickle
import threading
import time
import types

import numpy as np
import pytest

from ui.server import cache
from ui.server.cache import MB, BoundedCache, Busy, cached, heavy_slot


def test_results_are_kept_by_value_and_each_caller_gets_a_copy():
    calls = []

    def double(a):
        calls.append(1)
        return {"a": a * 2}

    c = BoundedCache(double, max_bytes=MB, ttl=60, heavy=False)
    first = c(np.arange(3))
    first["a"][0] = 99  # a caller's change stays with that caller
    again = c(np.arange(3))  # an equal array, not the same object
    assert len(calls) == 1 and c.hits == 1
    assert again["a"].tolist() == [0, 2, 4]
    assert c(np.arange(4))["a"].tolist() == [0, 2, 4, 6] and len(calls) == 2


def test_the_byte_budget_holds_and_the_least_recently_used_go_first():
    c = BoundedCache(lambda n: np.zeros(n), max_bytes=1 * MB, ttl=60, heavy=False)
    for n in range(100):
        c(20_000 + n)  # about 160 kB each
        assert c.bytes <= 1 * MB
    assert 4 <= len(c) <= 7
    kept = {pickle.loads(e.blob).size for e in c._entries.values()}
    assert max(kept) == 20_099  # the newest are the ones kept
    assert c.bytes == sum(len(e.blob) for e in c._entries.values())


def test_an_entry_over_a_quarter_of_the_budget_is_returned_but_not_kept():
    c = BoundedCache(lambda n: np.zeros(n), max_bytes=1 * MB, ttl=60, heavy=False)
    assert c(40_000).size == 40_000  # 320 kB > 256 kB
    assert len(c) == 0 and c.bytes == 0


def test_entries_expire_after_the_ttl():
    c = BoundedCache(lambda n: n, max_bytes=MB, ttl=0.05, heavy=False)
    c(1)
    c(1)
    assert c.misses == 1
    time.sleep(0.1)
    c(1)
    assert c.misses == 2


def test_heavy_work_runs_one_at_a_time_and_waiters_find_the_result():
    running, most, calls = [0], [0], []
    lock = threading.Lock()

    @cached(max_mb=1, heavy=True)
    def slow(key):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
            calls.append(key)
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return key

    threads = [threading.Thread(target=slow, args=(k % 3,)) for k in range(9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] == 1  # never two heavy computations at once
    assert sorted(calls) == [0, 1, 2]  # and each key computed once for nine callers


def test_a_heavy_call_inside_a_heavy_call_does_not_wait_for_itself():
    @cached(max_mb=1, heavy=True)
    def inner(x):
        return x + 1

    @cached(max_mb=1, heavy=True)
    def outer(x):
        return inner(x) * 2

    done = []
    t = threading.Thread(target=lambda: done.append(outer(1)))
    t.start()
    t.join(timeout=5)
    assert done == [4]


def test_a_session_past_its_share_of_heavy_computing_is_told_to_wait(monkeypatch):
    monkeypatch.setattr(cache, "session_id", lambda: "student-1")
    monkeypatch.setattr(cache, "SESSION_SECONDS", 0.05)
    # the cache's clock, on which each computation takes exactly 0.03 s (a real sleep
    # takes longer when the parallel tests load the cores, and 0.03 + more > 0.05)
    clock = [1000.0]
    monkeypatch.setattr(cache, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
    cache.clear_all()

    @cached(max_mb=1, heavy=True)
    def work(k):
        clock[0] += 0.03
        return k

    work(1)
    work(2)  # 0.06 s spent: over the 0.05 s share
    with pytest.raises(Busy, match="Try again in"):
        work(3)
    assert work(1) == 1  # what is cached is still answered
    monkeypatch.setattr(cache, "session_id", lambda: "student-2")
    assert work(3) == 3  # another student is not held back
    cache.clear_all()


def test_every_cache_of_the_app_has_a_budget_and_all_fit_the_stated_ceiling():
    import ui.compute.runs
    import ui.experts.runs
    import ui.lecture.runs
    import ui.margin.lab
    import ui.proof.runs
    import ui.sgd.runs
    import ui.spam.runs
    import ui.variants.runs
    import ui.xor.runs  # noqa: F401

    app = {n: c for n, c in cache.caches().items() if n.startswith("ui.")}
    wanted = {"ui.compute.runs.lecture_run", "ui.proof.runs.check", "ui.variants.runs.two_d"}
    assert wanted <= set(app)
    assert all(c.max_bytes > 0 for c in app.values())
    assert sum(c.max_bytes for c in app.values()) <= 256 * MB  # README: caches hold <= 256 MB


def test_the_slot_is_reentrant_and_released():
    with heavy_slot(), heavy_slot():
        pass
    assert cache._HEAVY.acquire(timeout=1)
    cache._HEAVY.release()


def test_no_page_or_lesson_uses_an_unbounded_streamlit_cache():
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    sources = [*root.glob("ui/**/*.py"), *root.glob("pages/*.py"), root / "app.py"]
    offenders = [
        p.name
        for p in sources
        if ("st.cache_data" in p.read_text() and p.name != "cache.py")
        or "st.cache_resource" in p.read_text()
    ]
    assert offenders == []

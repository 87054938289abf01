"""The store's contract, the same tests on both backends: SQLite in a temporary folder and
a real redis-server on a free loopback port (``make_store`` is parametrized)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from perceptron_store import (
    MAX_VALUE_BYTES,
    Store,
    StoreDown,
    StoreFull,
    dataset_id,
    dataset_key,
    encode_dataset,
    entry_size,
    field_size,
    load_dataset,
    save_dataset,
)

from .conftest import X4, Y4, MakeStore, used


def test_put_get_round_trip(store: Store) -> None:
    values = {
        "a": b"hello",
        "empty": b"",
        "binary": bytes(range(256)) * 4,
        "dataset:abcdefghijkl": encode_dataset(X4, Y4),
        "big": np.random.default_rng(0).bytes(MAX_VALUE_BYTES),
    }
    for key, value in values.items():
        store.put(key, value, ttl=60)
    for key, value in values.items():
        got = store.get(key)
        assert type(got) is bytes
        assert got == value
    store.put("a", bytearray(b"again"), ttl=60)
    assert store.get("a") == b"again"


def test_unknown_key_is_none(store: Store) -> None:
    assert store.get("nothing-here") is None
    assert store.touch("nothing-here", ttl=60) is False
    store.put("something", b"1", ttl=60)
    assert store.get("nothing-here") is None


def test_overwrite_counts_once(store: Store) -> None:
    store.put("k", b"x" * 1000, ttl=60)
    store.put("k", b"y" * 10, ttl=60)
    assert store.get("k") == b"y" * 10
    assert used(store) == entry_size("k", b"y" * 10)


def test_expired_entries_are_never_returned_and_are_purged(store: Store) -> None:
    store.put("short", b"s" * 500, ttl=0.3)
    store.put("long", b"l", ttl=60)
    assert store.get("short") == b"s" * 500
    time.sleep(0.6)
    assert store.get("short") is None
    assert store.touch("short", ttl=60) is False
    assert store.get("short") is None  # a touch does not revive it
    assert store.get("long") == b"l"
    store.put("next", b"n", ttl=60)  # a write forgets what has expired
    assert used(store) == entry_size("long", b"l") + entry_size("next", b"n")


def test_touch_extends_and_shortens(store: Store) -> None:
    store.put("k", b"v", ttl=0.4)
    assert store.touch("k", ttl=60) is True
    time.sleep(0.7)
    assert store.get("k") == b"v"
    assert store.touch("k", ttl=0.2) is True
    time.sleep(0.5)
    assert store.get("k") is None


def test_the_cap_evicts_the_least_recently_used_dataset_first(make_store: MakeStore) -> None:
    """Datasets (keys under ``dataset:``) make room for one another, the least recently
    used first (a put or a touch is a use), whatever their expiry; never the one written."""
    value = b"v" * 1000
    one = entry_size("dataset:a", value)
    store = make_store(max_bytes=4 * one + one // 2, recent_s=0.0)  # datasets: room for 3
    for name, ttl in (("a", 100), ("b", 50), ("c", 200)):
        store.put(f"dataset:{name}", value, ttl=ttl)
        time.sleep(0.01)
    assert store.touch("dataset:a", ttl=100)  # a is in use: now b is the least recent
    time.sleep(0.01)
    store.put("dataset:d", value, ttl=150)
    kept = {k: store.get(f"dataset:{k}") is not None for k in "abcd"}
    assert kept == {"a": True, "b": False, "c": True, "d": True}
    time.sleep(0.01)
    store.put("dataset:e", value, ttl=10)  # c is now the least recent, e expires soonest
    kept = {k: store.get(f"dataset:{k}") is not None for k in "acde"}
    assert kept == {"a": True, "c": False, "d": True, "e": True}
    assert used(store) <= store.max_bytes  # type: ignore[attr-defined]


def test_a_class_is_never_evicted_and_datasets_leave_it_its_share(make_store: MakeStore) -> None:
    """A room's entry and its map of seats only expire: a flood of new datasets evicts old
    datasets, never them, and datasets never fill the share of the cap kept for classes."""
    value = b"v" * 1000
    one = entry_size("dataset:00", value)
    store = make_store(max_bytes=8 * one, recent_s=0.0)  # datasets may fill 6 of the 8
    store.put("room:ABC", b"r" * 500, ttl=5)  # soonest to expire of all
    store.put_field("room:ABC:members", "s1", b"m" * 500, ttl=5)
    for i in range(40):
        store.put(f"dataset:{i:02d}", value, ttl=3600)
        time.sleep(0.002)
    assert store.get("room:ABC") == b"r" * 500
    assert store.fields("room:ABC:members") == {"s1": b"m" * 500}
    alive = [i for i in range(40) if store.get(f"dataset:{i:02d}") is not None]
    assert alive == list(range(34, 40)), alive  # the six most recent
    assert used(store) <= store.max_bytes  # type: ignore[attr-defined]
    store.put_field("room:ABC:members", "s2", b"m" * 500, ttl=5)  # the classes' share
    assert store.count_fields("room:ABC:members") == 2


def test_a_dataset_used_in_the_last_week_is_never_evicted_the_write_is_refused(
    make_store: MakeStore,
) -> None:
    """When every dataset was used within ``recent_s`` (a week by default), a new one does
    not fit: StoreFull says so, and what was stored stays."""
    value = b"v" * 1000
    one = entry_size("dataset:0", value)
    store = make_store(max_bytes=4 * one)  # datasets: room for 3; recent_s: a week
    for i in range(3):
        store.put(f"dataset:{i}", value, ttl=3600)
    with pytest.raises(StoreFull, match="full of datasets opened in the last week"):
        store.put("dataset:new", value, ttl=3600)
    assert all(store.get(f"dataset:{i}") == value for i in range(3))
    assert store.get("dataset:new") is None
    store.put("dataset:1", b"w" * 1000, ttl=3600)  # a dataset already there may change
    assert store.get("dataset:1") == b"w" * 1000


def test_a_class_write_that_does_not_fit_is_refused_with_a_message(make_store: MakeStore) -> None:
    """Two rooms fill the store: the next seat is refused with StoreFull, and nothing of
    either room is evicted for it."""
    value = b"m" * 1000
    store = make_store(max_bytes=3 * field_size("room:X:m", "s0", value) + 100)
    store.put_field("room:X:m", "s0", value, ttl=60)
    store.put_field("room:X:m", "s1", value, ttl=60)
    store.put_field("room:Y:m", "s0", value, ttl=5)
    with pytest.raises(StoreFull, match="store is full"):
        store.put_field("room:Y:m", "s1", value, ttl=60)
    assert store.count_fields("room:X:m") == 2 and store.count_fields("room:Y:m") == 1


def test_too_big_is_refused_and_changes_nothing(make_store: MakeStore) -> None:
    store = make_store(max_bytes=5_000)
    store.put("k", b"old", ttl=60)
    with pytest.raises(ValueError, match="limit"):
        store.put("k", b"x" * (MAX_VALUE_BYTES + 1), ttl=60)
    with pytest.raises(ValueError, match="whole store"):
        store.put("k", b"x" * 5_000, ttl=60)
    assert store.get("k") == b"old"


@pytest.mark.parametrize(
    "key", ["", "a b", "k" * 201, "clé", "tab\t", None, 7, b"bytes"], ids=lambda v: repr(v)[:16]
)
def test_bad_keys_are_refused(store: Store, key: Any) -> None:
    with pytest.raises(ValueError, match="key"):
        store.put(key, b"v", ttl=60)
    with pytest.raises(ValueError, match="key"):
        store.get(key)
    with pytest.raises(ValueError, match="key"):
        store.touch(key, ttl=60)


@pytest.mark.parametrize("ttl", [0, -1, float("nan"), float("inf"), 1e12, True, "60"])
def test_bad_ttls_are_refused(store: Store, ttl: Any) -> None:
    with pytest.raises(ValueError, match="ttl"):
        store.put("k", b"v", ttl=ttl)
    with pytest.raises(ValueError, match="ttl"):
        store.touch("k", ttl=ttl)
    assert store.get("k") is None


def test_two_store_objects_share_the_data(make_store: MakeStore) -> None:
    """Two processes (or two app servers on one Redis) see each other's writes."""
    first, second = make_store(), make_store()
    data_id = save_dataset(first, X4, Y4)
    loaded = load_dataset(second, data_id)
    assert loaded is not None
    assert np.array_equal(loaded[0], X4) and np.array_equal(loaded[1], Y4)


def test_a_closed_store_is_down(make_store: MakeStore) -> None:
    store = make_store()
    store.put("k", b"v", ttl=60)
    store.close()
    with pytest.raises(StoreDown):
        store.get("k")
    with pytest.raises(StoreDown):
        store.put("k", b"v", ttl=60)


# --------------------------------------------------------------------------- datasets


def test_save_and_load_a_dataset(store: Store) -> None:
    data_id = save_dataset(store, X4, Y4, ttl=60)
    assert data_id == dataset_id(X4, Y4)
    assert store.get(dataset_key(data_id)) == encode_dataset(X4, Y4)
    loaded = load_dataset(store, data_id)
    assert loaded is not None
    X, y = loaded
    assert X.dtype == np.float64 and y.dtype == np.float64
    assert np.array_equal(X, X4) and np.array_equal(y, Y4)
    assert save_dataset(store, X4.tolist(), [1, -1, -1, 1]) == data_id  # same data, same id
    moved = X4.copy()
    moved[2, 0] += 0.5
    other = save_dataset(store, moved, Y4)
    assert other != data_id
    loaded_other = load_dataset(store, other)
    assert loaded_other is not None and np.array_equal(loaded_other[0], moved)


def test_unknown_or_expired_dataset_is_none(store: Store) -> None:
    assert load_dataset(store, "abcdefghijkl") is None
    data_id = save_dataset(store, X4, Y4, ttl=0.3)
    time.sleep(0.6)
    assert load_dataset(store, data_id) is None


def test_loading_keeps_a_dataset_in_use(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PERCEPTRON_STORE_TTL_DAYS", str(5 / 86_400))  # 5 s
    kept = save_dataset(store, X4, Y4, ttl=0.5)
    lapsed = save_dataset(store, X4[:3], Y4[:3], ttl=0.5)
    assert load_dataset(store, kept) is not None  # refreshed to 5 s
    assert load_dataset(store, lapsed, refresh=False) is not None
    time.sleep(0.8)
    assert load_dataset(store, kept) is not None
    assert load_dataset(store, lapsed) is None


def test_a_tampered_entry_is_refused(store: Store) -> None:
    data_id = save_dataset(store, X4, Y4)
    store.put(dataset_key(data_id), encode_dataset(X4[:3], Y4[:3]), ttl=60)  # valid, other data
    with pytest.raises(ValueError, match="does not match"):
        load_dataset(store, data_id)
    store.put(dataset_key(data_id), b"PLD1garbage", ttl=60)
    with pytest.raises(ValueError):
        load_dataset(store, data_id)


class Spy:
    """A store that records every call (and forwards it)."""

    name = "spy"

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.calls: list[str] = []

    def put(self, key: str, value: bytes, *, ttl: float) -> None:
        self.calls.append("put")
        self.inner.put(key, value, ttl=ttl)

    def get(self, key: str) -> bytes | None:
        self.calls.append("get")
        return self.inner.get(key)

    def touch(self, key: str, *, ttl: float) -> bool:
        self.calls.append("touch")
        return self.inner.touch(key, ttl=ttl)

    def close(self) -> None:
        self.inner.close()


@pytest.mark.parametrize(
    "forged",
    [
        None,
        12,
        b"abcdefghijkl",
        "",
        "abcdefghijk",
        "abcdefghijklm",
        "ABCDEFGHIJKL",
        "abcdefghijk1",
        "abcdefghijk\n",
        "../../etc/pa",
        "abcdefghijkλ",
        "a" * 10**6,
    ],
    ids=lambda v: repr(v)[:16],
)
def test_a_forged_id_is_refused_before_any_lookup(store: Store, forged: Any) -> None:
    spy = Spy(store)
    with pytest.raises(ValueError, match="not a dataset id"):
        load_dataset(spy, forged)
    assert spy.calls == []
    data_id = save_dataset(spy, X4, Y4)
    assert spy.calls == ["put"]
    assert load_dataset(spy, data_id) is not None
    assert spy.calls == ["put", "get", "touch"]


def test_refused_data_changes_nothing(store: Store) -> None:
    spy = Spy(store)
    with pytest.raises(ValueError, match="5,000"):
        save_dataset(spy, np.zeros((5_001, 2)), np.ones(5_001))
    with pytest.raises(ValueError, match="1 MB"):
        save_dataset(spy, np.zeros((3_000, 42)), np.ones(3_000))
    with pytest.raises(ValueError, match="label"):
        save_dataset(spy, X4, [1, 0, -1, 1])
    assert spy.calls == []

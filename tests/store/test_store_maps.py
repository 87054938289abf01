"""Maps, the class mode's primitive: many students each write one field of a map, and the
lecturer counts them. The same contract on both backends (SQLite in a temporary folder, a
real redis-server on a free loopback port: ``make_store`` is parametrized), and the counts
under eight threads at once, through two store objects (two app servers, or two processes
on one SQLite file)."""

from __future__ import annotations

import contextlib
import itertools
import sqlite3
import threading
import time
import traceback
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptron_store import (
    MAX_FIELD_BYTES,
    MAX_FIELD_LENGTH,
    MAX_MAP_FIELDS,
    MapFull,
    Store,
    StoreDown,
    StoreFull,
    entry_size,
    field_size,
    open_store,
)

from .conftest import SOON, MakeStore, RedisServer, used


def test_a_field_of_the_same_name_is_replaced(store: Store) -> None:
    assert store.put_field("room", "ada", b"1", ttl=60) == 1
    assert store.put_field("room", "bob", b"2", ttl=60) == 2
    assert store.put_field("room", "ada", bytearray(b"3 again"), ttl=60) == 2
    got = store.fields("room")
    assert got == {"ada": b"3 again", "bob": b"2"}
    assert all(type(k) is str and type(v) is bytes for k, v in got.items())
    assert store.count_fields("room") == 2
    assert used(store) == field_size("room", "ada", b"3 again") + field_size("room", "bob", b"2")


def test_an_unknown_map_is_empty(store: Store) -> None:
    assert store.fields("nobody") == {} and store.field("nobody", "ada") is None
    assert store.count_fields("nobody") == 0
    assert store.delete_field("nobody", "ada") is False
    assert store.delete("nobody") is False
    store.put_field("room", "ada", b"", ttl=60)  # an empty answer is an answer
    assert store.fields("room") == {"ada": b""} and store.field("room", "ada") == b""
    assert store.field("room", "bob") is None
    assert store.fields("nobody") == {}


def test_max_fields_refuses_a_new_field_not_a_replacement(store: Store) -> None:
    for i in range(3):
        store.put_field("room", f"s{i}", b"a", ttl=60, max_fields=3)
    before = used(store)
    with pytest.raises(MapFull, match="3 fields"):
        store.put_field("room", "late", b"a", ttl=60, max_fields=3)
    assert store.fields("room") == {"s0": b"a", "s1": b"a", "s2": b"a"}
    assert used(store) == before
    assert store.put_field("room", "s1", b"changed", ttl=60, max_fields=3) == 3  # at the cap
    assert store.fields("room")["s1"] == b"changed"
    assert store.put_field("room", "late", b"a", ttl=60, max_fields=4) == 4  # a bigger cap
    assert store.delete_field("room", "s0") is True
    assert store.put_field("room", "later", b"a", ttl=60, max_fields=4) == 4  # room again
    assert issubclass(MapFull, ValueError)


@pytest.mark.parametrize("max_fields", [0, -1, 1.5, True, "3"])
def test_a_bad_max_fields_is_refused(store: Store, max_fields: Any) -> None:
    with pytest.raises(ValueError, match="max_fields"):
        store.put_field("room", "ada", b"1", ttl=60, max_fields=max_fields)
    assert store.count_fields("room") == 0


def test_no_map_holds_more_than_max_map_fields(store: Store) -> None:
    for i in range(MAX_MAP_FIELDS):
        store.put_field("room", f"s{i}", b"", ttl=60, max_fields=10**6)
    assert store.count_fields("room") == MAX_MAP_FIELDS
    with pytest.raises(MapFull):
        store.put_field("room", "one-too-many", b"", ttl=60, max_fields=10**6)
    with pytest.raises(MapFull):
        store.put_field("room", "one-too-many", b"", ttl=60)  # the default is the hard cap
    assert store.put_field("room", "s7", b"new", ttl=60) == MAX_MAP_FIELDS
    assert len(store.fields("room")) == MAX_MAP_FIELDS


def test_the_whole_map_expires_and_each_write_refreshes_it(store: Store) -> None:
    store.put_field("room", "ada", b"1", ttl=0.5)
    time.sleep(0.3)
    store.put_field("room", "bob", b"2", ttl=0.5)  # ada's answer is kept as long as bob's
    time.sleep(0.35)
    assert store.fields("room") == {"ada": b"1", "bob": b"2"}
    time.sleep(0.3)
    assert store.fields("room") == {} and store.field("room", "ada") is None
    assert store.count_fields("room") == 0
    assert store.touch("room", ttl=60) is False  # a touch does not revive it
    assert store.delete_field("room", "ada") is False
    store.put("other", b"o", ttl=60)  # a write forgets what has expired
    assert used(store) == entry_size("other", b"o")
    assert store.put_field("room", "cy", b"3", ttl=60) == 1  # a new map, nothing carried over
    assert store.fields("room") == {"cy": b"3"}


def test_touch_refreshes_and_shortens_a_map(store: Store) -> None:
    store.put_field("room", "ada", b"1", ttl=0.4)
    assert store.touch("room", ttl=60) is True
    time.sleep(0.6)
    assert store.count_fields("room") == 1
    assert store.touch("room", ttl=0.2) is True
    time.sleep(0.4)
    assert store.count_fields("room") == 0


def test_delete_field_and_delete(store: Store) -> None:
    store.put_field("room", "ada", b"1", ttl=60)
    store.put_field("room", "bob", b"2", ttl=60)
    assert store.delete_field("room", "ada") is True
    assert store.delete_field("room", "ada") is False
    assert store.fields("room") == {"bob": b"2"}
    assert used(store) == field_size("room", "bob", b"2")
    assert store.delete_field("room", "bob") is True  # the last field: the map is gone
    assert store.touch("room", ttl=60) is False
    assert store.count_fields("room") == 0
    assert used(store) == 0
    store.put_field("room", "ada", b"1", ttl=60)
    store.put("entry", b"e", ttl=60)
    assert store.delete("room") is True
    assert store.delete("room") is False
    assert store.fields("room") == {}
    assert store.delete("entry") is True
    assert store.get("entry") is None
    assert store.delete("entry") is False
    assert used(store) == 0
    store.put("short", b"s", ttl=0.2)
    time.sleep(0.4)
    assert store.delete("short") is False  # expired: nothing was there


def test_a_key_is_an_entry_or_a_map(store: Store) -> None:
    store.put_field("room", "ada", b"1", ttl=60)
    store.put("entry", b"e", ttl=60)
    assert store.get("room") is None
    assert store.fields("entry") == {}
    assert store.count_fields("entry") == 0
    assert store.delete_field("entry", "ada") is False
    with pytest.raises(ValueError, match="plain entry"):
        store.put_field("entry", "ada", b"1", ttl=60)
    assert store.get("entry") == b"e"
    assert store.touch("entry", ttl=60) is True
    store.put("room", b"now an entry", ttl=60)  # put replaces a map as it replaces an entry
    assert store.fields("room") == {}
    assert store.get("room") == b"now an entry"
    assert used(store) == entry_size("room", b"now an entry") + entry_size("entry", b"e")
    assert store.delete("room") is True
    assert store.put_field("room", "bob", b"2", ttl=60) == 1


@pytest.mark.parametrize(
    "field",
    ["", "a b", "f" * (MAX_FIELD_LENGTH + 1), "é", "tab\t", "new\n", None, 7, b"bytes"],
    ids=lambda v: repr(v)[:16],
)
def test_bad_field_names_are_refused(store: Store, field: Any) -> None:
    with pytest.raises(ValueError, match="field"):
        store.put_field("room", field, b"v", ttl=60)
    with pytest.raises(ValueError, match="field"):
        store.delete_field("room", field)
    assert store.count_fields("room") == 0


def test_the_longest_field_name_and_value_are_fine(store: Store) -> None:
    name = "~" * MAX_FIELD_LENGTH
    value = bytes(range(256)) * (MAX_FIELD_BYTES // 256)
    assert len(value) == MAX_FIELD_BYTES
    store.put_field("room", name, value, ttl=60)
    assert store.fields("room") == {name: value}


@pytest.mark.parametrize("key", ["", "a b", "k" * 201, "clé", None], ids=lambda v: repr(v)[:16])
def test_bad_keys_are_refused(store: Store, key: Any) -> None:
    for call in (
        lambda: store.put_field(key, "ada", b"v", ttl=60),
        lambda: store.fields(key),
        lambda: store.count_fields(key),
        lambda: store.delete_field(key, "ada"),
        lambda: store.delete(key),
    ):
        with pytest.raises(ValueError, match="key"):
            call()


def test_bad_values_and_ttls_are_refused_and_change_nothing(make_store: MakeStore) -> None:
    store = make_store(max_bytes=10_000)
    store.put_field("room", "ada", b"old", ttl=60)
    with pytest.raises(ValueError, match="limit"):
        store.put_field("room", "ada", b"x" * (MAX_FIELD_BYTES + 1), ttl=60)
    with pytest.raises(ValueError, match="whole store"):
        store.put_field("room", "ada", b"x" * 10_000, ttl=60)
    for ttl in (0, -1, float("nan"), float("inf"), 1e12, True, "60"):
        with pytest.raises(ValueError, match="ttl"):
            store.put_field("room", "ada", b"v", ttl=ttl)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="bytes"):
        store.put_field("room", "ada", "text", ttl=60)  # type: ignore[arg-type]
    assert store.fields("room") == {"ada": b"old"}
    assert used(store) == field_size("room", "ada", b"old")


# --------------------------------------------------------------------------- size cap


def test_the_size_cap_never_evicts_a_map_only_datasets(make_store: MakeStore) -> None:
    """A map (a class's seats, answers, submissions) only expires: writes over the cap, of
    a dataset or of a map, evict old datasets, the least recently used first."""
    value = b"v" * 1000
    one = entry_size("dataset:a", value)
    store = make_store(max_bytes=6 * one, recent_s=0.0)  # datasets: room for 4 (of 6)
    store.put("dataset:a", value, ttl=100)
    store.put_field("m", "x", value, ttl=5)
    store.put_field("m", "y", value, ttl=5)  # a map of two, expiring soonest
    for name in "bcd":
        store.put(f"dataset:{name}", value, ttl=100)
    assert store.count_fields("m") == 2
    store.put("dataset:e", value, ttl=200)  # over the cap: the oldest dataset goes, not m
    assert store.count_fields("m") == 2
    alive = {k: store.get(f"dataset:{k}") is not None for k in "abcde"}
    assert alive == {"a": False, "b": True, "c": True, "d": True, "e": True}
    store.put_field("m", "z", value, ttl=5)  # a map's write over the cap: b goes
    assert store.count_fields("m") == 3 and store.get("dataset:b") is None
    assert used(store) <= store.max_bytes  # type: ignore[attr-defined]


def test_a_map_bigger_than_the_store_is_refused(make_store: MakeStore) -> None:
    value = b"v" * 1000
    store = make_store(max_bytes=2 * field_size("m", "x", value) + 30, recent_s=0.0)
    store.put("dataset:a", value, ttl=60)
    store.put_field("m", "x", value, ttl=60)
    store.put_field("m", "y", value, ttl=60)  # the dataset is evicted, the map fills it
    assert store.get("dataset:a") is None
    with pytest.raises(ValueError, match="whole store"):
        store.put_field("m", "z", value, ttl=60)
    with pytest.raises(ValueError, match="whole store"):
        store.put_field("m", "y", value + b"x" * 40, ttl=60)
    assert store.fields("m") == {"x": value, "y": value}
    assert store.put_field("m", "y", b"small", ttl=60) == 2  # a smaller answer is fine


# --------------------------------------------------------------------------- concurrency


def run_threads(target: Any, n: int = 8) -> None:
    errors: list[str] = []
    start = threading.Barrier(n)

    def run(i: int) -> None:
        try:
            start.wait()
            target(i)
        except BaseException:
            errors.append(traceback.format_exc())

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors[0]
    assert not any(thread.is_alive() for thread in threads)


def test_eight_threads_on_two_stores_count_every_answer_once(make_store: MakeStore) -> None:
    """Two store objects (two app servers on one Redis, or two processes on one SQLite
    file), eight threads, 50 students each, every one writing twice."""
    stores = [make_store(), make_store()]
    counts: list[list[int]] = [[] for _ in range(8)]

    def answer(i: int) -> None:
        store = stores[i % 2]
        for rep, j in itertools.product(range(2), range(50)):
            counts[i].append(store.put_field("room", f"t{i}-s{j}", f"{rep}".encode(), ttl=60))

    run_threads(answer)
    assert stores[0].count_fields("room") == 400
    got = stores[1].fields("room")
    assert got == {f"t{i}-s{j}": b"1" for i in range(8) for j in range(50)}
    everyone = sorted(itertools.chain.from_iterable(counts))
    assert everyone[-1] == 400
    # each write's count is the map's after it: the first writes saw 1..400, one each
    assert set(everyone) == set(range(1, 401))
    assert used(stores[0]) == sum(field_size("room", f, b"1") for f in got)


def test_eight_threads_at_the_cap_admit_exactly_max_fields(make_store: MakeStore) -> None:
    """25 rooms of 4 places, every thread trying 2 students in each, rooms interleaved:
    the cap is reached 25 times while all eight threads are at it (a check in Python
    before the write lets a fifth student in within a few rooms)."""
    stores = [make_store(), make_store()]
    admitted: list[tuple[str, str]] = []
    refused: list[tuple[str, str]] = []
    lock = threading.Lock()

    def answer(i: int) -> None:
        for j in range(50):
            room, name = f"room{j % 25}", f"t{i}-s{j}"
            try:
                stores[i % 2].put_field(room, name, b"a", ttl=60, max_fields=4)
                with lock:
                    admitted.append((room, name))
            except MapFull:
                with lock:
                    refused.append((room, name))

    run_threads(answer)
    assert len(admitted) == 100 and len(refused) == 300
    for r in range(25):
        room = f"room{r}"
        assert set(stores[r % 2].fields(room)) == {name for k, name in admitted if k == room}
        assert stores[1 - r % 2].count_fields(room) == 4


# --------------------------------------------------------------------------- model


KEYS = itertools.count()
OPS = st.lists(
    st.tuples(
        st.sampled_from(["put", "delete"]),
        st.sampled_from(["ada", "bob", "cy", "dee", "eve"]),
        st.binary(max_size=20),
    ),
    max_size=30,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=OPS)
def test_put_and_delete_fields_match_a_dict(
    store: Store, ops: list[tuple[str, str, bytes]]
) -> None:
    key = f"map{next(KEYS)}"  # one store for every example: a fresh map each
    model: dict[str, bytes] = {}
    for op, field, value in ops:
        if op == "put" and field not in model and len(model) == 4:
            with pytest.raises(MapFull):
                store.put_field(key, field, value, ttl=60, max_fields=4)
        elif op == "put":
            model[field] = value
            assert store.put_field(key, field, value, ttl=60, max_fields=4) == len(model)
        else:
            assert store.delete_field(key, field) is (model.pop(field, None) is not None)
        assert store.fields(key) == model
        assert store.count_fields(key) == len(model)
        assert store.field(key, field) == model.get(field)  # one field, read alone
    assert store.delete(key) is bool(model)


# --------------------------------------------------------------------------- faults

OLD_SCHEMA = """
CREATE TABLE entries (key TEXT PRIMARY KEY, value BLOB NOT NULL, expires REAL NOT NULL,
    size INTEGER NOT NULL);
CREATE INDEX entries_expires ON entries (expires);
CREATE TABLE totals (id INTEGER PRIMARY KEY CHECK (id = 0), bytes INTEGER NOT NULL);
INSERT INTO totals (id, bytes) VALUES (0, 0);
CREATE TRIGGER entries_added AFTER INSERT ON entries
    BEGIN UPDATE totals SET bytes = bytes + NEW.size WHERE id = 0; END;
CREATE TRIGGER entries_removed AFTER DELETE ON entries
    BEGIN UPDATE totals SET bytes = bytes - OLD.size WHERE id = 0; END;
CREATE TRIGGER entries_resized AFTER UPDATE OF size ON entries
    BEGIN UPDATE totals SET bytes = bytes - OLD.size + NEW.size WHERE id = 0; END;
"""


def test_a_file_made_before_maps_gets_them(tmp_path: Path) -> None:
    """The store file of an app that ran before maps existed: its entries stay, and maps
    work in it from the first call."""
    path = tmp_path / "old.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.executescript(OLD_SCHEMA)
        conn.execute(
            "INSERT INTO entries VALUES ('kept', x'6f6c64', ?, ?)",
            (time.time() + 60, entry_size("kept", b"old")),
        )
        conn.commit()
    store = open_store(f"sqlite://{path}")
    try:
        assert store.put_field("room", "ada", b"1", ttl=60) == 1
        assert store.get("kept") == b"old"
        assert used(store) == entry_size("kept", b"old") + field_size("room", "ada", b"1")
    finally:
        store.close()


def test_a_file_made_before_last_use_was_kept_counts_its_datasets_as_just_used(
    tmp_path: Path,
) -> None:
    """An older file has no last-use column: it gets one on first use, every entry counted
    as used then, so no dataset it holds is evicted for a week; new ones are refused."""
    path = tmp_path / "old.sqlite3"
    value = b"v" * 1000
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.executescript(OLD_SCHEMA)
        for name in ("dataset:a", "dataset:b"):
            conn.execute(
                "INSERT INTO entries VALUES (?, ?, ?, ?)",
                (name, value, time.time() + 600, entry_size(name, value)),
            )
        conn.commit()
    store = open_store(f"sqlite://{path}", max_bytes=3 * entry_size("dataset:a", value))
    try:
        with pytest.raises(StoreFull):
            store.put("dataset:c", value, ttl=60)
        assert store.get("dataset:a") == value and store.get("dataset:b") == value
    finally:
        store.close()


def test_maps_are_down_when_redis_is_stopped(redis_server: RedisServer) -> None:
    store = open_store(redis_server.url)
    store.put_field("room", "ada", b"1", ttl=60)
    redis_server.stop()
    calls = [
        lambda: store.put_field("room", "bob", b"2", ttl=60),
        lambda: store.fields("room"),
        lambda: store.field("room", "ada"),
        lambda: store.count_fields("room"),
        lambda: store.delete_field("room", "ada"),
        lambda: store.delete("room"),
        lambda: store.touch("room", ttl=60),
    ]
    for call in calls:
        start = time.monotonic()
        with pytest.raises(StoreDown):
            call()
        assert time.monotonic() - start < SOON
    redis_server.start()  # the same port, empty (no persistence)
    assert store.fields("room") == {}
    assert store.put_field("room", "bob", b"2", ttl=60) == 1
    store.close()


def test_maps_of_a_closed_store_are_down(store: Store) -> None:
    store.put_field("room", "ada", b"1", ttl=60)
    store.close()
    with pytest.raises(StoreDown):
        store.put_field("room", "bob", b"2", ttl=60)
    with pytest.raises(StoreDown):
        store.fields("room")
    with pytest.raises(StoreDown):
        store.count_fields("room")

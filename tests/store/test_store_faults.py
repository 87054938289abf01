"""Faults for real: a redis-server stopped, killed, paused and started again on the same
port; an SQLite file or folder that cannot be written (as a user that is not root: root
ignores permission bits), a corrupt file, a file another process holds locked; and eight
threads at once on each backend. Every failure is StoreDown, soon, and the same Store
object works again once the store is back."""

from __future__ import annotations

import os
import pwd
import shutil
import sqlite3
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from perceptron_store import (
    REDIS_TIMEOUT,
    SQLiteStore,
    Store,
    StoreDown,
    load_dataset,
    open_store,
    save_dataset,
)

from .conftest import SOON, X4, Y4, MakeStore, RedisServer, free_port

PAUSED = 3 * REDIS_TIMEOUT  # seconds a paused Redis is noticed within: handshake, then reply


def down_within(seconds: float, call: Callable[[], object]) -> float:
    start = time.monotonic()
    with pytest.raises(StoreDown):
        call()
    took = time.monotonic() - start
    assert took < seconds, f"StoreDown after {took:.2f} s"
    return took


def all_down(store: Store, seconds: float) -> None:
    down_within(seconds, lambda: store.get("k"))
    down_within(seconds, lambda: store.put("k", b"v", ttl=60))
    down_within(seconds, lambda: store.touch("k", ttl=60))
    down_within(seconds, lambda: save_dataset(store, X4, Y4))
    down_within(seconds, lambda: load_dataset(store, "abcdefghijkl"))


def works(store: Store, key: str = "k") -> None:
    store.put(key, b"back", ttl=60)
    assert store.get(key) == b"back"
    assert store.touch(key, ttl=60) is True
    data_id = save_dataset(store, X4, Y4)
    loaded = load_dataset(store, data_id)
    assert loaded is not None and np.array_equal(loaded[0], X4)


# --------------------------------------------------------------------------- Redis


@pytest.mark.parametrize("kill", [False, True], ids=["shutdown", "crash"])
def test_redis_stopped_then_started_again(redis_server: RedisServer, kill: bool) -> None:
    store = open_store(redis_server.url)
    works(store)
    redis_server.stop(kill=kill)
    all_down(store, SOON)
    all_down(store, SOON)  # and again: nothing waits longer the second time
    redis_server.start()  # the same port, empty (no persistence)
    assert store.get("k") is None
    works(store)
    assert store.used_bytes() > 0  # type: ignore[attr-defined]
    store.close()


def test_redis_paused_then_resumed(redis_server: RedisServer) -> None:
    """A Redis that accepts connections but does not answer (SIGSTOP): the reply timeout."""
    store = open_store(redis_server.url)
    works(store)
    redis_server.pause()
    took = down_within(PAUSED, lambda: store.get("k"))
    assert took >= REDIS_TIMEOUT * 0.9  # it did wait for the answer, as long as the timeout
    down_within(PAUSED, lambda: store.put("k2", b"v", ttl=60))
    redis_server.resume()
    works(store, "k3")
    store.close()


def test_redis_down_when_the_app_starts(tmp_path: Path) -> None:
    """Opening the store connects to nothing; it works once Redis is there."""
    port = free_port()
    store = open_store(f"redis://127.0.0.1:{port}/0")
    all_down(store, SOON)
    server = RedisServer(tmp_path, port)
    server.start()
    try:
        works(store)
    finally:
        server.stop()
    all_down(store, SOON)
    store.close()


def test_redis_errors_never_show_the_password() -> None:
    port = free_port()
    store = open_store(f"redis://user:s3cret-word@127.0.0.1:{port}/0")
    with pytest.raises(StoreDown) as info:
        store.get("k")
    assert "s3cret" not in str(info.value)
    assert "s3cret" not in repr(store)
    assert f"127.0.0.1:{port}" in str(info.value)


# --------------------------------------------------------------------------- SQLite


def test_sqlite_opening_touches_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "later"
    store = open_store(str(folder / "store.sqlite3"))
    assert not folder.exists()
    works(store)
    assert (folder / "store.sqlite3").is_file()
    store.close()


def test_sqlite_under_a_file_is_down_until_the_folder_exists(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    store = open_store(str(blocker / "store.sqlite3"))
    all_down(store, SOON)
    blocker.unlink()
    blocker.mkdir()
    works(store)
    store.close()


def test_a_corrupt_sqlite_file_is_down(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    path.write_bytes(b"this is not a database, " * 100)
    store = open_store(str(path))
    all_down(store, SOON)
    path.unlink()
    works(store)  # a new file where the bad one was
    store.close()


def test_sqlite_locked_by_another_process(tmp_path: Path) -> None:
    """Another writer holding the file past the busy timeout: writes give StoreDown after
    about a second, reads go on (WAL), and writes work once it lets go."""
    path = tmp_path / "store.sqlite3"
    store = open_store(str(path))
    works(store)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("DELETE FROM entries WHERE key = 'nothing'")
    try:
        took = down_within(2.5, lambda: store.put("k2", b"v", ttl=60))
        assert took >= 0.9
        assert store.get("k") == b"back"
    finally:
        other.execute("ROLLBACK")
        other.close()
    works(store, "k2")
    store.close()


NOBODY = pwd.getpwnam("nobody").pw_uid if "nobody" in {p.pw_name for p in pwd.getpwall()} else 65534


def as_unprivileged(check: Callable[[], None]) -> None:
    """Run ``check`` in a forked child that is not root (dropped to ``nobody`` when the
    tests run as root, who ignores permission bits); its failure fails this test."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code, message = 1, b""
        try:
            os.close(read_end)
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            check()
            code = 0
        except BaseException:
            message = traceback.format_exc().encode()
        finally:
            try:
                os.write(write_end, message[-8000:])
            finally:
                os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        output = pipe.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, output


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder outside pytest's (root-only) tmp tree that the unprivileged child owns."""
    base = Path(tempfile.mkdtemp(prefix="perceptron-store-faults-"))
    base.chmod(0o755)
    if os.geteuid() == 0:
        os.chown(base, NOBODY, -1)
    try:
        yield base
    finally:
        for folder, _, _ in os.walk(base):
            os.chmod(folder, 0o755)
        shutil.rmtree(base)


def test_sqlite_read_only_folder(shared_folder: Path) -> None:
    def check() -> None:
        assert os.geteuid() != 0
        folder = shared_folder / "ro"
        folder.mkdir()
        folder.chmod(0o555)
        store = SQLiteStore(folder / "store.sqlite3")
        nested = SQLiteStore(folder / "sub" / "store.sqlite3")
        all_down(store, SOON)
        all_down(nested, SOON)
        folder.chmod(0o755)
        works(store)  # the same objects, once the folder can be written
        works(nested)

    as_unprivileged(check)


def test_sqlite_read_only_file(shared_folder: Path) -> None:
    def check() -> None:
        assert os.geteuid() != 0
        path = shared_folder / "store.sqlite3"
        first = SQLiteStore(path)
        works(first)
        first.close()
        path.chmod(0o444)
        store = SQLiteStore(path)  # as an app started again would
        down_within(SOON, lambda: store.put("k", b"v", ttl=60))
        down_within(SOON, lambda: save_dataset(store, X4, Y4))
        # SQLite made the -wal and -shm files read-only like the database: all three
        # are made writable again, as whoever mends the permissions would
        for made in shared_folder.glob("store.sqlite3*"):
            made.chmod(0o644)
        works(store, "k4")
        assert store.get("k") == b"back"  # what was there is still there

    as_unprivileged(check)


# --------------------------------------------------------------------------- threads


def test_eight_threads_at_once(make_store: MakeStore) -> None:
    """Streamlit runs each session in a thread: 8 at once, on two Store objects sharing
    one backend (two processes), putting and getting; no error, nothing mixed up."""
    stores = [make_store(), make_store()]
    barrier = threading.Barrier(8)
    errors: list[str] = []
    rounds = 60

    def value(t: int, i: int) -> bytes:
        return f"{t}:{i}:".encode() * (1 + (t * 7 + i) % 50)

    def worker(t: int) -> None:
        store = stores[t % 2]
        rng = np.random.default_rng(t)
        try:
            barrier.wait(timeout=10)
            for i in range(rounds):
                store.put(f"t{t}-{i}", value(t, i), ttl=60)
                assert store.get(f"t{t}-{i}") == value(t, i)
                u, j = int(rng.integers(8)), int(rng.integers(rounds))
                seen = store.get(f"t{u}-{j}")
                assert seen is None or seen == value(u, j)
                if i % 10 == 0:
                    X = rng.uniform(-1, 1, (20, 2))
                    y = np.where(X[:, 0] > 0, 1.0, -1.0)
                    loaded = load_dataset(store, save_dataset(store, X, y))
                    assert loaded is not None and np.array_equal(loaded[0], X)
        except BaseException:
            errors.append(traceback.format_exc())

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert errors == []
    for t in range(8):
        for i in range(rounds):
            assert stores[(t + 1) % 2].get(f"t{t}-{i}") == value(t, i)


def at_once(calls: list[Callable[[], object]]) -> list[str]:
    """Run the calls in threads released together; the tracebacks of those that raised."""
    barrier = threading.Barrier(len(calls))
    errors: list[str] = []

    def run(call: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=10)
            call()
        except BaseException:
            errors.append(traceback.format_exc())

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    return errors


def test_processes_creating_the_sqlite_file_at_once(tmp_path: Path) -> None:
    """Several app processes starting on a new file: the first writes race to set it up
    (SQLite answers "database is locked" at once to a second switch to WAL)."""
    for trial in range(25):
        path = tmp_path / f"race{trial}" / "store.sqlite3"
        stores = [SQLiteStore(path) for _ in range(4)]
        errors = at_once(
            [lambda s=s, i=i: s.put(f"k{i}", b"v", ttl=60) for i, s in enumerate(stores)]
        )
        assert errors == [], f"trial {trial}: {errors[0]}"
        assert [stores[0].get(f"k{i}") for i in range(len(stores))] == [b"v"] * len(stores)
        for store in stores:
            store.close()

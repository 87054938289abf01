"""The embedded store: :class:`SQLiteStore`, the standard library's ``sqlite3`` on one file.

WAL mode, a busy timeout, one connection behind a lock, so Streamlit's session threads
share it safely; several processes on one machine may share the file. The contract it
keeps (expiry, size cap, maps, StoreDown) is :mod:`perceptron_store.base`'s.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from perceptron_store import base
from perceptron_store.base import StoreDown, max_store_bytes

SQLITE_BUSY_TIMEOUT = 1.0  # seconds another process's write may hold us up

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    key TEXT PRIMARY KEY,
    value BLOB NOT NULL,
    expires REAL NOT NULL,
    size INTEGER NOT NULL,
    used REAL NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS entries_expires ON entries (expires);
CREATE TABLE IF NOT EXISTS totals (id INTEGER PRIMARY KEY CHECK (id = 0), bytes INTEGER NOT NULL);
INSERT OR IGNORE INTO totals (id, bytes) VALUES (0, 0);
CREATE TRIGGER IF NOT EXISTS entries_added AFTER INSERT ON entries
    BEGIN UPDATE totals SET bytes = bytes + NEW.size WHERE id = 0; END;
CREATE TRIGGER IF NOT EXISTS entries_removed AFTER DELETE ON entries
    BEGIN UPDATE totals SET bytes = bytes - OLD.size WHERE id = 0; END;
CREATE TRIGGER IF NOT EXISTS entries_resized AFTER UPDATE OF size ON entries
    BEGIN UPDATE totals SET bytes = bytes - OLD.size + NEW.size WHERE id = 0; END;
CREATE TABLE IF NOT EXISTS maps (
    key TEXT PRIMARY KEY,
    expires REAL NOT NULL,
    n INTEGER NOT NULL DEFAULT 0,
    size INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS maps_expires ON maps (expires);
CREATE TABLE IF NOT EXISTS fields (
    key TEXT NOT NULL,
    field TEXT NOT NULL,
    value BLOB NOT NULL,
    size INTEGER NOT NULL,
    PRIMARY KEY (key, field)
);
CREATE TRIGGER IF NOT EXISTS fields_added AFTER INSERT ON fields BEGIN
    UPDATE maps SET n = n + 1, size = size + NEW.size WHERE key = NEW.key;
    UPDATE totals SET bytes = bytes + NEW.size WHERE id = 0;
END;
CREATE TRIGGER IF NOT EXISTS fields_removed AFTER DELETE ON fields BEGIN
    UPDATE maps SET n = n - 1, size = size - OLD.size WHERE key = OLD.key;
    UPDATE totals SET bytes = bytes - OLD.size WHERE id = 0;
END;
CREATE TRIGGER IF NOT EXISTS fields_resized AFTER UPDATE OF size ON fields BEGIN
    UPDATE maps SET size = size - OLD.size + NEW.size WHERE key = NEW.key;
    UPDATE totals SET bytes = bytes - OLD.size + NEW.size WHERE id = 0;
END;
CREATE TRIGGER IF NOT EXISTS maps_removed AFTER DELETE ON maps
    BEGIN DELETE FROM fields WHERE key = OLD.key; END;
"""
_SCHEMA_LAST = "maps_removed"  # the last trigger the schema makes: a file without it is set up
# the last use of each entry (a put or a touch), for evicting the least recently used dataset;
# a file made before it gets the column with every entry counted as used when it is added
_USED = "CREATE INDEX IF NOT EXISTS entries_used ON entries (used)"
_DATA = (
    base.EVICTABLE_PREFIX,
    base.EVICTABLE_PREFIX[:-1] + chr(ord(base.EVICTABLE_PREFIX[-1]) + 1),
)
# the datasets' running total, in a table of its own kept by triggers as ``totals`` is (a
# write costs no sum over the datasets); a file made before it gets the table, the triggers
# and the total at once, in one transaction, from the sum of what it holds
_DATA_SCHEMA = """
CREATE TABLE IF NOT EXISTS data_totals (
    id INTEGER PRIMARY KEY CHECK (id = 0), bytes INTEGER NOT NULL
);
INSERT OR IGNORE INTO data_totals (id, bytes)
    SELECT 0, COALESCE(SUM(size), 0) FROM entries WHERE key >= '{0}' AND key < '{1}';
CREATE TRIGGER IF NOT EXISTS data_added AFTER INSERT ON entries
    WHEN NEW.key >= '{0}' AND NEW.key < '{1}'
    BEGIN UPDATE data_totals SET bytes = bytes + NEW.size WHERE id = 0; END;
CREATE TRIGGER IF NOT EXISTS data_removed AFTER DELETE ON entries
    WHEN OLD.key >= '{0}' AND OLD.key < '{1}'
    BEGIN UPDATE data_totals SET bytes = bytes - OLD.size WHERE id = 0; END;
CREATE TRIGGER IF NOT EXISTS data_resized AFTER UPDATE OF size ON entries
    WHEN NEW.key >= '{0}' AND NEW.key < '{1}'
    BEGIN UPDATE data_totals SET bytes = bytes - OLD.size + NEW.size WHERE id = 0; END;
""".format(*_DATA)
_DATA_LAST = "data_resized"


class SQLiteStore:
    """A store in one SQLite file: a table (key, value BLOB, expires REAL, size INT).

    ``expires`` is wall-clock time (``time.time()``), so it holds across restarts and
    between processes sharing the file. A running total of ``size`` is kept by triggers
    in the same transactions, so the cap costs no scan. One connection, opened on first
    use, serves every thread behind a lock; after any failure it is closed and the next
    call opens it again.

    Maps live in two more tables: ``maps`` (key, expires, n, size), one row per map, and
    ``fields`` (key, field, value, size). Triggers on ``fields`` keep each map's count and
    size and the running total; deleting a ``maps`` row deletes its fields. A file made
    before maps existed gets the new tables on first use.
    """

    name = "sqlite"

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_bytes: int | None = None,
        recent_s: float = base.RECENT_S,
    ) -> None:
        self.path = str(path)
        self.max_bytes = max_store_bytes() if max_bytes is None else int(max_bytes)
        self.recent_s = float(recent_s)  # a dataset used this recently is never evicted
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"SQLiteStore({self.path!r}, max_bytes={self.max_bytes})"

    # one place that turns every failure into StoreDown
    def _run(self, work: Any) -> Any:
        with self._lock:
            if self._closed:
                raise StoreDown("The store was closed.")
            try:
                conn = self._connect()
                return work(conn)
            except (sqlite3.Error, OSError) as exc:
                code = getattr(exc, "sqlite_errorcode", None)
                if code is None or code & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    self._drop()  # reopened by the next call (a busy file keeps it)
                raise StoreDown(f"The SQLite store at {self.path} cannot be used: {exc}") from exc

    def _connect(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(
            self.path,
            timeout=SQLITE_BUSY_TIMEOUT,
            isolation_level=None,  # autocommit; transactions are explicit
            check_same_thread=False,  # one connection, used under self._lock
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_TIMEOUT * 1000)}")
            self._wal(conn)
            conn.execute("PRAGMA synchronous = NORMAL")
            made = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?",
                (_SCHEMA_LAST,),
            ).fetchone()
            if made is None:  # a read when the file is set up: no write lock to wait for
                conn.executescript(f"BEGIN IMMEDIATE;{_SCHEMA}COMMIT;")
            columns = {str(row[1]) for row in conn.execute("PRAGMA table_info(entries)")}
            if "used" not in columns:
                conn.executescript(
                    "BEGIN IMMEDIATE;"
                    "ALTER TABLE entries ADD COLUMN used REAL NOT NULL DEFAULT 0;"
                    f"UPDATE entries SET used = {time.time()!r};"
                    "COMMIT;"
                )
            conn.execute(_USED)
            has_data_total = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?", (_DATA_LAST,)
            ).fetchone()
            if has_data_total is None:
                conn.executescript(f"BEGIN IMMEDIATE;{_DATA_SCHEMA}COMMIT;")
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        return conn

    @staticmethod
    def _wal(conn: sqlite3.Connection) -> None:
        """Switch the file to WAL once. Two processes creating the file at the same moment
        race for it, and SQLite answers "database is locked" at once, without waiting for
        its busy timeout: so this retries, within that timeout."""
        deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT
        while True:
            try:
                mode = conn.execute("PRAGMA journal_mode").fetchone()
                if mode is not None and str(mode[0]).lower() == "wal":
                    return
                conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                code = getattr(exc, "sqlite_errorcode", None)
                busy = code is not None and code & 0xFF == sqlite3.SQLITE_BUSY
                if not busy or time.monotonic() > deadline:
                    raise
                time.sleep(0.005)

    def _drop(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None

    @staticmethod
    @contextlib.contextmanager
    def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
        """One write transaction, taken at once (other processes wait their busy timeout)."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    @staticmethod
    def _purge(conn: sqlite3.Connection, now: float) -> None:
        """Forget what has expired (a map's fields go with it, by trigger)."""
        conn.execute("DELETE FROM entries WHERE expires <= ?", (now,))
        conn.execute("DELETE FROM maps WHERE expires <= ?", (now,))

    def _make_room(self, conn: sqlite3.Connection, keep: str, now: float) -> None:
        """Under the cap again after writing ``keep``, and datasets within their share
        when ``keep`` is one: evict datasets, the least recently used first, none used in
        the last week and never ``keep``. If that is not enough, raise StoreFull (the
        caller's transaction rolls the write back)."""
        total, data = self._total(conn), self._data_total(conn)
        data_cap = base.data_cap(self.max_bytes)
        is_data = base.evictable(keep)
        while total > self.max_bytes or (is_data and data > data_cap):
            rows = conn.execute(
                "SELECT key, size FROM entries WHERE key >= ? AND key < ? AND key != ? "
                "AND used <= ? ORDER BY used, key LIMIT 64",
                (*_DATA, keep, now - self.recent_s),
            ).fetchall()
            if not rows:
                raise base.store_full(keep)
            for victim, victim_size in rows:
                conn.execute("DELETE FROM entries WHERE key = ?", (victim,))
                total -= int(victim_size)
                data -= int(victim_size)
                if total <= self.max_bytes and not (is_data and data > data_cap):
                    break

    @staticmethod
    def _data_total(conn: sqlite3.Connection) -> int:
        """The bytes of the datasets (``data_totals``, kept by triggers)."""
        row = conn.execute("SELECT bytes FROM data_totals WHERE id = 0").fetchone()
        return int(row[0]) if row else 0

    def put(self, key: str, value: bytes, *, ttl: float) -> None:
        data = base.check_entry(key, value, ttl, self.max_bytes)
        size = base.entry_size(key, data)

        def work(conn: sqlite3.Connection) -> None:
            now = time.time()
            with self._transaction(conn):
                self._purge(conn, now)
                conn.execute("DELETE FROM maps WHERE key = ?", (key,))  # a key is one or other
                conn.execute(
                    "INSERT INTO entries (key, value, expires, size, used) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
                    "expires = excluded.expires, size = excluded.size, used = excluded.used",
                    (key, data, now + ttl, size, now),
                )
                self._make_room(conn, key, now)

        self._run(work)

    @staticmethod
    def _total(conn: sqlite3.Connection) -> int:
        row = conn.execute("SELECT bytes FROM totals WHERE id = 0").fetchone()
        return int(row[0]) if row else 0

    def get(self, key: str) -> bytes | None:
        base.check_key(key)

        def work(conn: sqlite3.Connection) -> bytes | None:
            row = conn.execute(
                "SELECT value FROM entries WHERE key = ? AND expires > ?", (key, time.time())
            ).fetchone()
            return None if row is None else bytes(row[0])

        result: bytes | None = self._run(work)
        return result

    def touch(self, key: str, *, ttl: float) -> bool:
        base.check_key(key)
        base.check_ttl(ttl)

        def work(conn: sqlite3.Connection) -> bool:
            now = time.time()
            cur = conn.execute(  # a touch is a use
                "UPDATE entries SET expires = ?, used = ? WHERE key = ? AND expires > ?",
                (now + ttl, now, key, now),
            )
            if cur.rowcount > 0:
                return True
            cur = conn.execute(  # a key is in one of the tables at most
                "UPDATE maps SET expires = ? WHERE key = ? AND expires > ?", (now + ttl, key, now)
            )
            return cur.rowcount > 0

        return bool(self._run(work))

    def put_field(
        self, key: str, field: str, value: bytes, *, ttl: float, max_fields: int | None = None
    ) -> int:
        data, limit = base.check_field_entry(key, field, value, ttl, max_fields, self.max_bytes)
        size = base.field_size(key, field, data)

        def work(conn: sqlite3.Connection) -> int:
            now = time.time()
            with self._transaction(conn):
                self._purge(conn, now)
                if conn.execute("SELECT 1 FROM entries WHERE key = ?", (key,)).fetchone():
                    raise base.not_a_map(key)
                row = conn.execute("SELECT n, size FROM maps WHERE key = ?", (key,)).fetchone()
                count, map_size = (0, 0) if row is None else (int(row[0]), int(row[1]))
                old = conn.execute(
                    "SELECT size FROM fields WHERE key = ? AND field = ?", (key, field)
                ).fetchone()
                if old is None and count >= limit:
                    raise base.map_full(key, field, limit)
                if map_size - (0 if old is None else int(old[0])) + size > self.max_bytes:
                    raise base.map_too_big(key, self.max_bytes)
                conn.execute(
                    "INSERT INTO maps (key, expires) VALUES (?, ?) "
                    "ON CONFLICT (key) DO UPDATE SET expires = excluded.expires",
                    (key, now + ttl),
                )
                conn.execute(
                    "INSERT INTO fields (key, field, value, size) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (key, field) DO UPDATE SET value = excluded.value, "
                    "size = excluded.size",
                    (key, field, data, size),
                )
                self._make_room(conn, key, now)
                return count + (old is None)

        return int(self._run(work))

    def fields(self, key: str) -> dict[str, bytes]:
        base.check_key(key)

        def work(conn: sqlite3.Connection) -> dict[str, bytes]:
            rows = conn.execute(
                "SELECT f.field, f.value FROM maps AS m JOIN fields AS f ON f.key = m.key "
                "WHERE m.key = ? AND m.expires > ?",
                (key, time.time()),
            ).fetchall()
            return {str(field): bytes(value) for field, value in rows}

        result: dict[str, bytes] = self._run(work)
        return result

    def field(self, key: str, field: str) -> bytes | None:
        base.check_key(key)
        base.check_field(field)

        def work(conn: sqlite3.Connection) -> bytes | None:
            row = conn.execute(
                "SELECT f.value FROM maps AS m JOIN fields AS f ON f.key = m.key "
                "WHERE m.key = ? AND f.field = ? AND m.expires > ?",
                (key, field, time.time()),
            ).fetchone()
            return None if row is None else bytes(row[0])

        result: bytes | None = self._run(work)
        return result

    def count_fields(self, key: str) -> int:
        base.check_key(key)

        def work(conn: sqlite3.Connection) -> int:
            row = conn.execute(
                "SELECT n FROM maps WHERE key = ? AND expires > ?", (key, time.time())
            ).fetchone()
            return 0 if row is None else int(row[0])

        return int(self._run(work))

    def delete_field(self, key: str, field: str) -> bool:
        base.check_key(key)
        base.check_field(field)

        def work(conn: sqlite3.Connection) -> bool:
            with self._transaction(conn):
                self._purge(conn, time.time())
                cur = conn.execute("DELETE FROM fields WHERE key = ? AND field = ?", (key, field))
                if cur.rowcount == 0:
                    return False
                conn.execute("DELETE FROM maps WHERE key = ? AND n = 0", (key,))
                return True

        return bool(self._run(work))

    def delete(self, key: str) -> bool:
        base.check_key(key)

        def work(conn: sqlite3.Connection) -> bool:
            with self._transaction(conn):
                self._purge(conn, time.time())
                gone = 0
                for table in ("entries", "maps"):
                    gone += conn.execute(f"DELETE FROM {table} WHERE key = ?", (key,)).rowcount
                return gone > 0

        return bool(self._run(work))

    def used_bytes(self) -> int:
        """The bytes counted against the cap now (expired entries not yet purged count)."""
        return int(self._run(self._total))

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._drop()

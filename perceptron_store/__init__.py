"""The store: what a student makes outlives the server process.

One small interface, :class:`Store` (``put``/``get``/``touch`` of bytes under a string key,
with an expiry, and a *map* of fields under a key, below), and two backends, chosen by one
setting (:func:`open_store`):

- :class:`SQLiteStore`, the embedded default: the standard library's ``sqlite3`` on one
  file (WAL mode, a busy timeout, one connection behind a lock, so Streamlit's session
  threads share it safely; several processes on one machine may share the file);
- :class:`RedisStore`: ``redis`` from PyPI against a ``redis://`` URL, for several app
  servers on several machines. Every call waits at most about 0.5 s (connect and socket
  timeouts, no retries), so a stopped Redis never stalls a page for long.

Both expire entries after their ``ttl`` (an expired entry is never returned, and is
purged), and both cap the store's total size (``PERCEPTRON_STORE_MAX_MB``): when a write
goes over it, the entries that expire soonest are evicted first (never the one just
written). Any failure to reach the store (Redis stopped or paused, the SQLite file or its
directory unwritable, a corrupt file) raises :class:`StoreDown`, never a driver's own
exception. Opening a store touches nothing: the first call connects, and every call
after a failure tries again, so the same object works again once the store is back.

Maps are for the class mode: many students (on several app servers sharing Redis, or one
server with SQLite) each write their own answer under one key, and the lecturer counts
them. ``put_field`` sets one field (a field of the same name is replaced: one answer per
student) and makes the whole map expire ``ttl`` seconds from then; it refuses a new field
with :class:`MapFull` once the map holds ``max_fields`` fields (at most ``MAX_MAP_FIELDS``).
Every change is one transaction (SQLite) or one Lua script (Redis), never a read then a
write in Python, so an answer is counted exactly once. A key holds either a plain entry or
a map: ``get`` of a map's key is None, ``fields`` of a plain entry's key is empty, ``put``
replaces a map as it replaces an entry, ``put_field`` refuses a key that holds a plain entry
(ValueError), and ``touch`` and ``delete`` work on both. A map with no field left does not
exist. Each field counts ``field_size`` bytes against the size cap, and a map is evicted
whole, by its expiry, like an entry.

Datasets (points and labels only, nothing personal) are stored under a content id:
``dataset_id`` is 12 characters of base32 of the SHA-256 of a canonical encoding, so the
same points and labels always give the same id. The encoding (``encode_dataset``) is

    header: b"PLD1", n (uint32 LE), d (uint32 LE)          12 bytes
    body:   X as float64 LE, row by row (n*d*8), y as int8 (n), zlib-compressed in the blob

and ``decode_dataset`` checks everything a forged blob could get wrong (magic, declared
sizes before any decompression, the exact body length, finite coordinates within
``MAX_COORD``, labels exactly +1/-1), raising ``ValueError``. No Streamlit here.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import math
import os
import re
import sqlite3
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import redis

__all__ = [
    "DEFAULT_MAX_MB",
    "DEFAULT_PATH",
    "DEFAULT_TTL_DAYS",
    "ID_LENGTH",
    "MAX_BYTES",
    "MAX_COORD",
    "MAX_FIELD_BYTES",
    "MAX_FIELD_LENGTH",
    "MAX_MAP_FIELDS",
    "MAX_POINTS",
    "MAX_VALUE_BYTES",
    "MapFull",
    "RateLimit",
    "RedisStore",
    "SQLiteStore",
    "Store",
    "StoreDown",
    "dataset_id",
    "dataset_key",
    "decode_dataset",
    "default_ttl",
    "encode_dataset",
    "entry_size",
    "field_size",
    "load_dataset",
    "max_store_bytes",
    "open_store",
    "save_dataset",
    "valid_id",
]

FloatArray = npt.NDArray[np.float64]

ROOT = Path(__file__).resolve().parents[1]  # the folder of app.py
DEFAULT_PATH = ROOT / ".perceptron" / "store.sqlite3"  # git-ignored
DEFAULT_MAX_MB = 256.0
DEFAULT_TTL_DAYS = 30.0
ENV_SETTING = "PERCEPTRON_STORE"
ENV_MAX_MB = "PERCEPTRON_STORE_MAX_MB"
ENV_TTL_DAYS = "PERCEPTRON_STORE_TTL_DAYS"

# Datasets: the same caps as an uploaded CSV (perceptron_core.csvio: 5,000 rows, 1 MB) and
# the same largest coordinate as a CSV cell or the margin lab's table (LIMIT = 1e6).
MAX_POINTS = 5_000
MAX_BYTES = 1_000_000  # the canonical encoding (header + float64 X + int8 y), uncompressed
MAX_COORD = 1e6
ID_LENGTH = 12
ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"  # base32, lower case
_ID_CHARS = frozenset(ID_ALPHABET)
DATASET_PREFIX = "dataset:"

# The store's own limits, whatever is stored. A dataset's blob is at most MAX_BYTES plus
# zlib's worst-case growth (about 0.03 % + 13 bytes), well under this.
MAX_VALUE_BYTES = MAX_BYTES + 4_096
MAX_KEY_LENGTH = 200
MAX_TTL = 10 * 365.25 * 86_400.0  # ten years
ENTRY_OVERHEAD = 64  # bytes counted per entry besides its key and value (index, row)

# Maps (class mode): one field per student, a short answer in each.
MAX_FIELD_LENGTH = 64  # a field name: printable ASCII, no spaces, as keys
MAX_FIELD_BYTES = 16_384  # one field's value
MAX_MAP_FIELDS = 2_000  # fields in any map, whatever a caller's max_fields says

SQLITE_BUSY_TIMEOUT = 1.0  # seconds another process's write may hold us up
REDIS_TIMEOUT = 0.5  # seconds: connect and each reply
REDIS_NAMESPACE = "perceptron:"

_MAGIC = b"PLD1"
_HEADER = struct.Struct("<4sII")  # magic, n, d
_KEY = re.compile(rf"[!-~]{{1,{MAX_KEY_LENGTH}}}")  # printable ASCII, no spaces
_FIELD = re.compile(rf"[!-~]{{1,{MAX_FIELD_LENGTH}}}")


class StoreDown(Exception):
    """The store cannot be reached (Redis stopped, SQLite file unwritable...)."""


class MapFull(ValueError):
    """put_field refused a new field: the map already holds max_fields fields."""


class Store(Protocol):
    """What the app needs of a store; :func:`open_store` makes one."""

    name: str  # "sqlite" or "redis", for messages

    def put(self, key: str, value: bytes, *, ttl: float) -> None:
        """Store ``value`` under ``key`` for ``ttl`` seconds (replacing what was there).
        Raises StoreDown, or ValueError for a value over the limits."""
        ...

    def get(self, key: str) -> bytes | None:
        """The value, or None if unknown or expired. Raises StoreDown."""
        ...

    def touch(self, key: str, *, ttl: float) -> bool:
        """Expire ``key`` (a plain entry or a whole map) ``ttl`` seconds from now; False if
        it is absent. Raises StoreDown."""
        ...

    def put_field(
        self, key: str, field: str, value: bytes, *, ttl: float, max_fields: int | None = None
    ) -> int:
        """Set ``field`` of the map under ``key`` to ``value`` (a field of the same name is
        replaced: one answer per student), and make the WHOLE map expire ``ttl`` seconds
        from now. Returns the number of fields in the map after the write. If the field is
        new and the map already holds ``max_fields`` (or MAX_MAP_FIELDS) fields, nothing is
        written and MapFull is raised; replacing an existing field is always allowed.
        Check-and-write is atomic. Raises StoreDown, ValueError for a bad
        key/field/value/ttl/max_fields, for a key that holds a plain entry, or for a map
        that would be bigger than the whole store (TypeError for a value that is not bytes,
        as ``put``)."""
        ...

    def fields(self, key: str) -> dict[str, bytes]:
        """Every field of the map (empty dict if unknown or expired). Raises StoreDown."""
        ...

    def count_fields(self, key: str) -> int:
        """How many fields the map holds (0 if unknown or expired), without reading them.
        Raises StoreDown."""
        ...

    def delete_field(self, key: str, field: str) -> bool:
        """Remove one field; True if it was there (the map goes with its last field).
        Raises StoreDown."""
        ...

    def delete(self, key: str) -> bool:
        """Remove a plain entry or a whole map; True if something was there. Raises
        StoreDown."""
        ...

    def close(self) -> None: ...


# --------------------------------------------------------------------------- settings


def _positive_env(name: str, default: float) -> float:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name} must be a positive number, not {text[:40]!r}.") from None
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive number, not {text[:40]!r}.")
    return value


def max_store_bytes() -> int:
    """The store's size cap in bytes: ``PERCEPTRON_STORE_MAX_MB`` (default 256) x 10^6."""
    return max(1, int(_positive_env(ENV_MAX_MB, DEFAULT_MAX_MB) * 1_000_000))


def default_ttl() -> float:
    """How long a dataset is kept, in seconds: ``PERCEPTRON_STORE_TTL_DAYS`` (default 30)."""
    return min(MAX_TTL, _positive_env(ENV_TTL_DAYS, DEFAULT_TTL_DAYS) * 86_400.0)


def open_store(
    setting: str | None = None,
    *,
    max_bytes: int | None = None,
    namespace: str = REDIS_NAMESPACE,
) -> Store:
    """The store a setting names; connects to nothing yet (the first call does).

    ``setting`` (else the environment's ``PERCEPTRON_STORE``; the app passes its
    ``.streamlit`` secret ``store`` when it has one):

    - ``redis://[user:password@]host:port/db``, ``rediss://...`` or ``unix://...``: Redis,
      reached only at that URL;
    - ``sqlite:///path/to/file.sqlite3`` (the path after ``sqlite://``; ``sqlite:////path``
      is the same file) or a plain path: SQLite there (a relative path is relative to the
      working directory);
    - None or "": SQLite at ``.perceptron/store.sqlite3`` next to ``app.py``.

    ``max_bytes`` (default ``max_store_bytes()``) caps the total size. ``namespace``
    prefixes every Redis key, so several apps (or tests) can share one Redis.
    Raises ValueError for a setting it cannot read.
    """
    if setting is None:
        setting = os.environ.get(ENV_SETTING, "")
    if not isinstance(setting, str):
        raise ValueError("The store setting must be text.")
    setting = setting.strip()
    cap = max_store_bytes() if max_bytes is None else int(max_bytes)
    if cap <= 0:
        raise ValueError("The store's size cap must be positive.")
    lowered = setting.lower()
    if lowered.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(setting, max_bytes=cap, namespace=namespace)
    if lowered.startswith("sqlite://"):
        path = setting[len("sqlite://") :]
        if path.startswith("//"):  # sqlite:////abs/path, as SQLAlchemy writes it
            path = "/" + path.lstrip("/")
        if not path:
            raise ValueError("The store setting sqlite:// names no file.")
        return SQLiteStore(path, max_bytes=cap)
    if "://" in setting:
        scheme = setting.split("://", 1)[0][:20]
        raise ValueError(
            f"Unknown store {scheme!r}: use redis://host:port/db, sqlite:///path or a path."
        )
    return SQLiteStore(setting or DEFAULT_PATH, max_bytes=cap)


def entry_size(key: str, value: bytes) -> int:
    """The bytes one entry counts against the size cap (the same for both backends)."""
    return len(key) + len(value) + ENTRY_OVERHEAD


def _check_entry(key: str, value: object, ttl: float, cap: int) -> bytes:
    _check_key(key)
    if not isinstance(value, bytes | bytearray | memoryview):
        raise TypeError("A store value is bytes.")
    data = bytes(value)
    _check_ttl(ttl)
    if len(data) > MAX_VALUE_BYTES:
        raise ValueError(
            f"The value is {len(data):,} bytes, over the store's limit of "
            f"{MAX_VALUE_BYTES:,} bytes; nothing was stored."
        )
    if entry_size(key, data) > cap:
        raise ValueError(
            f"The value is {len(data):,} bytes, more than the whole store holds "
            f"({cap:,} bytes); nothing was stored."
        )
    return data


def field_size(key: str, field: str, value: bytes) -> int:
    """The bytes one field of a map counts against the size cap (the same for both
    backends); a map counts the sum of its fields."""
    return len(key) + len(field) + len(value) + ENTRY_OVERHEAD


def _check_field_entry(
    key: str, field: str, value: object, ttl: float, max_fields: object, cap: int
) -> tuple[bytes, int]:
    """The value as bytes and the field limit of a put_field, or ValueError/TypeError."""
    _check_key(key)
    _check_field(field)
    if not isinstance(value, bytes | bytearray | memoryview):
        raise TypeError("A store value is bytes.")
    data = bytes(value)
    _check_ttl(ttl)
    if max_fields is None:
        limit = MAX_MAP_FIELDS
    elif isinstance(max_fields, bool) or not isinstance(max_fields, int) or max_fields < 1:
        raise ValueError("max_fields must be a whole number, at least 1.")
    else:
        limit = min(max_fields, MAX_MAP_FIELDS)
    if len(data) > MAX_FIELD_BYTES:
        raise ValueError(
            f"The value is {len(data):,} bytes, over the limit of {MAX_FIELD_BYTES:,} bytes "
            "for one field; nothing was stored."
        )
    if field_size(key, field, data) > cap:
        raise ValueError(
            f"The value is {len(data):,} bytes, more than the whole store holds "
            f"({cap:,} bytes); nothing was stored."
        )
    return data, limit


def _check_field(field: object) -> None:
    if not isinstance(field, str) or _FIELD.fullmatch(field) is None:
        raise ValueError(
            f"A map's field is 1 to {MAX_FIELD_LENGTH} printable ASCII characters without spaces."
        )


def _not_a_map(key: str) -> ValueError:
    return ValueError(f"The key {key!r} holds a plain entry, not a map; nothing was stored.")


def _map_full(key: str, field: str, limit: int) -> MapFull:
    return MapFull(f"The map {key!r} already holds {limit:,} fields; {field!r} was not added.")


def _map_too_big(key: str, cap: int) -> ValueError:
    return ValueError(
        f"The map {key!r} would be more than the whole store holds ({cap:,} bytes); "
        "nothing was stored."
    )


def _check_key(key: object) -> None:
    if not isinstance(key, str) or _KEY.fullmatch(key) is None:
        raise ValueError("A store key is 1 to 200 printable ASCII characters without spaces.")


def _check_ttl(ttl: object) -> None:
    if (
        isinstance(ttl, bool)
        or not isinstance(ttl, int | float)
        or not math.isfinite(ttl)
        or not 0 < ttl <= MAX_TTL
    ):
        raise ValueError(f"ttl must be a number of seconds in (0, {MAX_TTL:.0f}].")


# --------------------------------------------------------------------------- SQLite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    key TEXT PRIMARY KEY,
    value BLOB NOT NULL,
    expires REAL NOT NULL,
    size INTEGER NOT NULL
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

    def __init__(self, path: str | os.PathLike[str], *, max_bytes: int | None = None) -> None:
        self.path = str(path)
        self.max_bytes = max_store_bytes() if max_bytes is None else int(max_bytes)
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

    def _evict(self, conn: sqlite3.Connection, keep: str) -> None:
        """Under the cap again: entries and whole maps, soonest expiring first, never
        ``keep`` (what was just written)."""
        total = self._total(conn)
        while total > self.max_bytes:
            rows = conn.execute(
                "SELECT expires, key, size, 0 FROM entries WHERE key != ?1 "
                "UNION ALL SELECT expires, key, size, 1 FROM maps WHERE key != ?1 "
                "ORDER BY 1, 2 LIMIT 64",
                (keep,),
            ).fetchall()
            if not rows:
                break
            for _, victim, victim_size, is_map in rows:
                table = "maps" if is_map else "entries"
                conn.execute(f"DELETE FROM {table} WHERE key = ?", (victim,))
                total -= int(victim_size)
                if total <= self.max_bytes:
                    break

    def put(self, key: str, value: bytes, *, ttl: float) -> None:
        data = _check_entry(key, value, ttl, self.max_bytes)
        size = entry_size(key, data)

        def work(conn: sqlite3.Connection) -> None:
            now = time.time()
            with self._transaction(conn):
                self._purge(conn, now)
                conn.execute("DELETE FROM maps WHERE key = ?", (key,))  # a key is one or other
                conn.execute(
                    "INSERT INTO entries (key, value, expires, size) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
                    "expires = excluded.expires, size = excluded.size",
                    (key, data, now + ttl, size),
                )
                self._evict(conn, key)

        self._run(work)

    @staticmethod
    def _total(conn: sqlite3.Connection) -> int:
        row = conn.execute("SELECT bytes FROM totals WHERE id = 0").fetchone()
        return int(row[0]) if row else 0

    def get(self, key: str) -> bytes | None:
        _check_key(key)

        def work(conn: sqlite3.Connection) -> bytes | None:
            row = conn.execute(
                "SELECT value FROM entries WHERE key = ? AND expires > ?", (key, time.time())
            ).fetchone()
            return None if row is None else bytes(row[0])

        result: bytes | None = self._run(work)
        return result

    def touch(self, key: str, *, ttl: float) -> bool:
        _check_key(key)
        _check_ttl(ttl)

        def work(conn: sqlite3.Connection) -> bool:
            now = time.time()
            for table in ("entries", "maps"):  # a key is in one of them at most
                cur = conn.execute(
                    f"UPDATE {table} SET expires = ? WHERE key = ? AND expires > ?",
                    (now + ttl, key, now),
                )
                if cur.rowcount > 0:
                    return True
            return False

        return bool(self._run(work))

    def put_field(
        self, key: str, field: str, value: bytes, *, ttl: float, max_fields: int | None = None
    ) -> int:
        data, limit = _check_field_entry(key, field, value, ttl, max_fields, self.max_bytes)
        size = field_size(key, field, data)

        def work(conn: sqlite3.Connection) -> int:
            now = time.time()
            with self._transaction(conn):
                self._purge(conn, now)
                if conn.execute("SELECT 1 FROM entries WHERE key = ?", (key,)).fetchone():
                    raise _not_a_map(key)
                row = conn.execute("SELECT n, size FROM maps WHERE key = ?", (key,)).fetchone()
                count, map_size = (0, 0) if row is None else (int(row[0]), int(row[1]))
                old = conn.execute(
                    "SELECT size FROM fields WHERE key = ? AND field = ?", (key, field)
                ).fetchone()
                if old is None and count >= limit:
                    raise _map_full(key, field, limit)
                if map_size - (0 if old is None else int(old[0])) + size > self.max_bytes:
                    raise _map_too_big(key, self.max_bytes)
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
                self._evict(conn, key)
                return count + (old is None)

        return int(self._run(work))

    def fields(self, key: str) -> dict[str, bytes]:
        _check_key(key)

        def work(conn: sqlite3.Connection) -> dict[str, bytes]:
            rows = conn.execute(
                "SELECT f.field, f.value FROM maps AS m JOIN fields AS f ON f.key = m.key "
                "WHERE m.key = ? AND m.expires > ?",
                (key, time.time()),
            ).fetchall()
            return {str(field): bytes(value) for field, value in rows}

        result: dict[str, bytes] = self._run(work)
        return result

    def count_fields(self, key: str) -> int:
        _check_key(key)

        def work(conn: sqlite3.Connection) -> int:
            row = conn.execute(
                "SELECT n FROM maps WHERE key = ? AND expires > ?", (key, time.time())
            ).fetchone()
            return 0 if row is None else int(row[0])

        return int(self._run(work))

    def delete_field(self, key: str, field: str) -> bool:
        _check_key(key)
        _check_field(field)

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
        _check_key(key)

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


# --------------------------------------------------------------------------- Redis

# The start of every write script. KEYS: the key written (an entry or a map), expiry index
# (sorted set: key -> expiry in ms), sizes (hash: key -> its bytes, a map's summed),
# total (string). Time is the server's, as for SET's own PX. Forgets what has expired;
# done(r) saves the total and returns r; evict(cap) goes under the cap, soonest expiry
# first, never KEYS[1].
_LUA_HEAD = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local total = tonumber(redis.call('GET', KEYS[4]) or '0')
local function forget(k)
  total = total - tonumber(redis.call('HGET', KEYS[3], k) or '0')
  redis.call('HDEL', KEYS[3], k)
  redis.call('ZREM', KEYS[2], k)
end
local function done(r)
  if total < 0 then total = 0 end
  redis.call('SET', KEYS[4], string.format('%d', total))
  return r
end
local function evict(cap)
  local evicted = 0
  while total > cap do
    local first = redis.call('ZRANGE', KEYS[2], 0, 1)
    local victim = first[1]
    if victim == KEYS[1] then victim = first[2] end
    if not victim then break end
    forget(victim)
    redis.call('DEL', victim)
    evicted = evicted + 1
  end
  return evicted
end
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 1000)
for _, k in ipairs(gone) do
  forget(k)
  redis.call('DEL', k)
end
"""

# ARGV: value, ttl in ms, size, cap. SET replaces a map as it replaces a string.
_PUT_LUA = (
    _LUA_HEAD
    + """
forget(KEYS[1])
local ttl = tonumber(ARGV[2])
local size = tonumber(ARGV[3])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
redis.call('ZADD', KEYS[2], now + ttl, KEYS[1])
redis.call('HSET', KEYS[3], KEYS[1], size)
total = total + size
return done(evict(tonumber(ARGV[4])))
"""
)

# A map is a hash. ARGV: field, value, ttl in ms, the field's size without its value
# (key + field + overhead), cap, max fields. Returns the fields after the write, or -1
# (full), -2 (a plain entry is there), -3 (the map would be over the cap): nothing written.
_PUT_FIELD_LUA = (
    _LUA_HEAD
    + """
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'string' then return done(-2) end
if kind == 'none' then forget(KEYS[1]) end
local base = tonumber(ARGV[4])
local old = 0
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  old = base + redis.call('HSTRLEN', KEYS[1], ARGV[1])
elseif redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[6]) then
  return done(-1)
end
local was = tonumber(redis.call('HGET', KEYS[3], KEYS[1]) or '0')
local size = was - old + base + string.len(ARGV[2])
if size > tonumber(ARGV[5]) then return done(-3) end
local ttl = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[2], now + ttl, KEYS[1])
redis.call('HSET', KEYS[3], KEYS[1], size)
total = total - was + size
evict(tonumber(ARGV[5]))
return done(redis.call('HLEN', KEYS[1]))
"""
)

# ARGV: field, the field's size without its value. Returns 1 if it was there. Redis drops
# a hash with its last field: then the map is forgotten whole.
_DELETE_FIELD_LUA = (
    _LUA_HEAD
    + """
if redis.call('TYPE', KEYS[1])['ok'] ~= 'hash' then return done(0) end
local size = tonumber(ARGV[2]) + redis.call('HSTRLEN', KEYS[1], ARGV[1])
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return done(0) end
if redis.call('EXISTS', KEYS[1]) == 0 then
  forget(KEYS[1])
else
  redis.call('HINCRBY', KEYS[3], KEYS[1], -size)
  total = total - size
end
return done(1)
"""
)

# An entry or a whole map. Returns 1 if something was there.
_DELETE_LUA = (
    _LUA_HEAD
    + """
local was = redis.call('EXISTS', KEYS[1])
forget(KEYS[1])
redis.call('DEL', KEYS[1])
return done(was)
"""
)

# KEYS: entry or map, expiry index. ARGV: ttl in ms.
_TOUCH_LUA = """
if redis.call('PEXPIRE', KEYS[1], ARGV[1]) == 1 then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), KEYS[1])
  return 1
end
return 0
"""


_RAISE = object()  # RedisStore._call: no answer for the other kind of key, raise


class RedisStore:
    """A store in Redis: each entry a string with a PX expiry, under ``namespace``.

    The size cap is kept by a sorted set of the entries' expiry times, a hash of their
    sizes and a running total, all changed atomically by one Lua script per write (which
    also forgets entries whose time has passed). Connect and reply timeouts of
    ``REDIS_TIMEOUT`` (0.5 s) and no retries: a stopped or paused Redis gives StoreDown
    within about that time. The client's pool reconnects by itself, so the same object
    works again once Redis is back. A single Redis server, not Redis Cluster.

    A map is a hash under the namespaced key, with a PEXPIRE for the whole map, in the
    same index as the entries (its size the sum of its fields'); its writes are Lua
    scripts too. Redis 7.0 suffices (no per-field expiry is used).
    """

    name = "redis"

    def __init__(
        self,
        url: str,
        *,
        max_bytes: int | None = None,
        namespace: str = REDIS_NAMESPACE,
        timeout: float = REDIS_TIMEOUT,
    ) -> None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self.max_bytes = max_store_bytes() if max_bytes is None else int(max_bytes)
        self.namespace = namespace
        self._errors: tuple[type[BaseException], ...] = (redis.exceptions.RedisError, OSError)
        self._response_error = redis.exceptions.ResponseError
        try:
            self._client: redis.Redis = redis.Redis.from_url(
                url,
                socket_connect_timeout=timeout,
                socket_timeout=timeout,
                retry=Retry(NoBackoff(), 0),
                health_check_interval=0,
            )
        except ValueError as exc:
            raise ValueError(f"The Redis store setting cannot be read: {exc}") from None
        kwargs = self._client.connection_pool.connection_kwargs
        # Where, for messages: never the password.
        self.location = str(kwargs.get("path") or f"{kwargs.get('host')}:{kwargs.get('port')}")
        self._index = namespace + "_index:expires"
        self._sizes = namespace + "_index:sizes"
        self._total = namespace + "_index:total"
        self._put_script = self._client.register_script(_PUT_LUA)
        self._touch_script = self._client.register_script(_TOUCH_LUA)
        self._put_field_script = self._client.register_script(_PUT_FIELD_LUA)
        self._delete_field_script = self._client.register_script(_DELETE_FIELD_LUA)
        self._delete_script = self._client.register_script(_DELETE_LUA)
        self._closed = False

    def __repr__(self) -> str:
        return f"RedisStore({self.location!r}, max_bytes={self.max_bytes})"

    def _call(self, work: Any, *, other_kind: Any = _RAISE) -> Any:
        """``work()``, every failure StoreDown; a read of a key holding the other kind
        (a GET of a hash, an HLEN of a string: Redis's WRONGTYPE) answers ``other_kind``."""
        if self._closed:
            raise StoreDown("The store was closed.")
        try:
            return work()
        except self._errors as exc:
            if (
                other_kind is not _RAISE
                and isinstance(exc, self._response_error)
                and str(exc).startswith("WRONGTYPE")
            ):
                return other_kind
            raise StoreDown(f"Redis at {self.location} cannot be reached: {exc}") from exc

    def _keys(self, key: str) -> list[str]:
        return [self.namespace + key, self._index, self._sizes, self._total]

    def put(self, key: str, value: bytes, *, ttl: float) -> None:
        data = _check_entry(key, value, ttl, self.max_bytes)
        size = entry_size(key, data)
        ttl_ms = max(1, round(ttl * 1000))
        keys = self._keys(key)
        self._call(lambda: self._put_script(keys=keys, args=[data, ttl_ms, size, self.max_bytes]))

    def get(self, key: str) -> bytes | None:
        _check_key(key)
        value = self._call(lambda: self._client.get(self.namespace + key), other_kind=None)
        return None if value is None else bytes(value)

    def touch(self, key: str, *, ttl: float) -> bool:
        _check_key(key)
        _check_ttl(ttl)
        ttl_ms = max(1, round(ttl * 1000))
        keys = [self.namespace + key, self._index]
        return bool(self._call(lambda: self._touch_script(keys=keys, args=[ttl_ms])))

    def put_field(
        self, key: str, field: str, value: bytes, *, ttl: float, max_fields: int | None = None
    ) -> int:
        data, limit = _check_field_entry(key, field, value, ttl, max_fields, self.max_bytes)
        base = field_size(key, field, b"")
        ttl_ms = max(1, round(ttl * 1000))
        args: list[bytes | str | int] = [field, data, ttl_ms, base, self.max_bytes, limit]
        count = int(self._call(lambda: self._put_field_script(keys=self._keys(key), args=args)))
        if count == -1:
            raise _map_full(key, field, limit)
        if count == -2:
            raise _not_a_map(key)
        if count == -3:
            raise _map_too_big(key, self.max_bytes)
        return count

    def fields(self, key: str) -> dict[str, bytes]:
        _check_key(key)
        found = self._call(lambda: self._client.hgetall(self.namespace + key), other_kind={})
        return {bytes(field).decode("ascii"): bytes(value) for field, value in found.items()}

    def count_fields(self, key: str) -> int:
        _check_key(key)
        return int(self._call(lambda: self._client.hlen(self.namespace + key), other_kind=0))

    def delete_field(self, key: str, field: str) -> bool:
        _check_key(key)
        _check_field(field)
        args: list[str | int] = [field, field_size(key, field, b"")]
        return bool(self._call(lambda: self._delete_field_script(keys=self._keys(key), args=args)))

    def delete(self, key: str) -> bool:
        _check_key(key)
        return bool(self._call(lambda: self._delete_script(keys=self._keys(key), args=[])))

    def used_bytes(self) -> int:
        """The bytes counted against the cap now (expired entries not yet forgotten count)."""
        value = self._call(lambda: self._client.get(self._total))
        return int(value or 0)

    def close(self) -> None:
        self._closed = True
        with contextlib.suppress(*self._errors):
            self._client.close()


# --------------------------------------------------------------------------- datasets


def _canonical(X: object, y: object) -> tuple[bytes, bytes]:
    """The canonical header and body of a dataset; ValueError naming what is wrong."""
    xs = np.asarray(X)
    ys = np.asarray(y)
    if xs.dtype.kind not in "iuf" or ys.dtype.kind not in "iuf":
        raise ValueError("Points and labels must be numbers.")
    if xs.ndim != 2 or xs.shape[0] < 1 or xs.shape[1] < 1:
        raise ValueError("The points must be a table with at least one row and one column.")
    n, d = int(xs.shape[0]), int(xs.shape[1])
    if ys.shape != (n,):
        raise ValueError(f"There must be one label per point ({n:,} points).")
    if n > MAX_POINTS:
        raise ValueError(
            f"The dataset has {n:,} points, more than {MAX_POINTS:,} points; it was not stored."
        )
    raw = _HEADER.size + n * d * 8 + n
    if raw > MAX_BYTES:
        raise ValueError(
            f"The dataset takes {raw:,} bytes, over 1 MB ({MAX_BYTES:,} bytes); it was not stored."
        )
    x64 = np.ascontiguousarray(xs, dtype="<f8") + 0.0  # + 0.0 turns -0.0 into 0.0
    if not np.isfinite(x64).all():
        raise ValueError("Every coordinate must be a finite number.")
    if np.abs(x64).max() > MAX_COORD:
        raise ValueError(f"Every coordinate must be at most {MAX_COORD:.0e} in size.")
    if not np.all((ys == 1) | (ys == -1)):
        raise ValueError("Every label must be +1 or -1.")
    header = _HEADER.pack(_MAGIC, n, d)
    return header, x64.tobytes() + ys.astype(np.int8).tobytes()


def _id_of(header: bytes, body: bytes) -> str:
    digest = hashlib.sha256(header + body).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:ID_LENGTH]


def dataset_id(X: object, y: object) -> str:
    """The content id: the same points and labels (in the same order) give the same id,
    whatever their container or number type. ValueError as ``encode_dataset``."""
    return _id_of(*_canonical(X, y))


def encode_dataset(X: object, y: object) -> bytes:
    """The blob a dataset is stored as: its canonical header, then the body compressed.
    Raises ValueError (over 5,000 points, over 1 MB, not finite, labels not +1/-1...)."""
    header, body = _canonical(X, y)
    return header + zlib.compress(body, 6)


def decode_dataset(blob: bytes) -> tuple[FloatArray, FloatArray]:
    """The points (n, d) and labels (n,) of a blob, both float64; raises ValueError on
    anything malformed, before allocating or decompressing more than the caps allow."""
    if not isinstance(blob, bytes | bytearray | memoryview):
        raise ValueError("A stored dataset is bytes.")
    data = bytes(blob)
    if len(data) < _HEADER.size:
        raise ValueError("The stored dataset is truncated.")
    magic, n, d = _HEADER.unpack_from(data)
    if magic != _MAGIC:
        raise ValueError("The stored data is not a dataset of this app.")
    if not 1 <= n <= MAX_POINTS:
        raise ValueError(f"The stored dataset declares {n:,} points (1 to {MAX_POINTS:,}).")
    if d < 1:
        raise ValueError("The stored dataset declares no columns.")
    if _HEADER.size + n * d * 8 + n > MAX_BYTES:
        raise ValueError("The stored dataset declares a size over 1 MB.")
    size = n * d * 8 + n
    compressed = data[_HEADER.size :]
    if len(compressed) > MAX_VALUE_BYTES:
        raise ValueError("The stored dataset is over the store's limit.")
    inflate = zlib.decompressobj()
    try:
        body = inflate.decompress(compressed, size + 1)
    except zlib.error:
        raise ValueError("The stored dataset is corrupt.") from None
    if len(body) != size or not inflate.eof or inflate.unused_data or inflate.unconsumed_tail:
        raise ValueError("The stored dataset's length does not match its header.")
    X = np.frombuffer(body, dtype="<f8", count=n * d).reshape(n, d).astype(np.float64)
    labels = np.frombuffer(body, dtype=np.int8, count=n, offset=n * d * 8)
    if not np.isfinite(X).all() or np.abs(X).max() > MAX_COORD:
        raise ValueError(
            "The stored dataset has a coordinate that is not a finite number "
            f"within {MAX_COORD:.0e}."
        )
    if not np.all((labels == 1) | (labels == -1)):
        raise ValueError("The stored dataset has a label other than +1 or -1.")
    X += 0.0  # a forged -0.0 is the point 0.0, as the id counts it
    return X, labels.astype(np.float64)


def valid_id(text: object) -> bool:
    """Whether ``text`` can be a dataset id: a str of exactly 12 characters of the
    lower-case base32 alphabet. Checked before any lookup, in time independent of the
    text's length."""
    return isinstance(text, str) and len(text) == ID_LENGTH and all(c in _ID_CHARS for c in text)


def dataset_key(data_id: str) -> str:
    """The store key of a dataset id."""
    return DATASET_PREFIX + data_id


def save_dataset(store: Store, X: object, y: object, *, ttl: float | None = None) -> str:
    """Store a dataset under ``dataset:<id>`` for ``ttl`` seconds (default
    ``default_ttl()``, 30 days) and return its id. Saving the same data again refreshes
    its expiry. Raises ValueError (the data is refused: the message says why) or
    StoreDown."""
    header, body = _canonical(X, y)
    data_id = _id_of(header, body)
    blob = header + zlib.compress(body, 6)
    store.put(dataset_key(data_id), blob, ttl=default_ttl() if ttl is None else ttl)
    return data_id


def load_dataset(
    store: Store, data_id: object, *, refresh: bool = True
) -> tuple[FloatArray, FloatArray] | None:
    """The dataset stored under ``data_id``, or None if it is unknown or expired.

    Raises ValueError for an id that is not one (checked before any lookup) or for a
    stored entry that is malformed or does not hash to its id, and StoreDown.
    ``refresh`` (default) keeps a dataset in use for another ``default_ttl()``: a link
    opened every week never expires (a failure to refresh is ignored, the data is in
    hand)."""
    if not valid_id(data_id):
        raise ValueError("That is not a dataset id.")
    assert isinstance(data_id, str)
    key = dataset_key(data_id)
    blob = store.get(key)
    if blob is None:
        return None
    X, y = decode_dataset(blob)
    if dataset_id(X, y) != data_id:
        raise ValueError("The stored dataset does not match its id.")
    if refresh:
        with contextlib.suppress(StoreDown):
            store.touch(key, ttl=default_ttl())
    return X, y


# --------------------------------------------------------------------------- rate limit


class RateLimit:
    """A token bucket, one per session: ``burst`` writes at once, then ``rate_per_s``.

    ``allow(now)`` takes a token if there is one; ``now`` defaults to
    ``time.monotonic()`` (a clock that goes back gives no tokens). Thread-safe.
    """

    def __init__(self, rate_per_s: float, burst: int) -> None:
        if not (math.isfinite(rate_per_s) and rate_per_s > 0):
            raise ValueError("rate_per_s must be a positive number.")
        if isinstance(burst, bool) or not isinstance(burst, int) or burst < 1:
            raise ValueError("burst must be a whole number, at least 1.")
        self.rate_per_s = float(rate_per_s)
        self.burst = burst
        self._tokens = float(burst)
        self._last: float | None = None
        self._lock = threading.Lock()

    def allow(self, now: float | None = None) -> bool:
        t = time.monotonic() if now is None else float(now)
        with self._lock:
            if self._last is not None and t > self._last:
                self._tokens = min(self.burst, self._tokens + (t - self._last) * self.rate_per_s)
            if self._last is None or t > self._last:
                self._last = t
            if self._tokens >= 1.0:
                self._tokens -= 1.0
                return True
            return False

"""Which store the app uses: :func:`open_store` reads one setting (given, else the
environment's ``PERCEPTRON_STORE``) and makes the backend it names, SQLite by default.

The size cap (``PERCEPTRON_STORE_MAX_MB``) and the datasets' expiry
(``PERCEPTRON_STORE_TTL_DAYS``) are read from the environment in :mod:`perceptron_store.base`
instead: the backends apply them, and this module imports the backends, so those two
settings sit below both.
"""

from __future__ import annotations

import os
from pathlib import Path

from perceptron_store.base import RECENT_S, Store, max_store_bytes
from perceptron_store.redis_store import REDIS_NAMESPACE, RedisStore
from perceptron_store.sqlite_store import SQLiteStore

ROOT = Path(__file__).resolve().parents[1]  # the folder of app.py
DEFAULT_PATH = ROOT / ".perceptron" / "store.sqlite3"  # git-ignored
ENV_SETTING = "PERCEPTRON_STORE"


def open_store(
    setting: str | None = None,
    *,
    max_bytes: int | None = None,
    namespace: str = REDIS_NAMESPACE,
    recent_s: float = RECENT_S,
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
    prefixes every Redis key, so several apps (or tests) can share one Redis. ``recent_s``
    (default a week): a dataset used this recently is never evicted to make room.
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
        return RedisStore(setting, max_bytes=cap, namespace=namespace, recent_s=recent_s)
    if lowered.startswith("sqlite://"):
        path = setting[len("sqlite://") :]
        if path.startswith("//"):  # sqlite:////abs/path, as SQLAlchemy writes it
            path = "/" + path.lstrip("/")
        if not path:
            raise ValueError("The store setting sqlite:// names no file.")
        return SQLiteStore(path, max_bytes=cap, recent_s=recent_s)
    if "://" in setting:
        scheme = setting.split("://", 1)[0][:20]
        raise ValueError(
            f"Unknown store {scheme!r}: use redis://host:port/db, sqlite:///path or a path."
        )
    return SQLiteStore(setting or DEFAULT_PATH, max_bytes=cap, recent_s=recent_s)

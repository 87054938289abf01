"""The store: what a student makes outlives the server process. This package owns the
:class:`Store` interface (bytes under a string key, with an expiry, and maps of fields for
the class mode), its two backends, the choice between them (:func:`open_store`), the
dataset codec and content ids, and the per-session write limit. It imports only the
standard library, numpy and ``redis`` (the last only when a Redis store is made): never
Streamlit nor anything of the app, so a plain script can use it.

- :mod:`~perceptron_store.base`: the interface, its errors, limits and checks;
- :mod:`~perceptron_store.sqlite_store`: :class:`SQLiteStore`, the embedded default;
- :mod:`~perceptron_store.redis_store`: :class:`RedisStore`, for several app servers;
- :mod:`~perceptron_store.settings`: :func:`open_store` and the default file;
- :mod:`~perceptron_store.datasets`: datasets under their content id;
- :mod:`~perceptron_store.ratelimit`: :class:`RateLimit`.

Everything the app uses is importable from the package itself.
"""

from __future__ import annotations

from perceptron_store.base import (
    DEFAULT_MAX_MB,
    DEFAULT_TTL_DAYS,
    MAX_BYTES,
    MAX_COORD,
    MAX_FIELD_BYTES,
    MAX_FIELD_LENGTH,
    MAX_MAP_FIELDS,
    MAX_POINTS,
    MAX_VALUE_BYTES,
    MapFull,
    Store,
    StoreDown,
    StoreFull,
    default_ttl,
    entry_size,
    field_size,
    max_store_bytes,
)
from perceptron_store.datasets import (
    ID_ALPHABET,
    ID_LENGTH,
    dataset_id,
    dataset_key,
    decode_dataset,
    encode_dataset,
    load_dataset,
    save_dataset,
    valid_id,
)
from perceptron_store.ratelimit import RateLimit
from perceptron_store.redis_store import REDIS_TIMEOUT, RedisStore
from perceptron_store.settings import DEFAULT_PATH, open_store
from perceptron_store.sqlite_store import SQLiteStore

__all__ = [
    "DEFAULT_MAX_MB",
    "DEFAULT_PATH",
    "DEFAULT_TTL_DAYS",
    "ID_ALPHABET",
    "ID_LENGTH",
    "MAX_BYTES",
    "MAX_COORD",
    "MAX_FIELD_BYTES",
    "MAX_FIELD_LENGTH",
    "MAX_MAP_FIELDS",
    "MAX_POINTS",
    "MAX_VALUE_BYTES",
    "REDIS_TIMEOUT",
    "MapFull",
    "RateLimit",
    "RedisStore",
    "SQLiteStore",
    "Store",
    "StoreDown",
    "StoreFull",
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

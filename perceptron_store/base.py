"""What every backend shares: the :class:`Store` interface, its errors, its limits, and the
checks of a key, a field, a value and an expiry that both backends run before any write.

The interface is ``put``/``get``/``touch`` of bytes under a string key, with an expiry,
and a *map* of fields under a key. Every backend expires entries after their ``ttl`` (an
expired entry is never returned, and is purged) and caps the store's total size
(:func:`max_store_bytes`) by one rule, so that nothing a class needs is lost to someone
else's writes:

- Only datasets (keys under ``EVICTABLE_PREFIX``) are ever evicted to make room, the least
  recently used first (a put or a touch is a use), and never one used in the last
  ``RECENT_S`` (a week), nor the one being written.
- Everything else (a class's room, seats, answers and submissions) only expires. Datasets
  may fill the cap but for ``CLASS_SHARE`` of it, which stays free for the classes.
- A write that still does not fit is refused with :class:`StoreFull`, a ValueError whose
  message says so; the store is left as it was.

Any failure to reach the store raises
:class:`StoreDown`, never a driver's own exception. Opening a store touches nothing: the
first call connects, and every call after a failure tries again, so the same object works
again once the store is back.

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
exist. Each field counts ``field_size`` bytes against the size cap; a map is never evicted.
"""

from __future__ import annotations

import math
import os
import re
from typing import Protocol

# Datasets: the same caps as an uploaded CSV (perceptron_core.csvio: 5,000 rows, 1 MB) and
# the same largest coordinate as a CSV cell or the margin lab's table (LIMIT = 1e6).
MAX_POINTS = 5_000
MAX_BYTES = 1_000_000  # the canonical encoding (header + float64 X + int8 y), uncompressed
MAX_COORD = 1e6

# The store's own limits, whatever is stored. A dataset's blob is at most MAX_BYTES plus
# zlib's worst-case growth (about 0.03 % + 13 bytes), well under this.
MAX_VALUE_BYTES = MAX_BYTES + 4_096
MAX_KEY_LENGTH = 200
MAX_TTL = 10 * 365.25 * 86_400.0  # ten years
ENTRY_OVERHEAD = 64  # bytes counted per entry besides its key and value (index, row)

# What may be evicted to make room (see the module's docstring): datasets only, none used in
# the last week, and never from the share of the cap kept for the classes.
EVICTABLE_PREFIX = "dataset:"
RECENT_S = 7 * 86_400.0
CLASS_SHARE = 0.25

# Maps (class mode): one field per student, a short answer in each.
MAX_FIELD_LENGTH = 64  # a field name: printable ASCII, no spaces, as keys
MAX_FIELD_BYTES = 16_384  # one field's value
MAX_MAP_FIELDS = 2_000  # fields in any map, whatever a caller's max_fields says

# The two limits the environment may set; they are read at each call, so a change to the
# environment holds for the stores and datasets made after it.
DEFAULT_MAX_MB = 256.0
DEFAULT_TTL_DAYS = 30.0
ENV_MAX_MB = "PERCEPTRON_STORE_MAX_MB"
ENV_TTL_DAYS = "PERCEPTRON_STORE_TTL_DAYS"

_KEY = re.compile(rf"[!-~]{{1,{MAX_KEY_LENGTH}}}")  # printable ASCII, no spaces
_FIELD = re.compile(rf"[!-~]{{1,{MAX_FIELD_LENGTH}}}")


class StoreDown(Exception):
    """The store cannot be reached (Redis stopped, SQLite file unwritable...)."""


class MapFull(ValueError):
    """put_field refused a new field: the map already holds max_fields fields."""


class StoreFull(ValueError):
    """A write refused because it does not fit under the cap, with nothing left that may be
    evicted: every dataset was used in the last week, and a class is never evicted."""


class Store(Protocol):
    """What the app needs of a store; :func:`perceptron_store.open_store` makes one."""

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

    def field(self, key: str, field: str) -> bytes | None:
        """One field of the map (None if it, or the map, is unknown or expired), without
        reading the others. Raises StoreDown."""
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

    def used_bytes(self) -> int:
        """The bytes counted against the size cap now. Raises StoreDown."""
        ...

    def close(self) -> None: ...


# --------------------------------------------------------------------------- the limits set


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


# --------------------------------------------------------------------------- sizes and checks


def entry_size(key: str, value: bytes) -> int:
    """The bytes one entry counts against the size cap (the same for both backends)."""
    return len(key) + len(value) + ENTRY_OVERHEAD


def field_size(key: str, field: str, value: bytes) -> int:
    """The bytes one field of a map counts against the size cap (the same for both
    backends); a map counts the sum of its fields."""
    return len(key) + len(field) + len(value) + ENTRY_OVERHEAD


def check_entry(key: str, value: object, ttl: float, cap: int) -> bytes:
    """The value of a put as bytes, or ValueError/TypeError."""
    check_key(key)
    if not isinstance(value, bytes | bytearray | memoryview):
        raise TypeError("A store value is bytes.")
    data = bytes(value)
    check_ttl(ttl)
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


def check_field_entry(
    key: str, field: str, value: object, ttl: float, max_fields: object, cap: int
) -> tuple[bytes, int]:
    """The value as bytes and the field limit of a put_field, or ValueError/TypeError."""
    check_key(key)
    check_field(field)
    if not isinstance(value, bytes | bytearray | memoryview):
        raise TypeError("A store value is bytes.")
    data = bytes(value)
    check_ttl(ttl)
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


def check_field(field: object) -> None:
    if not isinstance(field, str) or _FIELD.fullmatch(field) is None:
        raise ValueError(
            f"A map's field is 1 to {MAX_FIELD_LENGTH} printable ASCII characters without spaces."
        )


def check_key(key: object) -> None:
    if not isinstance(key, str) or _KEY.fullmatch(key) is None:
        raise ValueError("A store key is 1 to 200 printable ASCII characters without spaces.")


def check_ttl(ttl: object) -> None:
    if (
        isinstance(ttl, bool)
        or not isinstance(ttl, int | float)
        or not math.isfinite(ttl)
        or not 0 < ttl <= MAX_TTL
    ):
        raise ValueError(f"ttl must be a number of seconds in (0, {MAX_TTL:.0f}].")


def not_a_map(key: str) -> ValueError:
    return ValueError(f"The key {key!r} holds a plain entry, not a map; nothing was stored.")


def map_full(key: str, field: str, limit: int) -> MapFull:
    return MapFull(f"The map {key!r} already holds {limit:,} fields; {field!r} was not added.")


def map_too_big(key: str, cap: int) -> ValueError:
    return ValueError(
        f"The map {key!r} would be more than the whole store holds ({cap:,} bytes); "
        "nothing was stored."
    )


def evictable(key: str) -> bool:
    """Whether the entry under ``key`` may be evicted to make room: a dataset's."""
    return key.startswith(EVICTABLE_PREFIX)


def data_cap(cap: int) -> int:
    """The bytes datasets may fill of a store capped at ``cap``: the rest is the classes'."""
    return cap - int(cap * CLASS_SHARE)


def store_full(key: str) -> StoreFull:
    if evictable(key):
        return StoreFull(
            "The app's store is full of datasets opened in the last week, so these data were "
            "not stored; they stay in this tab. Try again later."
        )
    return StoreFull(
        "The app's store is full, so this was not saved. The server's keeper can give the "
        "store more room (PERCEPTRON_STORE_MAX_MB)."
    )

"""Caches with a byte budget, a time to live, one computation per key, and a heavy-work gate.

``st.cache_data`` bounds a cache by its number of entries, not by bytes: a class
asking for fresh seeds at the largest settings grew one server past 6 GB. Here
every cached function gets a budget in bytes, and an entry is kept as its pickle
(``st.cache_data`` pickles too), so the bytes counted are the bytes held. Each
caller gets its own copy, as with ``st.cache_data``.

- **Budget**: least recently used entries go first; an entry larger than a
  quarter of its cache's budget is returned but not kept (recomputed next time).
- **TTL**: entries older than ``ttl`` seconds are dropped.
- **Heavy work, one at a time**: a miss of a cache marked ``heavy`` computes
  while holding the server's one heavy-work slot. Waiting for it costs no CPU,
  so a class stepping through the lecture keeps the interpreter while somebody
  opens the variants page at its largest settings (nested heavy calls of the
  same thread do not wait for themselves). Whoever waited for the same result
  finds it cached when the slot is theirs: a class opening a page at once
  computes it once. (The slot is the only lock: cheap caches just compute.)
- **A budget per student**: a session that has spent more than
  ``SESSION_SECONDS`` of heavy computing in the last ``SESSION_WINDOW`` seconds
  gets :class:`Busy` (a sentence for the page) instead of more.

``TOTAL_BYTES`` is the sum of every budget: the most the caches can hold.
"""

from __future__ import annotations

import builtins
import functools
import hashlib
import logging
import pickle
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, ParamSpec, TypeVar

from ui.server.internals import session_id
from ui.words import t

P = ParamSpec("P")
R = TypeVar("R")
_LOG = logging.getLogger(__name__)

SESSION_SECONDS = 20.0  # heavy computing one session may ask for ...
SESSION_WINDOW = 60.0  # ... in this many seconds
MB = 1 << 20


class Busy(Exception):
    """A session asked for more heavy computing than its share; says when to try again."""


@dataclass
class _Entry:
    blob: bytes
    born: float


_CACHES: dict[str, BoundedCache[Any, Any]] = {}
_HEAVY = threading.Lock()  # the one heavy-work slot
_HOLDER = threading.local()
_SPENT: OrderedDict[str, deque[tuple[float, float]]] = OrderedDict()  # session -> (end, seconds)
_SPENT_LOCK = threading.Lock()
_SPENT_SESSIONS = 2000  # sessions remembered (a few dozen bytes each)


def _check_budget(session: str | None, now: float) -> None:
    if session is None:
        return
    with _SPENT_LOCK:
        spent = _SPENT.get(session)
        if spent is None:
            return
        while spent and spent[0][0] < now - SESSION_WINDOW:
            spent.popleft()
        total = sum(s for _, s in spent)
        if total > SESSION_SECONDS:
            wait = int(spent[0][0] + SESSION_WINDOW - now) + 1
            raise Busy(
                t(
                    "This page asked the server for more than {most} s of computing in the "
                    "last minute, more than its share of a shared server. Try again in "
                    "{wait} s; what is already on the page stays."
                ).format(most=f"{SESSION_SECONDS:.0f}", wait=wait)
            )


def _charge(session: str | None, now: float, seconds: float) -> None:
    if session is None:
        return
    with _SPENT_LOCK:
        spent = _SPENT.setdefault(session, deque())
        _SPENT.move_to_end(session)
        spent.append((now, seconds))
        while len(spent) > 100:
            spent.popleft()
        while len(_SPENT) > _SPENT_SESSIONS:
            _SPENT.popitem(last=False)


@contextmanager
def heavy_slot() -> Iterator[None]:
    """Hold the server's one heavy-work slot (re-entrant within a thread)."""
    depth = getattr(_HOLDER, "depth", 0)
    if depth:
        _HOLDER.depth = depth + 1
        try:
            yield
        finally:
            _HOLDER.depth = depth
        return
    with _HEAVY:
        _HOLDER.depth = 1
        try:
            yield
        finally:
            _HOLDER.depth = 0


def _key(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes:
    """A digest of the arguments by value (arrays by dtype, shape and bytes)."""
    h = hashlib.blake2b(name.encode(), digest_size=20)
    h.update(pickle.dumps((args, sorted(kwargs.items())), protocol=5))
    return h.digest()


class BoundedCache(Generic[P, R]):
    """A function's results, kept by value within ``max_bytes`` for ``ttl`` seconds."""

    def __init__(self, fn: Callable[P, R], *, max_bytes: int, ttl: float, heavy: bool) -> None:
        self.fn = fn
        self.name = f"{fn.__module__}.{fn.__qualname__}"
        self.max_bytes = int(max_bytes)
        self.ttl = float(ttl)
        self.heavy = heavy
        self._entries: OrderedDict[bytes, _Entry] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0
        functools.update_wrapper(self, fn)

    @property
    def bytes(self) -> int:  # (the class's own ``bytes``: annotations below say builtins.bytes)
        """Bytes held now (the pickles of the entries)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    def _lookup(self, key: builtins.bytes, now: float) -> builtins.bytes | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if now - entry.born > self.ttl:
                self._drop(key)
                return None
            self._entries.move_to_end(key)
            return entry.blob

    def _drop(self, key: builtins.bytes) -> None:
        entry = self._entries.pop(key)
        self._bytes -= len(entry.blob)

    def _store(self, key: builtins.bytes, blob: builtins.bytes, now: float) -> None:
        if len(blob) > self.max_bytes // 4:
            return  # too big to keep: the next caller recomputes it
        with self._lock:
            if key in self._entries:
                self._drop(key)
            for old in [k for k, e in self._entries.items() if now - e.born > self.ttl]:
                self._drop(old)
            while self._entries and self._bytes + len(blob) > self.max_bytes:
                self._drop(next(iter(self._entries)))
            self._entries[key] = _Entry(blob, now)
            self._bytes += len(blob)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key = _key(self.name, args, kwargs)
        blob = self._lookup(key, time.monotonic())
        if blob is not None:
            self.hits += 1
            return pickle.loads(blob)  # type: ignore[no-any-return]
        if not self.heavy:  # cheap: compute, even if another session is computing it too
            self.misses += 1
            value = self.fn(*args, **kwargs)
            self._store(key, pickle.dumps(value, protocol=5), time.monotonic())
            return value
        outermost = not getattr(_HOLDER, "depth", 0)
        session = session_id() if outermost else None
        _check_budget(session, time.monotonic())
        with heavy_slot():
            # one heavy computation at a time, so whoever waited for the same key hits now
            blob = self._lookup(key, time.monotonic())
            if blob is not None:
                self.hits += 1
                return pickle.loads(blob)  # type: ignore[no-any-return]
            self.misses += 1
            start = time.monotonic()
            try:
                value = self.fn(*args, **kwargs)
            finally:
                took = time.monotonic() - start
                _charge(session, time.monotonic(), took)
                if took > 0.5:
                    _LOG.info("%s took %.2f s", self.name, took)
            self._store(key, pickle.dumps(value, protocol=5), time.monotonic())
            return value


def cached(
    *, max_mb: float, ttl: float = 3600.0, heavy: bool = False
) -> Callable[[Callable[P, R]], BoundedCache[P, R]]:
    """Decorator: keep ``fn``'s results by value in at most ``max_mb`` megabytes.

    Parameters
    ----------
    max_mb : float
        The cache's budget, in MiB of pickled results.
    ttl : float
        Seconds an entry is kept.
    heavy : bool
        Compute misses in the server's one heavy-work slot, and count their
        time against the session's share (:class:`Busy` past it).
    """

    def wrap(fn: Callable[P, R]) -> BoundedCache[P, R]:
        cache = BoundedCache(fn, max_bytes=int(max_mb * MB), ttl=ttl, heavy=heavy)
        _CACHES[cache.name] = cache
        return cache

    return wrap


def caches() -> dict[str, BoundedCache[Any, Any]]:
    """Every cache made by :func:`cached`, by the function's qualified name."""
    return dict(_CACHES)


def clear_all() -> None:
    """Empty every cache and forget every session's heavy computing (for tests)."""
    for c in _CACHES.values():
        c.clear()
    with _SPENT_LOCK:
        _SPENT.clear()

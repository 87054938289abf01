"""The shared store: :class:`RedisStore`, ``redis`` from PyPI against a ``redis://`` URL,
for several app servers on several machines.

Every call waits at most about 0.5 s (connect and socket timeouts, no retries), so a
stopped Redis never stalls a page for long. ``redis`` is imported when a store is made,
not with this module, so a SQLite-only app never loads it. The contract it keeps (expiry,
size cap, maps, StoreDown) is :mod:`perceptron_store.base`'s.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from perceptron_store import base
from perceptron_store.base import StoreDown, max_store_bytes

if TYPE_CHECKING:
    import redis

REDIS_TIMEOUT = 0.5  # seconds: connect and each reply
REDIS_NAMESPACE = "perceptron:"

# The start of every write script. KEYS: the key written (an entry or a map), expiry index
# (sorted set: key -> expiry in ms), sizes (hash: key -> its bytes, a map's summed), total
# (string), last-use index of the datasets (sorted set: key -> last put or touch in ms),
# the datasets' total (string). Time is the server's, as for SET's own PX. DATA is the
# datasets' namespaced key prefix and RECENT the milliseconds a used dataset is kept
# (filled in per store). Forgets what has expired; done(r) saves the totals and returns r;
# room(want, want_data, is_data) evicts datasets, least recently used first, none used in
# the last RECENT ms and never KEYS[1], until a write leaving the totals at want and
# want_data fits (the datasets' share only counts for a dataset), and says if it does.
_LUA_HEAD = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local total = tonumber(redis.call('GET', KEYS[4]) or '0')
local data = tonumber(redis.call('GET', KEYS[6]) or '0')
local DATA = '%(data)s'
local function is_data(k) return string.sub(k, 1, string.len(DATA)) == DATA end
local function forget(k)
  local size = tonumber(redis.call('HGET', KEYS[3], k) or '0')
  total = total - size
  if is_data(k) then
    data = data - size
    redis.call('ZREM', KEYS[5], k)
  end
  redis.call('HDEL', KEYS[3], k)
  redis.call('ZREM', KEYS[2], k)
end
local function done(r)
  if total < 0 then total = 0 end
  if data < 0 then data = 0 end
  redis.call('SET', KEYS[4], string.format('%%d', total))
  redis.call('SET', KEYS[6], string.format('%%d', data))
  return r
end
local function room(want, want_data, isdata, cap, dcap)
  while want > cap or (isdata and want_data > dcap) do
    local old = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now - %(recent)d, 'LIMIT', 0, 2)
    local victim = old[1]
    if victim == KEYS[1] then victim = old[2] end
    if not victim then return false end
    local size = tonumber(redis.call('HGET', KEYS[3], victim) or '0')
    forget(victim)
    redis.call('DEL', victim)
    want = want - size
    want_data = want_data - size
  end
  return true
end
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 1000)
for _, k in ipairs(gone) do
  forget(k)
  redis.call('DEL', k)
end
"""

# ARGV: value, ttl in ms, size, cap, the datasets' cap. SET replaces a map as it replaces a
# string. Returns 0, or -4 (no room: nothing written).
_PUT_LUA = (
    _LUA_HEAD
    + """
local size = tonumber(ARGV[3])
local was = tonumber(redis.call('HGET', KEYS[3], KEYS[1]) or '0')
local isdata = is_data(KEYS[1])
local want_data = data
if isdata then want_data = data - was + size end
if not room(total - was + size, want_data, isdata, tonumber(ARGV[4]), tonumber(ARGV[5])) then
  return done(-4)
end
forget(KEYS[1])
local ttl = tonumber(ARGV[2])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
redis.call('ZADD', KEYS[2], now + ttl, KEYS[1])
redis.call('HSET', KEYS[3], KEYS[1], size)
total = total + size
if isdata then
  data = data + size
  redis.call('ZADD', KEYS[5], now, KEYS[1])
end
return done(0)
"""
)

# A map is a hash. ARGV: field, value, ttl in ms, the field's size without its value
# (key + field + overhead), cap, max fields. Returns the fields after the write, or -1
# (full), -2 (a plain entry is there), -3 (the map would be over the cap), -4 (no room in
# the store): nothing written. A map is never a dataset.
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
if not room(total - was + size, 0, false, tonumber(ARGV[5]), 0) then return done(-4) end
local ttl = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[2], now + ttl, KEYS[1])
redis.call('HSET', KEYS[3], KEYS[1], size)
total = total - was + size
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

# KEYS: entry or map, expiry index, last-use index of the datasets. ARGV: ttl in ms. A
# touch of a dataset is a use.
_TOUCH_LUA = """
if redis.call('PEXPIRE', KEYS[1], ARGV[1]) == 1 then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), KEYS[1])
  if redis.call('ZSCORE', KEYS[3], KEYS[1]) then redis.call('ZADD', KEYS[3], now, KEYS[1]) end
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
        recent_s: float = base.RECENT_S,
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
        self._used = namespace + "_index:used"
        self._data_total = namespace + "_index:data"
        # the datasets' prefix goes into the scripts as a Lua string: a namespace is printable
        # ASCII (a Redis key prefix), so only a quote or a backslash would need escaping
        prefix = (namespace + base.EVICTABLE_PREFIX).replace("\\", "\\\\").replace("'", "\\'")
        fill = {"data": prefix, "recent": round(recent_s * 1000)}
        self._put_script = self._client.register_script(_PUT_LUA % fill)
        self._touch_script = self._client.register_script(_TOUCH_LUA)
        self._put_field_script = self._client.register_script(_PUT_FIELD_LUA % fill)
        self._delete_field_script = self._client.register_script(_DELETE_FIELD_LUA % fill)
        self._delete_script = self._client.register_script(_DELETE_LUA % fill)
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
        return [
            self.namespace + key,
            self._index,
            self._sizes,
            self._total,
            self._used,
            self._data_total,
        ]

    def put(self, key: str, value: bytes, *, ttl: float) -> None:
        data = base.check_entry(key, value, ttl, self.max_bytes)
        size = base.entry_size(key, data)
        ttl_ms = max(1, round(ttl * 1000))
        keys = self._keys(key)
        args: list[bytes | int] = [
            data,
            ttl_ms,
            size,
            self.max_bytes,
            base.data_cap(self.max_bytes),
        ]
        if self._call(lambda: self._put_script(keys=keys, args=args)) == -4:
            raise base.store_full(key)

    def get(self, key: str) -> bytes | None:
        base.check_key(key)
        value = self._call(lambda: self._client.get(self.namespace + key), other_kind=None)
        return None if value is None else bytes(value)

    def touch(self, key: str, *, ttl: float) -> bool:
        base.check_key(key)
        base.check_ttl(ttl)
        ttl_ms = max(1, round(ttl * 1000))
        keys = [self.namespace + key, self._index, self._used]
        return bool(self._call(lambda: self._touch_script(keys=keys, args=[ttl_ms])))

    def put_field(
        self, key: str, field: str, value: bytes, *, ttl: float, max_fields: int | None = None
    ) -> int:
        data, limit = base.check_field_entry(key, field, value, ttl, max_fields, self.max_bytes)
        bare = base.field_size(key, field, b"")  # the field's size without its value
        ttl_ms = max(1, round(ttl * 1000))
        args: list[bytes | str | int] = [field, data, ttl_ms, bare, self.max_bytes, limit]
        count = int(self._call(lambda: self._put_field_script(keys=self._keys(key), args=args)))
        if count == -1:
            raise base.map_full(key, field, limit)
        if count == -2:
            raise base.not_a_map(key)
        if count == -3:
            raise base.map_too_big(key, self.max_bytes)
        if count == -4:
            raise base.store_full(key)
        return count

    def fields(self, key: str) -> dict[str, bytes]:
        base.check_key(key)
        found = self._call(lambda: self._client.hgetall(self.namespace + key), other_kind={})
        return {bytes(field).decode("ascii"): bytes(value) for field, value in found.items()}

    def field(self, key: str, field: str) -> bytes | None:
        base.check_key(key)
        base.check_field(field)
        found = self._call(lambda: self._client.hget(self.namespace + key, field), other_kind=None)
        return None if found is None else bytes(found)

    def count_fields(self, key: str) -> int:
        base.check_key(key)
        return int(self._call(lambda: self._client.hlen(self.namespace + key), other_kind=0))

    def delete_field(self, key: str, field: str) -> bool:
        base.check_key(key)
        base.check_field(field)
        args: list[str | int] = [field, base.field_size(key, field, b"")]
        return bool(self._call(lambda: self._delete_field_script(keys=self._keys(key), args=args)))

    def delete(self, key: str) -> bool:
        base.check_key(key)
        return bool(self._call(lambda: self._delete_script(keys=self._keys(key), args=[])))

    def used_bytes(self) -> int:
        """The bytes counted against the cap now (expired entries not yet forgotten count)."""
        value = self._call(lambda: self._client.get(self._total))
        return int(value or 0)

    def close(self) -> None:
        self._closed = True
        with contextlib.suppress(*self._errors):
            self._client.close()

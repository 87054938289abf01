"""The newest state of each room, and the pages it wakes (see :mod:`ui.live`).

Publishing is called from any thread (a lecturer's script run); subscribing is asyncio,
on the server's event loop. A page is woken, not queued: it reads the room's newest state
when it runs, so a slow page skips the states it was too slow for instead of holding them
in memory, and a room's memory is one state whatever the number of pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

_LOG = logging.getLogger(__name__)
MAX_STATE_BYTES = 2_048  # a room's state is a few fields: more is refused
MAX_ROOMS = 1_000  # rooms whose newest state a process keeps (the oldest forgotten first)
MAX_PAGES = 5_000  # open channels a process holds (a class of 500 on 10 tabs each)
PREFIX = "perceptron:live:"  # a room's Redis channel: PREFIX + code
REREAD_S = 2.0  # a room with pages here is read from the store this often (a lost message)


class Full(Exception):
    """This process holds :data:`MAX_PAGES` channels already."""


@dataclass(frozen=True)
class State:
    """A room's state as published: ``id`` numbers the room's states in this process (a
    page says which it shows), ``text`` is its JSON."""

    id: int
    text: str


@dataclass(eq=False)
class _Page:
    loop: asyncio.AbstractEventLoop
    wake: asyncio.Event = field(default_factory=asyncio.Event)


def encode(state: Mapping[str, Any]) -> str:
    """``state`` as the compact JSON text a page receives. ValueError naming ``state`` when
    it is not a JSON object of at most :data:`MAX_STATE_BYTES` bytes."""
    if not isinstance(state, Mapping):
        raise ValueError("state: a mapping of names to JSON values is expected")
    try:
        text = json.dumps(dict(state), separators=(",", ":"), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise ValueError(f"state: not JSON ({err})") from None
    if len(text.encode()) > MAX_STATE_BYTES:
        raise ValueError(f"state: {len(text.encode())} bytes, at most {MAX_STATE_BYTES}")
    return text


class Hub:
    """The newest state of each room of this process, and the pages waiting for the next.

    :meth:`publish` (any thread) keeps a room's state and wakes its pages, here and, through
    the relay, in the other processes; :meth:`subscribe` (an async iterator, on an event
    loop) yields the newest state at once unless the page shows it, then each new one. A
    state equal to the room's newest is not new: nobody is woken."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._newest: dict[str, State] = {}  # insertion order: the least recent room first
        self._pages: dict[str, set[_Page]] = {}
        self._count = 0
        self._ids = 0
        self.relay: RedisRelay | None = None

    @property
    def pages(self) -> int:
        """Open channels in this process."""
        return self._count

    def rooms(self) -> list[str]:
        """The rooms with a page open here."""
        with self._lock:
            return list(self._pages)

    def newest(self, code: str) -> State | None:
        with self._lock:
            return self._newest.get(code)

    def publish(self, code: str, state: Mapping[str, Any]) -> State:
        """Make ``state`` room ``code``'s newest here and, through the relay, in every other
        process of the class."""
        text = encode(state)
        done = self.deliver(code, text)
        if self.relay is not None:
            self.relay.send(code, text)
        return done

    def deliver(self, code: str, text: str) -> State:
        """Keep ``text`` (encoded already) as room ``code``'s newest state; wake its pages
        if it is new."""
        done = self._keep(code, text, check=False)
        assert done is not None  # only a checked read is ever dropped
        return done

    def deliver_read(self, code: str, text: str, before: State | None) -> State | None:
        """:meth:`deliver` ``text``, read from the store while room ``code``'s newest was
        ``before``, unless another state arrived during the read (that one is as new as
        the read or newer): then nothing, and None."""
        return self._keep(code, text, check=True, before=before)

    def _keep(
        self, code: str, text: str, *, check: bool, before: State | None = None
    ) -> State | None:
        with self._lock:
            if check and self._newest.get(code) is not before:
                return None
            old = self._newest.pop(code, None)
            if old is not None and old.text == text:
                self._newest[code] = old  # the most recent room last
                return old
            self._ids += 1
            done = self._newest[code] = State(self._ids, text)
            while len(self._newest) > MAX_ROOMS:
                del self._newest[next(iter(self._newest))]
            waiting = list(self._pages.get(code, ()))
        for page in waiting:
            with contextlib.suppress(RuntimeError):  # its loop closed: the server stops
                page.loop.call_soon_threadsafe(page.wake.set)
        return done

    async def subscribe(self, code: str, *, shown: int = 0) -> AsyncIterator[State]:
        """Room ``code``'s newest state now (unless its id is ``shown``, which the page
        shows already), then each newer one; :class:`Full` past :data:`MAX_PAGES`."""
        page = _Page(asyncio.get_running_loop())
        with self._lock:
            if self._count >= MAX_PAGES:
                raise Full
            self._pages.setdefault(code, set()).add(page)
            self._count += 1
        try:
            seen = shown
            while True:
                page.wake.clear()
                state = self.newest(code)
                if state is not None and state.id != seen:
                    seen = state.id
                    yield state
                    continue  # a newer one while this one was sent?
                await page.wake.wait()
        finally:
            with self._lock:
                waiting = self._pages.get(code, set())
                waiting.discard(page)
                if not waiting:
                    self._pages.pop(code, None)
                self._count -= 1


HUB = Hub()  # this process's rooms and their open pages (the route's and the app's)


async def reread(
    hub: Hub, read: Callable[[str], Mapping[str, Any] | None], *, every: float = REREAD_S
) -> None:
    """Forever: every ``every`` s, read the state of each room with pages here (``read``,
    in a thread: the store) and deliver it; a state that is not new wakes nobody. A message
    lost between processes, or a change this process was not told of, reaches the pages
    within ``every`` s. A read that a publish or a relayed state overtook is dropped: it
    may be older than the state the pages were just woken with, and would step every page
    back until the next read."""
    while True:
        await asyncio.sleep(every)
        for code in hub.rooms():
            try:
                before = hub.newest(code)
                state = await asyncio.to_thread(read, code)
                if state is not None:
                    hub.deliver_read(code, encode(state), before)
            except Exception:  # (a store fault: read again next time)
                _LOG.debug("room %s could not be read", code, exc_info=True)


class RedisRelay:
    """A class served by several processes: each :meth:`Hub.publish` goes to Redis too, and
    a thread of each process delivers the other processes' states to its own hub. While
    Redis is down, :func:`reread` keeps the pages right; the thread reconnects every
    :attr:`RETRY_S`."""

    RETRY_S = 1.0

    def __init__(self, hub: Hub, url: str) -> None:
        import redis

        self.hub = hub
        self.origin = f"{os.getpid()}-{id(self):x}"  # this process's own come back to it
        self._redis = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="live-relay", daemon=True)
        self.ready = threading.Event()  # set once subscribed (tests wait for it)
        hub.relay = self
        self._thread.start()

    def send(self, code: str, text: str) -> None:
        try:
            self._redis.publish(PREFIX + code, f"{self.origin} {text}")
        except Exception:  # (Redis down: reread makes it good)
            _LOG.debug("the live relay could not publish", exc_info=True)

    def close(self) -> None:
        self._stop.set()
        if self.hub.relay is self:
            self.hub.relay = None
        self._thread.join(timeout=5)
        self._redis.close()

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
                pubsub.psubscribe(PREFIX + "*")
                self.ready.set()
                while not self._stop.is_set():
                    message = pubsub.get_message(timeout=0.2)
                    if message is not None:
                        self.take(message)
                pubsub.close()
            except Exception:  # (Redis down or restarting: try again)
                self.ready.clear()
                self._stop.wait(self.RETRY_S)

    def take(self, message: Mapping[str, Any]) -> bool:
        """Deliver one pub/sub message to this process's hub: True if it was a state of
        another process's (anything else on the channel is dropped unread)."""
        channel, data = message.get("channel"), message.get("data")
        if not isinstance(channel, bytes) or not isinstance(data, bytes):
            return False
        if len(data) > MAX_STATE_BYTES + 100:
            return False
        origin, _, text = data.decode("utf-8", "replace").partition(" ")
        if origin == self.origin:
            return False
        code = channel.decode("utf-8", "replace").removeprefix(PREFIX)
        try:
            self.hub.deliver(code, encode(json.loads(text)))
        except ValueError:
            return False
        return True

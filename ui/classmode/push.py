"""Sessions told of a change, not polling for it.

A class of 100 students polling their room every second cost the server about 3 ms a poll
(0.3 of a core for a room where nothing happens): each poll is a fragment run. Here one
thread per server process watches each room that has students on this server (one store
read per room every ``WATCH_S``, whatever the number of students) and, when the room
changes, asks Streamlit to rerun each of those students' class strip, as the browser's own
timer would: a ``rerun_script`` of the strip's fragment, with no widget change, handed to
the session on Streamlit's event loop. A room where nothing changes costs its students
nothing.

Asking another session for a rerun, and knowing which fragment runs now, are Streamlit
internals (``ui.server.internals.rerun_fragment`` and ``running_fragment``, checked at start);
the strip still runs by itself every ``strip.HEARTBEAT_S`` if a rerun cannot be asked
for.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass

from ui.server.internals import rerun_fragment

WATCH_S = 0.25  # how often a watched room is read from the store
# When several parts of a session's page changed at once (the reveal: the answer and the
# step), only the first of this order is rerun, and it brings the page up to date (the
# strip runs the whole page when the lecture is behind). Two reruns asked at once of one
# session left about one follower in five showing the old step (benchmarks/load.py --room).
TOPICS = ("strip", "end", "lecture")
RETRY_S = 3.0  # a rerun asked for and not run (its fragment did not draw again) is asked again
FORGET_S = 60.0  # a session not seen in its room's strip this long is no longer told
MAX_SESSIONS = 5_000  # sessions told per process (a class of 500 on 10 tabs each)
_LOG = logging.getLogger(__name__)


@dataclass
class _Seen:
    fragment: str
    shown: Hashable  # what the fragment drew of its topic (None: it could not read the room)
    at: float  # when it drew it
    asked: float | None = None  # when a rerun was last asked for (None: not since it drew)


class Watch:
    """Which fragments of which sessions of this process show which room, and the thread
    that reruns them when the room changes. ``version(code)`` reads the room (the store)
    and returns, for each topic (a part of a page: "strip", "lecture"), what the fragments
    of that topic show of it (None: the room cannot be read now). A fragment is rerun when
    what it drew (``here(..., shown=)``) is not what the room holds now: a change made
    while it was drawing, or before the watch first read the room, is not missed. A rerun
    that was lost (the session was busy, reconnecting) is asked again after ``RETRY_S``."""

    def __init__(self, version: Callable[[str], Mapping[str, Hashable] | None]) -> None:
        self.version = version
        self._lock = threading.Lock()
        self._rooms: dict[str, dict[tuple[str, str], _Seen]] = {}  # code -> (sid, topic)
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()  # set: check now, not at the end of WATCH_S
        self.told = 0  # reruns asked for (benchmarks and tests read it)

    def here(
        self, code: str, session_id: str, fragment_id: str, shown: Hashable, topic: str = "strip"
    ) -> None:
        """Fragment ``fragment_id`` of session ``session_id`` drew ``shown``, the value of
        ``topic`` of room ``code`` as it read it (None: it could not read it)."""
        now = time.monotonic()
        slot = (session_id, topic)
        with self._lock:
            if sum(map(len, self._rooms.values())) >= MAX_SESSIONS:
                self._prune(now, FORGET_S / 4)
            for other, sessions in self._rooms.items():
                if other != code:
                    sessions.pop(slot, None)  # a session shows one room
            self._rooms.setdefault(code, {})[slot] = _Seen(fragment_id, shown, now)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="class-watch", daemon=True)
                self._thread.start()

    def drop(self, code: str, session_id: str, topic: str) -> None:
        """Fragment ``topic`` of the session is no longer on its page."""
        with self._lock:
            self._rooms.get(code, {}).pop((session_id, topic), None)

    def gone(self, session_id: str) -> None:
        with self._lock:
            for sessions in self._rooms.values():
                for slot in [k for k in sessions if k[0] == session_id]:
                    del sessions[slot]

    def _prune(self, now: float, age: float) -> None:
        for code in list(self._rooms):
            sessions = self._rooms[code]
            for sid in [s for s, seen in sessions.items() if now - seen.at > age]:
                del sessions[sid]
            if not sessions:
                del self._rooms[code]

    def check(self) -> int:
        """Read every watched room once; rerun the fragments that drew something else than
        the room holds now. Returns how many reruns were asked for."""
        with self._lock:
            self._prune(time.monotonic(), FORGET_S)
            rooms = {code: dict(sessions) for code, sessions in self._rooms.items()}
        asked = 0
        for code, sessions in rooms.items():
            try:
                now = self.version(code)
            except Exception:  # a store fault: asked again at the next check
                _LOG.debug("room %s could not be read", code, exc_info=True)
                continue
            if now is None:
                continue
            t = time.monotonic()
            behind: dict[str, list[tuple[str, _Seen]]] = {}  # sid -> its fragments behind
            with self._lock:
                for (sid, topic), seen in sessions.items():
                    if topic in now and seen.shown != now[topic]:
                        behind.setdefault(sid, []).append((topic, seen))
            for sid, parts in behind.items():
                if any(seen.asked is not None and t - seen.asked < RETRY_S for _, seen in parts):
                    continue  # asked already: its rerun is on its way
                # one rerun per session, its first topic: that run brings the page up to date
                topic, seen = min(parts, key=lambda part: _rank(part[0]))
                if rerun_fragment(sid, seen.fragment):
                    asked += 1
                    with self._lock:
                        for _, part in parts:
                            part.asked = t
                else:
                    self.gone(sid)
        self.told += asked
        return asked

    def poke(self) -> None:
        """A room was just written by this process (the lecturer's change): check now. The
        other processes' watches find it at their next read."""
        self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait(WATCH_S)
            self._wake.clear()
            try:
                self.check()
            except Exception:  # pragma: no cover - never let the thread die
                _LOG.exception("the class watch failed a check")


def _rank(topic: str) -> int:
    return TOPICS.index(topic) if topic in TOPICS else len(TOPICS)

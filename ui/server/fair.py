"""A fair share of the interpreter: sessions that keep the server busy wait their turn.

One Streamlit process runs Python on one core at a time, and threads that want it
take turns. Eight sessions that each send a new message the moment the last answer
arrives made a classmate's 10 ms Step take 70 ms: every message was cheap (7 ms
of the script, a few more of Streamlit's own), there were just many, and the
classmate's thread queued behind all eight.

So every run (a page, or a fragment such as Step) is recorded per session, and
charged with the processor time it used plus any time it spent waiting here. A
session is *busy* when it started more than ``MAX_RATE`` runs a second over the
last ``WINDOW`` seconds, or was charged more than ``SHARE`` of them. A busy
session's run first takes the one slot for busy sessions, and rests as long as
it ran (at least ``MIN_REST``) before it lets go: busy sessions together hold the
interpreter at most half of the time and start at most ``MAX_RATE`` runs a second
(Streamlit's own work for each message, outside the run, is about as much again),
one at a time, and everybody else never waits for them. The
waiting is charged, so a session that keeps hammering stays busy; it is forgiven
``WINDOW`` seconds after it stops.

A student pressing Step four times a second (10 ms each: 4% of the processor) is
never busy; a held-down key or a script is, and then waits its turn.

New tabs are alike: past ``MAX_ARRIVALS`` first runs a second (server-wide), a
tab's first run queues for the same slot, so eight scripts opening page after
page do not starve the students already working.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager

from ui.server.internals import session_id

WINDOW = 3.0  # seconds of history that count
MAX_RATE = 6.0  # a session that started more runs a second than this is busy ...
SHARE = 0.5  # ... and so is one charged more than this part of the window
MAX_REST = 1.0  # the longest rest after a busy run, s
MAX_ARRIVALS = 3.0  # first runs a second (new tabs, server-wide) before they queue
MIN_REST = 1 / MAX_RATE  # the shortest: busy sessions together start MAX_RATE runs a second
ENABLED = True  # tests/app/conftest.py switches it off: AppTest reruns back to back

_SLOT = threading.Lock()  # the one slot for busy sessions
_DEPTH = threading.local()  # a fragment inside a page run is the same turn
_LOCK = threading.Lock()  # guards the two records below
_CHARGED: OrderedDict[str, deque[tuple[float, float]]] = OrderedDict()  # session -> (end, s)
_SESSIONS = 2000  # sessions remembered (a few hundred bytes each)
_ARRIVALS: deque[float] = deque(maxlen=1000)  # when recent first runs started


def _within(record: deque[tuple[float, float]], now: float) -> float:
    while record and record[0][0] < now - WINDOW:
        record.popleft()
    return sum(s for _, s in record) / WINDOW


def usage(session: str, now: float) -> tuple[float, float]:
    """(runs a second, part of the time charged) of ``session`` over the last ``WINDOW`` s."""
    with _LOCK:
        record = _CHARGED.get(session)
        if not record:
            return 0.0, 0.0
        charged = _within(record, now)
        return len(record) / WINDOW, charged


def is_busy(session: str, now: float) -> bool:
    rate, charged = usage(session, now)
    return rate > MAX_RATE or charged > SHARE


def arriving(session: str, now: float) -> bool:
    """Whether this is the session's first run and many tabs opened just now: then
    it queues for the slot (and rests ``MIN_REST``), so students already at work
    keep the interpreter while tabs keep opening."""
    with _LOCK:
        if session in _CHARGED:
            return False
        while _ARRIVALS and _ARRIVALS[0] < now - WINDOW:
            _ARRIVALS.popleft()
        _ARRIVALS.append(now)
        return len(_ARRIVALS) > MAX_ARRIVALS * WINDOW


def _record(session: str, end: float, charged: float) -> None:
    with _LOCK:
        record = _CHARGED.setdefault(session, deque(maxlen=500))
        _CHARGED.move_to_end(session)
        record.append((end, charged))
        while len(_CHARGED) > _SESSIONS:
            _CHARGED.popitem(last=False)


@contextmanager
def turn() -> Iterator[None]:
    """Run one page or fragment run of this session, waiting if the session is busy."""
    session = session_id()
    depth = getattr(_DEPTH, "n", 0)
    if depth or session is None or not ENABLED:
        _DEPTH.n = depth + 1
        try:
            yield
        finally:
            _DEPTH.n = depth
        return
    arrived = time.monotonic()
    busy = is_busy(session, arrived)
    queued = busy or arriving(session, arrived)
    if queued:
        _SLOT.acquire()
    _DEPTH.n = 1
    started, cpu = time.monotonic(), time.thread_time()
    try:
        yield
    finally:
        _DEPTH.n = 0
        cpu = time.thread_time() - cpu
        if queued:
            try:
                ran = time.monotonic() - started
                rest = max(ran, MIN_REST) if busy else MIN_REST  # a busy one: as long as it ran
                time.sleep(min(rest, MAX_REST))
            finally:
                _SLOT.release()
        end = time.monotonic()
        waited = (end - arrived) if busy else 0.0  # slot, run and rest: all charged
        _record(session, end, max(cpu, waited))


def reset() -> None:
    """Forget every run (for tests)."""
    with _LOCK:
        _CHARGED.clear()
        _ARRIVALS.clear()

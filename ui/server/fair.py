"""A fair share of the interpreter: when runs must wait, the session that used least goes first.

One Streamlit process runs Python on one core at a time, and threads that want it take
turns. A hundred sessions that each send five cheap reports a second (a few ms each) are
each unremarkable, yet together they want more than the whole processor, and a classmate's
10 ms Step queued behind all of them (345 ms median, seconds at the 95th percentile).

So every run (a page, or a fragment such as Step) takes one of ``PLACES`` places before it
starts. While a place is free it takes it at once: a quiet server costs nothing. When every
place is held, runs wait, and a freed place goes to the waiting run whose session was
*charged* least over the last ``WINDOW`` seconds: charged with the processor time its runs
used, and with the time a run waited here when the session asked for more meanwhile (a
newer run merged into the waiting one). A student who steps a few times a second is
charged a few per cent and goes to the front; sessions that send faster than they are
answered wait behind, and that waiting is charged too, so they stay behind until they
stop (forgiven ``WINDOW`` seconds later). However many sessions send, a quiet run waits for
at most one run in progress, never for the queue.

Waiting alone is not charged: it is the server's load, not the session's demand. A hall of
phones scanning the QR code in the same second all wait for the processor, each with one
page asked for; were that wait charged, every newcomer would be busy (below) by its second
run, and its Join would queue one at a time behind everybody's rests. The class gets in
at the speed of the processor, the least charged first.

A session is *busy* when it started more than ``MAX_RATE`` runs a second over the window,
or was charged more than ``SHARE`` of it (a held-down key, a long computation after
another, a script sending without waiting for answers): busy sessions' runs hold at most
``BUSY_PLACES`` places together, so the others are always there for everybody else, and a
quiet run never waits for a busy one. A busy run also rests in its place as long as it ran
(at least ``MIN_REST``): busy sessions together get at most half of a place's time and
``MAX_RATE`` runs a second, and Streamlit's own work for their messages shrinks with them.

A page run (a page opened, any widget's change: tens to hundreds of ms) holds one of
``PLACES - LIGHT_PLACES`` places at most: the last place is kept for fragment runs (a Step,
a drag, the class push: a few ms each). A student stepping waits for no page run, however
many pages are opened at once (a hall of phones arriving, a script sending whole-page
reruns), and among fragment runs the least charged goes first as before. Quiet sessions'
page runs hold ``QUIET_PAGE_PLACES`` (one) of those places together, busy ones the busy
place: two pages opened at once only share the interpreter, each taking twice as long,
and both pour their messages into Streamlit's sending loop ahead of a classmate's Step.

A quiet session's run that has held its place for ``SLICE`` seconds gives the place up
and runs on: a long computation (the variants page's first run, seconds) never blocks the
runs behind it, it shares the processor with them as before. A busy session's run keeps
its place until it ends: long runs sent without end (a script uploading 5,000-row files
flat out: 40 ms of parsing each) would otherwise each give up its place after ``SLICE`` and
run on beside the next, twenty at once, and a classmate's Step got a twentieth of the
interpreter.

A page run also waits while ``UNSENT_MAX`` page run that ended (one) has messages still
on its way to its browser (a page is about 60 messages, 90 kB). Streamlit's sending loop
hands the event loop back after every message and goes through the sessions in turn, so a
classmate's three-message Step waits behind every message queued before it: sixty tabs
each sending a whole-page rerun at once queued 3,500, and a Step waited 4-6 s for its
answer, its run long over. The door sees each run's last message leave (:func:`sent`); a
finish it never sees (a tab that closed) holds nobody longer than ``UNSENT_S``.

A run superseded while it waits is not worked through. Reruns of a session whose run waits
are merged into it (Streamlit does so with ``runner.fastReruns`` off, as
``.streamlit/config.toml`` sets it); when it gets its place,
Streamlit stops it at its first call and starts the newer run at once: a quiet session's
place is kept for that run (``_carry``: Streamlit's rerun and stop end a run with a
``BaseException`` that is not an ``Exception``, and nothing else does). A run whose tab
closed while it waited is stopped the same way; the place it kept is free again after
``SLICE``. This is a plain gate: it asks Streamlit nothing but the session's id.

May import: the standard library, ``ui.server.internals`` (reads: the session's id).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ui.server.internals import session_id

WINDOW = 3.0  # seconds of history that count
SLOW_S = 10.0  # s: a run that took longer, waiting and running, is told in the server's log
_LOG = logging.getLogger(__name__)
PLACES = 3  # runs that hold the interpreter at once; more wait their turn
BUSY_PLACES = 1  # of them, what busy sessions' runs may hold together
LIGHT_PLACES = 1  # and what is kept for fragment runs: page runs hold the others at most
QUIET_PAGE_PLACES = 1  # of those, what quiet sessions' page runs may hold together
MAX_RATE = 6.0  # a session that started more runs a second than this is busy ...
SHARE = 0.5  # ... and so is one charged more than this part of the window
MIN_REST = 1 / MAX_RATE  # a busy run keeps its place this long at least ...
MAX_REST = 1.0  # ... as long as it ran, at most this
SLICE = 0.1  # s: a run holding its place longer gives it up and runs on
TICK = 0.05  # s: how often the ticker hands out places while runs wait
LATE = 0.05  # s: while the event loop is this far behind, page runs wait ...
LATE_WAIT = 1.0  # s: ... this long at most
BEAT_S = 0.02  # s between the server loop's beats (``beat``)
UNSENT_MAX = 1  # page runs ended with messages not yet sent: while as many, page runs wait
UNSENT_S = 1.0  # s: a page run's messages count as unsent for this long at most
ENABLED = True  # tests/app/conftest.py switches it off: AppTest reruns back to back

_LOCK = threading.Lock()  # guards everything below
_QUEUED = threading.Condition(_LOCK)  # told when a run joins a queue (the ticker waits)
_TICKER: threading.Thread | None = None
_CHARGED: OrderedDict[str, deque[tuple[float, float]]] = OrderedDict()  # session -> (end, s)
_SESSIONS = 2000  # sessions remembered (a few hundred bytes each)
_HELD: dict[int, tuple[float, bool, bool]] = {}  # place's run -> (since, busy?, page?)
_QUEUE: list[_Waiter] = []  # a heap of quiet sessions' page runs: least charged, then first
_LIGHT_QUEUE: list[_Waiter] = []  # the same, for quiet sessions' fragment runs
_BUSY_QUEUE: list[_Waiter] = []  # the same, for busy sessions' runs of either kind
_ORDER = itertools.count()
_WAITING: dict[str, int] = {}  # session -> its runs in a queue
_CARRIED: dict[str, tuple[int, bool, float]] = {}  # session -> place kept for its newer run
_DEPTH = threading.local()  # a fragment inside a page run is the same turn
_UNSENT: dict[str, float] = {}  # session -> when its page run ended, its last message unsent


@dataclass(order=True)
class _Waiter:
    charged: float
    seq: int
    page: bool = field(default=True, compare=False)
    session: str = field(default="", compare=False)
    arrived: float = field(default=0.0, compare=False)
    granted: threading.Event = field(default_factory=threading.Event, compare=False)


_BEAT = [0.0]  # when the server's event loop last ran the beat (0: not watched)


async def beat() -> None:
    """Note the time on the server's event loop every ``BEAT_S`` seconds, for as long as
    the server runs (``ui.shell.asgi``'s lifespan runs it): :func:`loop_late` reads it."""
    try:
        while True:
            _BEAT[0] = time.monotonic()
            await asyncio.sleep(BEAT_S)
    finally:
        _BEAT[0] = 0.0


def loop_late() -> float:
    """Seconds the server's event loop is behind: how long past its due time its next beat
    is (0 on time, and where no beat runs). The loop sends every message, so while it is
    behind, a page run's messages would only wait behind the others'."""
    last = _BEAT[0]
    return max(0.0, time.monotonic() - last - BEAT_S) if last else 0.0


def _within(record: deque[tuple[float, float]], now: float) -> float:
    while record and record[0][0] < now - WINDOW:
        record.popleft()
    return sum(s for _, s in record) / WINDOW


def usage(session: str, now: float) -> tuple[float, float]:
    """(runs a second, part of the time charged) of ``session`` over the last ``WINDOW`` s."""
    with _LOCK:
        return _usage(session, now)


def _usage(session: str, now: float) -> tuple[float, float]:
    record = _CHARGED.get(session)
    if not record:
        return 0.0, 0.0
    charged = _within(record, now)
    return len(record) / WINDOW, charged


def _record(session: str, end: float, charged: float) -> None:
    with _LOCK:
        record = _CHARGED.setdefault(session, deque(maxlen=500))
        _CHARGED.move_to_end(session)
        record.append((end, charged))
        while len(_CHARGED) > _SESSIONS:
            _CHARGED.popitem(last=False)


def _free(now: float, busy: bool, page: bool, arrived: float) -> bool:
    """Whether a place is free for a run: fewer than ``PLACES`` runs hold theirs (a quiet
    session's run for ``SLICE`` at most, a busy one's until it ends); for a busy session's
    run, fewer than ``BUSY_PLACES`` busy ones, and for a page run, fewer than ``PLACES -
    LIGHT_PLACES`` page runs and, a quiet session's, fewer than ``QUIET_PAGE_PLACES`` quiet
    ones (the other places are always left to everybody else, and to fragment runs)."""
    held = [(b, p) for since, b, p in _HELD.values() if b or now - since < SLICE]
    if (  # its messages would wait behind the others' (for at most LATE_WAIT)
        page
        and held  # alone, a run never waits: nothing else is sending
        and now - arrived < LATE_WAIT
        and loop_late() > LATE
    ):
        return False
    return (
        len(held) < PLACES
        and (not busy or sum(b for b, _ in held) < BUSY_PLACES)
        and (not page or sum(p for _, p in held) < PLACES - LIGHT_PLACES)
        and (not page or busy or sum(p and not b for b, p in held) < QUIET_PAGE_PLACES)
        and (not page or _unsent(now) < UNSENT_MAX)
    )


def _unsent(now: float) -> int:
    """Page runs that ended less than ``UNSENT_S`` ago whose last message has not left
    (under ``_LOCK``)."""
    for session, ended in list(_UNSENT.items()):
        if now - ended > UNSENT_S:
            del _UNSENT[session]
    return len(_UNSENT)


def sent(session: str) -> None:
    """The last message of ``session``'s run has left the server (the door saw it go):
    its page run's messages no longer hold page runs back (:data:`UNSENT_MAX`)."""
    if session not in _UNSENT:  # a fragment's end, or a page's already told: no lock
        return
    with _LOCK:
        if _UNSENT.pop(session, None) is not None and (_QUEUE or _BUSY_QUEUE):
            _hand_out(time.monotonic())


def unsent() -> int:
    """Page runs whose messages are on their way now (see :data:`UNSENT_MAX`)."""
    with _LOCK:
        return _unsent(time.monotonic())


def _hand_out(now: float) -> None:
    """Give free places to waiters (under ``_LOCK``): quiet sessions' before busy ones',
    and among the quiet, the least charged head of the page and fragment queues that a
    free place admits."""
    while True:
        heads = [
            (queue[0], queue)
            for queue, busy in ((_QUEUE, False), (_LIGHT_QUEUE, False))
            if queue and _free(now, busy, queue[0].page, queue[0].arrived)
        ]
        if (
            not heads
            and _BUSY_QUEUE
            and _free(now, True, _BUSY_QUEUE[0].page, _BUSY_QUEUE[0].arrived)
        ):
            heads = [(_BUSY_QUEUE[0], _BUSY_QUEUE)]
        if not heads:
            return
        waiter, queue = min(heads, key=lambda head: head[0])
        heapq.heappop(queue)
        _unqueued(waiter.session)
        _HELD[waiter.seq] = (now, queue is _BUSY_QUEUE, waiter.page)
        waiter.granted.set()


def _take(session: str, arrived: float, page: bool) -> tuple[int, bool]:
    """Wait for a place; returns the run's ticket, and whether its session is busy."""
    with _LOCK:
        rate, charged = _usage(session, arrived)
        busy = rate > MAX_RATE or charged > SHARE
        waiter = _Waiter(charged, next(_ORDER), page, session, arrived)
        queue = _BUSY_QUEUE if busy else _QUEUE if page else _LIGHT_QUEUE
        if not queue and _free(arrived, busy, page, arrived):
            _HELD[waiter.seq] = (arrived, busy, page)
            return waiter.seq, busy
        heapq.heappush(queue, waiter)
        _WAITING[session] = _WAITING.get(session, 0) + 1
        _QUEUED.notify()
    # a place frees when a run ends (it hands it out) or when a slice runs out (the
    # ticker looks); a waiter itself only looks now and then whether its tab closed
    _start_ticker()
    try:
        waiter.granted.wait()
    except BaseException:
        with _LOCK:
            if waiter.granted.is_set():
                _HELD.pop(waiter.seq, None)
            else:
                queue.remove(waiter)
                heapq.heapify(queue)
                _unqueued(session)
            _hand_out(time.monotonic())
        end = time.monotonic()
        _record(session, end, end - arrived)  # the wait is charged, as for any run
        raise
    return waiter.seq, busy


def _start_ticker() -> None:
    global _TICKER
    with _LOCK:
        if _TICKER is not None:
            return
        _TICKER = threading.Thread(target=_tick, name="perceptron-fair-ticker", daemon=True)
    _TICKER.start()


def _tick() -> None:
    """Hand out the places whose slice ran out (and to page runs once the event loop
    caught up), every ``TICK`` seconds while runs wait. One
    thread does it for every waiter: a hundred waiters each looking ten times a second
    would take the interpreter from the server's event loop a thousand times a second."""
    with _LOCK:
        while True:
            if _QUEUE or _LIGHT_QUEUE or _BUSY_QUEUE:
                _hand_out(time.monotonic())
                _QUEUED.wait(TICK)  # the lock is free meanwhile
            else:
                _QUEUED.wait()


def _carry(session: str, ticket: int, busy: bool, arrived: float) -> None:
    """Keep the place of a run cut short for the newer run of its session, which
    Streamlit starts at once; its wait and run are charged now."""
    now = time.monotonic()
    with _LOCK:
        _CARRIED[session] = (ticket, busy, now)
    _record(session, now, now - arrived)


def _carried(session: str, now: float, page: bool) -> tuple[int, bool] | None:
    """The place kept for this session's newer run, if any (taken: held from ``now``);
    places kept longer than ``SLICE`` for a run that never came are given back."""
    with _LOCK:
        for other, (ticket, _, since) in list(_CARRIED.items()):
            if other != session and now - since > SLICE:
                del _CARRIED[other]
                _HELD.pop(ticket, None)
        kept = _CARRIED.pop(session, None)
        if kept is None or kept[0] not in _HELD:
            return None
        ticket, busy, _ = kept
        _HELD[ticket] = (now, busy, page)
        return ticket, busy


def _unqueued(session: str) -> None:
    left = _WAITING.pop(session, 0) - 1
    if left > 0:
        _WAITING[session] = left


def is_waiting(session: str) -> bool:
    """Whether a run of ``session`` waits for its place now (it has not begun). Read
    without the lock: a run granted its place at this instant still reads as waiting, and
    a rerun handed to it then is taken at its script's next call, as Streamlit does."""
    return session in _WAITING


def _give_back(ticket: int) -> None:
    with _LOCK:
        _HELD.pop(ticket, None)
        _hand_out(time.monotonic())


@contextmanager
def turn(*, fragment: bool = False) -> Iterator[None]:
    """Run one page run (or with ``fragment``, one fragment run) of this session, after
    waiting for a place if every place it may take is held."""
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
    ticket, busy = _carried(session, arrived, not fragment) or _take(
        session, arrived, page=not fragment
    )
    _DEPTH.n = 1
    started, cpu = time.monotonic(), time.thread_time()
    cut = False
    try:
        yield
    except BaseException as stopped:
        # Streamlit's rerun and stop are BaseExceptions, not Exceptions: a newer message of
        # this session (merged into this run while it waited) or st.rerun ends this run at
        # its next call, and the newer run starts at once on this thread, in this place
        cut = not isinstance(stopped, Exception)
        raise
    finally:
        _DEPTH.n = 0
        used = time.thread_time() - cpu
        if not fragment and not cut:  # its messages leave after it: the door says when
            with _LOCK:
                _UNSENT[session] = time.monotonic()
        if cut and not busy:  # kept for the newer run (a busy one queues again)
            _carry(session, ticket, busy, arrived)
        else:
            try:
                if busy:  # rests in its place as long as it ran: busy ones get half the time
                    ran = time.monotonic() - started
                    time.sleep(min(max(ran, MIN_REST), MAX_REST))
            finally:
                _give_back(ticket)
        end = time.monotonic()
        # a busy run is charged its wait, run and rest (so it stays busy); any other its
        # processor time (a wait during which it asked for more was charged by _carry)
        _record(session, end, (end - arrived) if busy else used)
        if end - arrived > SLOW_S:  # for whoever reads the log after a slow lecture
            _LOG.warning(
                "perceptron: a %s run took %.1f s: %.1f s waiting for its place, %.1f s "
                "running (%.1f s of processor)%s",
                "fragment" if fragment else "page",
                end - arrived,
                started - arrived,
                end - started,
                used,
                ", a busy session's" if busy else "",
            )


def waiting() -> int:
    """Runs waiting for a place now."""
    with _LOCK:
        return len(_QUEUE) + len(_LIGHT_QUEUE) + len(_BUSY_QUEUE)


def reset() -> None:
    """Forget every run (for tests)."""
    with _LOCK:
        _CHARGED.clear()
        _HELD.clear()
        _QUEUE.clear()
        _LIGHT_QUEUE.clear()
        _BUSY_QUEUE.clear()
        _WAITING.clear()
        _CARRIED.clear()
        _UNSENT.clear()

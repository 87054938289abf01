"""Links that carry the data: ``?data=<id>``.

A student's own data (drawn in the margin lab, edited, uploaded) are put in the store
(:mod:`perceptron_store`: SQLite on one server, Redis across servers) under their content id,
and the URL carries that id. A reload, a new tab, the link sent to a friend, a websocket
that reconnects after a server restart or lands on another server: each starts a session
whose first run opens the same points from the store. The undo history stays in the
session. Only points and labels are stored, never a name.

:func:`arrive` runs on a session's first run (after the settings are read from the URL);
:func:`keep` at the end of every run that may have changed the data (the app's, and the
margin lab's fragment). The store's faults never stop a page: the data stay in the session,
the student is told once that links do not keep them, and the next run that reaches the
store again writes them.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Concatenate, ParamSpec, TypeVar

import perceptron_store as store
from ui.app.state import LINK_PARAM, NOTICES, Session, session_key
from ui.look.text import safe
from ui.server import clients
from ui.words import t, tn

P = ParamSpec("P")
R = TypeVar("R")

CUSTOM = session_key("data_custom")
LINKED = session_key("data_link")
WAITING = session_key("data_link_wait")
STATE = session_key("data_link_state")
FROM_LINK = "data from a link"  # the name of linked data: the store keeps no file name
RETRY_S = 5.0  # how often a link's data are asked for again while the store is down
WRITES_PER_S, BURST = 2.0, 20  # a session's writes to the store (drags are about 1/s)

_LOCK = threading.Lock()
_STORE: list[store.Store] = []  # the process's store, opened on first use


BACK_OFF_S = 2.0  # after a store call that timed out, the process skips the store this long
SLOW_S = 0.2  # a failure slower than this was a timeout (a paused or unreachable store)
_DOWN_UNTIL = [0.0]
_LOG = logging.getLogger(__name__)


def _ttl_days() -> float:
    try:
        return store.default_ttl() / 86_400
    except ValueError:  # a bad PERCEPTRON_STORE_TTL_DAYS: the store says so at its first write
        return 30.0


def the_store() -> store.Store:
    """The process's store: ``PERCEPTRON_STORE`` (a ``redis://`` URL or an SQLite path),
    by default an SQLite file next to the app. A setting it cannot read is logged for the
    operator and counts as a store that cannot be reached: the pages go on."""
    with _LOCK:
        if time.monotonic() < _DOWN_UNTIL[0]:
            raise store.StoreDown("the store timed out a moment ago")
        if not _STORE:
            try:
                _STORE.append(store.open_store(os.environ.get("PERCEPTRON_STORE")))
            except ValueError as exc:
                _LOG.error("PERCEPTRON_STORE cannot be used: %s", exc)
                raise store.StoreDown(str(exc)) from exc
        return _STORE[0]


def call(fn: Callable[Concatenate[store.Store, P], R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(store, *args, **kwargs)`` on the process's store; a call that failed slowly (a
    timeout) makes the process skip the store for ``BACK_OFF_S``, so every student's run
    does not wait on it in turn. Every store call of the app goes through here."""
    t0 = time.monotonic()
    try:
        return fn(the_store(), *args, **kwargs)
    except store.StoreDown:
        if time.monotonic() - t0 > SLOW_S:
            _DOWN_UNTIL[0] = time.monotonic() + BACK_OFF_S
        raise


def use_store(s: store.Store | None) -> None:
    """Use ``s`` from now on (tests); None: open the configured one again on next use."""
    with _LOCK:
        old = _STORE[:]
        _STORE.clear()
        if s is not None:
            _STORE.append(s)
    for o in old:
        if o is not s:
            o.close()


@dataclass
class _State:
    arrived: bool = False
    kept: tuple[Any, ...] | None = None  # the custom tuple last kept (or refused)
    limit: store.RateLimit = field(default_factory=lambda: store.RateLimit(WRITES_PER_S, BURST))
    down_said: bool = False
    full_said: bool = False  # "the store is full" was said for these data
    quota_said: bool = False  # "this device wrote too much" was said (once a session)
    busy_said: float = -1e9  # when "many edits at once" was last said
    tried: float = 0.0  # when a waiting link was last asked for


def _state(session: Session) -> _State:
    st_ = session.get(STATE)
    if not isinstance(st_, _State):
        st_ = session[STATE] = _State()
    return st_


def _notice(session: Session, text: str) -> None:
    session.setdefault(NOTICES, []).append(text)


def arrive(session: Session, query: Any) -> None:
    """On a session's first run: open the data of the URL's ``data=<id>``, if any.

    An unknown, expired or malformed id says so and leaves the default dataset; a store
    that cannot be reached keeps the id in the URL and is asked again on later runs.
    """
    state = _state(session)
    if state.arrived:
        return
    state.arrived = True
    raw = query.get(LINK_PARAM) if hasattr(query, "get") else None
    if raw is None or raw == "":
        return
    raw = str(raw)[:100]
    if not store.valid_id(raw):
        _notice(
            session,
            t(
                "The link's data= {raw} is not an id this app makes "
                "({length} letters and digits); showing the default dataset."
            ).format(raw=safe(raw, limit=40), length=store.ID_LENGTH),
        )
        return
    _open(session, raw, first=True)


def _open(session: Session, data_id: str, *, first: bool) -> None:
    state = _state(session)
    state.tried = time.monotonic()
    try:
        found = call(store.load_dataset, data_id)
    except store.StoreDown:
        session[WAITING] = data_id  # stays in the URL: the link is not lost
        if first:
            _notice(
                session,
                t(
                    "The data of this link cannot be opened right now: the app's store cannot "
                    "be reached. The default dataset is shown meanwhile; the link's data open "
                    "by themselves once the store is back."
                ),
            )
        return
    except ValueError:
        found = None
    session.pop(WAITING, None)
    if found is None:
        days = _ttl_days()
        _notice(
            session,
            tn(
                "No data are stored under the link's id {id}: it may have expired (links keep "
                "data for {days} day) or never existed. Showing the default dataset.",
                "No data are stored under the link's id {id}: it may have expired (links keep "
                "data for {days} days) or never existed. Showing the default dataset.",
                1 if days == 1 else 2 if not float(days).is_integer() else int(days),
            ).format(id=data_id, days=f"{days:g}"),
        )
        return
    X, y = found
    session[CUSTOM] = (X, y, FROM_LINK)
    session[LINKED] = data_id
    state.kept = session[CUSTOM]


def open_link(session: Session, data_id: str) -> None:
    """Open the data stored under ``data_id`` now (a followed lecturer's link)."""
    _open(session, data_id, first=False)


def _over_quota(size: int) -> str | None:
    """Why this writer (its browser and its address: ``ui.server.clients``) may not keep one
    more dataset of ``size`` bytes this hour, or None (and it is counted). Every writer's
    quota keeps one script from filling the store for everybody."""
    who = clients.current()
    for action, cost in (("dataset", 1.0), ("bytes", float(size))):
        if not clients.allow(action, who, cost=cost, take=False):
            return clients.refused(action)
    clients.allow("dataset", who)
    clients.allow("bytes", who, cost=float(size))
    return None


def keep(session: Session, toast: Any = None) -> None:
    """Put the data in use in the store if they are custom and not there yet, and name them
    in the URL (``state.to_query`` reads ``LINKED``). ``toast(text)`` tells the student
    once that links do not keep the data (the store is down, or the data too big), and
    once that they do again."""
    state = _state(session)
    waiting = session.get(WAITING)
    custom = session.get(CUSTOM)
    if waiting and custom is None:  # a link's data the store could not give yet
        if time.monotonic() - state.tried >= RETRY_S:
            _open(session, str(waiting), first=False)
        return
    session.pop(WAITING, None)
    if custom is None:
        session[LINKED] = None
        state.kept = None
        return
    if custom is state.kept:
        return  # the same data as at the last run: nothing to write
    X, y = custom[0], custom[1]
    try:
        data_id = store.dataset_id(X, y)
    except ValueError as exc:  # over the store's caps: the session keeps them
        state.kept, session[LINKED] = custom, None
        _say(toast, _not_kept(exc, 160))
        return
    if data_id == session.get(LINKED):
        state.kept = custom
        return
    if not state.limit.allow():  # a flood of writes: the store is not written now
        if time.monotonic() - state.busy_said > 60:  # at most once a minute
            state.busy_said = time.monotonic()
            _say(
                toast,
                t(
                    "Many edits at once: the link catches up with your latest data at your "
                    "next edit."
                ),
            )
        return
    over = _over_quota(X.nbytes + y.nbytes)
    if over is not None:  # this writer's hour is used up: tried again at a later run
        if not state.quota_said:
            state.quota_said = True
            _say(toast, over)
        return
    try:
        call(store.save_dataset, X, y)
    except store.StoreDown:
        if not state.down_said:
            state.down_said = True
            _say(
                toast,
                t(
                    "Links do not keep your data right now (the app's store cannot be "
                    "reached). They stay in this tab; the link will carry them once the "
                    "store is back."
                ),
            )
        return  # not kept: tried again at the next run
    except store.StoreFull as exc:  # room may come back: tried again at a later run
        if not state.full_said:
            state.full_said = True
            _say(toast, _not_kept(exc, 200))
        return
    except ValueError as exc:
        state.kept, session[LINKED] = custom, None
        _say(toast, _not_kept(exc, 160))
        return
    state.kept = custom
    session[LINKED] = data_id
    state.full_said = False
    if state.down_said:
        state.down_said = False
        _say(toast, t("Links keep your data again."))


def _not_kept(exc: Exception, limit: int) -> str:
    """Why the store did not keep the data (its reason in the store's words, escaped)."""
    return t("These data are not kept in links: {reason}").format(reason=safe(exc, limit=limit))


def _say(toast: Any, text: str) -> None:
    if toast is not None:
        toast(text)

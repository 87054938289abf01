"""Taking a seat: a session arriving with a class link or the lecturer's cookie, starting,
joining and leaving a class, and the lecturer's actions on the room.

The URL carries ``room=<code>`` and, for a student, ``seat=<id>``, so a reload keeps the
seat; the lecturer's secret never goes in the URL (the projector shows it): a private
"lecturer link" ``?room=<code>&key=<secret>`` reopens the room, its key dropped from the
address bar at once, and the lecturer's browser keeps it in a cookie for a reload.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

import streamlit as st

import perceptron_store as store_mod
from ui.app.state import Session, session_key
from ui.classmode import classroom as cr
from ui.classmode.seat import (
    URL,
    Refused,
    Role,
    Seat,
    move,
    notice,
    reach,
    room_now,
    seat_of,
)
from ui.look.text import safe

ROOM_PAGE = "pages/room.py"
GO_ROOM = session_key("room_go")
LIMIT = session_key("room_limit")
JOIN_RATE, JOIN_BURST = 0.2, 5  # a session's join attempts: 5 at once, then one every 5 s
# every session's wrong codes together, per process: past this rate, no code is looked up
# for FLOOD_S (a guesser with many tabs gets 20 tries a second per server, at most)
FAILED = store_mod.RateLimit(20.0, 100)
FLOOD_S = 2.0
_FLOOD_UNTIL = [0.0]

COOKIE = "perceptron_class"  # the lecturer's browser keeps "<code>.<secret>" (a reload)
COOKIE_SET = session_key("room_cookie")
_KEEP_JS = f"""
export default function (component) {{
  const want = (component.data && component.data.keep) || "";
  const name = "{COOKIE}=";
  const have = (document.cookie.split("; ").find((c) => c.startsWith(name)) || "")
    .slice(name.length);
  if (want === have) return;
  document.cookie = want
    ? name + want + "; path=/; SameSite=Strict; max-age={int(cr.ROOM_TTL_S)}"
    : name + "; path=/; SameSite=Strict; max-age=0";
}}
"""
_keeper = st.components.v2.component(
    "perceptron_class_keeper",
    js=_KEEP_JS,
    css=".st-key-app_class_keeper { display: none; }",
    isolate_styles=False,
)


def keep_lecturer(session: Session) -> None:
    """The lecturer's browser keeps the room's code and secret in a cookie (SameSite, on
    this site only), so a reload of the projector's tab keeps the class; a browser that
    holds one it should not (the class ended, the tab came with a stale one) drops it.
    The cookies are read once, as the session arrives, not at every run."""
    seat = seat_of(session)
    if seat is not None and seat.lecturer:
        session[COOKIE_SET] = True
        _keeper(key="app_class_keeper", data={"keep": f"{seat.code}.{seat.secret}"})
    elif session.pop(COOKIE_SET, False):
        _keeper(key="app_class_keeper", data={"keep": ""})  # once: it clears it


def _from_cookie(session: Session, cookies: Any) -> None:
    raw = str((cookies or {}).get(COOKIE, "") or "")[:200]
    if raw:
        session[COOKIE_SET] = True  # kept if it opens the class, else dropped
    code_text, _, secret = raw.partition(".")
    code = cr.normal_code(code_text)
    if code is None or not secret:
        return
    try:
        room = reach(cr.load_room, code)
    except Refused:
        return  # a reload while the store is down: the tab is not the lecturer's until then
    if room is not None and not room.closed and cr.holds_secret(room, secret):
        move(session, "reopen", Seat(code=code, role=Role.LECTURER, secret=secret))


def arrive(session: Session, query: Any, cookies: Callable[[], Any] | None = None) -> str | None:
    """On a session's first run: the URL's ``room=`` (a join link: returns the code for the
    join form), ``room=`` + ``seat=`` (a student's reload: the seat is taken again) or
    ``room=`` + ``key=`` (the lecturer link); without ``room=``, the lecturer's cookie (a
    reload of the projector's tab). Bad values say so; nothing raises."""
    if URL in session:
        return None
    session[URL] = {}
    raw = query.get("room") if hasattr(query, "get") else None
    if not raw:
        _from_cookie(session, cookies() if cookies is not None else None)
        return None
    code = cr.normal_code(str(raw)[:40])
    if code is None:
        notice(session, f"The link's class code {safe(str(raw), limit=20)} is not a class code.")
        return None
    key, seat_id = query.get("key"), query.get("seat")
    try:
        room = reach(cr.load_room, code)
        if room is None:
            notice(session, f"No class {cr.shown_code(code)} is open: it ended or expired.")
            return None
        if key:
            if not cr.holds_secret(room, str(key)[:100]):
                notice(session, "That lecturer link's key is not this class's key.")
                return code
            move(session, "reopen", Seat(code=code, role=Role.LECTURER, secret=str(key)))
            return None
        if seat_id and cr.valid_seat(str(seat_id)):
            nick = reach(cr.seat_nick, room, str(seat_id))
            if nick is not None and not room.closed:
                arriving = Seat(code=code, role=Role.FOLLOWING, seat=str(seat_id), nick=nick)
                move(session, "join", arriving)
                return None
    except Refused as refused:
        notice(session, str(refused))
        return code
    return code  # a join link: the class page offers to join


def start(session: Session) -> str | None:
    """Open a new class with this session as its lecturer; an error sentence or None."""
    try:
        room, secret = reach(cr.create_room)
    except Refused as refused:
        return str(refused)
    move(session, "start", Seat(code=room.code, role=Role.LECTURER, secret=secret))
    return None


def start_and_go(session: Session) -> None:
    """The sidebar's Start button: the class, then its page once the sidebar is drawn
    (:func:`to_class_page`): a page left in the middle of the sidebar loses the dataset's
    widgets, which the browser then sends back at their minimum."""
    err = start(session)
    if err:
        notice(session, err)
    else:
        session[GO_ROOM] = True


def to_class_page(session: Session) -> None:
    """After the sidebar: a class just started shows its page."""
    if session.pop(GO_ROOM, False):
        st.switch_page(ROOM_PAGE)


def _limit(session: Session) -> store_mod.RateLimit:
    lim = session.get(LIMIT)
    if not isinstance(lim, store_mod.RateLimit):
        lim = session[LIMIT] = store_mod.RateLimit(JOIN_RATE, JOIN_BURST)
    return lim


def join(session: Session, text: object, nick: object) -> str | None:
    """Join the class whose code is ``text``; an error sentence or None."""
    code = cr.normal_code(text)
    if code is None:
        return (
            f"A class code has {cr.CODE_LENGTH} letters and digits, like "
            f"{cr.shown_code('ABCD2345')}."
        )
    if not _limit(session).allow() or time.monotonic() < _FLOOD_UNTIL[0]:
        return "Too many attempts: wait a few seconds and try again."
    try:
        room = reach(cr.load_room, code, fresh=True)
        if room is None:
            if not FAILED.allow():  # a flood of wrong codes: stop looking codes up a while
                _FLOOD_UNTIL[0] = time.monotonic() + FLOOD_S
            return f"No class {cr.shown_code(code)} is open. Check the code on the projector."
        old = seat_of(session)
        keep = old.seat if old is not None and old.code == code else None
        seat_id = reach(cr.join, room, cr.clean_nick(nick), keep)
    except Refused as refused:
        return str(refused)
    if old is not None and old.lecturer:
        move(session, "leave")  # a lecturer who joins a class as a student leaves their seat
    arriving = Seat(code=code, role=Role.FOLLOWING, seat=seat_id, nick=cr.clean_nick(nick))
    move(session, "join", arriving)
    return None


def leave(session: Session) -> None:
    """Leave the class; a student's seat is given back to the room (if the store cannot be
    reached it is not, and expires with the room)."""
    seat = seat_of(session)
    if seat is not None:
        if not seat.lecturer and seat.seat is not None:
            with contextlib.suppress(Refused):
                reach(cr.leave, seat.code, seat.seat)
        move(session, "leave")
    session[URL] = {}


def lecturer_do(session: Session, change: Callable[[cr.Room], cr.Room]) -> str | None:
    """A lecturer's action on the room: refused unless this session holds its secret.
    Returns an error sentence or None."""
    seat = seat_of(session)
    if seat is None:
        return "Only the lecturer of a class can do that."
    try:
        reach(cr.lecturer_update, seat.code, seat.secret, change)
    except Refused as refused:
        return str(refused)
    return None


def asked_here(session: Session) -> tuple[int, int] | None:
    """The lecturer's open question, as (step, point), for the projector's chart to mark;
    None for anyone else, or with no question open."""
    seat = seat_of(session)
    room = room_now(session) if seat is not None and seat.lecturer else None
    q = room.question if room is not None and not room.closed else None
    return None if q is None or q.revealed else (q.t, q.point)

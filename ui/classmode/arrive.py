"""Taking a seat: a session arriving with a class link or a class cookie, starting,
joining and leaving a class, and the lecturer's actions on the room.

The URL carries ``room=<code>`` and nothing else of the class: a link a student copies
("Copy link", the address bar) opens the join form, never their seat. The
seat lives in the session and in a cookie of the student's browser (``SEAT_COOKIE``:
SameSite, this site only), so a reload keeps it and a copied link does not. The lecturer's
secret never goes in the URL either (the projector shows it): a private "lecturer link"
``?room=<code>&key=<secret>`` reopens the room, its key dropped from the address bar at
once, and the lecturer's browser keeps it in a cookie (``COOKIE``) for a reload.

What one client may do is bounded (``ui.server.clients``): classes started, seats taken
(``SEATS_PER_BROWSER`` in one class), codes that open no class. A wrong code slows its
sender only; a right code is never refused for someone else's.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import streamlit as st

import perceptron_store as store_mod
from ui.app.state import Session, session_key
from ui.classmode import answers as an
from ui.classmode import classroom as cr
from ui.classmode import live
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
from ui.look.numbers import number
from ui.look.text import safe
from ui.server import clients
from ui.words import t

ROOM_PAGE = "pages/room.py"
GO_ROOM = session_key("room_go")
SHOW_JOIN = session_key("room_show_join")  # the join view opens over the page, once
LIMIT = session_key("room_limit")
JOIN_RATE, JOIN_BURST = 0.2, 5  # a session's join attempts: 5 at once, then one every 5 s
SEATS_PER_BROWSER = 3  # seats one browser holds in one class (a phone's tabs, a reload)

RECAP = session_key("room_recap")  # a closed class's (code, secret): its lecturer's recap
JOIN_ASKED = session_key("room_join_asked")
JOIN_SAID = session_key("room_join_said")
JOIN_FIELDS = ("room_join_code", "room_join_nick")  # the join form's inputs (pages/room.py)

COOKIE = "perceptron_class"  # the lecturer's browser keeps "<code>.<secret>" (a reload)
SEAT_COOKIE = "perceptron_seat"  # a student's browser keeps "<code>.<seat>" (a reload)
COOKIE_SET = session_key("room_cookie")
_KEEP_JS = f"""
function keep(name, want) {{
  const have = (document.cookie.split("; ").find((c) => c.startsWith(name + "=")) || "")
    .slice(name.length + 1);
  if (want === have) return;
  document.cookie = want
    ? name + "=" + want + "; path=/; SameSite=Strict; max-age={int(cr.ROOM_TTL_S)}"
    : name + "=; path=/; SameSite=Strict; max-age=0";
}}
export default function (component) {{
  const data = component.data || {{}};
  keep("{COOKIE}", data.lecturer || "");
  keep("{SEAT_COOKIE}", data.seat || "");
}}
"""
_keeper = st.components.v2.component(
    "perceptron_class_keeper",
    js=_KEEP_JS,
    css=".st-key-app_class_keeper { display: none; }",
    isolate_styles=False,
)


def keep_seat(session: Session) -> None:
    """The browser keeps the seat in a cookie (SameSite, on this site only): the lecturer's
    code and secret, or a student's code and seat, so a reload keeps the class; a browser
    that holds one it should not (the class ended or was left) drops it. The cookies are
    read once, as the session arrives, not at every run."""
    seat = seat_of(session)
    recap = recap_of(session)
    if seat is not None:
        session[COOKIE_SET] = True
        kind, secret = ("lecturer", seat.secret) if seat.lecturer else ("seat", seat.seat)
        _keeper(key="app_class_keeper", data={kind: f"{seat.code}.{secret}"} if secret else {})
    elif recap is not None:  # a closed class's lecturer: a reload brings its recap back
        session[COOKIE_SET] = True
        _keeper(key="app_class_keeper", data={"lecturer": ".".join(recap)})
    elif session.pop(COOKIE_SET, False):
        _keeper(key="app_class_keeper", data={})  # once: it clears them


def _cookie(cookies: Any, name: str) -> tuple[str, str]:
    """(code text, secret or seat) of a class cookie, or ("", "")."""
    raw = str((cookies or {}).get(name, "") or "")[:200]
    code_text, _, rest = raw.partition(".")
    return code_text, rest


def ended(code: str) -> str:
    """What a page says when the class a link or a cookie names is over."""
    return t("Class {code} has ended: it was closed or it expired.").format(
        code=cr.shown_code(code)
    )


def _from_cookie(session: Session, cookies: Any) -> None:
    """Without ``room=``: the lecturer's cookie reopens their class (a reload of the
    projector's tab); a class cookie, the lecturer's or a student's, of a class that has
    ended says so (and is dropped) instead of leaving the page in no class without a word."""
    code_text, secret = _cookie(cookies, COOKIE)
    seat_code, seat_id = _cookie(cookies, SEAT_COOKIE)
    if code_text or secret:
        session[COOKIE_SET] = True  # kept if it opens the class, else dropped
    code = cr.normal_code(code_text) if secret else None
    # a student's seat cookie: the seat is taken again only with the class's link (room=),
    # so another tab opened without it keeps the cookie for the tab that has it
    theirs = cr.normal_code(seat_code) if seat_id and code is None else None
    named = code or theirs
    if named is None:
        return
    try:
        room = reach(cr.load_room, named)
    except Refused:
        return  # a reload while the store is down: the tab is not the lecturer's until then
    if room is not None and room.closed and code is not None and cr.holds_secret(room, secret):
        session[RECAP] = (code, secret)  # the lecturer's recap, until the room expires
    elif room is None or room.closed:
        session[COOKIE_SET] = True  # dropped
        notice(session, ended(named))
    elif code is not None and cr.holds_secret(room, secret):
        move(session, "reopen", Seat(code=code, role=Role.LECTURER, secret=secret))


def arrive(session: Session, query: Any, cookies: Callable[[], Any] | None = None) -> str | None:
    """On a session's first run: the URL's ``room=`` (a join link: returns the code for the
    join form, unless the browser's seat cookie holds a seat of that class: a student's
    reload takes it again) or ``room=`` + ``key=`` (the lecturer link); without ``room=``,
    the lecturer's cookie (a reload of the projector's tab). A ``seat=`` in the URL gives
    no seat. Bad values say so; nothing raises."""
    if URL in session:
        return None
    session[URL] = {}
    raw = query.get("room") if hasattr(query, "get") else None
    if not raw:
        _from_cookie(session, cookies() if cookies is not None else None)
        return None
    code = cr.normal_code(str(raw)[:40])
    if code is None:
        notice(
            session,
            t("The link's class code {code} is not a class code.").format(
                code=safe(str(raw), limit=20)
            ),
        )
        return None
    key = query.get("key")
    seat_code, seat_id = _cookie(cookies() if cookies is not None else None, SEAT_COOKIE)
    if seat_code:
        session[COOKIE_SET] = True  # kept if it seats the student, else dropped
    if cr.normal_code(seat_code) != code:
        seat_id = ""
    try:
        room = reach(cr.load_room, code)
        if room is None:
            notice(
                session,
                t("No class {code} is open: it ended or expired.").format(code=cr.shown_code(code)),
            )
            return None
        if key:
            if not cr.holds_secret(room, str(key)[:100]):
                notice(session, t("That lecturer link's key is not this class's key."))
                return None if room.closed else code
            if room.closed:  # the class is over: its lecturer sees the recap
                session[RECAP] = (code, str(key))
                return None
            move(session, "reopen", Seat(code=code, role=Role.LECTURER, secret=str(key)))
            return None
        if room.closed:  # a student's old link after the class closed
            notice(session, ended(code))
            return None
        if seat_id and cr.valid_seat(str(seat_id)):
            nick = reach(cr.seat_nick, room, str(seat_id))
            if nick is not None and not room.closed:
                arriving = Seat(code=code, role=Role.FOLLOWING, seat=str(seat_id), nick=nick)
                arriving.answers.update(reach(an.my_answers, room, str(seat_id)))
                move(session, "join", arriving)
                return None
    except Refused as refused:
        notice(session, str(refused))
        return code
    return code  # a join link: the class page offers to join


def start(session: Session) -> str | None:
    """Open a new class with this session as its lecturer; an error sentence or None."""
    if not clients.allow("room", clients.current()):
        return clients.refused("room")
    try:
        room, secret = reach(cr.create_room)
    except Refused as refused:
        return str(refused)
    session.pop(RECAP, None)  # a new class: the last one's recap is on its lecturer link
    move(session, "start", Seat(code=room.code, role=Role.LECTURER, secret=secret))
    return None


def _start_then(session: Session, then: str) -> None:
    """A Start button: the class, and ``then`` (a session key) set for the next run; or
    why not, in the strip."""
    err = start(session)
    if err:
        notice(session, err)
    else:
        session[then] = True


def start_and_go(session: Session) -> None:
    """The sidebar's Start button: the class, then its page once the sidebar is drawn
    (:func:`to_class_page`): a page left in the middle of the sidebar loses the dataset's
    widgets, which the browser then sends back at their minimum."""
    _start_then(session, GO_ROOM)


def start_here(session: Session) -> None:
    """Step by step's Start button: the class, and its join view over the lecture
    (:func:`take_show_join`); the lecturer stays on the page."""
    _start_then(session, SHOW_JOIN)


def show_join(session: Session) -> None:
    """The lecturer's "How to join" button: the join view over the page, once."""
    session[SHOW_JOIN] = True


def take_show_join(session: Session) -> bool:
    """Whether this run opens the join view (asked for since the last run)."""
    return bool(session.pop(SHOW_JOIN, False))


def to_class_page(session: Session) -> None:
    """After the sidebar: a class just started shows its page."""
    if session.pop(GO_ROOM, False):
        st.switch_page(ROOM_PAGE)


def _seats(code: str) -> str:
    return f"seats of {code}"


def _wrong_codes(client: clients.Client) -> bool:
    """Whether ``client``'s browser has used up its codes that open no class (only asked:
    a wrong code is counted when the store says so). Its address's limit is not asked
    here: a hall behind one NAT shares it, and a right code is never refused for the
    wrong codes of someone else (:func:`_wrong_code`)."""
    return not clients.allow("wrong code", client, take=False, browser_only=True)


def _wrong_code(client: clients.Client, code: str) -> str:
    """What a code that opens no class is told: counted against its browser and its
    address; past the address's limit (a guesser behind the hall's address with a fresh
    browser a try), the limit's sentence, and its browser waits as if it had used up its
    own."""
    if clients.allow("wrong code", client):
        return t("No class {code} is open. Check the code on the projector.").format(
            code=cr.shown_code(code)
        )
    while clients.allow("wrong code", client, browser_only=True):
        pass  # the browser's own limit used up: its next try waits for it
    return clients.refused("wrong code")


def _new_seat(client: clients.Client, code: str) -> str | None:
    """A new seat for ``client`` in class ``code``: None, or why not."""
    if not clients.hold(_seats(code), client, SEATS_PER_BROWSER):
        return t(
            "This device already holds {n} seats in this class: use one of its tabs, or Leave "
            "there first."
        ).format(n=number(SEATS_PER_BROWSER))
    if not clients.allow("seat", client):
        clients.give_back(_seats(code), client)
        return clients.refused("seat")
    return None


def _limit(session: Session) -> store_mod.RateLimit:
    lim = session.get(LIMIT)
    if not isinstance(lim, store_mod.RateLimit):
        lim = session[LIMIT] = store_mod.RateLimit(JOIN_RATE, JOIN_BURST)
    return lim


def take_seat(
    client: clients.Client, text: object, nick: object, keep: str | None = None
) -> tuple[str, str] | str:
    """A seat for ``client`` in the class whose code is ``text`` (``keep``: the seat it
    holds in that class already, which it keeps): (code, seat id), or the sentence why
    not. The Streamlit page's join form and the light page's (``ui.lecture.light``) both
    take their seats here."""
    code = cr.normal_code(text)
    if code is None:
        return cr.code_problem(text)
    if _wrong_codes(client):  # this client's recent codes opened nothing: it waits
        return clients.refused("wrong code")
    try:
        room = reach(cr.load_room, code, fresh=True)
        if room is None:
            return _wrong_code(client, code)  # counted against the sender alone
        if keep is None:
            said = _new_seat(client, code)
            if said:
                return said
        try:
            seat_id = reach(
                cr.join, room, cr.clean_nick(nick), keep, net=clients.network_tag(client.address)
            )
        except Refused:
            if keep is None:
                clients.give_back(_seats(code), client)
            raise
    except Refused as refused:
        return str(refused)
    return code, seat_id


def join(session: Session, text: object, nick: object) -> str | None:
    """Join the class whose code is ``text``; an error sentence or None."""
    code = cr.normal_code(text)
    if code is None:
        return cr.code_problem(text)
    if not _limit(session).allow():
        return t("Too many attempts: wait a few seconds and try again.")
    old = seat_of(session)
    keep = old.seat if old is not None and old.code == code else None
    taken = take_seat(clients.current(), code, nick, keep)
    if isinstance(taken, str):
        return taken
    seat_id = taken[1]
    if old is not None and old.lecturer:
        move(session, "leave")  # a lecturer who joins a class as a student leaves their seat
    arriving = Seat(code=code, role=Role.FOLLOWING, seat=seat_id, nick=cr.clean_nick(nick))
    move(session, "join", arriving)
    return None


def ask_to_join(session: Session) -> None:
    """The join form's button (its ``on_click``, before the run): the run that follows
    joins with the form's code and nickname (:func:`join_asked`), early and in its turn of
    the fair share, so it draws the class at once instead of running a second time."""
    session[JOIN_ASKED] = tuple(str(session.get(key) or "")[:40] for key in JOIN_FIELDS)


def join_asked(session: Session) -> None:
    """Early in a run (before anything of the class is drawn): the join the form asked
    for, if any; a refusal is kept for the form to say (:data:`JOIN_SAID`)."""
    asked = session.pop(JOIN_ASKED, None)
    if asked is None:
        return
    code, nick = asked
    said = join(session, code, nick)
    if said:
        session[JOIN_SAID] = said


def leave(session: Session) -> None:
    """Leave the class; a student's seat is given back to the room (if the store cannot be
    reached it is not, and expires with the room)."""
    seat = seat_of(session)
    if seat is not None:
        if not seat.lecturer and seat.seat is not None:
            with contextlib.suppress(Refused):
                reach(cr.leave, seat.code, seat.seat)
                clients.give_back(_seats(seat.code), clients.current())
        move(session, "leave")
    session[URL] = {}


def recap_of(session: Session) -> tuple[str, str] | None:
    """The closed class whose recap this session's lecturer may see: (code, secret)."""
    recap = session.get(RECAP)
    if isinstance(recap, tuple) and len(recap) == 2 and all(isinstance(v, str) for v in recap):
        return recap
    return None


def keep_recap(session: Session, seat: Seat) -> None:
    """The lecturer of a class that has closed keeps its recap (the class page shows it,
    with the summary, until the room expires)."""
    if seat.lecturer and seat.secret:
        session[RECAP] = (seat.code, seat.secret)


def close_class(session: Session) -> str | None:
    """Close the class for every student; its lecturer's page shows the recap next.
    Returns an error sentence or None."""
    seat = seat_of(session)
    if seat is None or not seat.lecturer:
        return t("Only the lecturer of a class can do that.")
    try:
        room = reach(cr.lecturer_update, seat.code, seat.secret, cr.close_room)
    except Refused as refused:
        return str(refused)
    live.tell(room)  # every page of the room hears of its end now
    with contextlib.suppress(Refused):  # else the answers may expire before the recap
        reach(cr.keep_results, room)
    keep_recap(session, seat)
    leave(session)
    return None


def lecturer_do(session: Session, change: Callable[[cr.Room], cr.Room]) -> str | None:
    """A lecturer's action on the room: refused unless this session holds its secret.
    Returns an error sentence or None."""
    seat = seat_of(session)
    if seat is None:
        return t("Only the lecturer of a class can do that.")
    try:
        room = reach(cr.lecturer_update, seat.code, seat.secret, change)
    except Refused as refused:
        return str(refused)
    live.tell(room)  # every page of the room hears of it now
    return None


def asked_here(session: Session) -> tuple[int, int] | None:
    """The class's open question, as (step, point), for the lecture's chart to mark: on
    the projector, and on the page of a student who follows the lecturer (their run is the
    lecturer's, so the point is the same one; the ring says which example, not whether it
    will be a mistake). None for a student exploring a run of their own, with no question
    open, or with a bank question (it asks about no one example)."""
    seat = seat_of(session)
    shows = seat is not None and (seat.lecturer or seat.following)
    room = room_now(session) if shows else None
    q = room.question if room is not None and not room.closed else None
    return None if q is None or q.revealed or q.bank else (q.t, q.point)

"""A class in the room, on every page: the session's seat, the sidebar's class
box, the live strip at the top of the page (the lecturer's question, following the
lecturer) and what the end of a run publishes.

The room itself is :mod:`ui.classmode.classroom` (the store, no Streamlit). A session's seat
(:class:`Seat`, session key ``room_seat``) says which room it is in and as whom: the
lecturer holds the room's secret, a student a seat id. The URL carries ``room=<code>`` and,
for a student, ``seat=<id>``, so a reload keeps the seat; the lecturer's secret never goes
in the URL (the projector shows it): a private "lecturer link" ``?room=<code>&key=<secret>``
reopens the room, and its key is dropped from the address bar at once.

The live strip is a fragment that runs every second (:data:`POLL_S`) in a joined session.
A run that finds nothing new reads the room from the process's recent copy (one store read
per process every ``classroom.RECENT_S``) and draws only what it drew before.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import numpy as np
import plotly.graph_objects as go
import streamlit as st

import perceptron_store as store_mod
from ui.app import links
from ui.app.state import (
    LINK_PARAM,
    NOTICES,
    SETTINGS,
    Session,
    assign,
    session_key,
    to_query,
)
from ui.classmode import classroom as cr
from ui.classmode import push
from ui.look.numbers import AXIS, signed, vector_text
from ui.look.palette import MINUS, PLUS, W_COLOUR
from ui.look.plots import CHART, as_figure
from ui.look.style import page_style
from ui.look.text import safe
from ui.server.internals import running_fragment, testid

SEAT = session_key("room_seat")
LIMIT = session_key("room_limit")
URL = session_key("room_url")
HOOKS = session_key("room_hooks")
POLL_S = 1.0  # the lecturer's strip reads the answers this often (one session per class)
# A student's strip is rerun when its room changes (ui.classmode.push: one store read per room and
# server every push.WATCH_S); it also runs this often by itself, in case a rerun is lost.
HEARTBEAT_S = 30.0
ROOM_PAGE = "pages/room.py"
GO_ROOM = session_key("room_go")
LECTURE_PAGE = "lecture"  # the page a student follows the lecturer on (its url_path)
ROOM_URL = "room"  # the class page's url_path
JOIN_RATE, JOIN_BURST = 0.2, 5  # a session's join attempts: 5 at once, then one every 5 s
# every session's wrong codes together, per process: past this rate, no code is looked up
# for FLOOD_S (a guesser with many tabs gets 20 tries a second per server, at most)
FAILED = store_mod.RateLimit(20.0, 100)
FLOOD_S = 2.0
_FLOOD_UNTIL = [0.0]
ACT_RATE, ACT_BURST = 2.0, 10  # a seat's answers and submissions (each is a store write)
PUBLISH_RATE, PUBLISH_BURST = 4.0, 20  # the lecturer's changes written to the room


def _is_step(key: str) -> bool:
    """The lecture's step: the lecture page sets it (:func:`take_step`), never this module
    (ui.lecture.restart owns it)."""
    return SETTINGS[key].label == "step"


# What a follower takes from the lecturer: the shared dataset and the lecture's run settings
# and step (the URL form of ``data_*`` and ``lec_*``), and ``data=<id>``; and the step's key.
LECTURE_KEYS = frozenset((LINK_PARAM, *(k for k in SETTINGS if k.startswith(("data_", "lec_")))))
STEP_KEY = next(k for k in sorted(LECTURE_KEYS) if k != LINK_PARAM and _is_step(k))


def lecture_subset(query: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in query.items() if k in LECTURE_KEYS}


@dataclass
class Seat:
    """Which room this session is in, and as whom."""

    code: str
    secret: str | None = None  # the lecturer's
    seat: str | None = None  # a student's seat id
    nick: str = ""
    following: bool = True
    applied: int = -1  # the lecturer's change (Room.lecture_n) applied last
    applied_query: dict[str, str] | None = None  # what it set, to see the student's own changes
    fresh: bool = False  # applied in this run: take the page's reading of it as the reference
    published: dict[str, str] | None = None  # the lecturer's: what the room holds
    answers: dict[int, tuple[bool, str | None]] = field(default_factory=dict)
    submitted: dict[int, str] = field(default_factory=dict)  # challenge id -> what was said
    dismissed: set[int] = field(default_factory=set)  # revealed questions the student hid
    redraw: bool = False  # an action in the strip changed the page (the reveal's step)
    said: str | None = None  # why the strip's last action was refused, shown once
    pending: dict[str, str] | None = None  # the lecturer's lecture, applied as the next run starts
    followed: dict[str, str] | None = None  # the lecturer's lecture applied last (its URL form)
    step: int | None = None  # the lecturer's step, for the lecture page to take (take_step)
    publish_limit: store_mod.RateLimit = field(
        default_factory=lambda: store_mod.RateLimit(PUBLISH_RATE, PUBLISH_BURST)
    )
    act_limit: store_mod.RateLimit = field(
        default_factory=lambda: store_mod.RateLimit(ACT_RATE, ACT_BURST)
    )

    @property
    def lecturer(self) -> bool:
        return self.secret is not None


def seat_of(session: Session) -> Seat | None:
    s = session.get(SEAT)
    return s if isinstance(s, Seat) else None


def _say(session: Session, text: str) -> None:
    """A sentence for the class strip's next run (an action of the strip was refused)."""
    seat = seat_of(session)
    if seat is not None:
        seat.said = text


def _notice(session: Session, text: str) -> None:
    session.setdefault(NOTICES, []).append(text)


def _url(session: Session, seat: Seat | None) -> None:
    """The URL's room parameters (``state.to_query`` writes them)."""
    if seat is None:
        session[URL] = {}
    elif seat.lecturer:
        session[URL] = {}  # the projector's address bar shows no secret and no code
    else:
        session[URL] = {"room": seat.code, "seat": seat.seat or ""}


def _limit(session: Session) -> store_mod.RateLimit:
    lim = session.get(LIMIT)
    if not isinstance(lim, store_mod.RateLimit):
        lim = session[LIMIT] = store_mod.RateLimit(JOIN_RATE, JOIN_BURST)
    return lim


# ----------------------------------------------------------------------------- arriving


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
        room = links.call(cr.load_room, code)
    except store_mod.StoreDown:
        return
    if room is not None and not room.closed and cr.holds_secret(room, secret):
        seat = Seat(code=code, secret=secret)
        session[SEAT] = seat
        _url(session, seat)


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
        _notice(session, f"The link's class code {safe(str(raw), limit=20)} is not a class code.")
        return None
    key, seat_id = query.get("key"), query.get("seat")
    try:
        room = links.call(cr.load_room, code)
        if room is None:
            _notice(session, f"No class {cr.shown_code(code)} is open: it ended or expired.")
            return None
        if key:
            if not cr.holds_secret(room, str(key)[:100]):
                _notice(session, "That lecturer link's key is not this class's key.")
                return code
            seat = Seat(code=code, secret=str(key))
            session[SEAT] = seat
            _url(session, seat)
            return None
        if seat_id and cr.valid_seat(str(seat_id)):
            nick = links.call(cr.seat_nick, room, str(seat_id))
            if nick is not None and not room.closed:
                seat = Seat(code=code, seat=str(seat_id), nick=nick)
                session[SEAT] = seat
                _url(session, seat)
                return None
    except store_mod.StoreDown:
        _notice(session, "The class cannot be reached right now (the app's store is down).")
        return code
    return code  # a join link: the class page offers to join


# ----------------------------------------------------------------------------- actions


def start(session: Session) -> str | None:
    """Open a new class with this session as its lecturer; an error sentence or None."""
    try:
        room, secret = links.call(cr.create_room)
    except store_mod.StoreDown:
        return "A class cannot be started right now: the app's store cannot be reached."
    seat = Seat(code=room.code, secret=secret)
    session[SEAT] = seat
    _url(session, seat)
    return None


def _start(session: Session) -> None:
    """The sidebar's Start button: the class, then its page once the sidebar is drawn
    (:func:`to_class_page`; leaving in the middle of the sidebar lost its dataset widgets,
    which the browser then sent back at their minimum)."""
    err = start(session)
    if err:
        _notice(session, err)
    else:
        session[GO_ROOM] = True


def to_class_page(session: Session) -> None:
    """After the sidebar: a class just started shows its page."""
    if session.pop(GO_ROOM, False):
        st.switch_page(ROOM_PAGE)


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
        room = links.call(cr.load_room, code, fresh=True)
        if room is None:
            if not FAILED.allow():  # a flood of wrong codes: stop looking codes up a while
                _FLOOD_UNTIL[0] = time.monotonic() + FLOOD_S
            return f"No class {cr.shown_code(code)} is open. Check the code on the projector."
        old = seat_of(session)
        keep = old.seat if old is not None and old.code == code else None
        seat_id = links.call(cr.join, room, cr.clean_nick(nick), keep)
    except store_mod.StoreDown:
        return "The class cannot be reached right now (the app's store is down); try again."
    except cr.RoomError as exc:
        return str(exc)
    seat = Seat(code=code, seat=seat_id, nick=cr.clean_nick(nick))
    session[SEAT] = seat
    _url(session, seat)
    return None


def leave(session: Session) -> None:
    session.pop(SEAT, None)
    _url(session, None)


def lecturer_do(session: Session, change: Callable[[cr.Room], cr.Room]) -> str | None:
    """A lecturer's action on the room: refused unless this session holds its secret.
    Returns an error sentence or None."""
    seat = seat_of(session)
    if seat is None:
        return "Only the lecturer of a class can do that."
    try:
        links.call(cr.lecturer_update, seat.code, seat.secret, change)
    except store_mod.StoreDown:
        return "The class cannot be reached right now (the app's store is down); try again."
    except cr.RoomError as exc:
        return str(exc)
    return None


def room_now(session: Session) -> cr.Room | None:
    seat = seat_of(session)
    if seat is None:
        return None
    try:
        return links.call(cr.load_room, seat.code)
    except store_mod.StoreDown:
        return None


def asked_here(session: Session) -> tuple[int, int] | None:
    """The lecturer's open question, as (step, point), for the projector's chart to mark;
    None for anyone else, or with no question open."""
    seat = seat_of(session)
    room = room_now(session) if seat is not None and seat.lecturer else None
    q = room.question if room is not None and not room.closed else None
    return None if q is None or q.revealed else (q.t, q.point)


# ----------------------------------------------------------------------------- following


def apply_lecture(session: Session, query: dict[str, str]) -> None:
    """Make the lecturer's lecture (URL form, validated here like a URL) this session's:
    the dataset, the lecture's settings and step. A value that does not parse keeps the
    default, as a tampered URL does."""
    for key in sorted(LECTURE_KEYS):
        if key in (LINK_PARAM, STEP_KEY):
            continue  # the step is the lecture page's to set (take_step)
        setting = SETTINGS[key]
        value = setting.default
        raw = query.get(key)
        if raw is not None:
            try:
                value = setting.parse(str(raw)[:200])
            except (ValueError, TypeError, OverflowError):
                value = setting.default
        assign(session, key, value)
    link = query.get(LINK_PARAM)
    if link and store_mod.valid_id(link):
        if link != session.get(links.LINKED):
            links.open_link(session, link)
    else:
        session.pop(links.CUSTOM, None)
        session[links.LINKED] = None
    seat = seat_of(session)
    if seat is not None:
        seat.step = _step_of(query)


def take_step(session: Session) -> int | None:
    """The followed lecturer's step, once (the lecture page goes to it after it has
    restarted a run whose data or settings changed)."""
    seat = seat_of(session)
    if seat is None or seat.step is None:
        return None
    step, seat.step = seat.step, None
    return int(step)


def follow_now(session: Session, room: cr.Room) -> bool:
    """A following student whose lecture is behind the lecturer's: catch up as the next
    run starts (:func:`before_run`, before any widget). True if the page must run again."""
    seat = seat_of(session)
    if seat is None or seat.lecturer or not seat.following or room.lecture_n == seat.applied:
        return False
    if not room.lecture:
        return False
    seat.pending = room.lecture_query
    seat.applied = room.lecture_n
    return True


def before_run(session: Session) -> None:
    """As a run starts (before any widget): apply the lecturer's lecture the strip found."""
    seat = seat_of(session)
    if seat is None or seat.pending is None:
        return
    query, seat.pending = seat.pending, None
    apply_lecture(session, query)
    seat.applied_query = seat.followed = lecture_subset(query)
    seat.fresh = True


def follow_here(session: Session) -> int | None:
    """In the lecture's instrument (a fragment) of a following student: the lecturer's
    step, when only the step changed (the instrument moves to it without a page run); a
    change of data or settings runs the whole page (``follow_now``). The instrument is
    rerun by the server when the lecturer's lecture changes (ui.classmode.push)."""
    seat = seat_of(session)
    if seat is None or seat.lecturer:
        return None
    where = running_fragment()
    try:
        room = links.call(cr.load_room, seat.code)
    except store_mod.StoreDown:
        if where is not None:  # rerun as soon as the room can be read again
            WATCH.here(seat.code, *where, shown=None, topic="lecture")
        return None  # the page goes on by itself; the strip says why
    if where is not None:
        WATCH.here(seat.code, *where, shown=parts_shown(room)["lecture"], topic="lecture")
    if room is None or room.closed:
        st.rerun(scope="app")  # the class ended: the strip says so, in a page run
    if not seat.following or room.lecture_n == seat.applied or not room.lecture:
        return None
    now = lecture_subset(room.lecture_query)
    mine = seat.applied_query
    if seat.followed is None or mine is None or _unstepped(now) != _unstepped(seat.followed):
        follow_now(session, room)
        st.rerun(scope="app")  # other data or settings: the whole page, from the next run
    step = _step_of(now)
    seat.applied, seat.followed = room.lecture_n, now
    # this page's own URL form of the run, at the new step (the default step is not written)
    seat.applied_query = _unstepped(mine)
    if step != SETTINGS[STEP_KEY].default:
        seat.applied_query[STEP_KEY] = str(step)
    return step


def _unstepped(query: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in query.items() if k != STEP_KEY}


def _step_of(query: dict[str, str]) -> int:
    try:
        return int(SETTINGS[STEP_KEY].parse(str(query.get(STEP_KEY, "0"))[:20]))
    except ValueError:
        return 0


def following(session: Session) -> bool:
    """A student following the lecturer (their lecture's settings are the lecturer's)."""
    seat = seat_of(session)
    return seat is not None and not seat.lecturer and seat.following


def set_following(session: Session, on: bool) -> None:
    seat = seat_of(session)
    if seat is not None:
        seat.following = on
        seat.applied = -1  # following again catches up at once
        seat.applied_query = None  # and the run before it is not "a change of the student's"


def end_of_run(session: Session, toast: Callable[[str], None]) -> None:
    """At the end of a run: a following student who changed the lecture stops following;
    the lecturer's lecture is published to the room when it changed."""
    seat = seat_of(session)
    if seat is None:
        return
    now = lecture_subset(to_query(session))
    if not seat.lecturer:
        if seat.fresh:
            seat.applied_query, seat.fresh = now, False
        elif seat.following and seat.applied_query is not None and now != seat.applied_query:
            seat.following = False
            toast("You changed the run yourself: no longer following the lecturer.")
        return
    if now == seat.published or not seat.publish_limit.allow():
        return  # nothing new, or a burst of changes: the live strip publishes the last one
    err = lecturer_do(session, lambda room: cr.publish(room, now))
    if err is None:
        seat.published = now


# ----------------------------------------------------------------------------- the question


def question_figure(q: cr.Question) -> go.Figure:
    """The next example and the line before the step (and after it, once revealed)."""
    x = np.asarray(q.x, dtype=float)
    w = np.asarray(q.w, dtype=float)
    span = max(1.0, float(np.abs(x).max()) * 1.6)
    bias = len(q.z) > len(q.x)
    traces: list[dict[str, Any]] = []
    lines = [("line before the step", w, "solid", W_COLOUR)]
    if q.revealed and q.mistake:
        lines.append(("line after the step", w + q.eta * q.y * np.asarray(q.z), "dash", "#555"))
    for name, v, dash, colour in lines:
        seg = _line(v, bias, span)
        if seg is not None:
            traces.append(
                {
                    "type": "scatter",
                    "x": seg[0],
                    "y": seg[1],
                    "mode": "lines",
                    "name": name,
                    "line": {"dash": dash, "color": colour, "width": 3},
                    "hoverinfo": "skip",
                }
            )
    plus = q.y > 0
    traces.append(
        {
            "type": "scatter",
            "x": [float(x[0])],
            "y": [float(x[1])],
            "mode": "markers+text",
            "name": f"point {q.point + 1}, y = {'+1' if plus else '−1'}",
            "text": [f"point {q.point + 1} ({'+1' if plus else '−1'})"],
            "textposition": "top center",
            "hoverinfo": "skip",
            "marker": {
                "size": 18,
                "color": PLUS if plus else MINUS,
                "symbol": "circle" if plus else "x",
                "line": {"width": 1, "color": "#fff"},
            },
        }
    )
    axis = {"range": [-span, span], "zeroline": True, **AXIS}
    notes = []
    if _line(w, bias, span) is None:
        notes.append(
            {
                "text": "w = 0: no line yet",
                "x": 0.02,
                "y": 0.98,
                "xref": "paper",
                "yref": "paper",
                "showarrow": False,
                "xanchor": "left",
                "yanchor": "top",
            }
        )
    return as_figure(
        {
            "data": traces,
            "layout": {
                "height": 300,
                "margin": {"l": 40, "r": 10, "t": 10, "b": 40},
                "xaxis": {**axis, "title": {"text": "x₁"}},
                "yaxis": {**axis, "title": {"text": "x₂"}, "scaleanchor": "x"},
                "legend": {"orientation": "h", "y": -0.2},
                "showlegend": True,
                "annotations": notes,
            },
        }
    )


def _line(w: np.ndarray, bias: bool, span: float) -> tuple[list[float], list[float]] | None:
    """Two ends of w₁x₁ + w₂x₂ + b = 0 within the square (None if there is no line)."""
    a, b = float(w[0]), float(w[1])
    c = float(w[2]) if bias and len(w) > 2 else 0.0
    if math.hypot(a, b) == 0.0:
        return None
    if abs(b) >= abs(a):
        xs = [-3 * span, 3 * span]  # past the axes' range: the line crosses the whole chart
        return xs, [-(a * v + c) / b for v in xs]
    ys = [-3 * span, 3 * span]
    return [-(b * v + c) / a for v in ys], ys


def question_text(q: cr.Question) -> str:
    """The question in words (the chart's text alternative)."""
    sign = "+1" if q.y > 0 else "−1"
    return (
        f"At step t = {q.t + 1} the perceptron is shown point {q.point + 1}, "
        f"z = {vector_text(q.z)} with label y = {sign}, and w = {vector_text(q.w)}. "
        "Will it be a mistake?"
    )


def truth_text(q: cr.Question) -> str:
    m = q.margin
    if not q.mistake:
        return f"No mistake: y·w·z = {signed(m)}, so w stays and the line does not move."
    rule = " ≤ 0" if q.rule == "nonpositive" else ""
    turn = (
        f"the line turned {cr.TURN_WORDS[q.turn]}"
        if q.turn != "none"
        else "the line did not turn (it appeared, or only moved)"
    )
    return f"It was a mistake: y·w·z = {signed(m)}{rule}, so w ← w + η·y·z and {turn}."


ANSWERS = {"mistake": True, "no mistake": False}


def _answer(session: Session, qid: int, key_m: str, key_t: str) -> None:
    seat = seat_of(session)
    said = session.get(key_m)
    turn = session.get(key_t)
    if seat is None or said not in ANSWERS:
        return
    turn_code = next((k for k, v in cr.TURN_WORDS.items() if v == turn), None)
    if not seat.act_limit.allow():
        _say(session, "Many answers at once: your last one was not counted; answer again.")
        return
    try:
        room = links.call(cr.load_room, seat.code, fresh=True)
        if room is None:
            raise cr.RoomError("This class is no longer open.")
        links.call(cr.answer, room, seat.seat or "", qid, ANSWERS[said], turn_code)
    except (cr.RoomError, store_mod.StoreDown) as exc:
        msg = str(exc) if isinstance(exc, cr.RoomError) else "The store is down: not counted."
        _say(session, msg)
        return
    seat.answers[qid] = (ANSWERS[said], turn_code)


def question_card(session: Session, q: cr.Question) -> None:
    """A student's card: the next example, and the answer, then the truth with theirs."""
    seat = seat_of(session)
    mine = seat.answers.get(q.id) if seat is not None else None
    box = st.container(border=True, key=f"room_card_{q.id}")
    box.markdown(f"**Question {q.id} from the lecturer.** {question_text(q)}")
    box.plotly_chart(
        question_figure(q),
        config={**CHART, "displayModeBar": False},
        key=f"room_qfig_{q.id}_{int(q.revealed)}",
    )
    if not q.revealed:
        key_m, key_t = f"room_q{q.id}_said", f"room_q{q.id}_turn"
        c1, c2 = box.columns(2)
        c1.pills(
            "Will it be a mistake?",
            list(ANSWERS),
            key=key_m,
            on_change=_answer,
            args=(session, q.id, key_m, key_t),
        )
        c2.pills(
            "If so, which way will the line turn? (optional)",
            [cr.TURN_WORDS[t] for t in cr.TURNS],
            key=key_t,
            on_change=_answer,
            args=(session, q.id, key_m, key_t),
        )
        if mine is not None:
            box.caption(
                f"Counted: you said {'mistake' if mine[0] else 'no mistake'}"
                + (f", {cr.TURN_WORDS[mine[1]]}" if mine[1] else "")
                + ". You can change your answer until the lecturer reveals it."
            )
        return
    box.markdown(f"**Answer:** {truth_text(q)}")
    if mine is None:
        box.caption("You did not answer this one.")
    else:
        right = mine[0] == q.mistake
        turn = "" if mine[1] is None else f", {cr.TURN_WORDS[mine[1]]}"
        box.markdown(
            f"**Yours:** {'mistake' if mine[0] else 'no mistake'}{turn} — "
            + ("✓ right." if right else "✗ not this time.")
        )


# ----------------------------------------------------------------------------- the sidebar


def sidebar_box(session: Session) -> None:
    """The sidebar's class box on every page: start or join a class, or the class in.

    One block in the sidebar whatever it holds: when its contents change (a class started,
    the box opened), the dataset's widgets under it keep their places (shifted one place,
    the browser drew the number-of-points and margin sliders at their minimum and sent
    those values, so a lecturer who started a class had 4 points)."""
    sb = st.sidebar.container(key="app_class")
    seat = seat_of(session)
    if seat is None:
        # A stateful (lazy, on_change="rerun") expander here made the browser send the
        # dataset's sliders back at their minimum after "Start a class" (a lecturer had 4
        # points; tests/browser/test_room.py): this one is sent whole, closed
        with sb.expander("Class mode", icon=":material/school:"):
            st.caption("A lecturer starts a class; students join it with its code or QR code.")
            st.button(
                "Start a class",
                key="room_start",
                icon=":material/co_present:",
                on_click=_start,
                args=(session,),
            )
            st.page_link(ROOM_PAGE, label="Join a class", icon=":material/login:")
        return
    nick = safe(seat.nick) or "a student"
    who = "you are its lecturer" if seat.lecturer else f"you joined as {nick}"
    sb.info(f"Class **{cr.shown_code(seat.code)}**: {who}.", icon=":material/school:")
    sb.page_link(ROOM_PAGE, label="The class page", icon=":material/school:")


# ----------------------------------------------------------------------------- the live strip


def public_url() -> str:
    """The address students' phones open: ``PERCEPTRON_PUBLIC_URL`` if set, else the
    address the lecturer's browser is on (its scheme, host and port)."""
    env = os.environ.get("PERCEPTRON_PUBLIC_URL", "").strip()
    if env:
        return env.rstrip("/")
    url = str(getattr(st.context, "url", "") or "")
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return "http://localhost:8501"
    return f"{parts.scheme}://{parts.netloc}"


def join_url(code: str) -> str:
    return f"{public_url()}/room?room={code}"


@dataclass(frozen=True)
class LectureHooks:
    """What the lecture page lends the lecturer's strip: the question at its step (or why
    there is none), and a step to go to at the reveal."""

    question: Callable[[], cr.Question | str]
    step_to: Callable[[int], None]


def lend(session: Session, hooks: LectureHooks | None) -> None:
    """The page on show lends its hooks (the lecture page), or none (every other page)."""
    if hooks is None:
        session.pop(HOOKS, None)
    else:
        session[HOOKS] = hooks


def parts_shown(room: cr.Room | None) -> dict[str, Hashable]:
    """What a student's page shows of ``room``, by part (ui.classmode.push's topics): the strip (the
    question, the challenge) and the lecture (the lecturer's run and step, followed by the
    lecture's instrument, ``follow_here``); each part is rerun when its value changes."""
    if room is None:
        return {"strip": "gone", "end": "gone", "lecture": "gone"}
    q, c = room.question, room.challenge
    return {
        "strip": (
            room.closed,
            None if q is None else (q.id, q.revealed),
            None if c is None else (c.id, c.open),
        ),
        "end": room.closed,  # the strip on Step by step: only the class's end
        "lecture": (room.closed, room.lecture_n, None if q is None else (q.id, q.revealed)),
    }


def _version(code: str) -> dict[str, Hashable]:
    return parts_shown(links.call(cr.load_room, code, fresh=True))


WATCH = push.Watch(_version)


def live(session: Session, page: str) -> None:
    """The class strip at the top of every page of a joined session (a fragment that runs
    every POLL_S): the lecturer's code, count, question and tally; a student's question
    card and following."""
    seat = seat_of(session)
    if seat is None:
        return
    try:
        room = links.call(cr.load_room, seat.code)
    except store_mod.StoreDown:
        st.caption("The class cannot be reached right now; this page goes on by itself.")
        return
    if room is None or room.closed:
        leave(session)
        _notice(session, f"Class {cr.shown_code(seat.code)} has ended. The page is yours again.")
        st.rerun(scope="app")
    if seat.redraw:
        seat.redraw = False
        st.rerun(scope="app")
    if seat.said:
        st.warning(seat.said, icon=":material/warning:")
        seat.said = None
    if seat.lecturer:
        if page != ROOM_URL:  # the class page is the projector's view of it all
            _lecturer_strip(session, seat, room)
        return
    where = running_fragment()
    if page == LECTURE_PAGE:
        # On Step by step the lecture's instrument shows the question and follows the
        # lecturer (lecture_card, follow_here): ui.classmode.push reruns it, not this strip, so a
        # reveal (the answer and the step) is one fragment run, not a strip and a page run
        if where is not None:
            WATCH.drop(seat.code, where[0], "strip")
            WATCH.here(seat.code, *where, shown=parts_shown(room)["end"], topic="end")
        if follow_now(session, room):
            st.rerun(scope="app")  # behind the lecturer (a lost rerun): the page runs
        _follow_line(session, seat, room)
        return
    if where is not None:
        WATCH.here(seat.code, *where, shown=parts_shown(room)["strip"])  # rerun it on a change
        WATCH.drop(seat.code, where[0], "end")
    _card(session, seat, room)


def _card(session: Session, seat: Seat, room: cr.Room) -> None:
    q = room.question
    if q is not None and q.id not in seat.dismissed:
        question_card(session, q)
        if q.revealed:
            st.button(
                "Hide this question",
                key=f"room_hide_{q.id}",
                on_click=seat.dismissed.add,
                args=(q.id,),
            )


def lecture_card(session: Session) -> None:
    """The lecturer's question in the lecture's instrument of a joined student (beside the
    chart); the instrument is rerun when the question or the lecture changes."""
    seat = seat_of(session)
    if seat is None or seat.lecturer:
        return
    room = room_now(session)
    if room is not None and not room.closed:
        _card(session, seat, room)


def _follow_line(session: Session, seat: Seat, room: cr.Room) -> None:
    c1, c2 = st.columns([3, 1], vertical_alignment="center")
    if seat.following:
        c1.caption(
            f"Following the lecturer of class {cr.shown_code(room.code)}: their data, "
            "settings and step."
        )
        c2.button(
            "Explore on my own",
            key="room_unfollow",
            on_click=set_following,
            args=(session, False),
            icon=":material/explore:",
        )
    else:
        c1.caption("Exploring on your own. Follow the lecturer to catch up with their step.")
        c2.button(
            "Follow the lecturer",
            key="room_follow",
            on_click=set_following,
            args=(session, True),
            icon=":material/sync:",
        )


def _lecturer_strip(session: Session, seat: Seat, room: cr.Room) -> None:
    if seat.published is not None and room.lecture_query != seat.published:
        end_of_run(session, lambda text: None)  # a publish the rate limit held back
    try:
        count = links.call(cr.members, room)
    except store_mod.StoreDown:
        count = 0
    _strip_style()
    box = st.container(border=True, key="room_strip")
    hooks = session.get(HOOKS) if isinstance(session.get(HOOKS), LectureHooks) else None
    q = room.question
    head = box.columns([4, 1.3], vertical_alignment="center")
    head[0].markdown(
        f"Class **{cr.shown_code(room.code)}** · **{count}** "
        f"{'student' if count == 1 else 'students'} · join at {safe(public_url())}/room"
    )
    if hooks is None:
        head[1].caption("Ask questions from *Step by step*.")
    else:  # Ask with no question open, else Reveal
        label, key, act, icon = (
            ("Ask the class", "room_ask", _ask, ":material/help:")
            if q is None or q.revealed
            else ("Reveal", "room_reveal", _reveal, ":material/visibility:")
        )
        head[1].button(
            label,
            key=key,
            on_click=act,
            args=(session, hooks),
            icon=icon,
            type="primary",
            width="stretch",
        )
    if q is not None and not q.revealed:
        with box:
            _tally_bars(room, q, count)
    elif q is not None:
        box.caption(f"Question {q.id}: {truth_text(q)}")


# the lecturer's strip is read from the back of a lecture hall: its text a step larger
_strip_style = page_style(
    "room_strip",
    """
.st-key-room_strip MARKDOWN p,
.st-key-room_strip PROGRESS p { font-size: 1.2rem; }
""".replace("MARKDOWN", testid("stMarkdownContainer")).replace("PROGRESS", testid("stProgress")),
)


def _tally_bars(room: cr.Room, q: cr.Question, count: int) -> None:
    """The answers so far, live: how many answered, and each answer's share as a bar with
    its words and numbers (the colour is never the only cue)."""
    try:
        t = cr.tally(links.call(cr.answers_of, room, q.id))
    except store_mod.StoreDown:
        st.caption("Answers cannot be read right now.")
        return
    sign = "+1" if q.y > 0 else "−1"
    st.markdown(
        f"**Question {q.id}:** will point {q.point + 1}, x = {vector_text(q.x)} with "
        f"y = {sign}, be a mistake at step t = {q.t + 1}?"
    )
    cols = st.columns([1.2, 2, 2], vertical_alignment="center")
    cols[0].markdown(f"**{t.answered}** of {count} answered")
    for col, (label, n) in zip(
        cols[1:], (("mistake", t.mistake), ("no mistake", t.no_mistake)), strict=True
    ):
        col.progress(t.share(n), text=f"{label}: {n} ({t.share(n):.0%})")
    turns = ", ".join(f"{cr.TURN_WORDS[k]} {v}" for k, v in t.turns.items() if v)
    if turns:
        st.caption(f"Which way the line turns: {turns}.")


def _ask(session: Session, hooks: LectureHooks) -> None:
    made = hooks.question()
    if isinstance(made, str):
        _say(session, made)
        return
    err = lecturer_do(session, lambda room: cr.ask(room, made))
    if err:
        _say(session, err)
        return
    seat = seat_of(session)
    if seat is not None:
        seat.redraw = True  # the page runs: the projector's chart marks the example asked


def _reveal(session: Session, hooks: LectureHooks) -> None:
    """Reveal the answer and step the lecture past the example, in one write of the room
    (the students' strips run once for both)."""
    seat = seat_of(session)
    room = room_now(session)
    q = room.question if room is not None else None
    if seat is None or q is None:
        _say(session, "There is no open question to reveal.")
        return
    after = {**(seat.published or {}), STEP_KEY: str(q.t + 1)}
    err = lecturer_do(session, lambda r: cr.publish(cr.reveal(r), after))
    if err:
        _say(session, err)
        return
    seat.published = after
    hooks.step_to(q.t + 1)  # the lecturer's page shows the step the followers are shown
    seat.redraw = True


# ----------------------------------------------------------------------------- the challenge


def open_challenge(session: Session) -> tuple[Seat, cr.Challenge] | None:
    """A student's seat and their class's open challenge, if there is one."""
    seat = seat_of(session)
    if seat is None or seat.lecturer:
        return None
    room = room_now(session)
    if room is None or room.closed or room.challenge is None or not room.challenge.open:
        return None
    return seat, room.challenge


def submit_set(
    session: Session,
    X: np.ndarray,
    y: np.ndarray,
    *,
    cid: int,
    gamma: float | None,
    R: float,
    bound: float | None,
    M: int,
    converged: bool,
    reason: str | None,
) -> tuple[bool, str]:
    """Submit the points (X, y) to the open challenge ``cid``, with the numbers the server
    measured on them with the challenge's settings. Returns (kept, sentence)."""
    seat = seat_of(session)
    if seat is None or seat.lecturer or not seat.seat:
        return False, "Join a class first."
    if not seat.act_limit.allow():
        return False, "Many submissions at once: wait a few seconds and submit again."
    try:
        room = links.call(cr.load_room, seat.code, fresh=True)
        if room is None or room.challenge is None or room.challenge.id != cid:
            return False, "That challenge is no longer open."
        refusal = cr.judge(
            room.challenge, n=len(y), gamma=gamma, converged=converged, reason=reason
        )
        if refusal is not None:
            return False, refusal
        assert gamma is not None and bound is not None
        data = links.call(store_mod.save_dataset, X, y)
        sub = cr.Submission(
            seat=seat.seat,
            nick=seat.nick,
            data=data,
            n=len(y),
            M=int(M),
            bound=float(bound),
            gamma=float(gamma),
            R=float(R),
            at=time.time(),
        )
        links.call(cr.submit, room, sub, cid)
        ranked = links.call(cr.submissions, room, cid)
    except store_mod.StoreDown:
        return False, "The class cannot be reached right now (the app's store is down)."
    except cr.RoomError as exc:
        return False, str(exc)
    except ValueError as exc:  # the store's caps on a dataset
        return False, safe(exc, limit=160)
    rank = next((i for i, s in enumerate(ranked, 1) if s.seat == seat.seat), len(ranked))
    said = (
        f"Submitted: M = {M} mistakes, bound (R/γ)² = {bound:.3g}. "
        f"You are number {rank} of {len(ranked)} in the room."
    )
    seat.submitted[cid] = said
    return True, said

"""Following the lecturer: the lecturer's lecture published to the room, and a following
student's session taking it (the dataset, the lecture's settings and step).

The lecturer's end of every run publishes the lecture's URL form when it changed
(:func:`end_of_run`). A following student's strip finds the change; a change of data or
settings is applied as the next run starts, before any widget (:func:`follow_now`,
:func:`before_run`); a change of the step alone moves the lecture's instrument, a
fragment, without a page run (:func:`follow_here`). A student who changes the run
themselves stops following (``explore``). Each student's page hears of the room's changes
on the class's live channel (``ui.classmode.live``): the lecture's instrument draws a
step its scene holds by itself, and reruns for anything else.

Play is followed as a clock, not as a stream of steps: the lecturer's browser steps by
itself while it plays and tells its server only "playing from step t at s steps a second"
as Play starts (and where it stopped, as it stops: :func:`lead_play`); the room keeps it
with the time the lecturer's server heard it (``Room.playing``). A follower's server
sends its browser where the lecturer is now and how long ago the play started, by its own
clock (:func:`play_along`); the browser plays on from there by its own clock, and stops
where the lecturer stopped. Two things keep the room on the lecturer's step. The lecturer's
Play starts a moment after the press (``player.js``'s count-in, at most
:data:`MAX_LEAD_IN_S`), so the phones hear of it before it starts. And each message carries
the server's clock as it was sent: a browser adds how much later than its quickest message
so far this one arrived (a page run, a busy moment), judged from differences of the two
clocks only, never from their times. The servers of one class keep the same wall-clock
time (NTP), as the question's opening time already assumes (``classroom.CLOCK_SLACK_S``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import streamlit as st

import perceptron_store as store_mod
from ui.app import links
from ui.app.state import LINK_PARAM, SETTINGS, Session, assign, to_query
from ui.classmode import classroom as cr
from ui.classmode import live
from ui.classmode.arrive import lecturer_do
from ui.classmode.live import LECTURE_KEYS, STEP_KEY, parts_shown
from ui.classmode.seat import Refused, Seat, move, reach, room_now, seat_of
from ui.words import N_, t

LECTURE_PAGE = "lecture"  # the page a student follows the lecturer on (its url_path)
MAX_RATE = 60.0  # steps a second a lecturer's Play may report (the player offers 2, 8, 30)
MAX_PLAY_S = 3 * 3600.0  # a Play's age as its browser says it: at most a long lecture's
# A lecturer's Play starts a moment after the press (player.js's count-in), so that the
# room's phones hear of it before it starts: its browser reports it this many seconds
# ahead at most.
MAX_LEAD_IN_S = 2.0


def lecture_subset(query: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in query.items() if k in LECTURE_KEYS}


__all__ = ["LECTURE_KEYS", "STEP_KEY", "parts_shown"]  # kept here for its callers


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
    if seat is None or not seat.following or room.lecture_n == seat.applied:
        return False
    if not room.lecture_n:
        return False  # the lecturer has published nothing yet
    seat.pending = room.lecture_query
    seat.applied = room.lecture_n
    seat.playing = room.playing
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


def arrive_on(session: Session, page: str) -> None:
    """A following student opening Step by step takes the lecturer's lecture before the
    page's first widget (called after the navigation, before the sidebar): else the page
    would draw the student's own run first, then run again with the lecturer's (a flash
    of the wrong chart on the phone, and a page run for nothing)."""
    seat = seat_of(session)
    if page != LECTURE_PAGE or seat is None or not seat.following or seat.pending is not None:
        return
    try:
        room = reach(cr.load_room, seat.code)
    except Refused:
        return  # the page goes on by itself; the strip says why
    if room is not None and not room.closed and follow_now(session, room):
        before_run(session)


def follow_here(session: Session) -> int | None:
    """In the lecture's instrument (a fragment) of a following student: the lecturer's
    step, when only the step changed (the instrument moves to it without a page run); a
    change of data or settings runs the whole page (``follow_now``). The browser reruns the
    instrument when the lecturer's change is one it cannot draw by itself (ui.classmode.live)."""
    seat = seat_of(session)
    if seat is None or seat.lecturer:
        return None
    try:
        room = reach(cr.load_room, seat.code, fresh=live.fresh(session, "lecture"))
    except Refused:
        return None  # the page goes on by itself; the strip says why
    if room is None or room.closed:
        st.rerun(scope="app")  # the class ended: the strip says so, in a page run
    if not seat.following or room.lecture_n == seat.applied or not room.lecture_n:
        return None
    now = lecture_subset(room.lecture_query)
    mine = seat.applied_query
    if seat.followed is None or mine is None or _unstepped(now) != _unstepped(seat.followed):
        follow_now(session, room)
        st.rerun(scope="app")  # other data or settings: the whole page, from the next run
    step = _step_of(now)
    seat.applied, seat.followed, seat.playing = room.lecture_n, now, room.playing
    _applied_step(seat, step)
    return step


def _applied_step(seat: Seat, step: int) -> None:
    """This page's own URL form of the run, at the lecturer's step (the default step is not
    written): a step the page took from the lecturer is not the student's own change."""
    if seat.applied_query is None:
        return
    seat.applied_query = _unstepped(seat.applied_query)
    if step != SETTINGS[STEP_KEY].default:
        seat.applied_query[STEP_KEY] = str(step)


def live_follow(session: Session) -> dict[str, Any] | None:
    """What a student's lecture instrument needs to hear the live channel (``player.js``):
    the question version ``q`` its chart and card show (another reruns the instrument);
    and, for a follower, the lecturer's change ``n`` the page shows and its ``run`` ("" before
    the lecturer published one: any change then reruns the instrument), so that the
    browser draws the lecturer's next step by itself. None for the lecturer, or outside a
    class."""
    seat = seat_of(session)
    if seat is None or seat.lecturer:
        return None
    try:
        room = reach(cr.load_room, seat.code)
    except Refused:
        return None
    run = "" if seat.followed is None else live.run_of(seat.followed)
    return {
        "following": seat.following,
        "n": max(seat.applied, 0),  # 0: the lecturer's lecture before their first change
        "run": run,
        "q": live.asked_version(room),
    }


def caught_up(session: Session, n: Any) -> None:
    """A following student's browser drew the lecturer's change ``n`` by itself (the live
    channel) and then moved on its own: the seat takes change ``n`` as applied, so that the
    move is the student's own (``end_of_run``: they explore from there)."""
    seat = seat_of(session)
    if seat is None or not seat.following or seat.followed is None:
        return
    if not isinstance(n, int) or isinstance(n, bool) or n <= seat.applied:
        return
    try:
        room = reach(cr.load_room, seat.code, fresh=True)
    except Refused:
        return
    if room is None or room.lecture_n != n:
        return  # the lecturer moved on meanwhile: the next run follows them
    now = lecture_subset(room.lecture_query)
    if _unstepped(now) != _unstepped(seat.followed):
        return
    seat.applied, seat.followed, seat.playing = n, now, room.playing
    _applied_step(seat, _step_of(now))


@dataclass(frozen=True)
class Play:
    """A lecturer's Play: from step ``start`` at ``rate`` steps a second, which is (or will
    be) at ``start`` at time ``at`` by this server's clock."""

    start: float
    rate: float
    at: float

    def step(self, now: float) -> int:
        """The step the Play is at at ``now`` (this server's clock; its start before then)."""
        return math.floor(self.start + self.rate * max(0.0, now - self.at))

    def sent(self, now: float) -> dict[str, float]:
        """What a browser plays on from, sent at ``now`` (this server's clock): the step it
        started from, how fast, and the seconds since it started (negative: until it
        starts; a server whose clock is behind the lecturer's: at most the count-in)."""
        elapsed = max(now - self.at, -MAX_LEAD_IN_S)
        return {"from": self.start, "rate": self.rate, "elapsed": round(elapsed, 4)}


def lead_play(session: Session, start: Any = None, rate: Any = None, elapsed: Any = 0) -> None:
    """The lecturer's player reported its step: playing from step ``start`` at ``rate``
    steps a second since ``elapsed`` seconds (by the browser's own clock: its Play goes on
    through the fetch of the next window; negative: it starts that long after the report,
    at most :data:`MAX_LEAD_IN_S`), or standing still (None). Published to the room at the
    run's end (:func:`end_of_run`) with the time it starts by this server's clock. A value
    that is not a play is standing still."""
    seat = seat_of(session)
    if seat is None or not seat.lecturer:
        return
    try:
        t, r, e = float(start), float(rate), float(elapsed or 0)
    except (TypeError, ValueError):
        seat.playing = None
        return
    ok = all(map(math.isfinite, (t, r, e))) and t >= 0 and 0 < r <= MAX_RATE
    seat.playing = (t, r, time.time() - min(max(e, -MAX_LEAD_IN_S), MAX_PLAY_S)) if ok else None


def lead_clock(session: Session) -> Play | None:
    """The lecturer's own Play as the room has it: the lecturer's browser plays on this
    clock, which the followers share, and not on the moment its own button was pressed,
    which its report reached the server after (None when not playing)."""
    seat = seat_of(session)
    if seat is None or not seat.lecturer or seat.playing is None:
        return None
    return Play(*seat.playing)


def remote_seen(session: Session) -> int | None:
    """The lecturer's page: the number of the remote's last press its player need not do
    (it was pressed before the page drew); None for anyone else."""
    seat = seat_of(session)
    if seat is None or not seat.lecturer:
        return None
    room = room_now(session)
    return 0 if room is None or room.remote is None else room.remote[0]


def leading(session: Session) -> bool:
    """The lecturer of a class: their Play is followed (their browser reports it)."""
    seat = seat_of(session)
    return seat is not None and seat.lecturer


def play_along(session: Session, n_steps: int) -> tuple[int, Play] | None:
    """A following student whose lecturer plays: the lecturer's step now (at most
    ``n_steps``), which this page takes as its own (the URL follows), and the Play the
    browser plays on with. None when not following or the lecturer's player stands
    still."""
    seat = seat_of(session)
    if seat is None or not seat.following or seat.playing is None:
        return None
    if seat.applied_query is not None and _step_of(seat.applied_query) != _own_step(session):
        return None  # the student moved by themselves: the run's end says they explore
    play = Play(*seat.playing)
    t = min(int(n_steps), play.step(time.time()))  # before it starts: its start
    _applied_step(seat, t)
    return t, play


def _own_step(session: Session) -> int:
    try:
        return int(session.get(STEP_KEY) or 0)
    except (TypeError, ValueError):
        return -1


def _unstepped(query: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in query.items() if k != STEP_KEY}


_step_of = live.step_of


def following(session: Session) -> bool:
    """A student following the lecturer (their lecture's settings are the lecturer's)."""
    seat = seat_of(session)
    return seat is not None and seat.following


def set_following(session: Session, on: bool) -> None:
    """The strip's "Follow the lecturer" (catches up at once) or "Explore on my own"."""
    seat = seat_of(session)
    if seat is None or seat.lecturer:
        return
    if seat.following and not on:
        _explore_from_here(session, seat)
    if seat.following != on:
        move(session, "follow" if on else "explore")
    seat.stopped = None  # their own choice: nothing to tell
    seat.applied = -1  # following again catches up at once
    seat.applied_query = None  # and the run before it is not "a change of the student's"


def _explore_from_here(session: Session, seat: Seat) -> None:
    """A follower who explores on their own starts from the step on their screen: the
    lecturer's latest (their browser drew it from the live channel, unknown to this
    session), when it is of the run the page shows."""
    try:
        room = reach(cr.load_room, seat.code, fresh=True)
    except Refused:
        return
    if room is None or not room.lecture_n:
        return
    now = lecture_subset(room.lecture_query)
    if _unstepped(now) == _unstepped(lecture_subset(to_query(session))):
        seat.step = _step_of(now)  # the lecture page goes there (take_step)


# short: on a phone it is drawn above the lab the student is editing (Step by step's
# follow line, where it is also said, has the button that follows again)
STOPPED = N_("Your own change: you no longer follow the lecturer.")


def end_of_run(session: Session) -> None:
    """At the end of a run: a following student who changed the lecture stops following,
    and is told so once, in the class strip (:data:`STOPPED`; a toast would lie over the
    numbers they are editing): the strip runs again to say it, or, when its fragment is not
    known, the page; the lecturer's lecture is published to the room when it changed."""
    seat = seat_of(session)
    if seat is None:
        return
    now = lecture_subset(to_query(session))
    if not seat.lecturer:
        if seat.fresh:
            seat.applied_query, seat.fresh = now, False
        elif seat.following and seat.applied_query is not None and now != seat.applied_query:
            move(session, "explore")
            seat.stopped = t(STOPPED)
            seat.notices += 1
        if seat.nudged != seat.notices:
            # the strip says it: the browser reruns it (a page run would also lose what
            # the page said of the edit, the margin lab's "Added point 41 ...")
            seat.nudged = seat.notices
            live.nudge(seat.notices)
        return
    playing = seat.playing
    if (now, playing) == (seat.published, seat.published_playing):
        return  # nothing new
    if not seat.publish_limit.allow():
        return  # a burst of changes: the live strip publishes the last one
    err = lecturer_do(session, lambda room: cr.publish(room, now, playing))
    if err is None:  # the room's pages hear of it now (lecturer_do tells the channel)
        seat.published, seat.published_playing = now, playing

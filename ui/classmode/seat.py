"""A session's seat in a class, declared: who it is (:class:`Role`), how it may change
(:data:`TRANSITIONS`), what it keeps (:class:`Seat`), and the one place where the store's
failure becomes what the page says (:func:`reach`).

A session is in no class, or in one as its lecturer, or as a student who follows the
lecturer or explores on their own. The seat lives in the session (key ``room_seat``) and
a cookie of the browser (``ui.classmode.arrive``); it changes only through :func:`move`,
along a row of :data:`TRANSITIONS`, so no flag of the seat can say "lecturer" while
another says "following". The URL carries only a student's ``room=`` (written by
:func:`move` too): a link never hands over a seat.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Concatenate, ParamSpec, TypeVar

import perceptron_store as store_mod
from ui.app import links
from ui.app.state import NOTICES, Session, session_key
from ui.classmode import classroom as cr
from ui.words import N_, t


class Role(enum.Enum):
    LECTURER = "lecturer"  # holds the room's secret: asks, reveals, publishes the lecture
    FOLLOWING = "following"  # a student whose lecture is the lecturer's: data, settings, step
    EXPLORING = "exploring"  # a student on a run of their own; the questions still come


# (role now, event) -> role after; None is "in no class". An event not listed for the role
# now is a bug of the caller (:func:`move` raises), never a state the seat can reach.
TRANSITIONS: dict[tuple[Role | None, str], Role | None] = {
    (None, "start"): Role.LECTURER,  # Start a class
    (None, "reopen"): Role.LECTURER,  # the lecturer link, or the lecturer's cookie on a reload
    (None, "join"): Role.FOLLOWING,  # a class code, or a student's reload (room= and cookie)
    (Role.FOLLOWING, "join"): Role.FOLLOWING,  # joining again (the same class or another)
    (Role.EXPLORING, "join"): Role.FOLLOWING,
    (Role.FOLLOWING, "explore"): Role.EXPLORING,  # "Explore on my own", or a run changed
    (Role.EXPLORING, "follow"): Role.FOLLOWING,  # "Follow the lecturer": catch up at once
    **{(role, "leave"): None for role in Role},  # Leave, or the class ended
}

SEAT = session_key("room_seat")
URL = session_key("room_url")
ACT_RATE, ACT_BURST = 2.0, 10  # a seat's answers and submissions (each is a store write)
PUBLISH_RATE, PUBLISH_BURST = 4.0, 20  # the lecturer's changes written to the room

# What the page says when the store cannot be reached: the strip, a refused action.
STORE_DOWN = N_("The class cannot be reached right now (the app's store is down); try again.")
STRIP_DOWN = N_("The class cannot be reached right now; this page goes on by itself.")


@dataclass
class Seat:
    """Which room a session is in, as whom (``role``: changed by :func:`move` only), and
    what its class mode keeps between runs."""

    code: str
    role: Role
    secret: str | None = None  # the lecturer's: the room's secret (never in the URL)
    seat: str | None = None  # a student's seat id (in a cookie, so a reload keeps the seat)
    nick: str = ""
    # a student following the lecturer (follow.py): the lecturer's change (Room.lecture_n)
    # applied last, the run it set (to tell the student's own changes), set in this run,
    # waiting for the next run's start, as the lecturer had it, and the step to take
    applied: int = -1
    applied_query: dict[str, str] | None = None
    fresh: bool = False
    pending: dict[str, str] | None = None
    followed: dict[str, str] | None = None
    step: int | None = None
    # a student's answers ((question id, vote) -> (mistake or not, or a bank question's
    # choice index; the turn)), challenge results, hidden cards
    answers: dict[tuple[int, int], tuple[bool | int, str | None]] = field(default_factory=dict)
    submitted: dict[int, str] = field(default_factory=dict)
    dismissed: set[int] = field(default_factory=set)
    published: dict[str, str] | None = None  # the lecturer's lecture as the room holds it
    # the lecturer's player playing (classroom.Room.playing: from step, steps/s, since): the
    # lecturer's own, as its browser reported it; a follower's, as the room said it
    playing: tuple[float, float, float] | None = None
    published_playing: tuple[float, float, float] | None = None  # the lecturer's, in the room
    redraw: bool = False  # an action of the strip changed the page: run it whole
    said: str | None = None  # why the strip's last action was refused, shown once
    # a follower whose own edit stopped following: told in the strip, in the page's flow
    # (never over the numbers they are editing), until they follow again or close it
    stopped: str | None = None
    notices: int = 0  # notices the strip has had to say (stopped); the strip reruns for each
    nudged: int = 0  # the notice the strip was last asked to say (ui.classmode.live.nudge)
    told: int | None = None  # the open challenge the class page's body told the student of
    seen_at: float = 0.0  # when the strip last said in the store that this seat's page is open
    publish_limit: store_mod.RateLimit = field(
        default_factory=lambda: store_mod.RateLimit(PUBLISH_RATE, PUBLISH_BURST)
    )
    act_limit: store_mod.RateLimit = field(
        default_factory=lambda: store_mod.RateLimit(ACT_RATE, ACT_BURST)
    )

    @property
    def lecturer(self) -> bool:
        return self.role is Role.LECTURER

    @property
    def following(self) -> bool:
        return self.role is Role.FOLLOWING


def seat_of(session: Session) -> Seat | None:
    s = session.get(SEAT)
    return s if isinstance(s, Seat) else None


def move(session: Session, event: str, arriving: Seat | None = None) -> Seat | None:
    """Change the session's seat along :data:`TRANSITIONS` (``arriving``: the seat an
    event from no class or from another seat enters); returns the seat after."""
    now = seat_of(session)
    key = (now.role if now is not None else None, event)
    if key not in TRANSITIONS:
        raise ValueError(f"a seat cannot {event!r} from {key[0]}")
    role = TRANSITIONS[key]
    seat = arriving if arriving is not None else now
    if role is None or seat is None:
        session.pop(SEAT, None)
        session[URL] = {}
        return None
    seat.role = role  # in place: a caller holding the seat sees its new role
    session[SEAT] = seat
    # the projector's address bar shows neither the lecturer's secret nor the code
    session[URL] = {} if seat.lecturer else {"room": seat.code}
    return seat


def say(session: Session, text: str) -> None:
    """A sentence for the class strip's next run (an action of the strip was refused)."""
    seat = seat_of(session)
    if seat is not None:
        seat.said = text


def notice(session: Session, text: str) -> None:
    """A sentence for the page's notices (the next run shows it once)."""
    session.setdefault(NOTICES, []).append(text)


class Refused(Exception):
    """A class action that did not happen; ``str()`` is the sentence the page shows."""


P = ParamSpec("P")
T = TypeVar("T")


def reach(fn: Callable[Concatenate[store_mod.Store, P], T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(store, ...)`` on the app's store (``links.call``): the store's failure and a
    refusal of the room come back as :class:`Refused` with the sentence to show."""
    try:
        return links.call(fn, *args, **kwargs)
    except store_mod.StoreDown as exc:
        raise Refused(t(STORE_DOWN)) from exc
    except store_mod.StoreFull as exc:  # the store's own sentence, no outside text in it
        raise Refused(str(exc)) from exc
    except cr.RoomError as exc:
        raise Refused(str(exc)) from exc


def room_now(session: Session) -> cr.Room | None:
    """The room of the session's seat (the process's recent copy); None with no seat, a
    room gone, or a store that cannot be reached (the strip says so)."""
    seat = seat_of(session)
    if seat is None:
        return None
    try:
        return reach(cr.load_room, seat.code)
    except Refused:
        return None

"""The class's live channel as the app uses it (the channel itself: :mod:`ui.live`).

What a room's state is for a page (:func:`state_of`: the lecture's step, run and Play, and
a version of each part of a page that shows the room), who may open the channel (a seat's
ticket, signed under a key made from the room's secret hash, which only the store holds:
:func:`key_of`), when a state is published (:func:`tell`, after each of the lecturer's
changes; the hub also reads each watched room again now and then), and the browser's end on
a page (:func:`listen`: the strip mounts it; a part of the page it shows that is no longer
the room's reruns that part, a fragment, from the browser).

A following student's lecture instrument draws the lecturer's step itself when the page's
scene holds it (``ui/lecture/player.js``); only a step outside it, other settings, or a
question reruns the instrument.

May import: ``ui.live``, ``ui.app``, ``ui.classmode.classroom`` and ``ui.classmode.seat``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

import streamlit as st

from ui.app import links
from ui.app.state import LINK_PARAM, SETTINGS, Session, session_key
from ui.classmode import classroom as cr
from ui.classmode.seat import Seat
from ui.live import route
from ui.live.hub import HUB

FRESH = session_key("room_live_fresh")
# A topic no room state names: a page that listens on it hears the channel (its player does
# the remote's presses) and asks for no rerun. The lecturer's strip reads the room every
# second anyway, and a rerun the channel asked for carries the browser's widget values as
# they were drawn, which would undo a bank question's data the lecturer's Ask just set
HEAR_ONLY = "heard"
_JS = (Path(__file__).resolve().parents[1] / "live" / "live.js").read_text(encoding="utf-8")
# The channel draws nothing: its elements take no room in the page (the page's CSS, from the
# component's definition, not in a shadow root)
_CSS = ".st-key-room_channel, .st-key-room_channel_nudge { display: none; }"
_component = st.components.v2.component("perceptron_live", js=_JS, css=_CSS, isolate_styles=False)
LIVE_JS = _JS  # the light page (ui.lecture.light) opens the channel with the same code


def _is_step(key: str) -> bool:
    """The lecture's step: the lecture page sets it, never class mode (ui.lecture.restart)."""
    return SETTINGS[key].label == "step"


# What a follower takes from the lecturer: the shared dataset and the lecture's run settings
# and step (the URL form of ``data_*`` and ``lec_*``), and ``data=<id>``; and the step's key.
LECTURE_KEYS = frozenset((LINK_PARAM, *(k for k in SETTINGS if k.startswith(("data_", "lec_")))))
STEP_KEY = next(k for k in sorted(LECTURE_KEYS) if k != LINK_PARAM and _is_step(k))


def step_of(query: Mapping[str, str]) -> int:
    """The step of a lecture's URL form (0 when it has none or a wrong one)."""
    try:
        return int(SETTINGS[STEP_KEY].parse(str(query.get(STEP_KEY, "0"))[:20]))
    except ValueError:
        return 0


def parts_shown(room: cr.Room | None) -> dict[str, Hashable]:
    """What a student's page shows of ``room``, by part: the strip (the question, the
    challenge), the strip on Step by step ("end": the class's end and the challenge it
    announces), the question card under Step by step's chart ("card": the page draws it,
    ``ui.classmode.card``) and the lecture (the
    lecturer's run and step; the chart rings the question's example by itself)."""
    if room is None:
        return {"strip": "gone", "end": "gone", "card": "gone", "lecture": "gone"}
    q, c = room.question, room.challenge
    asked = None if q is None else (q.id, q.rounds, q.revealed)
    shown = None if c is None else (c.id, c.open)
    return {
        "strip": (room.closed, asked, shown),
        "end": (room.closed, shown),
        "card": (room.closed, asked),
        "lecture": (room.closed, room.lecture_n),
    }


def state_of(room: cr.Room | None) -> dict[str, Any]:
    """Room ``room``'s state as the channel carries it: a version of each part of a page
    (:func:`parts_shown`), and the lecture: its change count ``n``, its ``run``, step
    ``t``, the question's version ``q``, the example it asks about ``asked`` (``[step,
    point]``, which a follower's chart rings by itself, or None) and the lecturer's Play
    ``[from, rate, at]`` (at: the lecturer's server's clock) or None, and the lecturer's
    remote's last press ``[n, act, t]`` or None."""
    parts = parts_shown(room)
    state: dict[str, Any] = {topic: version(part) for topic, part in parts.items()}
    if room is not None:
        query = room.lecture_query
        state["closed"] = room.closed
        state["lecture"] = {
            "n": room.lecture_n,
            "run": run_of(query),
            "t": step_of(query),
            "q": asked_version(room),
            "asked": asked_point(room),
            "play": None if room.playing is None else [round(v, 3) for v in room.playing],
            # the remote's last press, which the projector's player does (player_follow.js)
            "remote": None if room.remote is None else list(room.remote),
        }
    return state


def asked_version(room: cr.Room | None) -> str:
    """The version of the question a lecture's chart rings (an open one's id and round)."""
    q = None if room is None or room.closed else room.question
    return version(None if q is None or q.revealed else (q.id, q.rounds))


def asked_point(room: cr.Room | None) -> list[int] | None:
    """The example the open question asks about, ``[step, point]``, for a follower's chart
    to ring; None with no question open, once revealed, or for a bank question (it asks
    about no one example)."""
    q = None if room is None or room.closed else room.question
    return None if q is None or q.revealed or q.bank else [int(q.t), int(q.point)]


def read(code: str) -> dict[str, Any] | None:
    """Room ``code``'s state read from the store now (the hub's reread); None when the
    store cannot be read."""
    try:
        return state_of(links.call(cr.load_room, code, fresh=True))
    except Exception:  # the store is down: read again next time
        return None


def version(part: Hashable) -> str:
    """A short name of a part of a page as drawn (equal parts, equal names)."""
    return hashlib.sha256(repr(part).encode()).hexdigest()[:12]


def run_of(query: Mapping[str, str]) -> str:
    """The name of a lecture's run: its URL form (the followed keys) without the step."""
    return version(
        tuple(sorted((k, v) for k, v in query.items() if k in LECTURE_KEYS and k != STEP_KEY))
    )


def key_of(code: str) -> bytes | None:
    """Room ``code``'s ticket key (None: no such room, or the store cannot be read)."""
    try:
        room = links.call(cr.load_room, code)
    except Exception:  # the store is down: no ticket opens now; the page tries again
        return None
    return None if room is None else key_of_room(room)


def key_of_room(room: cr.Room) -> bytes:
    """The key ``room``'s tickets are signed with: made from its secret's hash, which only
    the store holds (never a page)."""
    return hashlib.sha256(b"perceptron-live:" + room.secret_hash.encode()).digest()


def ticket(seat: Seat) -> str | None:
    """The ticket that opens the channel of ``seat``'s room (None: the room cannot be read)."""
    key = key_of(seat.code)
    who = "lecturer" if seat.lecturer else (seat.seat or "student")
    return None if key is None else route.sign(key, seat.code, who)


def fresh(session: Session, part: str) -> bool:
    """Whether the channel asked for this run of ``part`` (a topic of :func:`parts_shown`;
    then the room is read from the store, not from the process's recent copy): once. Each
    part its own: two parts asked at once each read the room."""
    asked = session.get(FRESH)
    if not isinstance(asked, frozenset) or part not in asked:
        return False
    session[FRESH] = asked - {part}
    return True


def asked_for(session: Session, part: str) -> None:
    """The channel asked for a run of ``part``: its run reads the room from the store."""
    asked = session.get(FRESH)
    session[FRESH] = (asked if isinstance(asked, frozenset) else frozenset()) | {part}


def listen(
    session: Session, seat: Seat, *, topic: str, shown: Hashable, notice: int | None = None
) -> None:
    """The browser's end of the channel, in a fragment that shows part ``topic`` of the
    room ("strip" or "end": the class strip; :data:`HEAR_ONLY`: none): it opens the
    room's channel once per page and reruns the fragment when the room's ``topic`` is no
    longer ``shown``; the strip also when a fragment elsewhere on the page asks it to say
    something (:func:`nudge`: ``notice`` counts what it has said)."""
    ticket_now = ticket(seat)
    if ticket_now is None:
        return  # the strip says the class cannot be reached; its heartbeat tries again

    def changed() -> None:
        asked_for(session, topic)

    _component(
        key="room_channel",
        data={
            "url": route.under(str(st.get_option("server.baseUrlPath") or ""), route.PATH),
            "ticket": ticket_now,
            "topic": topic,
            "shown": version(shown),
            **({} if notice is None else {"notice": int(notice)}),
        },
        on_changed_change=changed,
    )


def nudge(notice: int) -> None:
    """From a fragment that is not the strip: the strip has something new to say (its
    ``notice`` count), so it runs again."""
    _component(key="room_channel_nudge", data={"nudge": int(notice)})


def tell(room: cr.Room) -> None:
    """``room``, just written: its state to every page of the room, now."""
    HUB.publish(room.code, state_of(room))

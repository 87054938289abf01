"""Whether a student's page is open (what its strip and the door say of its seat), and
from which network address the seats joined (a keyed hash of it, never the address).

A seat's member entry (``classroom.members_key``) says when its page was last seen; the
class counts the seats seen in the last ``classroom.SEEN_S`` and a full room gives a
newcomer those not seen for that long (``classroom.members``, ``classroom.join``). A page's
strip says its seat is here (:func:`still_here`, every 20 s at most); the door says when its
tab closed (:func:`watch`, through ``ui.server.clients.when_gone``), and the seat is counted
out at once.

May import: the standard library, ``perceptron_store``, ``ui.classmode.classroom``,
``ui.server.clients`` and ``ui.server.internals`` (reads: the session's id).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections import Counter
from collections.abc import Callable

import perceptron_store as store_mod
from perceptron_store import Store
from ui.classmode.classroom import (
    MAX_MEMBERS,
    ROOM_TTL_S,
    SEEN_S,
    Room,
    clean_nick,
    members_key,
    seen_at,
    valid_seat,
)
from ui.server import clients
from ui.server.internals import session_id


def still_here(s: Store, room: Room, seat: str, nick: str) -> None:
    """A seat's page is open (its strip runs): its member entry says so, so that it is
    counted and kept. A seat given back meanwhile (Leave, or a full room) is not taken
    again here: its page asks to join."""
    key = members_key(room.code)
    blob = s.field(key, seat) if valid_seat(seat) else None
    if blob is None:
        return
    body = json.dumps({**json.loads(blob), "nick": clean_nick(nick), "seen": time.time()})
    with contextlib.suppress(store_mod.MapFull):  # given back since it was read
        s.put_field(key, seat, body.encode(), ttl=room.ttl, max_fields=MAX_MEMBERS)


def seen_now(s: Store, code: str, seat: str) -> None:
    """A seat's light page is open (its class channel is): its member entry says so, its
    nickname as it is. A seat given back meanwhile is not taken again."""
    key = members_key(code)
    blob = s.field(key, seat) if valid_seat(seat) else None
    if blob is None:
        return
    body = json.dumps({**json.loads(blob), "seen": time.time()})
    with contextlib.suppress(store_mod.MapFull):
        s.put_field(key, seat, body.encode(), ttl=ROOM_TTL_S, max_fields=MAX_MEMBERS)


def gone(s: Store, code: str, seat: str) -> None:
    """A seat's tab closed: it is counted out now and a full room may give it away; its
    page, back (a reconnection), says it is here again (:func:`still_here`)."""
    blob = s.field(members_key(code), seat) if valid_seat(seat) else None
    if blob is not None:
        entry = {**json.loads(blob), "seen": time.time() - 2 * SEEN_S}
        s.put_field(members_key(code), seat, json.dumps(entry).encode(), ttl=ROOM_TTL_S)


def watch(code: str, seat: str, call: Callable[..., object], *, then: Callable[[], None]) -> None:
    """When this session's tab closes, count seat ``seat`` of room ``code`` out (``call``:
    ``ui.app.links.call``, the store's caller of the app), then ``then`` (the session's seat
    forgets it said it is here, so that a reconnection's run says so again)."""

    def counted_out() -> None:
        then()
        call(gone, code, seat)

    clients.when_gone(session_id(), "seat", counted_out)


def networks(s: Store, room: Room, *, now: float | None = None) -> list[int]:
    """How many of the room's counted seats (``classroom.members``) joined from each
    network address, the most first (seats that say none are left out)."""
    since = (time.time() if now is None else now) - SEEN_S
    blobs = s.fields(members_key(room.code)).values()
    counted = Counter(_net(blob) for blob in blobs if seen_at(blob) >= since)
    counted.pop("", None)
    return sorted(counted.values(), reverse=True)


def _net(blob: bytes) -> str:
    try:
        return str(json.loads(blob).get("net") or "")
    except (ValueError, TypeError, AttributeError):
        return ""

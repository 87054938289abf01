"""A challenge's entries: a student's set as the server measured it, judged against the
challenge, kept one per seat and ranked. No Streamlit: the store and the room's document
(``ui.classmode.classroom``).

May import: the standard library, the store, ``ui.classmode.classroom``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass

import perceptron_store as store_mod
from perceptron_store import Store
from ui.classmode.classroom import (
    MAX_MEMBERS,
    Challenge,
    Room,
    RoomError,
    clean_nick,
    subs_key,
    valid_seat,
)


@dataclass(frozen=True)
class Submission:
    """A student's set for a challenge, as the server measured it (never as the browser
    said): its points are in the store under ``data`` (a dataset id)."""

    seat: str
    nick: str
    data: str
    n: int
    M: int  # the perceptron's mistakes, given order, from w = 0
    bound: float  # (R/γ)²
    gamma: float
    R: float
    at: float

    def to_json(self) -> bytes:
        return json.dumps(asdict(self), separators=(",", ":")).encode()


def judge(
    challenge: Challenge,
    *,
    n: int,
    gamma: float | None,
    converged: bool,
    reason: str | None,
    M: int = 0,
    passes: int = 0,
) -> str | None:
    """Why a set does not meet the challenge (a sentence), or None if it does. ``M`` and
    ``passes`` are the run's, said when it stopped at the limit before converging."""
    if not challenge.open:
        return "This challenge is closed."
    if n > challenge.max_points:
        return f"This challenge takes at most {challenge.max_points} points; you have {n}."
    if gamma is None:
        return f"Your points are not linearly separable ({reason or 'no separating line'})."
    if gamma < challenge.min_gamma:
        return f"Your margin γ = {gamma:.3g} is below the challenge's {challenge.min_gamma:g}."
    if not converged:
        return (
            f"The perceptron had not converged after {passes:,} passes, the most the challenge "
            f"runs (M ≥ {M:,} so far): widen the margin or bring the points closer in."
        )
    return None


def submit(s: Store, room: Room, sub: Submission, cid: object) -> None:
    """Keep ``sub`` (already judged) for the open challenge ``cid``, replacing the seat's
    earlier one. Raises RoomError, StoreDown."""
    c = room.challenge
    if room.closed or c is None or c.id != cid or not c.open:
        raise RoomError("That challenge is no longer open.")
    if not valid_seat(sub.seat):
        raise RoomError("Join the class first.")
    try:
        s.put_field(
            subs_key(room.code, c.id), sub.seat, sub.to_json(), ttl=room.ttl, max_fields=MAX_MEMBERS
        )
    except store_mod.MapFull as exc:
        raise RoomError("This challenge has all the submissions it can hold.") from exc


def submissions(s: Store, room: Room, cid: int) -> list[Submission]:
    """The challenge's submissions, best first (see :func:`ranking`)."""
    return ranking(s.fields(subs_key(room.code, cid)).values())


def ranking(blobs: Iterable[bytes]) -> list[Submission]:
    """Submissions best first: most mistakes M, then the earliest; malformed ones dropped."""
    subs = []
    for blob in blobs:
        try:
            d = json.loads(blob)
            sub = Submission(
                seat=str(d["seat"]),
                nick=clean_nick(d["nick"]),
                data=str(d["data"]),
                n=int(d["n"]),
                M=int(d["M"]),
                bound=float(d["bound"]),
                gamma=float(d["gamma"]),
                R=float(d["R"]),
                at=float(d["at"]),
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
        if store_mod.valid_id(sub.data) and math.isfinite(sub.bound):
            subs.append(sub)
    return sorted(subs, key=lambda x: (-x.M, x.at, x.seat))

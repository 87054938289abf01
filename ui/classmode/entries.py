"""A challenge's entries: a student's set as the server measured it, judged against the
challenge, kept one per seat and ranked. No Streamlit: the store and the room's document
(``ui.classmode.classroom``).

May import: the standard library, the store, ``ui.classmode.classroom``, ``ui.words`` and
``ui.look.numbers``.
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
from ui.look.numbers import number
from ui.words import t, tn


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
        return t("This challenge is closed.")
    if n > challenge.max_points:
        return tn(
            "This challenge takes at most {most} point; you have {n}.",
            "This challenge takes at most {most} points; you have {n}.",
            challenge.max_points,
        ).format(most=number(challenge.max_points), n=number(n))
    if gamma is None:
        if reason:
            return t("Your points are not linearly separable ({reason}).").format(reason=reason)
        return t("Your points are not linearly separable (no separating line).")
    if gamma < challenge.min_gamma:
        return t("Your margin γ = {gamma} is below the challenge's {least}.").format(
            gamma=f"{gamma:.3g}", least=number(challenge.min_gamma, 6)
        )
    if not converged:
        return tn(
            "The perceptron had not converged after {passes} pass, the most the challenge "
            "runs (M ≥ {M} so far): widen the margin or bring the points closer in.",
            "The perceptron had not converged after {passes} passes, the most the challenge "
            "runs (M ≥ {M} so far): widen the margin or bring the points closer in.",
            passes,
        ).format(passes=number(passes), M=number(M))
    return None


def submit(s: Store, room: Room, sub: Submission, cid: object) -> None:
    """Keep ``sub`` (already judged) for the open challenge ``cid``, replacing the seat's
    earlier one. Raises RoomError, StoreDown."""
    c = room.challenge
    if room.closed or c is None or c.id != cid or not c.open:
        raise RoomError(t("That challenge is no longer open."))
    if not valid_seat(sub.seat):
        raise RoomError(t("Join the class first."))
    try:
        s.put_field(
            subs_key(room.code, c.id), sub.seat, sub.to_json(), ttl=room.ttl, max_fields=MAX_MEMBERS
        )
    except store_mod.MapFull as exc:
        raise RoomError(t("This challenge has all the submissions it can hold.")) from exc


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

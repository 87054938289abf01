"""The margin challenge for a student: the class's open challenge, and a set of points
submitted to it with the numbers the server measured (one store write, rate limited per
seat), ranked among the room's submissions."""

from __future__ import annotations

import time

import numpy as np

import perceptron_store as store_mod
from ui.app.state import Session
from ui.classmode import classroom as cr
from ui.classmode import entries as en
from ui.classmode.seat import Refused, Seat, reach, room_now, seat_of
from ui.look.numbers import number
from ui.look.text import safe
from ui.words import t, tn


def announcement(c: cr.Challenge) -> tuple[str, str]:
    """What every page tells a student of an open challenge: (its head, the rest)."""
    return (
        t("The lecturer's margin challenge is open:"),
        tn(
            "at most {n} point, γ ≥ {gamma}, as many mistakes as you can.",
            "at most {n} points, γ ≥ {gamma}, as many mistakes as you can.",
            c.max_points,
        ).format(n=number(c.max_points), gamma=number(c.min_gamma, 6)),
    )


def open_challenge(session: Session) -> tuple[Seat, cr.Challenge] | None:
    """A student's seat and their class's open challenge, if there is one."""
    seat = seat_of(session)
    if seat is None or seat.lecturer:
        return None
    room = room_now(session)
    c = None if room is None else room.open_challenge
    return None if c is None else (seat, c)


def told_in_page(session: Session) -> tuple[Seat, cr.Challenge] | None:
    """:func:`open_challenge`, for a page whose body tells of it (the class page, the
    margin lab): the seat keeps which challenge it told of, and the class strip runs the
    page again when the room's open challenge is another (``ui.classmode.strip``)."""
    found = open_challenge(session)
    seat = seat_of(session)
    if seat is not None:
        seat.told = None if found is None else found[1].id
    return found


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
    passes: int = 0,
) -> tuple[bool, str]:
    """Submit the points (X, y) to the open challenge ``cid``, with the numbers the server
    measured on them with the challenge's settings. Returns (kept, sentence)."""
    seat = seat_of(session)
    if seat is None or seat.lecturer or not seat.seat:
        return False, t("Join a class first.")
    if not seat.act_limit.allow():
        return False, t("Many submissions at once: wait a few seconds and submit again.")
    try:
        room = reach(cr.load_room, seat.code, fresh=True)
        if room is None or room.challenge is None or room.challenge.id != cid:
            return False, t("That challenge is no longer open.")
        refusal = en.judge(
            room.challenge,
            n=len(y),
            gamma=gamma,
            converged=converged,
            reason=reason,
            M=M,
            passes=passes,
        )
        if refusal is not None:
            return False, refusal
        assert gamma is not None and bound is not None
        data = reach(store_mod.save_dataset, X, y)
        sub = en.Submission(
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
        reach(en.submit, room, sub, cid)
        ranked = reach(en.submissions, room, cid)
    except Refused as refused:
        return False, str(refused)
    except ValueError as exc:  # the store's caps on a dataset
        return False, safe(exc, limit=160)
    rank = next((i for i, s in enumerate(ranked, 1) if s.seat == seat.seat), len(ranked))
    said = " ".join(
        (
            tn(
                "Submitted: M = {M} mistake, bound (R/γ)² = {bound}.",
                "Submitted: M = {M} mistakes, bound (R/γ)² = {bound}.",
                int(M),
            ).format(M=M, bound=f"{bound:.3g}"),
            t("You are number {rank} of {n} in the room.").format(
                rank=number(rank), n=number(len(ranked))
            ),
        )
    )
    seat.submitted[cid] = said
    return True, said

"""The ``canvas`` and ``player`` attacks: one trigger of a component carrying thousands of
events, sent again and again from several connections.

The margin lab's drawing surface (``mar_canvas``, ``moved`` events) or the lecture player
(``lec_player``, ``at`` reports ``{"t", "seq"}`` of steps in its window): a
``json_trigger_value`` of N events, N = 8,000 and the largest N whose frame fits
``server.maxWidgetStateSize`` (if even 8,000 does not fit, 16,000), from 3 and from 8
connections, each sending again as soon as it is answered, for the attack's duration. A
connection the server closes reconnects.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable

from benchmarks.attack_phases import (
    CLOSED,
    CLOSED_BY_SERVER,
    NO_ANSWER,
    AttackerStats,
    Phase,
    close,
    compact,
    connect,
    drawn,
    effect,
    timed,
)
from tools.app_client import Session
from tools.components import CANVAS_KEY, PLAYER_KEY
from tools.streamlit_client import OK_FINISH, RunError, RunView, message


def canvas_events(session: Session, n: int, rng: random.Random) -> str:
    """``n`` drops of the margin lab's points (no version: each one a valid edit)."""
    count = len(session.scene["points"])
    x0, x1, y0, y1 = session.scene["view"]
    return compact(
        [
            {
                "event": "moved",
                "value": {
                    "i": k % count,
                    "x": round(rng.uniform(x0, x1), 2),
                    "y": round(rng.uniform(y0, y1), 2),
                },
            }
            for k in range(n)
        ]
    )


def player_events(session: Session, n: int, rng: random.Random) -> str:
    """``n`` reports of the step (``at``: ``{"t", "seq"}``, as ``player.js`` sends once a
    burst pauses) at random steps of the player's window, numbered on from its ``seq``."""
    a, b = session.start, max(session.start, session.stop)
    return compact(
        [
            {"event": "at", "value": {"t": rng.randint(a, b), "seq": session.seq + 1 + k}}
            for k in range(n)
        ]
    )


COMPONENTS: dict[str, tuple[str, str, Callable[[Session, int, random.Random], str]]] = {
    "canvas": ("margin", CANVAS_KEY, canvas_events),
    "player": ("lecture", PLAYER_KEY, player_events),
}


def largest_n(kind: str, limit: int) -> int:
    """The most events of ``kind`` whose frame fits under ``limit`` bytes (else 16,000)."""
    sample = Session("")
    sample.scene = {"points": [[0.0, 0.0, 1.0]] * 40, "view": [-3.5, 3.5, -4.3, 2.9]}
    sample.n_steps, sample.start, sample.stop, sample.seq = 20_000, 19_900, 20_000, 99_999
    per_event = len(COMPONENTS[kind][2](sample, 1000, random.Random(0))) / 1000
    fit = int((limit - 4096) / per_event)
    return fit if fit > 8000 else 16_000


async def component_attack(
    port: int, phase: Phase, stats: AttackerStats, *, kind: str, n: int, conns: int
) -> None:
    """``conns`` connections each send one trigger with ``n`` events, again and again."""
    page, key, make = COMPONENTS[kind]
    rng = random.Random(n * 31 + conns)
    sessions = [await connect(port, page) for _ in range(conns)]
    raw = make(sessions[0], n, rng)
    stats.notes.append(f"{n:,} events, {len(raw) / 1e6:.2f} MB a message")
    frames: dict[tuple[str, str], bytes] = {}

    def frame(s: Session) -> bytes:  # ids are the same in every session: build it once
        ident = s.element(key)
        if ident not in frames:
            frames[ident] = message(s.trigger(key, raw))
        return frames[ident]

    deadline = await phase.begin()

    async def one(s: Session) -> None:
        mine = [s]  # and the connections it opens again after the server closed one
        try:
            await attack_with(s, mine)
        finally:
            for session in mine:
                await close(session)

    async def send(s: Session) -> RunView:
        await s.send(frame(s))
        return await s.answer(phase.left())

    async def attack_with(s: Session, mine: list[Session]) -> None:
        sends = 0
        while time.monotonic() < deadline and sends < 500:
            sends += 1
            before = (s.t, drawn(s.scene))
            view = await timed(stats, send(s))
            if view == NO_ANSWER:
                return
            if view == CLOSED_BY_SERVER:
                await close(s)
                if time.monotonic() >= deadline:
                    return
                try:
                    s = await connect(port, page)
                except (RunError, TimeoutError, *CLOSED):
                    stats.outcomes["reconnect failed"] += 1
                    return
                mine.append(s)
                continue
            assert isinstance(view, RunView)
            if view.exceptions or view.status not in OK_FINISH:
                stats.outcomes["error"] += 1
                continue
            if view.scene is not None:
                s.scene = view.scene
            if view.t is not None:
                s.t = view.t
            changed = (s.t, drawn(s.scene)) != before
            stats.outcomes[effect(changed, view)] += 1

    await asyncio.gather(*(one(s) for s in sessions))

"""The ``log`` attack: lecture runs of 200,000 steps with the mistake log open.

3 sessions on the lecture page at 200,000 steps (500 XOR points, new seeds) with the
mistake log (``lec_log``) open, reporting step after step (t + 1, as fast as answered).
"""

from __future__ import annotations

import asyncio
import random
import time

from benchmarks.attack_phases import (
    AttackerStats,
    Phase,
    answered,
    close,
    connect,
    fresh_seed,
    timed,
)
from tools.app_client import Session
from tools.streamlit_client import RunError, RunView


async def log_attack(port: int, phase: Phase, stats: AttackerStats, *, conns: int) -> None:
    """Lecture runs of 200,000 steps with the mistake log open, stepped again and again."""
    rng = random.Random(7)
    query = "data_name=xor&data_n=500&lec_max_epochs=400&lec_t=199000&data_seed={}"
    sessions: list[Session] = []
    try:
        await log_attack_with(sessions, port, phase, stats, conns, query, rng)
    finally:
        for s in sessions:
            await close(s)


async def log_attack_with(
    sessions: list[Session],
    port: int,
    phase: Phase,
    stats: AttackerStats,
    conns: int,
    query: str,
    rng: random.Random,
) -> None:
    for _ in range(conns):
        s = await connect(port, "lecture", query.format(fresh_seed(rng)))
        sessions.append(s)
        view = await s.open_expander("lec_log")
        if "lec_log_download" not in view.keyed:
            raise RunError("the mistake log did not open (no download button in it)")
    stats.notes.append(f"{sessions[0].n_steps:,} steps, log open ({len(view.texts)} texts)")
    deadline = await phase.begin()

    async def one(s: Session) -> None:
        while time.monotonic() < deadline:
            target = s.t + 1 if s.t < s.n_steps else 0
            view = await timed(stats, s.report_view(target, timeout=phase.left()))
            if not isinstance(view, RunView):
                return
            if view.player is not None and view.player.problem is None:
                s.t, s.start, s.stop = view.player.t, view.player.start, view.player.stop
            stats.outcomes[answered(view)] += 1

    await asyncio.gather(*(one(s) for s in sessions))

"""``--class N``: a class of N students stepping in bursts on one server.

N students (200) step as the browser player lets them: one report per burst, a think
time of uniform(1, 3) s between bursts, each burst t + 1..8 inside the window, and now
and then (``--leave``, 10%) a step out of it (past its end, sometimes as a replay playing
on, back before its start, or Reset), which makes the server rerun the whole page
(:func:`tools.components.next_burst`). All of them open the page first (over ``--ramp``
s); then they step for ``--duration`` s, and only that phase is measured: the server's
CPU in cores (its CPU seconds over the wall time) and per report, the report latency,
how many reports came back as full reruns, and how many reports were sent against the
N / 2 a second the students would send if every answer came at once (a student waits for
the answer before the next burst, so a server that falls behind is sent less, and its
CPU figure alone would flatter it).

Goal: 200 simulated students stepping on one server with no errors, and the server's CPU
under one core (a server that reruns the whole page on every Step is saturated by
100 students), while it keeps up (at least 90% of the reports the students would send).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time

from benchmarks.load_phases import (
    CLASS_QUERY,
    PhaseSummary,
    Pids,
    SessionResult,
    in_phase,
    print_failures,
    verdict,
)
from tools.app_client import Session
from tools.components import BURST
from tools.streamlit_client import stream_url

CLASS_THINK = (1.0, 3.0)  # s between a student's bursts


async def run_class(
    port: int | str,
    students: int,
    duration: float,
    *,
    think: tuple[float, float] = CLASS_THINK,
    leave: float = 0.1,
    query: str = CLASS_QUERY,
    seed: int = 0,
    ramp: float = 0.0,
    pid: Pids = None,
) -> PhaseSummary:
    """A class stepping: ``students`` open the lecture page (over ``ramp`` s), then for
    ``duration`` s each steps in bursts (:meth:`Session.burst`), one report a burst,
    ``think`` s apart. Measured over the stepping only."""
    url = stream_url(port)

    async def step(i: int, s: Session, result: SessionResult, deadline: float) -> None:
        rng = random.Random(seed * 100_003 + i)
        while True:
            pause = rng.uniform(*think)
            if time.perf_counter() + pause >= deadline:
                return
            await asyncio.sleep(pause)
            target, play = s.burst(rng, leave)
            result.left += not s.start <= target <= s.stop
            result.took(*await s.report(target, play, full=result.full_ms))

    return await in_phase(
        students, ramp, lambda i: Session(url, query_string=query), step, duration, pid
    )


def class_report(args: argparse.Namespace, port: int | str, pid: Pids) -> bool:
    """``--class N``: a class of N students stepping in bursts."""
    n = args.class_size
    ramp = args.ramp if args.ramp else n / 5
    lo, hi = CLASS_THINK
    print(
        f"class: {n} students on /lecture?{args.query or CLASS_QUERY}, opened over {ramp:g} s, "
        f"then {args.duration:g} s of bursts: one report a burst (t + 1..{BURST} in the "
        f"window), uniform({lo:g}, {hi:g}) s apart, {args.leave:.0%} of them a step out of "
        f"the window; measured over the {args.duration:g} s only"
    )
    s = asyncio.run(
        run_class(
            port,
            n,
            args.duration,
            leave=args.leave,
            query=args.query or CLASS_QUERY,
            seed=args.seed,
            ramp=ramp,
            pid=pid,
        )
    )
    cores_ok = s.server_cores < 1.0
    offered = n / (sum(CLASS_THINK) / 2)  # reports a second if every answer came at once
    kept_up = s.per_s >= 0.9 * offered  # else answers queue and students report less often
    ok = s.errors == 0 and s.wrong == 0 and s.opened == n and cores_ok and kept_up
    cpu_ms = s.server_cores * s.wall_s / s.actions * 1000 if s.actions else float("nan")
    print(
        f"  opened {s.opened}/{s.sessions} (open median {s.open_median_ms:.0f} ms, "
        f"p95 {s.open_p95_ms:.0f} ms)\n"
        f"  reports {s.actions} in {s.wall_s:.1f} s: {s.per_s:.1f}/s of the {offered:.0f}/s "
        f"the students would send with instant answers ({verdict(kept_up)}: >= 90%)\n"
        f"  report latency median {s.median_ms:.0f} ms, p95 {s.p95_ms:.0f} ms\n"
        f"  steps out of the window {s.left}; full reruns {s.full} ({s.full_per_s:.1f}/s, "
        f"median {s.full_median_ms:.0f} ms, p95 {s.full_p95_ms:.0f} ms)\n"
        f"  server CPU {s.server_cores:.2f} cores (goal < 1: {verdict(cores_ok)}), "
        f"{cpu_ms:.1f} ms a report; client CPU {s.client_cores:.2f} cores; "
        f"{os.cpu_count()} cores on this machine, load average {s.load:.1f}\n"
        f"  errors {s.errors}, wrong answers {s.wrong}\n"
        f"  goal, {n} students with no errors and under one core, the server "
        f"keeping up: {verdict(ok)}",
        flush=True,
    )
    print_failures(s.messages)
    return ok

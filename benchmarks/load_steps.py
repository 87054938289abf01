"""The default load scenario: N students step through the lecture page, a share of them
dragging on the margin lab instead.

``--sessions`` N students each press Step ``--presses`` times (a report of t + 1 after a
think time of uniform(x, 2x) s: posted to the app's route, as a student alone's page does,
:meth:`tools.app_client.Session.post_report`, the session's next run checked to show the
last; or with ``--full-rerun`` a whole page's rerun,
:meth:`~tools.app_client.Session.report`), a share
(``--draggers``) of them dropping points on the margin lab instead
(:meth:`tools.app_client.Session.drag`); one row per N. Every answer is verified.

Goals: 50 sessions with zero errors and zero wrong answers, median <= 300 ms,
p95 <= 800 ms; 100 sessions with zero errors.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
from dataclasses import dataclass

from benchmarks.load_phases import (
    CLASS_QUERY,
    Meter,
    Pids,
    SessionResult,
    median,
    percentile,
    print_failures,
)
from tools.app_client import Session
from tools.streamlit_client import CLOSED_OR_FAILED, RunError, stream_url


async def student(
    url: str,
    presses: int,
    think: float,
    rng: random.Random,
    full_rerun: bool,
    delay: float = 0,
    page: str = "lecture",
) -> SessionResult:
    """After ``delay`` s open the lecture page and press Step ``presses`` times (each a
    report of t + 1), or open the margin lab and drag a point that often."""
    result = SessionResult(page=page)
    await asyncio.sleep(delay)
    try:
        async with Session(url, full_rerun=full_rerun, page=page) as session:
            result.open_ms = await session.open()
            if page == "lecture" and session.n_steps < presses:
                raise RunError(f"the run has {session.n_steps} steps, fewer than {presses}")
            for _ in range(presses):
                await asyncio.sleep(rng.uniform(think, 2 * think))
                if page == "margin":
                    result.took(*await session.drag(rng))
                elif session.post is not None and not full_rerun:  # alone: the route
                    result.took(*await session.post_report(session.t + 1))
                else:
                    result.took(*await session.report(session.t + 1, full=result.full_ms))
            # the session took the posts: its next run shows the last one
            alone = page == "lecture" and session.post is not None and not full_rerun
            if alone and (wrong := await session.posted()) is not None:
                result.wrong.append(wrong)
    except CLOSED_OR_FAILED as exc:
        result.errors.append(f"{type(exc).__name__}: {exc}")
    return result


@dataclass
class Summary:
    sessions: int
    presses: int
    median_ms: float
    p95_ms: float
    full: int
    drags: int
    drag_median_ms: float
    drag_p95_ms: float
    open_median_ms: float
    open_p95_ms: float
    reruns_per_s: float
    errors: int
    wrong: int
    messages: list[str]


async def run_load(
    port: int | str,
    sessions: int,
    presses: int,
    think: float,
    seed: int = 0,
    full_rerun: bool = False,
    ramp: float = 0.0,
    draggers: float = 0.0,
) -> Summary:
    """N students; they open the page spread evenly over ``ramp`` s (0: all at once).

    A share ``draggers`` of them (every k-th student) is on the margin lab, dragging.
    """
    every = round(1 / draggers) if draggers > 0 else 0
    url = stream_url(port)
    start = time.perf_counter()
    results = await asyncio.gather(
        *(
            student(
                url,
                presses,
                think,
                random.Random(seed * 100_003 + i),
                full_rerun,
                delay=ramp * i / sessions,
                page="margin" if every and i % every == every - 1 else "lecture",
            )
            for i in range(sessions)
        )
    )
    wall = time.perf_counter() - start
    latencies = [ms for r in results if r.page == "lecture" for ms in r.latencies_ms]
    drags = [ms for r in results if r.page == "margin" for ms in r.latencies_ms]
    opens = [r.open_ms for r in results if r.open_ms is not None]
    messages = [m for r in results for m in r.errors + r.wrong]
    return Summary(
        sessions=sessions,
        presses=len(latencies),
        median_ms=median(latencies),
        p95_ms=percentile(latencies, 0.95),
        full=sum(len(r.full_ms) for r in results),
        drags=len(drags),
        drag_median_ms=median(drags),
        drag_p95_ms=percentile(drags, 0.95),
        open_median_ms=median(opens),
        open_p95_ms=percentile(opens, 0.95),
        reruns_per_s=(len(latencies) + len(drags) + len(opens)) / wall,
        errors=sum(len(r.errors) for r in results),
        wrong=sum(len(r.wrong) for r in results),
        messages=messages,
    )


def load_of(args: argparse.Namespace, where: int | str, n: int) -> Summary:
    """:func:`run_load` with the command line's settings: ``n`` students at ``where``."""
    return asyncio.run(
        run_load(
            where,
            n,
            args.presses,
            args.think,
            args.seed,
            args.full_rerun,
            args.ramp,
            args.draggers,
        )
    )


async def warm_up(port: int | str, full_rerun: bool = False, needs_player: bool = True) -> None:
    """First runs on a fresh server (imports, compiled kernels, the pages' code): a
    student on each page, and the class's run on the lecture page."""
    url = stream_url(port)
    if not needs_player:
        async with Session(url, needs_player=False) as s:
            await s.open()
            await s.rerun()
        return
    for share in (0.0, 1.0):  # one student on each page
        warm = await run_load(port, 1, 2, 0.0, seed=-1, full_rerun=full_rerun, draggers=share)
        if warm.errors or warm.wrong:
            raise RunError(f"warm-up failed: {warm.messages}")
    async with Session(url, query_string=CLASS_QUERY) as s:
        await s.open()


HEADER = (
    f"{'N':>4} {'steps':>6} {'median ms':>10} {'p95 ms':>8} {'full':>5} "
    f"{'drags':>6} {'drag med':>9} {'drag p95':>9} {'open med':>9} "
    f"{'open p95':>9} {'reruns/s':>9} {'errors':>7} {'wrong':>6} "
    f"{'server cpu':>10} {'client cpu':>10}"
)


def row(s: Summary, server_cpu: float, client_cpu: float) -> str:
    return (
        f"{s.sessions:>4} {s.presses:>6} {s.median_ms:>10.0f} {s.p95_ms:>8.0f} {s.full:>5} "
        f"{s.drags:>6} {s.drag_median_ms:>9.0f} {s.drag_p95_ms:>9.0f} "
        f"{s.open_median_ms:>9.0f} {s.open_p95_ms:>9.0f} {s.reruns_per_s:>9.1f} "
        f"{s.errors:>7} {s.wrong:>6} {server_cpu:>9.0%} {client_cpu:>9.0%}"
    )


def sessions_table(args: argparse.Namespace, port: int | str, pid: Pids) -> bool:
    """The default measurement: one row per N of ``--sessions``."""
    counts = [int(n) for n in args.sessions.split(",") if n.strip()]
    mode = "full reruns" if args.full_rerun else "fragment reruns"
    print(
        f"{mode}; think time uniform({args.think:g}, {2 * args.think:g}) s; "
        f"sessions open over {args.ramp:g} s; "
        f"{args.draggers:.0%} of them drag points on the margin lab"
    )
    print(
        "latency: BackMsg sent -> script_finished received; steps = Step on the lecture "
        "page (the player's report of t + 1), full = those answered by a full rerun "
        "(a step onto the window's last step); drags = drops on the margin lab; "
        "open = first page run;"
    )
    print(f"cpu: share of one core over the run ({os.cpu_count()} cores on this machine)")
    print(HEADER)
    failures = []
    for n in counts:
        meter = Meter(pid)
        summary = load_of(args, port, n)
        _, server, client = meter.read()
        print(row(summary, server, client), flush=True)
        failures += [f"N={n}: {m}" for m in summary.messages]
    print(f"load average {Meter.load():.1f} (other work on the machine competes)")
    print_failures(failures)
    return not failures

"""``--full-reruns``: the throughput of full-page reruns of the lecture page.

``--sessions`` N sessions (50) send full-page reruns (a ``rerun_script`` without a
fragment id) back to back for ``--duration`` s: plain reruns (what a settings change or a
reload costs the server) and reports of t + 1 sent as full reruns, each answer verified.
``--reference DIR`` measures the plain reruns of the lecture page of another copy of the
app too (``git archive <commit> | tar -x -C DIR``) in the same run, and prints the ratio.

Goal: full-page reruns of the lecture page with 50 sessions at least twice
:data:`BEFORE_PLAYER` (about 17 a second on this 2-core machine, the page without the
browser player).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import IO

from benchmarks import load_phases as phases
from benchmarks.load_steps import warm_up
from tools import streamlit_server
from tools.app_client import Session
from tools.streamlit_client import stream_url

BEFORE_PLAYER = 17.0  # full reruns/s of the lecture page, 50 sessions, no browser player


async def run_full_reruns(
    port: int | str,
    sessions: int,
    duration: float,
    *,
    reports: bool,
    query: str = "",
    ramp: float = 0.0,
    pid: phases.Pids = None,
) -> phases.PhaseSummary:
    """``sessions`` sessions on the lecture page each send full-page reruns (no fragment
    id) back to back for ``duration`` s: plain reruns, or (``reports``) reports of
    t + 1 (0 after the last step), each answer verified."""
    url = stream_url(port)

    async def hammer(i: int, s: Session, result: phases.SessionResult, deadline: float) -> None:
        while time.perf_counter() < deadline:
            if reports:
                target = s.t + 1 if s.t < s.n_steps else 0
                result.took(*await s.report(target, full=result.full_ms))
                continue
            begin = time.perf_counter()
            view = await s.rerun()
            latency = (time.perf_counter() - begin) * 1000
            s.check(view)
            if view.full:
                result.full_ms.append(latency)
            wrong = None if view.full else f"a plain rerun ended with status {view.status}"
            result.took(latency, wrong)

    def make(i: int) -> Session:
        return Session(url, query_string=query, full_rerun=True, needs_player=reports)

    return await phases.in_phase(sessions, ramp, make, hammer, duration, pid)


def rate_line(name: str, s: phases.PhaseSummary) -> str:
    return (
        f"  {name:<44} {s.per_s:>7.1f}/s  median {s.median_ms:>5.0f} ms  "
        f"p95 {s.p95_ms:>5.0f} ms  server {s.server_cores:.2f} cores  "
        f"errors {s.errors}  wrong {s.wrong}  load {s.load:.1f}"
    )


def full_rerun_report(
    args: argparse.Namespace, port: int | str, pid: phases.Pids, log: IO[bytes]
) -> bool:
    """``--full-reruns``: full-page reruns a second of the lecture page."""
    counts = [int(n) for n in args.sessions.split(",") if n.strip()]
    n = counts[0] if args.sessions_given else 50
    ramp = args.ramp if args.ramp else n / 5
    query = args.query
    print(
        f"full-page reruns (rerun_script without a fragment id) of /lecture?{query}: {n} "
        f"sessions (opened over {ramp:g} s) each sending them back to back for "
        f"{args.duration:g} s"
    )

    def measure(p: int | str, pid: phases.Pids, reports: bool) -> phases.PhaseSummary:
        return asyncio.run(
            run_full_reruns(p, n, args.duration, reports=reports, query=query, ramp=ramp, pid=pid)
        )

    plain = measure(port, pid, False)
    print(rate_line("plain reruns", plain), flush=True)
    stepping = measure(port, pid, True)
    print(rate_line("reports of t + 1 as full reruns", stepping), flush=True)
    failures = [f"plain: {m}" for m in plain.messages] + [
        f"reports: {m}" for m in stepping.messages
    ]
    goal = 2 * BEFORE_PLAYER
    ok = plain.per_s >= goal and not failures
    if args.reference:
        ref_dir = args.reference.resolve()
        with streamlit_server.serve("app.py", log=log, app_dir=ref_dir) as (proc, url):
            ref_port = streamlit_server.port_of(url)
            asyncio.run(warm_up(ref_port, needs_player=False))
            ref = measure(ref_port, proc.pid, False)
        print(rate_line(f"reference: plain reruns, app in {ref_dir.name}", ref))
        ratio = plain.per_s / ref.per_s if ref.per_s else float("nan")
        print(f"  ratio: {ratio:.2f}x the reference's throughput (goal >= 2)")
        ok = ok and ratio >= 2
        failures += [f"reference: {m}" for m in ref.messages]
    print(
        f"  about {BEFORE_PLAYER:g}/s without the browser player (not measured in this run); "
        f"goal >= {goal:g}/s: plain {plain.per_s / BEFORE_PLAYER:.1f}x that figure: "
        f"{phases.verdict(ok)}"
    )
    phases.print_failures(failures)
    return ok

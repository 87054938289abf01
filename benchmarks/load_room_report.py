"""``--room N``'s report: what :func:`benchmarks.load_room.run_room` measured, line by
line, against its goals (see ``benchmarks/load_room.py``)."""

from __future__ import annotations

import argparse
import asyncio
import os

from benchmarks.load_phases import Idle, Pids, median, percentile, print_failures, verdict
from benchmarks.load_room import ROOM_GOAL_S, run_room
from tools.live import Door


def ms_line(name: str, values: list[float], expected: int) -> str:
    ms = [v * 1000 for v in values]
    top = max(ms, default=float("nan"))
    return (
        f"  {name:<40} {f'{len(ms)}/{expected}':>9} {median(ms):>9.0f} "
        f"{percentile(ms, 0.95):>8.0f} {top:>8.0f}"
    )


def idle_line(name: str, x: Idle, reference: Idle) -> str:
    ratio = x.cores / reference.cores if reference.cores > 0 else float("inf")
    return (
        f"  {name:<40} {x.sessions:>9} {x.cores:>12.3f} {x.poll_ms:>9.2f} "
        f"{x.polls / x.wall_s if x.wall_s else 0:>8.1f} {x.client:>7.2f} {ratio:>8.1f}x"
    )


def room_report(
    args: argparse.Namespace,
    store_setting: str,
    lecturers: list[Door],
    students: list[Door],
    pid: Pids,
    where: str,
) -> bool:
    """``--room N``: a class in one room (see :func:`run_room`).

    Goals: every follower shows the lecturer's new step within 2 s (p95 over
    every change every follower saw, none missed), every answer counted once, no errors;
    the idle cost of a follower is stated (the server's CPU per poll)."""
    n = len(students)
    ramp = args.ramp if args.ramp else n / 10
    print(
        f"room: {n} students and {len(lecturers)} lecturer session(s) on /lecture ({where}; "
        f"store {store_setting}); every tab's class strip runs on its timer and when the "
        f"server reruns it, as in a browser; opened over {ramp:g} s; {args.changes} steps of "
        f"the lecturer's {args.gap:g} s apart, a question, the reveal; the same-run reference: "
        f"{n} sessions on /lecture in no room",
        flush=True,
    )
    s = asyncio.run(
        run_room(
            store_setting,
            lecturers,
            students,
            changes=args.changes,
            gap=args.gap,
            idle=args.idle,
            ramp=ramp,
            seed=args.seed,
            pid=pid,
        )
    )
    spread = ", ".join(f"server {k}: {v}" for k, v in sorted(s.per_server.items()))
    print(
        f"  class {s.code}: {s.opened}/{s.students} students opened ({spread}); lecturer "
        f"session(s) on server {', '.join(map(str, s.lecturer_servers))}"
    )
    print(
        f"  {'from the write to the store':<40} {'seen':>9} {'median ms':>9} {'p95 ms':>8} "
        f"{'max ms':>8}"
    )
    print(
        ms_line(
            f"lecturer's step -> follower ({s.changes} steps)", s.follow_s, s.changes * s.opened
        )
    )
    print(ms_line("reveal -> follower at t + 1", s.reveal_s, s.opened))
    every = s.follow_s + s.reveal_s
    p95 = percentile(every, 0.95)
    if len(s.lecturer_servers) > 1:
        print(ms_line("  both: followers on the other server", s.other_s, len(s.other_s)))
    # how long the server took: from the follower's first poll after the write
    print(ms_line("  both: from the next poll sent", s.served_s, len(every)))
    print(ms_line("ask -> question card shown", s.card_s, s.opened))
    each = " ".join(f"{percentile(v, 0.95) * 1000:.0f}" for v in s.per_step_s)
    print(f"  each step's p95 ms: {each}; missed {s.missed}")
    # over one Wi-Fi every follower's bytes add up (Streamlit's websocket is not compressed)
    print(
        f"  sent to each follower per step: {s.step_kb:.1f} kB "
        f"({s.step_kb * s.opened / 1000:.2f} MB to the room)"
    )
    # the steps' CPU beyond what the polls cost while idle, per follower and step
    extra = s.steps_cpu_s - s.idle.cores * s.steps_wall_s
    catch_up = extra / (s.changes * s.opened) * 1000 if s.changes * s.opened else float("nan")
    print(
        f"  the worst follower's own p95 ({s.changes + 1} changes): "
        f"{s.worst_follower_p95_s * 1000:.0f} ms; server CPU over the steps "
        f"{s.steps_cpu_s:.1f} s in {s.steps_wall_s:.0f} s, {catch_up:.0f} ms a follower's "
        f"catch-up beyond the idle polls; client {s.steps_client:.2f} cores"
    )
    answers_ok = (
        s.tally_ok
        and len(s.answered) == 2
        and all(
            a == c == n == s.opened
            for a, c, n in zip(s.answered, s.confirmed, s.counted, strict=True)
        )
    )
    for v, (a, ch, c, n, t) in enumerate(
        zip(s.answered, s.changed, s.confirmed, s.counted, s.tally, strict=False), 1
    ):
        print(
            f"  vote {v}: {a} students answered ({ch} changed their answer once), {c} pages "
            f"said the last one was counted, the store holds {n}: {t}"
        )
    print(
        f"  both votes counted once each, the first kept: {verdict(answers_ok)}; after the "
        f"reveal {s.marked} pages showed the truth with both their answers graded"
    )
    print(
        f"  {f'idle, {args.idle:g} s each':<40} {'sessions':>9} {'server cores':>12} "
        f"{'ms a poll':>9} {'polls/s':>8} {'client':>7} {'vs ref':>9}"
    )
    print(idle_line("room: followers + lecturer, no question", s.idle, s.reference))
    print(idle_line("room: the question on every page", s.asked, s.reference))
    print(idle_line("reference: /lecture in no room", s.reference, s.reference))
    ok = (
        p95 <= ROOM_GOAL_S
        and s.missed == 0
        and s.opened == s.students
        and answers_ok
        and s.marked == s.opened
        and not s.errors
    )
    print(
        f"  goal, {n} students: every follower shows the lecturer's step within "
        f"{ROOM_GOAL_S:g} s (p95 {p95 * 1000:.0f} ms over {len(every)} changes seen, "
        f"{s.missed} missed), every answer counted once, no errors ({len(s.errors)}): "
        f"{verdict(ok)}; {os.cpu_count()} cores, load average {s.load:.1f}",
        flush=True,
    )
    print_failures(s.errors)
    return ok

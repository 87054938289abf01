"""``--room N --play``: N students following a lecturer who presses Play.

A room and N seats in the store the server uses (as ``--room``); the lecturer's session and
the students' open /lecture and are left open as browsers leave tabs
(:class:`tools.live.Live`). The lecturer first steps once (the reference below), then plays
at 2 steps/s for ``--play-s`` seconds and pauses, then at 8 steps/s and pauses, inside one
window of steps, as ``player.js`` reports it: "playing from t at s steps/s" as Play
starts, the step where it stopped as it stops. The lecturer's page shows
t0 + ⌊s × the time since Play⌋; each follower's page shows what its player does with what
the server sent it (:func:`tools.components.shown_step`: the step, or while it plays along,
the step by its own clock from the moment that arrived). Every 50 ms every follower's step
is compared with the lecturer's.

Measured: during each Play, the share of samples within one step of the lecturer, each
follower's p95 of the distance in steps (the worst and the median follower), how soon after
Play each follower is within one step (p95), and after the pause how far past the stop a
follower went and how soon it showed the lecturer's stop (p95). Same-run references: the
same samples for a page that shows only the lecturer's published step (the follower before
Play was followed: it stood at t0 until the pause), and the time a single step of the
lecturer takes to reach the followers (their start lag is stated against it).

Goal: every follower within one step of the lecturer during Play at 2 and 8 steps/s (p95 of
its samples, from the lecturer's press to the pause).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.load_phases import Meter, Pids, median, percentile
from benchmarks.load_room import ROOM_QUERY, ROOM_WAIT_S
from tools.components import shown_step
from tools.live import Door, Live, close_all, open_live, seat_cookie, until
from tools.streamlit_client import CLOSED_OR_FAILED

PLAYER_JS = (Path(__file__).parents[1] / "ui" / "lecture" / "player_chart.js").read_text("utf-8")
SAMPLE_S = 0.05
RATES = (2.0, 8.0)
START = 3  # the lecturer's step before the first Play (the window 0..100 holds both plays)
SETTLE_S = 3.0  # after a pause: how long the followers are watched
# the player's COUNT_IN (player_chart.js): a class's Play starts this long after the press
COUNT_IN_S = int(re.search(r"const COUNT_IN = (\d+);", PLAYER_JS).group(1)) / 1000  # type: ignore[union-attr]


@dataclass
class PlayResult:
    rate: float
    seconds: float
    t0: int = 0
    stop: int = 0
    samples: int = 0
    within: int = 0  # samples within one step of the lecturer
    within_ref: int = 0  # the same for a page that shows only the published step
    follower_p95: list[float] = field(default_factory=list)  # each follower's p95 distance
    follower_p95_ref: list[float] = field(default_factory=list)
    start_s: list[float] = field(default_factory=list)  # Play -> the page plays along
    late: int = 0  # followers that never played along during Play
    overshoot: list[int] = field(default_factory=list)  # steps past the stop, at most
    stop_s: list[float] = field(default_factory=list)  # pause -> showing the stop step
    unstopped: int = 0
    cores: float = float("nan")  # the server's CPU during Play


@dataclass
class PlaySummary:
    students: int = 0
    opened: int = 0
    step_s: list[float] = field(default_factory=list)  # the reference: one step's latency
    plays: list[PlayResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    load: float = 0.0


async def run_play(
    store_setting: str, lecturer: Door, students: list[Door], *, seconds: float, pid: Pids
) -> PlaySummary:
    import perceptron_store as store_mod
    from ui.classmode import classroom

    out = PlaySummary(students=len(students))
    store = store_mod.open_store(store_setting)
    room, secret = classroom.create_room(store)
    code = room.code
    seats = [classroom.join(store, room, f"student {i + 1}") for i in range(len(students))]
    lec: Live | None = None
    followers: list[Live] = []
    try:
        lec = await open_live(lecturer, f"{ROOM_QUERY}&room={code}&key={secret}")
        for i, door in enumerate(students):
            try:
                followers.append(
                    await open_live(door, f"room={code}", cookies=seat_cookie(code, seats[i]))
                )
            except CLOSED_OR_FAILED as exc:
                out.errors.append(f"student {i + 1} could not open the page: {exc}"[:300])
        out.opened = len(followers)

        # the reference: one step of the lecturer's, to every follower
        sent = time.perf_counter()
        await lec.send(lec.session.report_state(START))
        await until(lambda: all(START in f.shown for f in followers), sent + ROOM_WAIT_S)
        out.step_s = [f.shown[START] - sent for f in followers if START in f.shown]
        out.errors += [f"a follower missed the step to {START}"] * (
            len(followers) - len(out.step_s)
        )
        await asyncio.sleep(1.0)

        t0 = START
        for rate in RATES:
            r = PlayResult(rate, seconds, t0=t0)
            meter = Meter(pid)
            pressed = time.perf_counter()
            # player.js's report as Play starts: a class's Play starts after its count-in
            play = {"from": t0, "rate": rate, "elapsed": -COUNT_IN_S}
            await lec.send(lec.session.report_state(t0, False, **play))
            dist: list[list[float]] = [[] for _ in followers]
            dist_ref: list[list[float]] = [[] for _ in followers]
            first: list[float | None] = [None] * len(followers)
            while (now := time.perf_counter()) < pressed + seconds:
                expected = t0 + int(rate * max(0.0, now - pressed - COUNT_IN_S))
                for i, f in enumerate(followers):
                    if f.player is None:
                        continue
                    received, view = f.player
                    d = abs(shown_step(view, received, now, f.late) - expected)
                    dist[i].append(d)
                    dist_ref[i].append(abs(view.t - expected))
                    if view.along is not None and first[i] is None:
                        first[i] = received - pressed  # the page plays along from here
                await asyncio.sleep(SAMPLE_S)
            r.stop = t0 + int(rate * max(0.0, time.perf_counter() - pressed - COUNT_IN_S))
            await lec.send(lec.session.report_state(r.stop))  # Pause: where it stopped
            paused = time.perf_counter()
            _, r.cores, _ = meter.read()
            over = [0] * len(followers)
            stopped: list[float | None] = [None] * len(followers)
            while (now := time.perf_counter()) < paused + SETTLE_S:
                for i, f in enumerate(followers):
                    if f.player is None:
                        continue
                    shown = shown_step(f.player[1], f.player[0], now, f.late)
                    over[i] = max(over[i], shown - r.stop)
                    if stopped[i] is None and shown == r.stop and f.player[1].along is None:
                        stopped[i] = now - paused
                await asyncio.sleep(SAMPLE_S)
            r.samples = sum(map(len, dist))
            r.within = sum(d <= 1 for ds in dist for d in ds)
            r.within_ref = sum(d <= 1 for ds in dist_ref for d in ds)
            r.follower_p95 = [percentile(ds, 0.95) for ds in dist if ds]
            r.follower_p95_ref = [percentile(ds, 0.95) for ds in dist_ref if ds]
            r.start_s = [s for s in first if s is not None]
            r.late = first.count(None)
            r.overshoot = over
            r.stop_s = [s for s in stopped if s is not None]
            r.unstopped = stopped.count(None)
            out.plays.append(r)
            t0 = r.stop
            await asyncio.sleep(1.0)
        for who, live in [("the lecturer", lec), *(("a student", f) for f in followers)]:
            out.errors += [f"{who}: {e}" for e in live.errors]
    except CLOSED_OR_FAILED as exc:
        out.errors.append(f"{type(exc).__name__}: {exc}"[:300])
    finally:
        await close_all(([lec] if lec is not None else []) + followers)
    out.load = Meter.load()
    return out


def play_report(
    args: argparse.Namespace, store_setting: str, lecturer: Door, students: list[Door], pid: Pids
) -> bool:
    """``--room N --play``: prints the table; True if every follower met the goal."""
    n = len(students)
    print(
        f"play: {n} students following a lecturer on /lecture (store {store_setting}); the "
        f"lecturer steps once, then plays {args.play_s:g} s at each of "
        f"{', '.join(f'{r:g}' for r in RATES)} steps/s and pauses; followers sampled every "
        f"{SAMPLE_S * 1000:.0f} ms",
        flush=True,
    )
    s = asyncio.run(run_play(store_setting, lecturer, students, seconds=args.play_s, pid=pid))
    step_p50, step_p95 = median(s.step_s), percentile(s.step_s, 0.95)
    print(
        f"opened {s.opened} of {s.students}; the reference, one step of the lecturer's to "
        f"every follower: median {step_p50 * 1000:.0f} ms, p95 {step_p95 * 1000:.0f} ms"
    )
    print(
        "| Play | samples within 1 step (page showing the published step only) | worst "
        "follower's p95 distance, steps (same, published step only) | median follower's "
        "p95 | playing along after Play: p95 (/ one step's p95) | past the stop: max steps "
        "| showing the stop after the pause: p95 | server CPU |"
    )
    print("|---|---|---|---|---|---|---|---|")
    ok = s.opened == s.students and not s.errors
    for r in s.plays:
        share = r.within / r.samples if r.samples else float("nan")
        ref = r.within_ref / r.samples if r.samples else float("nan")
        worst = max(r.follower_p95, default=float("nan"))
        worst_ref = max(r.follower_p95_ref, default=float("nan"))
        start = percentile(r.start_s, 0.95)
        never = f", {r.late} never" if r.late else ""
        unstopped = f", {r.unstopped} never" if r.unstopped else ""
        print(
            f"| {r.rate:g} steps/s, {r.seconds:g} s (t {r.t0} to {r.stop}) | {share:.1%} "
            f"({ref:.1%}) | {worst:g} ({worst_ref:g}) | {median(r.follower_p95):g} | "
            f"{start * 1000:.0f} ms ({start / step_p95:.2f}×){never} "
            f"| {max(r.overshoot, default=0)} | {percentile(r.stop_s, 0.95) * 1000:.0f} ms"
            f"{unstopped} | {r.cores:.2f} cores |"
        )
        ok = ok and worst <= 1 and not r.late and not r.unstopped
    print(f"load average at the end: {s.load:.1f} (other work on the machine)")
    for e in s.errors[:10]:
        print("error:", e)
    print("goal (every follower within 1 step during Play, p95):", "met" if ok else "MISSED")
    return ok

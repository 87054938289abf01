"""``--room N``: a class in a room, every tab left open as a browser leaves it.

``--room N`` makes a room and N seats in the store the server uses
(``ui.classmode.classroom``; the server started here gets a temporary SQLite file as its
``PERCEPTRON_STORE``, ``--store`` names the store of a server given by ``--port`` or
``--url``). A lecturer's session opens /lecture with the lecturer link (``?room=<code>&key=
<secret>``), then each student with its seat (``?room=<code>`` and the seat's cookie: the seat is
restored, following is on). Every session is then left open as a browser leaves a tab
(:class:`tools.live.Live`): the class strip is a fragment with ``run_every`` (the server
sends a ``ForwardMsg.auto_rerun`` with its fragment id and interval: 1 s for the
lecturer's live tally, ``ui.classmode.strip.HEARTBEAT_S`` for a student's) and the client
asks for it at that interval as the browser's timer does, reading everything that comes
back; and a student's page opens the class's live channel as its browser does
(``/api/live``): a follower's step inside its window is shown when the channel's state
arrives, and what the page cannot draw by itself (a question, another window) is asked for
as ``player.js`` and ``live.js`` ask, with the runs that follow read as they come.
Measured: the server's CPU per second and per poll while nothing
changes (with and without a question on every page) against the same number of sessions
on /lecture in no room, in the same run; the lecturer's ``--changes`` steps (``--gap`` s
apart): for every follower, the time from the change written to the room (the store's
document read every 2 ms) to its page receiving the lecture player at the new step; "Ask
the class" (the lecturer's strip button) to each student's question card (drawn by the page
from its route when the channel tells of it, as ``card.js`` does); every student's answer
(posted to the card's route as the page posts it; 30% change it once)
must be said counted on its page and counted once in the store (``answers.tally`` of
``answers_of``); "Reveal" steps the lecture (measured like a step) and every page shows
the truth with its answer marked. The question is voted on twice ("Vote again",
Peer Instruction): each vote's answers are counted once in its own map, and the first
vote's are kept as they were; after the reveal each page shows both votes graded. With
``--through-nginx M`` (``benchmarks/load_nginx.py``)
the students go through nginx with sticky cookies of their own and there is a lecturer
session on each server, stepping in turn: at every other change a student follows a
lecturer on the other server, through Redis.

Goal: 100 students in one room on one server, and through nginx over 2 servers, every
follower showing the lecturer's new step within 2 s (p95), every answer counted once, no
errors (both votes of the question); the idle cost of a follower stated
(``benchmarks/load_room_report.py`` prints it).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from benchmarks.load_phases import CLASS_QUERY, Idle, Meter, Pids, idle_phase, percentile
from tools.live import Door, Live, close_all, open_live, seat_cookie, until
from tools.streamlit_client import CLOSED_OR_FAILED, RunError
from ui.classmode.question import VOTES

if TYPE_CHECKING:
    from ui.classmode.classroom import Room

ROOM_QUERY = CLASS_QUERY  # the lecturer's lecture (4,000 steps); the followers take it
ROOM_STEP = 3  # each change of the lecturer's: a burst of 3 steps (inside the window)
ROOM_GOAL_S = 2.0  # a follower shows the lecturer's new step within 2 s (p95)
ROOM_WAIT_S = 10.0  # a follower that has not shown a change after this missed it
ROOM_CHANGERS = 0.3  # share of the students who change their answer once
ROOM_ANSWERS = ("mistake", "no mistake")  # the question card's choices (question.ANSWERS)


def watch_room(
    store: Any, code: str, ready: Callable[[Room], bool], timeout: float
) -> tuple[float, Room]:
    """(when, room): the first read of the room's document (``load_room(fresh=True)``,
    every 2 ms, in a thread) that is ``ready``; RunError after ``timeout`` s."""
    from ui.classmode import classroom

    deadline = time.perf_counter() + timeout
    while True:
        room = classroom.load_room(store, code, fresh=True)
        now = time.perf_counter()
        if room is not None and ready(room):
            return now, room
        if now > deadline:
            raise RunError(f"the room's document did not change within {timeout:g} s")
        time.sleep(0.002)


async def written(
    store: Any, code: str, ready: Callable[[Room], bool], act: Awaitable[None]
) -> tuple[float, Room]:
    """Do ``act`` (a lecturer's message) and return (when, room) of the room's document
    once it is ``ready``: the time a change was written, within a few ms."""
    watch = asyncio.create_task(asyncio.to_thread(watch_room, store, code, ready, ROOM_WAIT_S))
    await asyncio.sleep(0.01)  # the watcher has read the document as it was
    await act
    return await watch


@dataclass
class RoomSummary:
    """What ``--room N`` measured (see :func:`run_room`)."""

    code: str = ""
    students: int = 0
    opened: int = 0
    lecturer_servers: list[int] = field(default_factory=list)
    per_server: dict[int, int] = field(default_factory=dict)  # students on each app server
    changes: int = 0
    follow_s: list[float] = field(default_factory=list)  # every (step, follower)
    served_s: list[float] = field(default_factory=list)  # the same, from the next poll sent
    other_s: list[float] = field(default_factory=list)  # those on another server
    worst_follower_p95_s: float = float("nan")
    missed: int = 0
    card_s: list[float] = field(default_factory=list)
    # each vote's (the question is asked, then "Vote again"):
    answered: list[int] = field(default_factory=list)  # students who answered
    changed: list[int] = field(default_factory=lambda: [0, 0])  # who changed it once
    confirmed: list[int] = field(default_factory=list)  # pages: "Counted: you said <last>"
    counted: list[int] = field(default_factory=list)  # fields in the vote's answers map
    tally: list[str] = field(default_factory=list)
    tally_ok: bool = False  # both votes counted once each, the first kept as it was
    reveal_s: list[float] = field(default_factory=list)
    marked: int = 0  # pages that showed the truth with their own answer marked
    per_step_s: list[list[float]] = field(default_factory=list)  # each step's latencies
    step_kb: float = float("nan")  # what a follower was sent per step (kB, polls included)
    steps_cpu_s: float = float("nan")  # the server's CPU over the steps phase
    steps_wall_s: float = float("nan")
    steps_client: float = float("nan")  # this process's CPU (cores) over the steps phase
    idle: Idle = field(default_factory=Idle)  # no change, no question
    asked: Idle = field(default_factory=Idle)  # no change, a question on every page
    reference: Idle = field(default_factory=Idle)  # sessions in no room
    load: float = 0.0
    errors: list[str] = field(default_factory=list)


async def run_room(
    store_setting: str,
    lecturers: list[Door],
    students: list[Door],
    *,
    changes: int = 10,
    gap: float = 4.0,
    idle: float = 15.0,
    ramp: float = 0.0,
    seed: int = 0,
    pid: Pids = None,
) -> RoomSummary:
    """A class in a room: a room in the store the server(s) use, ``len(students)`` seats
    joined in it; the lecturer's sessions (one per door; the lecturer link opens the room
    on another device) and then the students open /lecture (``?room=<code>&key=<secret>``
    for a lecturer, ``?room=<code>`` and the seat's cookie for a student: the seat is restored,
    following is on), all of them left open as :class:`Live` tabs that poll the class
    strip every second.

    1. idle: ``idle`` s without a change: the server's CPU, per second and per poll;
    2. ``changes`` steps of the lecturer's, ``gap`` s apart (with several lecturer
       sessions, each in turn): for every follower the time from the change written to
       the room (the store's document read every 2 ms) to its page receiving the lecture
       player at the new step;
    3. the last lecturer to step presses "Ask the class": the time to each student's
       question card (fetched from its route, as the page does); every student answers
       on the card's route, a share of them changing their answer once; every
       page must say the last answer was counted, and the question's answers in the store
       (``answers.tally``) must count every student once, with their last answer;
    4. the next lecturer presses "Reveal": the lecture steps to t + 1 (measured as a
       change) and every page shows the truth with its own answer marked;
    5. the reference: as many sessions on /lecture through the same doors, in no room (no
       strip), idle for ``idle`` s, in the same run.
    """
    import perceptron_store as store_mod
    from ui.classmode import answers, classroom

    out = RoomSummary(students=len(students), changes=changes)
    store = store_mod.open_store(store_setting)
    room, secret = classroom.create_room(store)
    code = out.code = room.code
    seats = [classroom.join(store, room, f"student {i + 1}") for i in range(len(students))]
    lecs: list[Live] = []
    followers: list[tuple[int, Live]] = []

    async def student(i: int, door: Door) -> None:
        await asyncio.sleep(ramp * i / len(students))
        try:
            live = await open_live(door, f"room={code}", cookies=seat_cookie(code, seats[i]))
        except CLOSED_OR_FAILED as exc:
            out.errors.append(f"student {i + 1} could not open the page: {exc}"[:300])
            return
        followers.append((i, live))
        lecture = lecs[0].session
        if not live.says("Following the lecturer") or live.session.n_steps != lecture.n_steps:
            out.errors.append(f"student {i + 1} does not follow the lecturer on arrival")

    try:
        for door in lecturers:
            lecs.append(await open_live(door, f"{ROOM_QUERY}&room={code}&key={secret}"))
        out.lecturer_servers = [lec.server for lec in lecs]
        await asyncio.gather(*(student(i, d) for i, d in enumerate(students)))
        followers.sort(key=lambda pair: pair[0])
        out.opened = len(followers)
        for _, f in followers:
            out.per_server[f.server] = out.per_server.get(f.server, 0) + 1
        everyone = lecs + [f for _, f in followers]

        # 1. idle: nobody changes anything; every tab polls its class strip
        out.idle = await idle_phase(everyone, idle, pid)

        # 2. the lecturer's steps
        t = lecs[0].session.t
        per_follower: dict[int, list[float]] = {i: [] for i, _ in followers}

        async def follow(t: int, lec: Live, act: Awaitable[None], into: list[float]) -> float:
            """Do ``act`` (a lecturer's message that steps to ``t``); every follower's
            time to show t from the write, into ``into``; returns the write's time."""
            current = classroom.load_room(store, code, fresh=True)
            assert current is not None, "the class is open"
            before = current.lecture_n
            at, doc = await written(store, code, lambda r: r.lecture_n > before, act)
            if doc.lecture_query.get("lec_t") != str(t):
                out.errors.append(f"the room holds lec_t={doc.lecture_query.get('lec_t')}, not {t}")
            await until(lambda: all(t in f.shown for _, f in followers), at + ROOM_WAIT_S)
            for i, f in followers:
                if t not in f.shown:
                    out.missed += 1
                    following = "following" if f.says("Following the lecturer") else "not following"
                    out.errors.append(
                        f"student {i + 1} (server {f.server}) did not show t = {t} within "
                        f"{ROOM_WAIT_S:g} s: its page shows t = {f.session.t}, {following}"
                    )
                    continue
                into.append(f.shown[t] - at)
                per_follower[i].append(f.shown[t] - at)
                polled = f.first_poll(at)
                if polled is not None and polled <= f.shown[t]:
                    out.served_s.append(f.shown[t] - polled)
                if f.server != lec.server:
                    out.other_s.append(f.shown[t] - at)
            return at

        meter = Meter(pid)
        sent_before = sum(f.received for _, f in followers)
        for k in range(changes):
            lec = lecs[k % len(lecs)]
            t += ROOM_STEP
            out.per_step_s.append([])
            at = await follow(t, lec, lec.send(lec.session.report_state(t)), out.per_step_s[-1])
            out.follow_s += out.per_step_s[-1]
            await asyncio.sleep(max(0.0, at + gap - time.perf_counter()))
        out.steps_wall_s, cores, out.steps_client = meter.read()
        sent = sum(f.received for _, f in followers) - sent_before
        out.step_kb = sent / max(1, changes * len(followers)) / 1000
        out.steps_cpu_s = cores * out.steps_wall_s

        # 3. a question: asked, answered (some change their minds), counted once each
        asker, revealer = lecs[(changes - 1) % len(lecs)], lecs[changes % len(lecs)]
        if not await until(lambda: "room_ask" in asker.session.keyed, time.perf_counter() + 5):
            raise RunError("the lecturer's strip has no 'Ask the class' button")
        at, room = await written(
            store,
            code,
            lambda r: r.question is not None and not r.question.revealed,
            asker.send(asker.session.press("room_ask")),
        )
        q = room.question
        assert q is not None  # the room was read once its question was open
        await until(lambda: all(q.id in f.cards for _, f in followers), at + ROOM_WAIT_S)
        out.card_s = [f.cards[q.id] - at for _, f in followers if q.id in f.cards]
        live_of = dict(followers)

        async def vote(v: int) -> tuple[dict[int, str], bool]:
            """Every student answers vote ``v`` (some change their minds), and each answer
            must be said counted on its page and be counted once in the store."""
            finals: dict[int, str] = {}

            async def answer(i: int, f: Live) -> None:
                if q.id not in f.cards:
                    out.errors.append(f"student {i + 1} was not shown question {q.id}")
                    return
                rng = random.Random(seed * 100_003 + i + 7919 * v)
                if v > 1 and not await until(
                    lambda: (f.card_view or {}).get("vote") == v, time.perf_counter() + ROOM_WAIT_S
                ):
                    out.errors.append(f"student {i + 1} was not asked to vote again")
                    return
                await asyncio.sleep(rng.uniform(0.2, 3.0))  # reading the question
                said = rng.choice(ROOM_ANSWERS)
                sent = [await f.answer_card(ROOM_ANSWERS.index(said))]
                if rng.random() < ROOM_CHANGERS:
                    await asyncio.sleep(rng.uniform(0.5, 2.0))
                    said = ROOM_ANSWERS[1 - ROOM_ANSWERS.index(said)]
                    sent.append(await f.answer_card(ROOM_ANSWERS.index(said)))
                    out.changed[v - 1] += 1
                if sent != [200] * len(sent):
                    out.errors.append(f"student {i + 1}'s answers were answered {sent}")
                finals[i] = said

            await asyncio.gather(*(answer(i, f) for i, f in followers))
            counted = "Counted: " if v == 1 else "Counted (second vote): "
            mine = {i: f"{counted}you said {said}." for i, said in finals.items()}
            await until(
                lambda: all(live_of[i].card_says(text) for i, text in mine.items()),
                time.perf_counter() + ROOM_WAIT_S,
            )
            out.answered.append(len(finals))
            out.confirmed.append(sum(live_of[i].card_says(text) for i, text in mine.items()))
            got = answers.answers_of(store, room, q.id, v)
            tally = answers.tally(got)
            out.counted.append(len(got))
            said_mistake = sum(said == "mistake" for said in finals.values())
            out.tally.append(
                f"vote {v}: {tally.answered} answered: mistake {tally.mistake}, no mistake "
                f"{tally.no_mistake} (the students' last answers: {said_mistake} and "
                f"{len(finals) - said_mistake})"
            )
            each = all(
                seats[i] in got and json.loads(got[seats[i]])["mistake"] == (said == "mistake")
                for i, said in finals.items()
            )
            ok = (
                each
                and set(got) == {seats[i] for i in finals}
                and (tally.answered, tally.mistake) == (len(finals), said_mistake)
            )
            return finals, ok

        first, ok1 = await vote(1)
        out.asked = await idle_phase(everyone, idle, pid)  # the class thinks it over
        # "Vote again": the first vote is kept, a second opens to the same seats
        if not await until(lambda: "room_again" in asker.session.keyed, time.perf_counter() + 5):
            raise RunError("the lecturer's strip has no 'Vote again' button")
        await written(
            store,
            code,
            lambda r: r.question is not None and r.question.rounds == 2,
            asker.send(asker.session.press("room_again")),
        )
        second, ok2 = await vote(2)
        kept = answers.answers_of(store, room, q.id, 1)  # the second vote left the first be
        ok1 = ok1 and {s: json.loads(b)["mistake"] for s, b in kept.items()} == {
            seats[i]: said == "mistake" for i, said in first.items()
        }
        out.tally_ok = ok1 and ok2

        # 4. the reveal: the lecture steps to t + 1; every page shows the truth and its answer
        if not await until(
            lambda: "room_reveal" in revealer.session.keyed, time.perf_counter() + 5
        ):
            raise RunError("the lecturer's strip has no 'Reveal' button")
        await follow(
            q.t + 1, revealer, revealer.send(revealer.session.press("room_reveal")), out.reveal_s
        )
        truth = "it was a mistake" if q.mistake else "it was no mistake"

        def graded(said: str) -> str:
            return f"{said} " + ("✓ right" if (said == "mistake") == q.mistake else f"✗ ({truth})")

        # both votes, each graded (the card's text; a part the student did not answer is said)
        right = {
            i: [
                f"**Your {name}:** {graded(votes[i])}"
                for name, votes in zip(VOTES, (first, second), strict=True)
                if i in votes
            ]
            for i in live_of
        }

        def marked(i: int) -> bool:
            return all(live_of[i].card_says(text) for text in right[i])

        await until(lambda: all(map(marked, right)), time.perf_counter() + ROOM_WAIT_S)
        out.marked = sum(map(marked, right))
        out.worst_follower_p95_s = max(
            (percentile(v, 0.95) for v in per_follower.values() if v), default=float("nan")
        )
    except CLOSED_OR_FAILED as exc:
        out.errors.append(f"{type(exc).__name__}: {exc}"[:300])
    finally:
        for who, live in [("the lecturer", x) for x in lecs] + [
            (f"student {i + 1}", x) for i, x in followers
        ]:
            out.errors += [f"{who}: {e}" for e in live.errors]
        await close_all(lecs + [f for _, f in followers])

    # 5. the reference: as many sessions on /lecture in no room, idle
    doors = students
    plain: list[Live] = []

    async def visitor(i: int, door: Door) -> None:
        await asyncio.sleep(ramp * i / len(doors))
        try:
            plain.append(await open_live(door, ROOM_QUERY))
        except CLOSED_OR_FAILED as exc:
            out.errors.append(f"reference session {i + 1}: {exc}"[:300])

    try:
        await asyncio.gather(*(visitor(i, d) for i, d in enumerate(doors)))
        out.reference = await idle_phase(plain, idle, pid)
        out.load = Meter.load()
    finally:
        out.errors += [f"reference: {e}" for x in plain for e in x.errors]
        await close_all(plain)
    return out

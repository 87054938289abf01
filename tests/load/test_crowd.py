"""Many sessions of one script, each under every per-session line, against a real server:
a classmate's Step is still answered, and the server's threads stay bounded.

Each of ``SESSIONS`` lecture sessions sends five whole-page reruns a second (what any
widget's change sends) without reading its answers' timing, as
``benchmarks/attack.py --attacks many`` does with 100; a student elsewhere presses Step
every quarter second throughout. The server must merge a session's reruns on its one
script thread (``runner.fastReruns`` off) and send each session's messages in one turn, or
the event loop has no time left to answer the student. The bounds below are liveness bounds, not
speed goals (those are the benchmark's): on two cores a classmate's steps take 0.01-0.1 s
(median) under this flood, and for a second or two of some runs about 1 s each, with the
app of any recent commit; a stuck session (no answer for 10 s) or steps of 4 s fail it.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.attack_crowd import drain, from_attacker
from benchmarks.attack_phases import close, compact
from tests.load.test_load import run
from tools import streamlit_server
from tools.app_client import Session
from tools.components import PLAYER_KEY
from tools.streamlit_client import CLOSED_OR_FAILED, message, stream_url

# Timed against the wall clock with 60 sessions on the server: alone, not beside the
# parallel tests.
pytestmark = pytest.mark.serial

SESSIONS = 60
RATE = 5.0  # whole-page reruns a second, each session
ATTACK_S = 8.0
ANSWER_S = 4.0  # s: the longest a classmate's Step may wait (about 10 ms when quiet)


@pytest.fixture
def server() -> Iterator[tuple[str, int]]:
    with streamlit_server.serve("app.py") as (proc, url):
        yield stream_url(streamlit_server.port_of(url)), proc.pid


def threads(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/task").iterdir()))


async def flood(url: str, deadline: float, sessions: list[Session]) -> int:
    """Every session sends a step report as a whole-page rerun every 1/RATE s until
    ``deadline``; returns how many the server took."""
    rng = random.Random(3)
    sent = 0

    async def one(s: Session) -> None:
        nonlocal sent
        await asyncio.sleep(rng.uniform(0, 1 / RATE))
        seq = s.seq
        while time.monotonic() < deadline:
            seq += 1
            raw = compact([{"event": "at", "value": {"t": s.start, "seq": seq}}])
            state = s.trigger(PLAYER_KEY, raw)
            state.fragment_id = ""  # the whole page
            try:
                await s.send(message(state))
            except CLOSED_OR_FAILED:
                return
            sent += 1
            await asyncio.sleep(1 / RATE)

    await asyncio.gather(*(one(s) for s in sessions))
    return sent


@pytest.mark.timeout(240)
def test_a_classmate_steps_while_sixty_sessions_send_whole_page_reruns(server):
    url, pid = server

    async def scenario() -> tuple[list[float], list[str], int, int, int]:
        sessions = []
        for _ in range(SESSIONS):
            s = Session(url, page="lecture", headers=from_attacker())
            await s.__aenter__()
            await s.open()
            sessions.append(s)
        readers = [asyncio.create_task(drain(s)) for s in sessions]
        async with Session(url, page="lecture") as student:
            await student.open()
            for _ in range(4):  # warm: the student's own quiet steps
                await student.press_step()
            base = threads(pid)
            deadline = time.monotonic() + ATTACK_S
            attack = asyncio.create_task(flood(url, deadline, sessions))
            waits: list[float] = []
            wrong: list[str] = []
            most = base
            while time.monotonic() < deadline:
                sent = time.monotonic()
                try:
                    latency, bad = await asyncio.wait_for(student.press_step(), 10.0)
                except TimeoutError:  # unanswered: the test has failed, the session is stuck
                    waits.append(time.monotonic() - sent)
                    break
                waits.append(latency / 1000)
                if bad:
                    wrong.append(bad)
                most = max(most, threads(pid))
                await asyncio.sleep(max(0.0, 0.25 - (time.monotonic() - sent)))
            sent_reruns = await attack
        for task in readers:
            task.cancel()
        await asyncio.gather(*(close(s) for s in sessions))
        return waits, wrong, sent_reruns, base, most

    waits, wrong, sent, base, most = run(scenario())
    assert sent > SESSIONS * RATE * ATTACK_S * 0.8  # the attack ran
    assert not wrong
    # a step a second at least, where a quiet server answers one every quarter second
    assert len(waits) >= ATTACK_S / 0.25 / 4, f"{len(waits)} steps in {ATTACK_S} s"
    assert max(waits) < ANSWER_S, f"a step waited {max(waits):.1f} s: {sorted(waits)[-5:]}"
    # a thread per session's run at most, and one more while a stopped run ends
    assert most - base <= 2 * SESSIONS, f"{most} threads (before the attack: {base})"

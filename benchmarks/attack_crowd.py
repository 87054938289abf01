"""The crowd's attacks: many sessions each under every per-session line, new tabs without
end, wrong class codes, and seats taken and left, from one client.

- ``many``: ``conns`` sessions on the lecture page, each sending the player's report of a
  step five times a second as a rerun of the whole page (what any widget's change
  sends), without waiting for answers: each session alone is under every per-session
  line;
- ``tabs``: one client (no cookie, as a script) opening ``rate`` new sessions a second
  and leaving them open, while a student elsewhere (an address and a browser of their
  own) opens the lecture page every second, and a hall of real tabs opens and stays:
  their first page's time, whether every tab of the hall got in, the server's open files
  and threads;
- ``codes``: ``conns`` sessions of one client sending wrong class codes through the join
  form, while a student elsewhere joins with the right one every second;
- ``seats``: ``conns`` sessions of one client joining and leaving a class again and
  again, while a student elsewhere joins every second: every student must get a seat,
  and no link a student copies carries one.

Each reports what the attacker and the student saw in ``stats``; the victim of
``benchmarks/attack_victim.py`` steps throughout, as in every attack.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Callable, Coroutine
from contextlib import suppress
from pathlib import Path
from typing import Any

from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from benchmarks.attack_phases import AttackerStats, Phase, close, compact
from tools.app_client import Session
from tools.components import PLAYER_KEY
from tools.streamlit_client import CLOSED_OR_FAILED, RunView, message, stream_url

ELSEWHERE = "198.51.100.{}"  # the real students' addresses (X-Real-IP, from loopback)
ATTACKER = "203.0.113.9"  # the attacker's one address
FIRST_PAGE_GOAL_S = 2.0  # tabs: a student's first page, p95
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # a class code's letters (classroom.CODE_ALPHABET)


def elsewhere(k: int) -> dict[str, str]:
    return {"X-Real-IP": ELSEWHERE.format(1 + k % 250)}


def from_attacker() -> dict[str, str]:
    return {"X-Real-IP": ATTACKER}


def script(port: int, page: str) -> Session:
    """A session of the attacker's one client: its address, no cookie."""
    return Session(stream_url(port), page=page, headers=from_attacker(), browser=None)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def drain(s: Session, stats: AttackerStats | None = None) -> None:
    """Read and drop everything the server sends this session (until it closes); count
    the runs it finished in ``stats``."""
    with suppress(Exception):
        assert s.ws is not None
        while True:
            data = await s.ws.recv()
            if stats is not None and isinstance(data, bytes):
                fwd = ForwardMsg()
                fwd.ParseFromString(data)
                if fwd.WhichOneof("type") == "script_finished":
                    stats.outcomes["runs finished"] += 1


# ------------------------------------------------------------------------------------ many


async def many_attack(
    port: int, phase: Phase, stats: AttackerStats, *, conns: int, rate: float
) -> None:
    """``conns`` lecture sessions (browsers of their own, the attacker's address), each
    sending one step report every 1/``rate`` s, answers read and dropped."""
    sessions: list[Session] = []
    for _ in range(conns):
        s = Session(stream_url(port), page="lecture", headers=from_attacker())
        await s.__aenter__()
        try:
            await s.open()
        except CLOSED_OR_FAILED:
            stats.outcomes["could not open"] += 1
            await close(s)
            continue
        sessions.append(s)
    stats.notes.append(f"{len(sessions)} sessions x {rate:g} reports/s")
    deadline = await phase.begin()
    rng = random.Random(5)
    readers = [asyncio.create_task(drain(s, stats)) for s in sessions]

    async def one(s: Session) -> None:
        await asyncio.sleep(rng.uniform(0, 1 / rate))
        seq = s.seq
        while time.monotonic() < deadline:
            seq += 1
            t = rng.randint(s.start, max(s.start, s.stop))
            raw = compact([{"event": "at", "value": {"t": t, "seq": seq}}])
            state = s.trigger(PLAYER_KEY, raw)
            state.fragment_id = ""  # the whole page: what any widget's change reruns
            try:
                await s.send(message(state))
                stats.outcomes["sent"] += 1
            except CLOSED_OR_FAILED:
                stats.outcomes["closed by the server"] += 1
                return
            await asyncio.sleep(1 / rate)

    await asyncio.gather(*(one(s) for s in sessions))
    await asyncio.sleep(min(5.0, phase.left()))  # the answers still coming
    for task in readers:
        task.cancel()
    finished = stats.outcomes["runs finished"]
    stats.notes.append(f"{finished} of the attackers' runs finished")
    await asyncio.gather(*(close(s) for s in sessions))


# ------------------------------------------------------------------------------------ tabs


def open_files(pid: int) -> int:
    try:
        return len(list(Path(f"/proc/{pid}/fd").iterdir()))
    except OSError:
        return -1


def threads(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                return int(line.split()[1])
    except OSError:
        pass
    return -1


async def first_page(port: int, k: int, page: str = "lecture") -> float:
    """A student elsewhere opens ``page`` in a new tab: seconds to its first page."""
    start = time.monotonic()
    async with Session(stream_url(port), page=page, headers=elsewhere(k)) as s:
        await s.open()
    return time.monotonic() - start


async def tabs_attack(
    port: int, pid: int, phase: Phase, stats: AttackerStats, *, rate: float, hall: int = 0
) -> None:
    """One client opens ``rate`` new tabs a second, all left open; a student elsewhere
    opens the lecture every second; meanwhile a hall of ``hall`` real tabs (browsers of
    their own, 250 addresses) opens, thirty at a time, and stays open to the end: each must
    get its page."""
    deadline = await phase.begin()
    held: list[Session] = []
    firsts: list[float] = []
    refused = opened = 0
    peak_files = peak_threads = 0
    hall_in: list[bool] = []

    async def real_tab(k: int) -> bool:
        s = Session(stream_url(port), page="", headers=elsewhere(k))
        try:
            await s.__aenter__()
            held.append(s)
            view = await s.request(s.state(), timeout=60)
        except (*CLOSED_OR_FAILED, TimeoutError):
            return False
        return not view.alerts and not view.exceptions

    async def fill_hall() -> None:
        for first in range(0, hall, 30):
            batch = range(first, min(hall, first + 30))
            hall_in.extend(await asyncio.gather(*(real_tab(1000 + k) for k in batch)))

    async def open_one() -> None:
        nonlocal refused, opened
        s = Session(stream_url(port), page="", headers=from_attacker(), browser=None)
        try:
            await s.__aenter__()
            held.append(s)
            view = await s.request(s.state(), timeout=30)
        except CLOSED_OR_FAILED:
            stats.outcomes["refused at the door"] += 1
            refused += 1
            return
        said = " ".join(body for _, body in view.alerts)
        if "Too many new tabs" in said or "server is full" in said:
            stats.outcomes["refused with a sentence"] += 1
            refused += 1
        else:
            stats.outcomes["opened"] += 1
            opened += 1

    async def student() -> None:
        k = 0
        while time.monotonic() < deadline:
            k += 1
            try:
                firsts.append(await asyncio.wait_for(first_page(port, k), 60))
            except (*CLOSED_OR_FAILED, TimeoutError) as exc:
                stats.outcomes[f"student: {type(exc).__name__}"] += 1
            await asyncio.sleep(1.0)

    async def sample() -> None:
        nonlocal peak_files, peak_threads
        while time.monotonic() < deadline + 5:
            peak_files = max(peak_files, open_files(pid))
            peak_threads = max(peak_threads, threads(pid))
            await asyncio.sleep(0.5)

    tasks = [asyncio.create_task(student()), asyncio.create_task(sample())]
    tasks.append(asyncio.create_task(fill_hall()))
    opens: list[asyncio.Task[None]] = []
    while time.monotonic() < deadline:
        opens.append(asyncio.create_task(open_one()))
        await asyncio.sleep(1 / rate)
    await asyncio.gather(*opens, return_exceptions=True)
    await asyncio.gather(*tasks, return_exceptions=True)
    for s in held:
        await close(s)
    if not firsts or pct(firsts, 0.95) > FIRST_PAGE_GOAL_S:
        stats.outcomes[f"STUDENT'S FIRST PAGE P95 OVER {FIRST_PAGE_GOAL_S:g} S"] += 1
    if firsts:
        stats.times_ms += [f * 1000 for f in firsts]
        stats.notes.append(
            f"a student's first page: median {statistics.median(firsts):.2f} s, p95 "
            f"{pct(firsts, 0.95):.2f} s, max {max(firsts):.2f} s (n {len(firsts)})"
        )
    if hall:
        got = sum(hall_in)
        if got < hall:
            stats.outcomes[f"HALL: {hall - got} OF {hall} REAL TABS NOT IN"] += 1
        stats.notes.append(f"the hall: {got} of {hall} real tabs got their page and stayed")
    stats.notes.append(
        f"attacker: {opened} tabs opened, {refused} refused; the server's peak: "
        f"{peak_files} open files (limit {file_limit(pid)}), {peak_threads} threads"
    )


def file_limit(pid: int) -> int:
    """The soft open-file limit of process ``pid`` (-1 if unknown)."""
    import resource

    try:
        return resource.prlimit(pid, resource.RLIMIT_NOFILE)[0]
    except OSError:
        return -1


# ----------------------------------------------------------------------------- codes, seats


def join_state(s: Session, code: str, nick: str) -> ClientState:
    """The join form submitted: its code and nickname, and the Join button."""
    code_id, _ = s.element("room_join_code")
    nick_id, _ = s.element("room_join_nick")
    go_id, _ = s.element("room_join_go")
    return s.state(
        [
            WidgetState(id=code_id, string_value=code),
            WidgetState(id=nick_id, string_value=nick),
            WidgetState(id=go_id, trigger_value=True),
        ]
    )


def joined(view: RunView) -> bool:
    return any("You joined as" in body for _, _, body in view.texts)


def said(view: RunView) -> str:
    return " ".join(body for _, body in view.alerts)


async def join_once(port: int, code: str, nick: str, headers: dict[str, str]) -> RunView:
    async with Session(stream_url(port), page="room", headers=headers) as s:
        await s.open()
        return await s.request(join_state(s, code, nick), timeout=30)


def class_code() -> str:
    """A class opened in the store the server uses (as a lecturer's Start does): its code."""
    import perceptron_store as store_mod
    from ui.classmode import classroom

    room, _ = classroom.create_room(store_mod.open_store())
    return room.code


async def students_join(
    port: int,
    code: str,
    deadline: float,
    stats: AttackerStats,
    where: Callable[[int], dict[str, str]] = elsewhere,
) -> None:
    """A student (a browser of their own, at address ``where(k)``: elsewhere by default)
    joins class ``code`` every second until ``deadline``; each one refused is an outcome
    that fails the attack."""
    real = {"joined": 0, "refused": 0}
    k = 0
    while time.monotonic() < deadline:
        k += 1
        try:
            view = await join_once(port, code, f"student {k}", where(k))
            real["joined" if joined(view) else "refused"] += 1
            if not joined(view):
                stats.notes.append(f"a student was refused: {said(view)[:100]}")
        except CLOSED_OR_FAILED as exc:
            real["refused"] += 1
            stats.notes.append(f"a student's join failed: {exc}"[:120])
        await asyncio.sleep(1.0)
    stats.notes.append(f"real students: {real['joined']} joined, {real['refused']} refused")
    if real["refused"]:
        stats.outcomes["REAL STUDENT REFUSED"] += real["refused"]


async def codes_attack(port: int, phase: Phase, stats: AttackerStats, *, conns: int) -> None:
    """``conns`` sessions of one client send wrong codes; a student elsewhere joins every
    second with the right code."""
    code = class_code()
    deadline = await phase.begin()

    async def guesser(k: int) -> None:
        async with script(port, "room") as s:
            await s.open()
            rng = random.Random(k)
            while time.monotonic() < deadline:
                wrong = "".join(rng.choice("ABCDEFGHJKMNPQRSTUVWXYZ23456789") for _ in range(8))
                try:
                    view = await s.request(join_state(s, wrong, "x"), timeout=30)
                except CLOSED_OR_FAILED:
                    stats.outcomes["closed"] += 1
                    return
                stats.outcomes["refused: wait" if "Too many" in said(view) else "looked up"] += 1

    await asyncio.gather(
        students_join(port, code, deadline, stats),
        *(guesser(k) for k in range(conns)),
        return_exceptions=True,
    )


async def seats_attack(port: int, phase: Phase, stats: AttackerStats, *, conns: int) -> None:
    """``conns`` sessions of one client join and Leave again and again; a student
    elsewhere joins every second."""
    code = class_code()
    deadline = await phase.begin()

    async def churn(k: int) -> None:
        async with script(port, "room") as s:
            await s.open()
            while time.monotonic() < deadline:
                try:
                    view = await s.request(join_state(s, code, f"bot{k}"), timeout=30)
                    stats.outcomes["seated" if joined(view) else "refused"] += 1
                    if joined(view) and "room_leave" in s.keyed:
                        await s.request(s.press("room_leave"), timeout=30)
                        stats.outcomes["left"] += 1
                except CLOSED_OR_FAILED:
                    stats.outcomes["closed"] += 1
                    return
                except Exception as exc:  # no such element: the page said something else
                    stats.outcomes[type(exc).__name__] += 1
                    await asyncio.sleep(0.5)

    await asyncio.gather(
        students_join(port, code, deadline, stats),
        *(churn(k) for k in range(conns)),
        return_exceptions=True,
    )


async def new_tabs(
    rate: float, deadline: float, tab: Callable[[int], Coroutine[Any, Any, None]]
) -> None:
    """Start ``tab(k)`` ``rate`` times a second until ``deadline``, then wait for them all."""
    tasks: list[asyncio.Task[None]] = []
    k = 0
    while time.monotonic() < deadline:
        tasks.append(asyncio.create_task(tab(k)))
        k += 1
        await asyncio.sleep(1 / rate)
    await asyncio.gather(*tasks, return_exceptions=True)


async def hall_codes_attack(port: int, phase: Phase, stats: AttackerStats, *, rate: float) -> None:
    """Wrong codes from the hall's own address: ``rate`` new tabs a second, each a fresh
    browser (as a script that loads a page for each), four wrong codes a tab; classmates
    behind the same address (browsers of their own) join every second with the right
    code, and none may be refused."""
    code = class_code()
    deadline = await phase.begin()

    async def guess(k: int) -> None:
        rng = random.Random(k)
        try:
            async with Session(stream_url(port), page="room", headers=from_attacker()) as s:
                await s.open()
                for _ in range(4):
                    wrong = "".join(rng.choice(ALPHABET) for _ in range(8))
                    view = await s.request(join_state(s, wrong, "x"), timeout=30)
                    waits = "Too many" in said(view)
                    stats.outcomes["refused: wait" if waits else "looked up"] += 1
        except CLOSED_OR_FAILED:
            stats.outcomes["closed"] += 1

    await asyncio.gather(
        students_join(port, code, deadline, stats, where=lambda k: from_attacker()),
        new_tabs(rate, deadline, guess),
        return_exceptions=True,
    )


async def closed_seats_attack(
    port: int, phase: Phase, stats: AttackerStats, *, rate: float
) -> None:
    """Seats taken by tabs closed without Leave: ``rate`` new tabs a second, each a fresh
    browser of the attacker's address that joins and closes (the class holds 500); a student
    elsewhere joins every second, and none may be told the class is full."""
    code = class_code()
    deadline = await phase.begin()

    async def take(k: int) -> None:
        try:
            view = await join_once(port, code, f"bot{k}", from_attacker())
            stats.outcomes["seated, tab closed" if joined(view) else "refused"] += 1
        except CLOSED_OR_FAILED:
            stats.outcomes["closed"] += 1

    await asyncio.gather(
        students_join(port, code, deadline, stats),
        new_tabs(rate, deadline, take),
        return_exceptions=True,
    )

"""The store attack: scripts uploading datasets as fast as they are answered while a class
is live, and what is lost.

Before the attack, a class is opened in the store the server uses, as the app opens one
(``ui.classmode.classroom``): a room with ``STUDENTS`` seats, a question asked and every
seat's answer; and ``KEPT`` students' datasets are saved and opened, as links do. Then
``writers`` sessions upload a CSV of ``ROWS`` random points (about 100 kB, each one
distinct, so none is stored already) through the sidebar's uploader, and again as soon as
the page has answered, until the attack ends. A writer told that this device has written
too much comes back as a new browser (a fresh cookie), as a script would; with
``spread``, each writer comes from an address of its own (``X-Real-IP``, trusted from
loopback), so the per-address quota does not stop them either and the store fills.
Meanwhile a real student joins the class every ``JOIN_EVERY`` s and leaves again.

Judged by what is left, not by speed: the room, its seats and answers, and every
student's dataset must be there after the attack ("ROOM LOST", "DATASET LOST" fail it);
every real student must get a seat ("REAL STUDENT REFUSED"); a writer whose data were not
kept must have been told so on its page ("WRITER NOT TOLD"); the store must stay within
its cap ("OVER THE CAP"). The victim's steps are measured as in every attack.

May import: the standard library, numpy, ``perceptron_store``, ``ui.classmode.classroom``
(the store's form of a class), the benchmarks' and tools' clients.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field, fields

import numpy as np

import perceptron_store as store
from benchmarks.attack_crowd import ELSEWHERE, join_state, joined, said
from benchmarks.attack_phases import AttackerStats, Phase
from tools.app_client import Session
from tools.streamlit_client import CLOSED_OR_FAILED, RunView, stream_url
from ui.classmode import answers as an
from ui.classmode import classroom as cr

STUDENTS = 30  # seats in the live class, each with an answer
KEPT = 10  # students' datasets opened this week
ROWS = 5_000  # points in each uploaded CSV (the app's largest)
JOIN_EVERY = 2.0  # s between real students' joins during the attack
PAGE = ""  # the home page: the cheapest run with the sidebar's uploader, once unfolded
FOLD = "data_elsewhere"  # the home page's fold over the sidebar's dataset controls
UPLOADER = "data_upload"  # its key (numbered after a refusal)
WRITERS_AT = "203.0.113.{}"  # the writers' addresses (one, or one each with ``spread``)
# what the page says when it does not keep a dataset (``ui.app.links``)
REFUSALS = ("not kept", "Many edits at once")


@dataclass
class Live:
    """What must survive: the class and the students' datasets."""

    code: str
    qid: int
    datasets: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)


def open_class(s: store.Store, rng: np.random.Generator) -> Live:
    """A room with ``STUDENTS`` seats, a question and every seat's answer; ``KEPT``
    datasets saved and opened."""
    room, secret = cr.create_room(s)
    seats = [cr.join(s, room, f"student {k}") for k in range(STUDENTS)]
    question = cr.Question(
        id=0, t=3, point=1, x=(0.5, -1.0), z=(0.5, -1.0), y=1, w=(1.0, 1.0), rule="perceptron",
        eta=1.0, mistake=True, turn="ccw",
    )  # fmt: skip
    room = cr.lecturer_update(s, room.code, secret, lambda r: cr.ask(r, question))
    assert room.question is not None
    for k, seat in enumerate(seats):
        an.answer(s, room, seat, room.question.id, k % 2 == 0, None)
    live = Live(room.code, room.question.id)
    for k in range(KEPT):
        n = 20 + 40 * k
        X = rng.normal(size=(n, 2))
        y = np.where(X[:, 0] + X[:, 1] > 0, 1.0, -1.0)
        data_id = store.save_dataset(s, X, y)
        assert store.load_dataset(s, data_id) is not None  # opened: a use this week
        live.datasets[data_id] = (X, y)
    return live


def lost(s: store.Store, live: Live) -> list[str]:
    """What of ``live`` is no longer in the store (empty: nothing)."""
    out = []
    room = cr.load_room(s, live.code, fresh=True)
    if room is None:
        return ["the room", *[f"dataset {i}" for i in live.datasets if _gone(s, live, i)]]
    # the seats kept, whether or not their pages were seen lately (cr.members counts those
    # only: these seats have no pages)
    if (n := s.count_fields(cr.members_key(room.code))) < STUDENTS:
        out.append(f"seats ({n} of {STUDENTS} left)")
    if (n := len(an.answers_of(s, room, live.qid))) < STUDENTS:
        out.append(f"answers ({n} of {STUDENTS} left)")
    return out + [f"dataset {i}" for i in live.datasets if _gone(s, live, i)]


def _gone(s: store.Store, live: Live, data_id: str) -> bool:
    found = store.load_dataset(s, data_id, refresh=False)
    if found is None:
        return True
    X, y = live.datasets[data_id]
    return not (np.array_equal(found[0], X) and np.array_equal(found[1], y))


def csv_of(rng: np.random.Generator, rows: int = ROWS) -> bytes:
    """A CSV of ``rows`` random points, separable by a random line (never the same twice)."""
    X = rng.normal(size=(rows, 2)) * 3
    w = rng.normal(size=2)
    y = np.where(X @ w > 0, 1, -1)
    lines = [f"{a:.6f},{b:.6f},{c}" for (a, b), c in zip(X, y, strict=True)]
    return ("x1,x2,y\n" + "\n".join(lines) + "\n").encode()


def linked(s: Session) -> str:
    """The dataset id the page's URL names now ("" for none)."""
    for pair in s.query_string.split("&"):
        if pair.startswith("data="):
            return pair[5:]
    return ""


@dataclass
class Writer:
    """One writer's tally: uploads, datasets kept, and refusals told or not."""

    uploads: int = 0
    kept: int = 0
    refused: int = 0  # uploads whose data the page did not keep
    untold: int = 0  # sessions with a refusal and no sentence about it
    browsers: int = 0


async def write(
    port: int,
    k: int,
    deadline: float,
    rng: np.random.Generator,
    me: Writer,
    *,
    spread: bool,
    rows: int,
) -> None:
    """Upload distinct CSVs until ``deadline``, one session after another: a new browser
    each time this device is told it wrote too much."""
    address = WRITERS_AT.format(1 + k if spread else 1)
    while time.monotonic() < deadline:
        me.browsers += 1
        s = Session(
            stream_url(port), page=PAGE, headers={"X-Real-IP": address},
            browser=secrets.token_hex(16),
        )  # fmt: skip
        refused = told = 0
        try:
            async with s:
                await s.open()
                await s.open_expander(FOLD)
                while time.monotonic() < deadline:
                    key = next((n for n in s.keyed if n.startswith(UPLOADER)), UPLOADER)
                    before = linked(s)
                    state = await s.upload(key, f"w{k}-{me.uploads}.csv", csv_of(rng, rows))
                    view = await s.request(state, timeout=60)
                    s.check(view)
                    me.uploads += 1
                    if linked(s) and linked(s) != before:
                        me.kept += 1
                        continue
                    me.refused += 1
                    refused += 1
                    words = _texts(view)
                    if any(r in words for r in REFUSALS):
                        told += 1
                    if "Too many" in words:  # this device's hour is used up: a new one
                        break
        except CLOSED_OR_FAILED:
            await asyncio.sleep(0.5)
        if refused and not told:
            me.untold += 1


def _texts(view: RunView) -> str:
    return " ".join(body for _, _, body in view.texts)


async def students(port: int, code: str, deadline: float, stats: AttackerStats) -> None:
    """A real student (an address and a browser of their own) joins the class every
    ``JOIN_EVERY`` s and leaves again; each one refused fails the attack."""
    done = {"joined": 0, "refused": 0}
    k = 0
    while time.monotonic() < deadline:
        k += 1
        headers = {"X-Real-IP": ELSEWHERE.format(1 + k % 250)}
        try:
            async with Session(stream_url(port), page="room", headers=headers) as s:
                await s.open()
                view = await s.request(join_state(s, code, f"real {k}"), timeout=30)
                if joined(view):
                    done["joined"] += 1
                    if "room_leave" in s.keyed:
                        await s.request(s.press("room_leave"), timeout=30)
                else:
                    done["refused"] += 1
                    stats.notes.append(f"a student was refused: {said(view)[:100]}")
        except CLOSED_OR_FAILED as exc:
            done["refused"] += 1
            stats.notes.append(f"a student's join failed: {exc}"[:120])
        await asyncio.sleep(JOIN_EVERY)
    stats.notes.append(f"real students: {done['joined']} joined, {done['refused']} refused")
    if done["refused"]:
        stats.outcomes["REAL STUDENT REFUSED"] += done["refused"]


async def store_attack(
    port: int,
    phase: Phase,
    stats: AttackerStats,
    *,
    setting: str,
    cap: int,
    writers: int,
    spread: bool,
    rows: int = ROWS,
) -> None:
    """``writers`` sessions upload CSVs of ``rows`` points flat out into the store
    ``setting`` (capped at ``cap`` bytes, as the server's is) while a class is live;
    ``stats`` says what was kept, refused and lost."""
    s = store.open_store(setting, max_bytes=cap)
    rng = np.random.default_rng(7)
    live = open_class(s, rng)
    deadline = await phase.begin()
    tallies = [Writer() for _ in range(writers)]
    streams = [np.random.default_rng(100 + k) for k in range(writers)]
    ended = await asyncio.gather(
        students(port, live.code, deadline, stats),
        *(
            write(port, k, deadline, streams[k], tallies[k], spread=spread, rows=rows)
            for k in range(writers)
        ),
        return_exceptions=True,
    )
    for failure in [e for e in ended if isinstance(e, BaseException)]:  # never passed over
        stats.outcomes[f"ATTACK BROKE: {type(failure).__name__}"] += 1
        stats.notes.append(f"a writer or the student stopped: {failure}"[:160])
    total = Writer()
    for t in tallies:
        for f in fields(Writer):
            setattr(total, f.name, getattr(total, f.name) + getattr(t, f.name))
    stats.outcomes["kept"] += total.kept
    stats.outcomes["not kept"] += total.refused
    used = s.used_bytes()
    stats.notes.append(
        f"{total.uploads} uploads by {total.browsers} browsers: {total.kept} kept, "
        f"{total.refused} not; the store holds {used / 1e6:.1f} of {cap / 1e6:.0f} MB"
    )
    if total.untold:
        stats.outcomes["WRITER NOT TOLD"] += total.untold
    if used > cap:
        stats.outcomes["OVER THE CAP"] += 1
    gone = lost(s, live)
    if gone:
        stats.notes.append("lost: " + ", ".join(gone[:6]))
        for g in gone:
            stats.outcomes["DATASET LOST" if g.startswith("dataset") else "ROOM LOST"] += 1
    s.close()

"""Mischievous students: attacks on one server while another student steps.

Every attack runs against a fresh ``streamlit run app.py`` on 127.0.0.1 (started and
stopped here, by its own PID), over Streamlit's own websocket protocol (the client of
``benchmarks/load.py``). Throughout, a victim session in a process of its own steps on
the lecture page every 0.25 s (a 20,000-step XOR run, so every step moves): what the
browser sends when a step pauses, the lecture player's ``at`` report of t + 1 (a
fragment rerun; the window's last step reruns the whole page, once in 100). Its
latency (BackMsg sent -> script_finished) is recorded first in a quiet phase with
the attackers connected and idle, then during the attack. The ratio is the attack's
median over the quiet median of the same server in the same run.

Attacks (``--attacks``, comma-separated groups):

- ``canvas``, ``player``: one trigger of a component (the margin lab's drawing
  surface, ``mar_canvas``, with ``moved`` events; the lecture player,
  ``lec_player``, with ``at`` reports ``{"t", "seq"}`` of steps in its window) whose
  ``json_trigger_value`` is a list of N
  events, N = 8,000 and the largest N whose frame fits ``server.maxWidgetStateSize``
  (read from the app's ``.streamlit/config.toml``; if even 8,000 does not fit,
  16,000), from 3 and from 8 connections, each sending again as soon as it is
  answered, for the attack's duration. A connection the server closes reconnects.
- ``table``: the margin lab's keyboard table (the lazy expander ``mar_open_table``
  opened through its widget state, then the ``st.data_editor`` ``mar_table_<v>``)
  sent 60,000 added rows (with x1, x2, y; and empty rows, which fit a smaller
  frame), then a few ordinary reruns of that session (which, as a browser does,
  sends every widget value it set again).
- ``log``: 3 sessions on the lecture page at 200,000 steps (500 XOR points, new
  seeds) with the mistake log (``lec_log``) open, reporting step after step (t + 1,
  as fast as answered).
- ``cold``: 50 sessions (20 with ``--quick``) open the variants page at once, at its
  largest settings with fresh seeds.
- ``cache``: sustained cold requests, each a new session with a fresh seed, on
  every page at its heaviest settings, by 3 workers, until ``--cache-requests`` or
  ``--cache-seconds``; the server's RSS (VmRSS of it and its children) is sampled
  every second and summarised against ``--ceiling-mb``, then for ``--settle`` s
  more with no attacker (closed sessions are kept by Streamlit for 120 s).
- ``url``: 8 connections open page after page with (a) plain URLs (a control:
  the same traffic without hostile parameters), (b) a hostile value in every
  setting and 1,000 unknown parameters, (c) a query string as large as a frame
  may be.
- ``markup`` (a correctness check, no victim): every page opened from a link with
  hostile values (``?data_n=[CLICK ME](http://example.invalid)``,
  ``?lec_eta=![t](http://example.invalid/track.gif)``, HTML...) and with 1,000
  unknown parameters; fails if any text the browser renders as markdown (markdown,
  alerts, captions, labels, help) holds a live link, image, autolink or HTML tag made
  from them, or if more than a handful of warnings are shown.

Goals: each attack leaves the victim's step median within 2x its
quiet figure (``ratio <= 2``), and the server's RSS stays below the ceiling (1 GB);
under sustained cold requests it levels off there. Everything is bounded in count and
time; traffic goes only to 127.0.0.1.

Run:  python benchmarks/attack.py [--quick] [--attacks canvas,player,table,log,cold,
      cache,url,markup] [--quiet 8] [--duration 10] [--app-dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import websockets
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import load, streamlit_server  # noqa: E402

VICTIM_QUERY = "data_name=xor&lec_max_epochs=500"  # 40 points x 500 epochs: every step moves
PERIOD = 0.25  # s between the victim's presses
RATIO_GOAL = 2.0
CEILING_MB = 1024.0
MAX_WARNINGS = 10  # "a handful": warnings one link may put on a page, however long it is


def page_urls(app_dir: Path) -> tuple[str, ...]:
    """The URL of every page of the app's page table, ``ui/shell/__init__.py``'s ``PAGES`` (read
    as text, not imported; "" for the home page, whose file is ``pages/home.py``)."""
    text = (app_dir / "ui" / "app" / "shell.py").read_text(encoding="utf-8")
    stems = re.findall(r'PageSpec\(\s*"pages/(\w+)\.py"', text)
    return tuple("" if stem == "home" else stem for stem in stems)


PAGES = page_urls(ROOT)
EVIL = "http://example.invalid"
HOSTILE = (
    f"[CLICK ME]({EVIL})",
    f"![t]({EVIL}/track.gif)",
    "<img src=x onerror=alert(1)>",
    f"<a href={EVIL}>x</a>",
    f"<{EVIL}>",
    f"`x`]({EVIL})",
    f"{EVIL}/plain",
    "<script>alert(1)</script>",
)
# The heaviest settings of each page (a fresh data_seed and exp_seed are added per request).
HEAVY = {
    "lecture": "data_name=xor&data_n=500&lec_max_epochs=500&lec_t=200000",
    "proof": "data_name=xor&data_n=500&lec_max_epochs=500&prf_orders=200&lec_t=200000",
    "variants": "var_runs=200&var_n=500&var_epochs=100&data_n=500&var_data=shared",
    "sgd": "data_name=xor&data_n=500&sgd_epochs=100&sgd_batch=1&sgd_order=shuffle",
    "xor": "data_name=xor&data_n=500&xor_data=shared&xor_epochs=200",
    "experts": "exp_n=100&exp_k=1&exp_days=2000&exp_behaviour=adversarial",
    "margin": "data_name=xor&data_n=500&mar_max_epochs=500",
}


def ws_url(port: int) -> str:
    return f"ws://127.0.0.1:{port}/_stcore/stream"


def fresh_seed(rng: random.Random) -> int:
    return rng.randrange(1, 2**31 - 1)


# ---------------------------------------------------------------------------- server


def widget_state_limit(app_dir: Path) -> int:
    """``server.maxWidgetStateSize`` of the app (bytes): Streamlit closes a connection
    whose frame is larger."""
    mb = 25.0  # Streamlit's default
    config = app_dir / ".streamlit" / "config.toml"
    if config.exists():
        mb = float(
            tomllib.loads(config.read_text()).get("server", {}).get("maxWidgetStateSize", mb)
        )
    return int(mb * 1e6)


def setting_keys(app_dir: Path) -> list[str]:
    """The URL settings the app reads, from ``ui/app/state.py`` (read as text, not imported)."""
    text = (app_dir / "ui" / "app" / "state.py").read_text(encoding="utf-8")
    keys = list(dict.fromkeys(re.findall(r'Setting\(\s*"(\w+)"', text)))
    return keys or ["data_n", "lec_eta", "data_name", "lec_w0_typed", "data_seed"]


@contextmanager
def server(app_dir: Path, log_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """A fresh server for one attack: (process, port); stopped by its PID afterwards."""
    with open(log_path, "ab") as log:
        proc, url = streamlit_server.start("app.py", log=log, app_dir=app_dir)
        try:
            yield proc, int(url.rsplit(":", 1)[1])
        finally:
            streamlit_server.stop(proc)


def tree_rss_mb(pid: int) -> float:
    """VmRSS of a process and all its descendants (MB), from /proc."""
    total_kb, stack, seen = 0, [pid], set()
    while stack:
        p = stack.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            status = Path(f"/proc/{p}/status").read_text()
            found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
            total_kb += int(found[1]) if found else 0
            for task in Path(f"/proc/{p}/task").iterdir():
                with suppress(OSError):
                    stack += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return total_kb / 1024


class RssSampler(threading.Thread):
    """Samples the server's RSS every ``interval`` s in the background."""

    def __init__(self, pid: int, interval: float) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.samples: list[tuple[float, float]] = []
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.is_set():
            self.samples.append((time.monotonic(), tree_rss_mb(self.pid)))
            self._halt.wait(self.interval)

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=5)

    def between(self, a: float, b: float) -> list[float]:
        return [mb for t, mb in self.samples if a <= t <= b]


# ---------------------------------------------------------------------------- victim


def _victim_main(port: int, query: str, period: float, conn: Connection) -> None:
    """The victim's process: open /lecture, step every ``period`` s (the player's report
    of t + 1), and tell the parent each latency."""
    asyncio.run(_victim(port, query, period, conn))


async def _victim(port: int, query: str, period: float, conn: Connection) -> None:
    try:
        async with load.Session(ws_url(port), query_string=query) as session:
            await session.open()
            conn.send(("ready", time.monotonic(), session.n_steps))
            while True:
                sent = time.monotonic()
                conn.send(("sent", sent))
                try:
                    latency, wrong = await session.press_step()
                except (load.RunError, TimeoutError, OSError, websockets.WebSocketException) as e:
                    conn.send(("error", sent, None, f"{type(e).__name__}: {e}"[:200]))
                    return
                conn.send(("press", sent, latency, wrong))
                await asyncio.sleep(max(0.0, period - (time.monotonic() - sent)))
    except Exception as exc:  # the open failed: the report says so
        conn.send(("error", time.monotonic(), None, f"{type(exc).__name__}: {exc}"[:200]))


@dataclass
class Latencies:
    """The victim's steps sent in one phase."""

    values_ms: list[float] = field(default_factory=list)
    unanswered_ms: list[float] = field(default_factory=list)  # lower bounds: no answer yet
    errors: list[str] = field(default_factory=list)

    @property
    def all_ms(self) -> list[float]:
        return self.values_ms + self.unanswered_ms

    def stat(self, q: float) -> float:
        return load.percentile(self.all_ms, q) if self.all_ms else float("nan")

    def bound(self, q: float) -> bool:
        """Whether the statistic is only a lower bound: an unanswered press (whose wait
        is a lower bound) is at or below it, so its true latency could move it up."""
        return any(ms <= self.stat(q) for ms in self.unanswered_ms)

    def text(self, q: float) -> str:
        v = self.stat(q)
        if v != v:
            return "-"
        return ("≥" if self.bound(q) else "") + (f"{v:.0f}" if v < 10_000 else f"{v / 1000:.0f} s")


class Victim:
    """The victim's process and what it reported."""

    def __init__(self, port: int, query: str = VICTIM_QUERY, period: float = PERIOD) -> None:
        ctx = multiprocessing.get_context("spawn")
        self._recv, send = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_victim_main, args=(port, query, period, send), daemon=True)
        self.proc.start()
        send.close()
        self.records: list[tuple[Any, ...]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        with suppress(EOFError, OSError):
            while True:
                self.records.append(self._recv.recv())

    async def ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            kinds = [r[0] for r in list(self.records)]
            if "ready" in kinds:
                return
            if "error" in kinds:
                raise load.RunError(f"the victim could not open the lecture page: {self.records}")
            await asyncio.sleep(0.05)
        raise load.RunError("the victim did not open the lecture page in time")

    def stop(self) -> None:
        if self.proc.is_alive():
            self.proc.terminate()
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(timeout=5)
        self._reader.join(timeout=2)

    def window(self, a: float, b: float) -> Latencies:
        """Presses sent in [a, b); one never answered counts as its wait so far (until b)."""
        out = Latencies()
        done = {r[1]: r for r in self.records if r[0] in ("press", "error")}
        for r in self.records:
            if r[0] != "sent" or not a <= r[1] < b:
                continue
            answer = done.get(r[1])
            if answer is None or answer[2] is None:
                out.unanswered_ms.append((b - r[1]) * 1000)
                if answer is not None:
                    out.errors.append(answer[3])
            else:
                out.values_ms.append(answer[2])
                if answer[3]:
                    out.errors.append(f"wrong answer: {answer[3]}")
        return out


# ---------------------------------------------------------------------------- attackers


@dataclass
class AttackerStats:
    """What the attackers saw: outcomes, their own rerun times, notes for the report."""

    outcomes: Counter[str] = field(default_factory=Counter)
    times_ms: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    max_warnings: int = 0
    markup: list[str] = field(default_factory=list)

    def outcome_text(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in self.outcomes.most_common()) or "-"

    def time_text(self) -> str:
        if not self.times_ms:
            return "-"
        med, top = statistics.median(self.times_ms), max(self.times_ms)
        return f"{_ms(med)} (max {_ms(top)})"


def _ms(v: float) -> str:
    return f"{v:.0f} ms" if v < 10_000 else f"{v / 1000:.1f} s"


class Phase:
    """The attack's clock: the attack sets itself up, then waits for the quiet phase."""

    def __init__(self, duration: float, tail: float) -> None:
        self.duration, self.tail = duration, tail
        self.ready = asyncio.Event()
        self.go = asyncio.Event()
        self.deadline = self.hard = 0.0

    async def begin(self) -> float:
        """Called by the attack when its sessions are set up; returns its deadline."""
        self.ready.set()
        await self.go.wait()
        return self.deadline

    def start(self) -> None:
        now = time.monotonic()
        self.deadline, self.hard = now + self.duration, now + self.duration + self.tail

    def left(self) -> float:
        """Seconds until the hard end (deadline + tail) of the attack, at least 0.1."""
        return max(0.1, self.hard - time.monotonic())


CLOSED = (websockets.ConnectionClosed, ConnectionError)  # not TimeoutError, an OSError too
NO_ANSWER, CLOSED_BY_SERVER = "no answer", "connection closed"


async def timed(
    stats: AttackerStats, request: Awaitable[load.RunView], what: str = ""
) -> load.RunView | str:
    """An attacker's request, timed into ``stats``: its answer, or ``NO_ANSWER`` (counted,
    with the time waited as a lower bound) or ``CLOSED_BY_SERVER`` (counted, no time)."""
    label = f"{what}: " if what else ""
    start = time.monotonic()
    try:
        view = await request
    except TimeoutError:
        stats.outcomes[label + NO_ANSWER] += 1
        stats.times_ms.append((time.monotonic() - start) * 1000)
        return NO_ANSWER
    except CLOSED:
        stats.outcomes[label + CLOSED_BY_SERVER] += 1
        return CLOSED_BY_SERVER
    stats.times_ms.append((time.monotonic() - start) * 1000)
    return view


async def connect(port: int, page: str, query: str = "") -> load.Session:
    session = load.Session(ws_url(port), query_string=query, page=page)
    await session.__aenter__()
    try:
        await session.open()
    except BaseException:
        await close(session)
        raise
    return session


async def close(session: load.Session) -> None:
    if session.ws is not None:
        with suppress(Exception):
            await asyncio.wait_for(session.ws.close(), 1.0)
        with suppress(Exception):
            session.ws.transport.abort()


async def visit(port: int, page: str, query: str, timeout: float) -> load.RunView:
    """A first visit to ``/page?query`` in a new session, as a link opens it; the answer
    unchecked (the websocket is closed afterwards)."""
    session = load.Session(ws_url(port), query_string=query, page=page)
    try:
        await session.__aenter__()
        await session.send(load.message(ClientState(query_string=query, page_name=page)))
        return await session.answer(timeout)
    finally:
        await close(session)


def warnings_of(view: load.RunView) -> int:
    return sum(fmt == Alert.WARNING for fmt, _ in view.alerts)


def said_why(view: load.RunView) -> bool:
    return any(fmt in (Alert.WARNING, Alert.ERROR) for fmt, _ in view.alerts)


def drawn(scene: dict[str, Any] | None) -> str:
    """The margin lab's points as drawn: x, y and label of each (not the hover text)."""
    return json.dumps([p[:3] for p in (scene or {}).get("points", [])])


def answered(view: load.RunView) -> str:
    """An answer's outcome: answered, busy (the page asks to try again later) or error."""
    if view.exceptions or view.status not in load.OK_FINISH:
        return "error"
    if any("try again" in body.lower() for _, body in view.alerts):
        return "busy"
    return "answered"


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def canvas_events(session: load.Session, n: int, rng: random.Random) -> str:
    """``n`` drops of the margin lab's points (no version: each one a valid edit)."""
    count = len(session.scene["points"])
    x0, x1, y0, y1 = session.scene["view"]
    return compact(
        [
            {
                "event": "moved",
                "value": {
                    "i": k % count,
                    "x": round(rng.uniform(x0, x1), 2),
                    "y": round(rng.uniform(y0, y1), 2),
                },
            }
            for k in range(n)
        ]
    )


def player_events(session: load.Session, n: int, rng: random.Random) -> str:
    """``n`` reports of the step (``at``: ``{"t", "seq"}``, as ``player.js`` sends once a
    burst pauses) at random steps of the player's window, numbered on from its ``seq``."""
    a, b = session.start, max(session.start, session.stop)
    return compact(
        [
            {"event": "at", "value": {"t": rng.randint(a, b), "seq": session.seq + 1 + k}}
            for k in range(n)
        ]
    )


COMPONENTS: dict[str, tuple[str, str, Callable[[load.Session, int, random.Random], str]]] = {
    "canvas": ("margin", "mar_canvas", canvas_events),
    "player": ("lecture", "lec_player", player_events),
}


def largest_n(kind: str, limit: int) -> int:
    """The most events of ``kind`` whose frame fits under ``limit`` bytes (else 16,000)."""
    sample = load.Session("")
    sample.scene = {"points": [[0.0, 0.0, 1.0]] * 40, "view": [-3.5, 3.5, -4.3, 2.9]}
    sample.n_steps, sample.start, sample.stop, sample.seq = 20_000, 19_900, 20_000, 99_999
    per_event = len(COMPONENTS[kind][2](sample, 1000, random.Random(0))) / 1000
    fit = int((limit - 4096) / per_event)
    return fit if fit > 8000 else 16_000


async def component_attack(
    port: int, phase: Phase, stats: AttackerStats, *, kind: str, n: int, conns: int
) -> None:
    """``conns`` connections each send one trigger with ``n`` events, again and again."""
    page, key, make = COMPONENTS[kind]
    rng = random.Random(n * 31 + conns)
    sessions = [await connect(port, page) for _ in range(conns)]
    raw = make(sessions[0], n, rng)
    stats.notes.append(f"{n:,} events, {len(raw) / 1e6:.2f} MB a message")
    frames: dict[tuple[str, str], bytes] = {}

    def frame(s: load.Session) -> bytes:  # ids are the same in every session: build it once
        ident = s.element(key)
        if ident not in frames:
            frames[ident] = load.message(s.trigger(key, raw))
        return frames[ident]

    deadline = await phase.begin()

    async def one(s: load.Session) -> None:
        mine = [s]  # and the connections it opens again after the server closed one
        try:
            await attack_with(s, mine)
        finally:
            for session in mine:
                await close(session)

    async def send(s: load.Session) -> load.RunView:
        await s.send(frame(s))
        return await s.answer(phase.left())

    async def attack_with(s: load.Session, mine: list[load.Session]) -> None:
        sends = 0
        while time.monotonic() < deadline and sends < 500:
            sends += 1
            before = (s.t, drawn(s.scene))
            view = await timed(stats, send(s))
            if view == NO_ANSWER:
                return
            if view == CLOSED_BY_SERVER:
                await close(s)
                if time.monotonic() >= deadline:
                    return
                try:
                    s = await connect(port, page)
                except (load.RunError, TimeoutError, *CLOSED):
                    stats.outcomes["reconnect failed"] += 1
                    return
                mine.append(s)
                continue
            assert isinstance(view, load.RunView)
            if view.exceptions or view.status not in load.OK_FINISH:
                stats.outcomes["error"] += 1
                continue
            if view.scene is not None:
                s.scene = view.scene
            if view.t is not None:
                s.t = view.t
            changed = (s.t, drawn(s.scene)) != before
            stats.outcomes[
                "applied" if changed else "refused" if said_why(view) else "ignored"
            ] += 1

    await asyncio.gather(*(one(s) for s in sessions))


async def table_attack(
    port: int,
    phase: Phase,
    stats: AttackerStats,
    *,
    rows: int,
    empty: bool,
    reruns: int,
    run_timeout: float,
) -> None:
    """The margin lab's table editor sent ``rows`` added rows, then ordinary reruns."""
    s = await connect(port, "margin")
    try:
        await s.open_expander("mar_open_table")
        editors = [k for k in (s.last.keyed if s.last else {}) if k.startswith("mar_table")]
        if not editors:
            raise load.RunError("the open table expander showed no data editor")
        editor_id, fragment_id = s.element(editors[-1])
        rng = random.Random(rows)
        added = [
            {}
            if empty
            else {"x1": round(rng.uniform(-3, 3), 2), "x2": round(rng.uniform(-3, 3), 2), "y": 1}
            for _ in range(rows)
        ]
        value = compact({"edited_rows": {}, "added_rows": added, "deleted_rows": []})
        stats.notes.append(f"{rows:,} {'empty ' if empty else ''}rows, {len(value) / 1e6:.2f} MB")
        before = drawn(s.scene)
        widget = WidgetState(id=editor_id, string_value=value)
        s.sticky[editor_id] = widget  # a browser sends every widget's value on every rerun
        await phase.begin()

        async def edit(timeout: float) -> load.RunView:
            await s.send(load.message(s.state([widget], fragment_id)))
            return await s.answer(timeout)

        runs = ["edit"] + ["rerun"] * reruns
        times = []
        for i, what in enumerate(runs):
            if i and time.monotonic() >= phase.hard:
                break
            timeout = min(run_timeout, phase.left())
            view = await timed(
                stats, edit(timeout) if what == "edit" else s.rerun(timeout=timeout), what
            )
            if view == CLOSED_BY_SERVER:
                break
            times.append(
                f"{what} {'≥' if view == NO_ANSWER else ''}{stats.times_ms[-1] / 1000:.1f} s"
            )
            if view == NO_ANSWER:
                break
            assert isinstance(view, load.RunView)
            if view.exceptions or view.status not in load.OK_FINISH:
                stats.outcomes[f"{what}: error"] += 1
                continue
            points = drawn(view.scene) if view.scene else before
            if what == "edit":
                verdict = (
                    "applied" if points != before else "refused" if said_why(view) else "ignored"
                )
                stats.outcomes[f"edit {verdict}"] += 1
            else:
                stats.outcomes["rerun answered"] += 1
        stats.notes.append("; ".join(times))
    finally:
        await close(s)


async def log_attack(port: int, phase: Phase, stats: AttackerStats, *, conns: int) -> None:
    """Lecture runs of 200,000 steps with the mistake log open, stepped again and again."""
    rng = random.Random(7)
    query = "data_name=xor&data_n=500&lec_max_epochs=400&lec_t=199000&data_seed={}"
    sessions: list[load.Session] = []
    try:
        await log_attack_with(sessions, port, phase, stats, conns, query, rng)
    finally:
        for s in sessions:
            await close(s)


async def log_attack_with(
    sessions: list[load.Session],
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
            raise load.RunError("the mistake log did not open (no download button in it)")
    stats.notes.append(f"{sessions[0].n_steps:,} steps, log open ({len(view.texts)} texts)")
    deadline = await phase.begin()

    async def one(s: load.Session) -> None:
        while time.monotonic() < deadline:
            target = s.t + 1 if s.t < s.n_steps else 0
            view = await timed(stats, s.report_view(target, timeout=phase.left()))
            if not isinstance(view, load.RunView):
                return
            if view.player is not None and view.player.problem is None:
                s.t, s.start, s.stop = view.player.t, view.player.start, view.player.stop
            stats.outcomes[answered(view)] += 1

    await asyncio.gather(*(one(s) for s in sessions))


async def opens_attack(
    port: int,
    phase: Phase,
    stats: AttackerStats,
    *,
    queries: Callable[[int], tuple[str, str]],
    conns: int,
    total: int,
    once: bool = False,
) -> None:
    """``conns`` workers open pages (``queries(k)`` -> (page, query string)) as new
    sessions, one after another, until ``total`` opens or the deadline (``once``:
    every worker opens one page, all at the same time)."""
    deadline = await phase.begin()
    counter = iter(range(total))

    async def worker() -> None:
        for k in counter:
            if time.monotonic() >= deadline and not once:
                return
            page, query = queries(k)
            view = await timed(stats, visit(port, page, query, phase.left()))
            if view == NO_ANSWER:
                return
            if view == CLOSED_BY_SERVER:
                continue
            assert isinstance(view, load.RunView)
            stats.max_warnings = max(stats.max_warnings, warnings_of(view))
            stats.markup += [f"{page or 'home'}: {m}" for m in live_markup_in(view)]
            stats.outcomes[answered(view)] += 1
            if once:
                return

    await asyncio.gather(*(worker() for _ in range(conns)))


def heavy_queries(seed: int) -> Callable[[int], tuple[str, str]]:
    rng = random.Random(seed)
    pages = list(HEAVY)

    def query(k: int) -> tuple[str, str]:
        page = pages[k % len(pages)]
        s = fresh_seed(rng)
        return page, f"{HEAVY[page]}&data_seed={s}&exp_seed={s}"

    return query


FIELDS = 1000  # Streamlit ignores a query string of more fields (or of more than 512 KiB)


def hostile_query(keys: list[str], fields: int = 0) -> str:
    """A hostile value in every setting and hostile names, then unknown parameters with
    hostile values up to ``fields`` parameters in all."""
    params = {key: HOSTILE[i % len(HOSTILE)] for i, key in enumerate(keys)}
    if keys:
        params |= {"data_n": HOSTILE[0], "lec_eta": HOSTILE[1]}  # the docstring's links
    params |= {HOSTILE[0]: "1", HOSTILE[2]: "1"}
    params |= {f"p{k:04d}": HOSTILE[k % len(HOSTILE)] for k in range(fields - len(params))}
    return urlencode(list(params.items()))


def huge_query(limit: int) -> str:
    """The largest query string Streamlit still reads (at most 1,000 fields and 512 KiB),
    within a frame: long hostile values in every field."""
    per_field = min(500 * 1024, int(limit * 0.9)) // FIELDS - 6
    value = (HOSTILE[0] + " ") * 40
    item = urlencode([("p", value)])[1:]
    while len(item) > per_field and value:
        value = value[: len(value) * per_field // len(item) - 1]
        item = urlencode([("p", value)])[1:]
    return "&".join(f"p{k:03d}{item}" for k in range(FIELDS - 1))


# ---------------------------------------------------------------------------- markup


def _escaped(text: str, i: int) -> bool:
    """Whether the character at ``i`` is backslash-escaped (an odd run of backslashes)."""
    n = 0
    while i - n - 1 >= 0 and text[i - n - 1] == "\\":
        n += 1
    return n % 2 == 1


def without_code_spans(text: str) -> str:
    """``text`` with every markdown code span (CommonMark: a run of backticks closed by a
    run of the same length) replaced by ``·``: nothing inside one is markup."""
    runs = [m for m in re.finditer(r"`+", text) if not _escaped(text, m.start())]
    out, pos, i = [], 0, 0
    while i < len(runs):
        opener = runs[i]
        close_at = next(
            (j for j in range(i + 1, len(runs)) if len(runs[j][0]) == len(opener[0])), None
        )
        if close_at is None:
            i += 1
            continue
        out += [text[pos : opener.start()], "·"]
        pos, i = runs[close_at].end(), close_at + 1
    return "".join(out) + text[pos:]


_LINK = re.compile(r"\]\(\s*<?\s*https?://example\.invalid", re.I)  # [..](..) and ![..](..)
_TAG = re.compile(r"<\s*/?\s*(img|a|script|iframe|svg|style)\b|<https?://", re.I)
_AUTO = re.compile(r"(https?://|www\.)example\.invalid", re.I)  # GFM autolink


def live_markup(text: str) -> list[str]:
    """The link, image, autolink or HTML markup of ``text`` that a markdown renderer would
    act on: outside code spans and not backslash-escaped."""
    code_free = without_code_spans(text)
    neutral = re.sub(r"\\[!-/:-@\[-`{-~]", "·", code_free)  # an escaped character: inert
    unescaped = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", code_free)  # autolinks see through
    found = [f"link {m[0]!r}" for m in _LINK.finditer(neutral)]
    found += [f"html {m[0]!r}" for m in _TAG.finditer(neutral)]
    found += [f"autolink {m[0]!r}" for m in _AUTO.finditer(unescaped) if not _LINK.search(neutral)]
    return found


def live_markup_in(view: load.RunView) -> list[str]:
    return [f"{kind}.{name}: {m} in {text[:70]!r}" for kind, name, text in view.texts
            for m in live_markup(text)]  # fmt: skip


@dataclass
class MarkupRow:
    page: str
    link: str
    markup: list[str]
    warnings: int
    errors: list[str]

    @property
    def ok(self) -> bool:
        return not self.markup and self.warnings <= MAX_WARNINGS and not self.errors


async def markup_check(port: int, keys: list[str]) -> list[MarkupRow]:
    links = {
        "hostile values": hostile_query(keys),
        "1,000 unknown": hostile_query([], fields=FIELDS),
    }
    rows = []
    for page in PAGES:
        for name, query in links.items():
            try:
                view = await visit(port, page, query, 60.0)
            except (TimeoutError, *CLOSED) as exc:
                rows.append(MarkupRow(page or "home", name, [], 0, [type(exc).__name__]))
                continue
            errors = ["exception: " + "; ".join(view.exceptions)[:100]] if view.exceptions else []
            markup = live_markup_in(view)
            rows.append(MarkupRow(page or "home", name, markup, warnings_of(view), errors))
    return rows


# ---------------------------------------------------------------------------- runner


@dataclass
class Row:
    name: str
    quiet: Latencies
    attack: Latencies
    stats: AttackerStats
    rss_max: float
    rss: list[float] = field(default_factory=list)  # the curve (cache attack)
    error: str | None = None
    settled: list[float] = field(default_factory=list)  # the curve after the attack

    @property
    def ratio(self) -> float:
        q = self.quiet.stat(0.5)
        return self.attack.stat(0.5) / q if q and q == q else float("nan")

    def ok(self, ceiling: float) -> bool:
        return (
            self.error is None
            and self.ratio <= RATIO_GOAL
            and self.rss_max <= ceiling
            and not self.attack.errors
        )


@dataclass
class Attack:
    name: str
    group: str
    run: Callable[[int, Phase, AttackerStats], Coroutine[Any, Any, None]]
    duration: float
    tail: float
    rss_interval: float = 0.5
    settle: float = 0.0  # s of sampling after the attack, no attacker connected


async def warm(port: int) -> None:
    """First runs on a fresh server: imports, the compiled kernel, the pages' code."""
    for page, query in (("lecture", VICTIM_QUERY), ("margin", "")):
        async with load.Session(ws_url(port), query_string=query, page=page) as s:
            await s.open()


async def measure(port: int, pid: int, attack: Attack, quiet: float) -> Row:
    await warm(port)
    sampler = RssSampler(pid, attack.rss_interval)
    sampler.start()
    phase, stats = Phase(attack.duration, attack.tail), AttackerStats()
    task = asyncio.create_task(attack.run(port, phase, stats))
    victim = Victim(port)
    error = None
    q0 = q1 = a1 = time.monotonic()
    try:
        ready = asyncio.create_task(phase.ready.wait())
        await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            task.result()  # the attack failed to set itself up: raise its error
        await victim.ready()
        q0 = time.monotonic()
        await asyncio.sleep(quiet)
        q1 = time.monotonic()
        phase.start()
        phase.go.set()
        try:
            await asyncio.wait_for(task, attack.duration + attack.tail + 10)
        except TimeoutError:
            stats.outcomes["cut at the time bound"] += 1
        # a single-shot attack: the victim is measured for the attack's duration at least
        await asyncio.sleep(max(0.0, phase.deadline - time.monotonic()))
        a1 = time.monotonic()
        await asyncio.sleep(max(attack.settle, 2.0))  # steps sent before a1 may finish
    except (load.RunError, TimeoutError, *CLOSED) as exc:
        error = f"{type(exc).__name__}: {exc}"[:160]
        a1 = time.monotonic()
        task.cancel()
        with suppress(BaseException):
            await task
    finally:
        victim.stop()
        sampler.stop()
    rss = sampler.between(q1, a1)
    return Row(
        attack.name,
        victim.window(q0, q1),
        victim.window(q1, a1),
        stats,
        max(rss, default=float("nan")),
        rss,
        error,
        sampler.between(a1 + 0.01, float("inf")) if attack.settle else [],  # after a1
    )


def build_attacks(args: argparse.Namespace, limit: int, keys: list[str]) -> list[Attack]:
    quick = args.quick
    dur, tail = args.duration, args.tail
    wanted = set(args.attacks.split(","))
    attacks: list[Attack] = []

    def add(
        name: str,
        group: str,
        run: Callable[[int, Phase, AttackerStats], Coroutine[Any, Any, None]],
        duration: float = dur,
        t: float = tail,
    ) -> None:
        if group in wanted:
            attacks.append(Attack(name, group, run, duration, t))

    for kind in ("canvas", "player"):
        big = args.large_n or largest_n(kind, limit)
        cases = [(8000, 3), (big, 8)] if quick else [(8000, 3), (8000, 8), (big, 3), (big, 8)]
        controls = [(1, c) for c in sorted({c for _, c in cases})]
        for n, conns in [*controls, *cases]:  # one event a message: a real gesture, as often

            async def run(
                p: int, ph: Phase, st: AttackerStats, k: str = kind, n: int = n, c: int = conns
            ) -> None:
                await component_attack(p, ph, st, kind=k, n=n, conns=c)

            label = (
                f"{kind}: {n:,} events x{conns}" if n > 1 else f"{kind}: 1 event x{conns} (control)"
            )
            add(label, kind, run)

    run_timeout = 40.0 if quick else 120.0
    for empty in (False, True):

        async def table(p: int, ph: Phase, st: AttackerStats, e: bool = empty) -> None:
            await table_attack(
                p, ph, st, rows=60_000, empty=e, reruns=1 if quick else 3, run_timeout=run_timeout
            )

        what = "empty rows" if empty else "rows"
        add(
            f"table: 60,000 {what} + reruns", "table", table, dur, 2 * run_timeout if quick else 300
        )

    async def log(p: int, ph: Phase, st: AttackerStats) -> None:
        await log_attack(p, ph, st, conns=3)

    add("log: 200,000 steps, log open x3", "log", log)

    cold_n = 20 if quick else 50

    async def cold(p: int, ph: Phase, st: AttackerStats) -> None:
        rng = random.Random(11)
        q = HEAVY["variants"] + "&data_seed={}"
        await opens_attack(
            p,
            ph,
            st,
            queries=lambda k: ("variants", q.format(fresh_seed(rng))),
            conns=cold_n,
            total=cold_n,
            once=True,
        )

    add(f"cold: {cold_n} variants opens at once", "cold", cold, dur, 90 if quick else 180)

    requests = args.cache_requests or (40 if quick else 240)
    seconds = args.cache_seconds or (60 if quick else 300)

    async def cache(p: int, ph: Phase, st: AttackerStats) -> None:
        await opens_attack(p, ph, st, queries=heavy_queries(5), conns=3, total=requests)

    if "cache" in wanted:
        name = f"cache: {requests} cold heavy opens"
        attacks.append(Attack(name, "cache", cache, seconds, 30, 1.0, args.settle))

    hostile, huge = hostile_query(keys, fields=FIELDS), huge_query(limit)
    floods = {
        "url: plain opens x8 (control)": lambda k: (PAGES[k % len(PAGES)], ""),
        "url: 1,000 hostile params x8": lambda k: (PAGES[k % len(PAGES)], hostile),
        f"url: {len(huge) / 1e6:.1f} MB query x8": lambda k: (PAGES[k % len(PAGES)], huge),
    }
    for name, queries in floods.items():

        async def flood(
            p: int, ph: Phase, st: AttackerStats, q: Callable[[int], tuple[str, str]] = queries
        ) -> None:
            await opens_attack(p, ph, st, queries=q, conns=8, total=10_000)

        add(name, "url", flood)
    return attacks


HEADER = (
    f"{'attack':<34} {'victim med':>10} {'p95':>8} {'ratio':>6} {'n':>4}  "
    f"{'attacker outcome':<44} {'attacker time':<24} {'RSS max':>8}  verdict"
)


def format_row(row: Row, ceiling: float) -> str:
    ratio = row.ratio
    ratio_text = ("≥" if row.attack.bound(0.5) else "") + (
        f"{ratio:.1f}" if ratio == ratio else "-"
    )
    outcome = row.error or row.stats.outcome_text()
    return (
        f"{row.name:<34} {row.attack.text(0.5):>10} {row.attack.text(0.95):>8} "
        f"{ratio_text:>6} {len(row.attack.all_ms):>4}  {outcome[:44]:<44} "
        f"{row.stats.time_text():<24} {row.rss_max:>6.0f}MB  {verdict(row.ok(ceiling))}"
    )


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def memory_summary(row: Row, ceiling: float) -> tuple[str, bool]:
    curve = row.rss
    if len(curve) < 3:
        return "memory: too few samples", False
    third = max(1, len(curve) // 3)
    early, last = max(curve[: len(curve) - third]), max(curve[-third:])
    growth = last - early
    levelled = growth <= 0.05 * ceiling
    ok = max(curve) <= ceiling and levelled
    text = (
        f"memory under {row.name} ({len(curve)} samples, 1/s): start {curve[0]:.0f} MB, "
        f"max {max(curve):.0f} MB, last {curve[-1]:.0f} MB, max over the last third "
        f"{last:.0f} MB ({growth:+.0f} MB over the earlier max: "
        f"{'levels off' if levelled else 'still growing'}); ceiling {ceiling:.0f} MB: "
        f"{'PASS' if ok else 'FAIL'}"
    )
    if row.settled:
        text += (
            f"\n  then {len(row.settled)} s with no attacker (Streamlit keeps a closed "
            f"session 120 s): {row.settled[0]:.0f} -> {row.settled[-1]:.0f} MB "
            f"(min {min(row.settled):.0f} MB)"
        )
    return text, ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter phases, fewer cases")
    groups = "canvas,player,table,log,cold,cache,url,markup"
    parser.add_argument("--attacks", default=groups, help=f"comma-separated of {groups}")
    parser.add_argument("--quiet", type=float, help="quiet phase, s (8; quick 4)")
    parser.add_argument("--duration", type=float, help="attack phase, s (10; quick 4)")
    parser.add_argument("--tail", type=float, help="wait for outstanding answers, s (30; 10)")
    parser.add_argument("--large-n", type=int, default=0, help="events in the large message")
    parser.add_argument("--cache-requests", type=int, default=0, help="cold opens (240; 40)")
    parser.add_argument("--cache-seconds", type=float, default=0, help="bound, s (300; 60)")
    parser.add_argument(
        "--settle", type=float, help="cache: sample RSS this long after, s (150; quick 0)"
    )
    parser.add_argument("--ceiling-mb", type=float, default=CEILING_MB)
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="serve the app from here")
    args = parser.parse_args()
    args.quiet = args.quiet or (4.0 if args.quick else 8.0)
    args.duration = args.duration or (4.0 if args.quick else 10.0)
    args.tail = args.tail if args.tail is not None else (10.0 if args.quick else 30.0)
    args.settle = args.settle if args.settle is not None else (0.0 if args.quick else 150.0)
    app_dir = args.app_dir.resolve()
    limit = widget_state_limit(app_dir)
    keys = setting_keys(app_dir)
    attacks = build_attacks(args, limit, keys)
    log_path = Path(tempfile.gettempdir()) / "perceptron_attack_server.log"
    log_path.write_bytes(b"")
    print(
        f"app in {app_dir}; server.maxWidgetStateSize {limit / 1e6:g} MB; a fresh server per "
        f"attack (log {log_path}); victim: a step on /lecture every {PERIOD} s; quiet "
        f"{args.quiet:g} s, attacks {args.duration:g} s (+ up to {args.tail:g} s for answers)"
    )
    print("latencies in ms; ≥: a press still unanswered when the attack ended (a lower bound)")
    print(HEADER, flush=True)
    rows: list[Row] = []
    failed = False
    for attack in attacks:
        with server(app_dir, log_path) as (proc, port):
            row = asyncio.run(measure(port, proc.pid, attack, args.quiet))
        rows.append(row)
        failed |= not row.ok(args.ceiling_mb)
        print(format_row(row, args.ceiling_mb), flush=True)

    def kin(row: Row) -> tuple[str, str]:  # the page or component, and its connections
        found = re.search(r" x(\d+)", row.name)
        return row.name.split(":")[0], found.group(1) if found else ""

    controls = {kin(r): r for r in rows if "control" in r.name and r.stats.times_ms}
    for row in rows:
        control = controls.get(kin(row))
        notes = [f"quiet median {row.quiet.text(0.5)} ms (n {len(row.quiet.all_ms)})"]
        notes += [n for n in row.stats.notes if n]
        if row.name.startswith("url") and row.stats.max_warnings:
            notes.append(f"up to {row.stats.max_warnings} warnings a page")
        if row.stats.markup:
            notes.append(f"live markup {len(row.stats.markup)}: {row.stats.markup[0][:80]}")
        if control is not None and row is not control and row.stats.times_ms:
            mine = statistics.median(row.stats.times_ms)
            base = statistics.median(control.stats.times_ms)
            notes.append(f"attacker median {mine:.0f} ms, {mine / base:.1f}x the control's")
        if row.attack.errors:
            notes.append(f"victim errors: {row.attack.errors[:2]}")
        print(f"  {row.name}: " + "; ".join(notes))
    for row in rows:
        if row.rss and row.name.startswith("cache"):
            text, ok = memory_summary(row, args.ceiling_mb)
            failed |= not ok
            print(text)
    if "markup" in args.attacks.split(","):
        with server(app_dir, log_path) as (proc, port):
            marks = asyncio.run(markup_check(port, keys))
        print(f"\nmarkup from a link (at most {MAX_WARNINGS} warnings a page):")
        print(f"{'page':<10} {'link':<16} {'live markup':>11} {'warnings':>9}  verdict")
        for m in marks:
            failed |= not m.ok
            print(
                f"{m.page:<10} {m.link:<16} {len(m.markup):>11} {m.warnings:>9}  "
                f"{'PASS' if m.ok else 'FAIL'}"
            )
        for m in marks:
            for finding in (m.markup + m.errors)[:2]:
                print(f"  {m.page} / {m.link}: {finding[:150]}")
    print(
        f"\noverall: {verdict(not failed)} (goal: ratio <= {RATIO_GOAL:g}, RSS <= "
        f"{args.ceiling_mb:.0f} MB, no live markup, <= {MAX_WARNINGS} warnings a page)"
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

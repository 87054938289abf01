"""What every attack of ``benchmarks/attack.py`` builds on: a fresh server, the app's
settings and pages read from its source, the attack's clock (:class:`Phase`), an
attacker's requests timed and counted (:func:`timed`), and what an answer shows."""

from __future__ import annotations

import asyncio
import json
import random
import re
import statistics
import subprocess
import time
import tomllib
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.ClientState_pb2 import ClientState

from tools import streamlit_server
from tools.app_client import Session
from tools.streamlit_client import OK_FINISH, RunView, message, stream_url

ROOT = Path(__file__).resolve().parents[1]


def page_urls(app_dir: Path) -> tuple[str, ...]:
    """The URL of every page of the app's page table, ``ui/shell/__init__.py``'s ``PAGES`` (read
    as text, not imported; "" for the home page, whose file is ``pages/home.py``)."""
    text = (app_dir / "ui" / "shell" / "__init__.py").read_text(encoding="utf-8")
    stems = re.findall(r'PageSpec\(\s*"pages/(\w+)\.py"', text)
    return tuple("" if stem == "home" else stem for stem in stems)


PAGES = page_urls(ROOT)


def fresh_seed(rng: random.Random) -> int:
    return rng.randrange(1, 2**31 - 1)


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
def server(
    app_dir: Path, log_path: Path, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """A fresh server for one attack: (process, port); stopped by its PID afterwards.
    ``env``: settings added to this process's environment for it (its store)."""
    with (
        open(log_path, "ab") as log,
        streamlit_server.serve("app.py", log=log, app_dir=app_dir, env=env or {}) as (proc, url),
    ):
        yield proc, streamlit_server.port_of(url)


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


async def timed(stats: AttackerStats, request: Awaitable[RunView], what: str = "") -> RunView | str:
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


async def connect(port: int, page: str, query: str = "") -> Session:
    session = Session(stream_url(port), query_string=query, page=page)
    await session.__aenter__()
    try:
        await session.open()
    except BaseException:
        await close(session)
        raise
    return session


@asynccontextmanager
async def connected(port: int, page: str, query: str = "") -> AsyncIterator[Session]:
    """:func:`connect` ... :func:`close`, as a context manager yielding the session."""
    session = await connect(port, page, query)
    try:
        yield session
    finally:
        await close(session)


async def close(session: Session) -> None:
    if session.ws is not None:
        with suppress(Exception):
            await asyncio.wait_for(session.ws.close(), 1.0)
        with suppress(Exception):
            session.ws.transport.abort()


async def visit(port: int, page: str, query: str, timeout: float) -> RunView:
    """A first visit to ``/page?query`` in a new session, as a link opens it; the answer
    unchecked (the websocket is closed afterwards)."""
    session = Session(stream_url(port), query_string=query, page=page)
    try:
        await session.__aenter__()
        await session.send(message(ClientState(query_string=query, page_name=page)))
        return await session.answer(timeout)
    finally:
        await close(session)


def warnings_of(view: RunView) -> int:
    return sum(fmt == Alert.WARNING for fmt, _ in view.alerts)


def effect(changed: bool, view: RunView) -> str:
    """What an attacker's message did: applied (what the page draws changed), refused (it
    did not, and the page said why: a warning or an error) or ignored."""
    said_why = any(fmt in (Alert.WARNING, Alert.ERROR) for fmt, _ in view.alerts)
    return "applied" if changed else "refused" if said_why else "ignored"


def drawn(scene: dict[str, Any] | None) -> str:
    """The margin lab's points as drawn: x, y and label of each (not the hover text)."""
    return json.dumps([p[:3] for p in (scene or {}).get("points", [])])


def answered(view: RunView) -> str:
    """An answer's outcome: answered, busy (the page asks to try again later) or error."""
    if view.exceptions or view.status not in OK_FINISH:
        return "error"
    if any("try again" in body.lower() for _, body in view.alerts):
        return "busy"
    return "answered"


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))

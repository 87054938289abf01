"""What the load scenarios (``benchmarks/load_*.py``) measure with: the server's CPU, phases
of sessions acting at once, their latencies summed up, and the verdict lines."""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from tools.app_client import Session
from tools.live import Live
from tools.streamlit_client import CLOSED_OR_FAILED

Pids = int | tuple[int, ...] | None  # the server process(es) whose CPU is measured
CLASS_QUERY = "data_name=xor&lec_max_epochs=100"  # 40 points x 100 epochs: 4,000 steps


def cpu_seconds(pid: int | tuple[int, ...]) -> float:
    """User + system CPU time of a process so far (Linux /proc); of several, their sum
    (the app servers behind nginx)."""
    if isinstance(pid, tuple):
        return sum(cpu_seconds(p) for p in pid)
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Meter:
    """Wall time, the server's CPU time (if its pid is known) and this process's."""

    def __init__(self, pid: Pids) -> None:
        self.pid = pid
        self.wall, self.server, self.client = time.perf_counter(), 0.0, time.process_time()
        if pid is not None:
            self.server = cpu_seconds(pid)

    def read(self) -> tuple[float, float, float]:
        """(wall s, server cores, client cores) since the meter was made."""
        wall = time.perf_counter() - self.wall
        server = (cpu_seconds(self.pid) - self.server) / wall if self.pid else float("nan")
        return wall, server, (time.process_time() - self.client) / wall

    @staticmethod
    def load() -> float:
        """The machine's load average over the last minute: other work competing."""
        return os.getloadavg()[0]


@dataclass
class SessionResult:
    page: str = "lecture"
    open_ms: float | None = None
    latencies_ms: list[float] = field(default_factory=list)
    full_ms: list[float] = field(default_factory=list)  # the reports answered by a full rerun
    left: int = 0  # reports of a step outside the window
    errors: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    def took(self, latency: float, wrong: str | None) -> None:
        """One action's latency (ms), and what was wrong with its answer (None: nothing)."""
        self.latencies_ms.append(latency)
        if wrong:
            self.wrong.append(wrong)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


@dataclass
class PhaseSummary:
    """A measured phase: every session acting at once."""

    sessions: int
    opened: int
    actions: int
    median_ms: float
    p95_ms: float
    full: int
    full_median_ms: float
    full_p95_ms: float
    left: int
    open_median_ms: float
    open_p95_ms: float
    wall_s: float
    server_cores: float
    client_cores: float
    load: float
    errors: int
    wrong: int
    messages: list[str]

    @property
    def per_s(self) -> float:
        return self.actions / self.wall_s

    @property
    def full_per_s(self) -> float:
        return self.full / self.wall_s


def summarise(
    results: list[SessionResult], meter: tuple[float, float, float, float]
) -> PhaseSummary:
    wall, server, client, load = meter
    latencies = [ms for r in results for ms in r.latencies_ms]
    full = [ms for r in results for ms in r.full_ms]
    opens = [r.open_ms for r in results if r.open_ms is not None]
    return PhaseSummary(
        sessions=len(results),
        opened=len(opens),
        actions=len(latencies),
        median_ms=median(latencies),
        p95_ms=percentile(latencies, 0.95),
        full=len(full),
        full_median_ms=median(full),
        full_p95_ms=percentile(full, 0.95),
        left=sum(r.left for r in results),
        open_median_ms=median(opens),
        open_p95_ms=percentile(opens, 0.95),
        wall_s=wall,
        server_cores=server,
        client_cores=client,
        load=load,
        errors=sum(len(r.errors) for r in results),
        wrong=sum(len(r.wrong) for r in results),
        messages=[m for r in results for m in r.errors + r.wrong],
    )


async def in_phase(
    sessions: int,
    ramp: float,
    make: Callable[[int], Session],
    act: Callable[[int, Session, SessionResult, float], Awaitable[None]],
    duration: float,
    pid: Pids,
) -> PhaseSummary:
    """Open ``sessions`` sessions (``make(i)``, spread over ``ramp`` s); once all are open,
    let each ``act(i, session, result, deadline)`` until ``deadline`` = now + ``duration``.
    Returns what they did, with the meter's reading over the acting phase only (and the
    load average at its end)."""
    results = [SessionResult() for _ in range(sessions)]
    ready, go = asyncio.Event(), asyncio.Event()
    arrived: set[int] = set()  # sessions whose first run ended, one way or another
    clock: dict[str, float] = {}

    def arrive(i: int) -> None:
        arrived.add(i)
        if len(arrived) == sessions:
            ready.set()

    async def one(i: int) -> None:
        result = results[i]
        try:
            await asyncio.sleep(ramp * i / sessions)
            async with make(i) as session:
                try:
                    result.open_ms = await session.open()
                finally:
                    arrive(i)
                await go.wait()
                await act(i, session, result, clock["deadline"])
        except CLOSED_OR_FAILED as exc:
            result.errors.append(f"{type(exc).__name__}: {exc}"[:300])
        finally:
            arrive(i)

    tasks = [asyncio.create_task(one(i)) for i in range(sessions)]
    await ready.wait()
    meter = Meter(pid)
    clock["deadline"] = time.perf_counter() + duration
    go.set()
    await asyncio.gather(*tasks)
    return summarise(results, (*meter.read(), meter.load()))


@dataclass
class Idle:
    """A quiet phase: the server's CPU while the open tabs only poll."""

    sessions: int = 0
    wall_s: float = 0.0
    cores: float = float("nan")  # the server's CPU seconds a second
    client: float = float("nan")  # this process's
    polls: int = 0
    runs: int = 0

    @property
    def poll_ms(self) -> float:
        """The server's CPU per poll received, in ms."""
        return self.cores * self.wall_s / self.polls * 1000 if self.polls else float("nan")


async def idle_phase(lives: list[Live], seconds: float, pid: Pids) -> Idle:
    """``seconds`` of the tabs ``lives`` left alone (after 3 s for the runs under way)."""
    await asyncio.sleep(3.0)
    polls, runs = sum(x.polls for x in lives), sum(x.runs for x in lives)
    meter = Meter(pid)
    await asyncio.sleep(seconds)
    wall, cores, client = meter.read()
    return Idle(
        sessions=len(lives),
        wall_s=wall,
        cores=cores,
        client=client,
        polls=sum(x.polls for x in lives) - polls,
        runs=sum(x.runs for x in lives) - runs,
    )


def print_failures(failures: list[str]) -> None:
    for message in failures[:20]:
        print("  " + message)
    if len(failures) > 20:
        print(f"  ... and {len(failures) - 20} more")


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"

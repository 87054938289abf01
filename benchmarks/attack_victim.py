"""The victim of every attack and the server's memory: a student in a process of its own
stepping on the lecture page, its latencies in a quiet phase and under the attack; the
server's RSS sampled throughout (:func:`measure` runs one attack against them)."""

from __future__ import annotations

import asyncio
import multiprocessing
import re
import threading
import time
from collections.abc import Callable, Coroutine
from contextlib import suppress
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from benchmarks.attack_phases import CLOSED, AttackerStats, Phase
from benchmarks.load_phases import percentile
from tools.app_client import Session
from tools.streamlit_client import CLOSED_OR_FAILED, RunError, stream_url

VICTIM_QUERY = "data_name=xor&lec_max_epochs=500"  # 40 points x 500 epochs: every step moves
PERIOD = 0.25  # s between the victim's presses
RATIO_GOAL = 2.0


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
        async with Session(stream_url(port), query_string=query) as session:
            await session.open()
            conn.send(("ready", time.monotonic(), session.n_steps))
            while True:
                sent = time.monotonic()
                conn.send(("sent", sent))
                try:
                    latency, wrong = await session.press_step()
                except CLOSED_OR_FAILED as e:
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
        return percentile(self.all_ms, q) if self.all_ms else float("nan")

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
                raise RunError(f"the victim could not open the lecture page: {self.records}")
            await asyncio.sleep(0.05)
        raise RunError("the victim did not open the lecture page in time")

    def stop(self) -> None:
        if self.proc.is_alive():
            self.proc.terminate()
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(timeout=5)
        self._reader.join(timeout=2)

    def window(self, a: float, b: float, *, last: bool = True) -> Latencies:
        """Presses waiting for their answer in [a, b): sent in it, or sent before ``a`` and
        answered after it (a press sent just before an attack and answered seconds into it
        is the attack's). In the ``last`` window a press never answered counts as its wait
        so far (until b); in an earlier one a press answered after ``b`` is the next's."""
        out = Latencies()
        done = {r[1]: r for r in self.records if r[0] in ("press", "error")}

        def answered_at(sent: float) -> float:
            answer = done.get(sent)
            return float("inf") if answer is None or answer[2] is None else sent + answer[2] / 1000

        for r in self.records:
            if r[0] != "sent" or r[1] >= b or answered_at(r[1]) <= a:
                continue
            if not last and answered_at(r[1]) > b:
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
    slack_ms: float = 0.0  # the goal: a median within 2x quiet, plus this
    judged: bool = True  # False: the victim's figures are shown, the attack's own goal judges

    @property
    def ratio(self) -> float:
        q = self.quiet.stat(0.5)
        return self.attack.stat(0.5) / q if q and q == q else float("nan")

    def ok(self, ceiling: float) -> bool:
        quiet, slack = self.quiet.stat(0.5), self.slack_ms
        within = (
            not self.judged
            or self.ratio <= RATIO_GOAL
            or (slack > 0 and self.attack.stat(0.5) <= RATIO_GOAL * quiet + slack)
        )
        return (
            self.error is None
            and within
            # a press still unanswered after the attack and its tail: the victim was stuck,
            # whatever the median of the few that were answered says
            and (not self.judged or not self.attack.unanswered_ms)
            and not any(k.isupper() for k in self.stats.outcomes)
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
    slack_ms: float = 0.0  # the goal: a median within 2x quiet, plus this
    judged: bool = True  # False: the victim's figures are shown, the attack's own goal judges
    env: dict[str, str] = field(default_factory=dict)  # the server's settings (its store)


async def warm(port: int) -> None:
    """First runs on a fresh server: imports, the compiled kernel, the pages' code."""
    for page, query in (("lecture", VICTIM_QUERY), ("margin", "")):
        async with Session(stream_url(port), query_string=query, page=page) as s:
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
    except (RunError, TimeoutError, *CLOSED) as exc:
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
        victim.window(q0, q1, last=False),
        victim.window(q1, a1),
        stats,
        max(rss, default=float("nan")),
        rss,
        error,
        sampler.between(a1 + 0.01, float("inf")) if attack.settle else [],  # after a1
        attack.slack_ms,
        attack.judged,
    )

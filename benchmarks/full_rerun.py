"""Full reruns of the lecture page for a class: throughput with N sessions, against a bare page.

Starts ``streamlit run app.py`` and the bare one-chart page (``benchmarks/bare_page.py``,
the floor any Streamlit rerun pays) on free ports, one after the other, and loads each
with N concurrent sessions over Streamlit's websocket protocol (the client of
``tools.app_client``) with no think time, so the server is saturated and what is
measured is its throughput:

- **rerun**: the N sessions send ``--reruns`` whole-page reruns each, back to back (a
  ``rerun_script`` without a fragment id: what a setting change, a step out of the
  scene's window or a reload costs; on the bare page, a click of its button);
- **open**: N new sessions open the page at once (the lecture at its defaults: its run
  and scene come from the caches after the first);
- **cold open** (lecture only): N new sessions open it, each on a dataset seed of its own
  (``?data_seed=...``): N runs and N scenes computed, as after a settings change.

An exception, the page's error sentence or a run that does not finish as a full run is
an error. Opens are also capped by ``ui.server.fair`` (past 3 new tabs a second they queue
and rest), so for them the server's CPU per run is the number to read, not runs/s. The
client keeps the large messages as a browser does and names them when it reruns, so an
unchanged scene comes back as a reference (KB/run is what a browser receives).

Each target is measured ``--rounds`` times, the targets interleaved (a busy machine slows
them alike), and the median of each phase is shown: runs per second, the server's CPU ms
per run (``/proc``), KB sent per run. The goal is a ratio measured in the same run:
lecture full reruns/s with 50 sessions at least twice those of the baseline checkout
ceeb31d (48-59 a second here, about 20 ms of the server's CPU each, 0.17x the bare page's
reruns/s; the "17/s" of ``benchmarks/load.py`` with think time is bound by the think
time, not the server). ``--baseline DIR`` (repeatable) measures the app in another
checkout too (``git archive ceeb31d | tar -x -C DIR``) and prints the ratios against it.

``--lang fr`` (repeatable) measures the lecture read in another language too and prints
its ratios to the English lecture's: a translated page must cost what the English does.

Run:  python benchmarks/full_rerun.py [--sessions 50] [--reruns 10] [--rounds 3]
      [--baseline DIR ...] [--lang fr ...]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import websockets
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.load_phases import cpu_seconds  # noqa: E402
from tools import streamlit_server  # noqa: E402
from tools.app_client import Session  # noqa: E402
from tools.streamlit_client import RUN_TIMEOUT, RunError, RunView  # noqa: E402

BARE = ROOT / "benchmarks" / "bare_page.py"


class CountingSession(Session):
    """A session (``tools.app_client.Session``) that counts the bytes the server sends it
    and, as a browser does, keeps the large messages (``metadata.cacheable``: an element
    of 10 kB or more) and names them in every rerun (``ClientState.cached_message_hashes``),
    so the server sends an unchanged chart as a reference to it; kept for ``KEEP_RUNS``
    runs after their last use (Streamlit's ``global.maxCachedMessageAge``)."""

    KEEP_RUNS = 2

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.received = 0
        self.runs = 0
        self.cache: dict[str, tuple[ForwardMsg, int]] = {}  # hash -> (message, last run)

    async def __aenter__(self) -> CountingSession:
        await super().__aenter__()
        assert self.ws is not None
        recv = self.ws.recv

        async def counted(*args: Any, **kwargs: Any) -> bytes | str:
            data: bytes | str = await recv(*args, **kwargs)
            self.received += len(data)
            return data

        # recv is overloaded on ``decode`` (str or bytes): one counting wrapper for both
        self.ws.recv = counted  # type: ignore[method-assign, assignment]
        return self

    async def request(self, state: ClientState, timeout: float = RUN_TIMEOUT) -> RunView:
        state.cached_message_hashes.extend(self.cache)
        return await super().request(state, timeout)

    def read(self, fwd: ForwardMsg, view: RunView) -> None:
        if fwd.WhichOneof("type") == "ref_hash":
            if fwd.ref_hash not in self.cache:
                raise RunError(f"a reference to a message this client never had: {fwd.ref_hash}")
            fwd = self.cache[fwd.ref_hash][0]
            self.cache[fwd.hash] = (fwd, self.runs)
        elif fwd.metadata.cacheable and fwd.hash:
            self.cache[fwd.hash] = (fwd, self.runs)
        super().read(fwd, view)
        if fwd.WhichOneof("type") == "script_finished":
            self.runs += 1
            for key in [
                k for k, (_, run) in self.cache.items() if run < self.runs - self.KEEP_RUNS
            ]:
                del self.cache[key]


@dataclass
class Phase:
    name: str
    runs: int
    wall: float
    cpu: float  # the server's CPU seconds
    sent: int  # bytes the sessions received
    median_ms: float
    errors: list[str]

    @property
    def per_s(self) -> float:
        return self.runs / self.wall if self.wall else float("nan")

    @property
    def cpu_ms(self) -> float:
        return 1000 * self.cpu / max(self.runs, 1)

    @property
    def kb(self) -> float:
        return self.sent / 1024 / max(self.runs, 1)


HEADER = (
    f"{'page':<20} {'phase':<10} {'runs':>5} {'runs/s':>8} {'cpu ms/run':>10} "
    f"{'KB/run':>7} {'median ms':>9} {'errors':>6}"
)


def row(label: str, phases: list[Phase]) -> str:
    """The median of a phase over the rounds (runs and errors: summed)."""
    med = statistics.median
    return (
        f"{label:<20} {phases[0].name:<10} {sum(p.runs for p in phases):>5} "
        f"{med(p.per_s for p in phases):>8.1f} {med(p.cpu_ms for p in phases):>10.1f} "
        f"{med(p.kb for p in phases):>7.1f} {med(p.median_ms for p in phases):>9.0f} "
        f"{sum(len(p.errors) for p in phases):>6}"
    )


Step = Callable[[CountingSession], Awaitable[tuple[list[float], list[str]]]]


async def _measure(pid: int, name: str, sessions: list[CountingSession], step: Step) -> Phase:
    """Run ``step`` for every session at once; time it, count the server's CPU and bytes."""
    before = sum(s.received for s in sessions)
    cpu = cpu_seconds(pid)
    start = time.perf_counter()
    results = await asyncio.gather(*(step(s) for s in sessions), return_exceptions=True)
    wall = time.perf_counter() - start
    cpu = cpu_seconds(pid) - cpu
    latencies: list[float] = []
    errors: list[str] = []
    for r in results:
        if isinstance(r, BaseException):
            errors.append(f"{type(r).__name__}: {r}")
        else:
            latencies += r[0]
            errors += r[1]
    sent = sum(s.received for s in sessions) - before
    median = statistics.median(latencies) if latencies else float("nan")
    return Phase(name, len(latencies), wall, cpu, sent, median, errors)


@asynccontextmanager
async def connected(sessions: list[CountingSession]) -> AsyncIterator[list[CountingSession]]:
    for s in sessions:
        await s.__aenter__()
    try:
        yield sessions
    finally:
        for s in sessions:
            await s.__aexit__()


async def lecture(
    port: int, pid: int, n: int, reruns: int, seeds: int, lang: str = ""
) -> list[Phase]:
    """Cold opens, opens, then full reruns of the lecture page (any version of it: the
    answers are checked for errors, not for the player); with ``lang``, each session's
    link asks for that language (``?lang=``)."""
    url = f"ws://127.0.0.1:{port}/_stcore/stream"

    def session(query: str = "") -> CountingSession:
        query = "&".join(q for q in (query, f"lang={lang}" if lang else "") if q)
        return CountingSession(url, query, full_rerun=True, needs_player=False)

    async def opened(s: CountingSession) -> tuple[list[float], list[str]]:
        return [await s.open()], []

    async def rerun(s: CountingSession) -> tuple[list[float], list[str]]:
        latencies, wrong = [], []
        for _ in range(reruns):
            start = time.perf_counter()
            view = await s.rerun()
            latencies.append((time.perf_counter() - start) * 1000)
            s.check(view)
            if not view.full:
                wrong.append(f"a full rerun ended with status {view.status}")
        return latencies, wrong

    async with connected([session(f"data_seed={seeds + i}") for i in range(n)]) as cold:
        cold_open = await _measure(pid, "cold open", cold, opened)
    async with connected([session() for _ in range(n)]) as warm:
        open_ = await _measure(pid, "open", warm, opened)
        full = await _measure(pid, "rerun", warm, rerun)
    return [full, open_, cold_open]


async def bare(port: int, pid: int, n: int, reruns: int, seeds: int) -> list[Phase]:
    """The bare page: open it, then click its button (a whole-script rerun each)."""
    url = f"ws://127.0.0.1:{port}/_stcore/stream"

    async def opened(s: CountingSession) -> tuple[list[float], list[str]]:
        start = time.perf_counter()
        view = await s.rerun()
        s.check(view)
        return [(time.perf_counter() - start) * 1000], []

    async def pressed(s: CountingSession) -> tuple[list[float], list[str]]:
        button, _ = s.element("step")
        latencies = []
        for _ in range(reruns):
            start = time.perf_counter()
            view = await s.rerun([WidgetState(id=button, trigger_value=True)])
            s.check(view)
            latencies.append((time.perf_counter() - start) * 1000)
        return latencies, []

    async with connected([CountingSession(url) for _ in range(n)]) as sessions:
        open_ = await _measure(pid, "open", sessions, opened)
        rerun = await _measure(pid, "rerun", sessions, pressed)
    return [rerun, open_]


def measure(
    script: str | Path, app_dir: Path, n: int, reruns: int, seeds: int, lang: str = ""
) -> list[Phase]:
    """Start a server for ``script`` in ``app_dir``, warm it (imports, the default run and
    chart), measure it, stop it."""
    with streamlit_server.serve(script, app_dir=app_dir) as (proc, url):
        port = int(url.rsplit(":", 1)[1])
        if Path(script).name == BARE.name:
            asyncio.run(bare(port, proc.pid, 1, 2, seeds=-1))
            return asyncio.run(bare(port, proc.pid, n, reruns, seeds))
        asyncio.run(lecture(port, proc.pid, 1, 2, seeds=-1, lang=lang))
        return asyncio.run(lecture(port, proc.pid, n, reruns, seeds, lang=lang))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--reruns", type=int, default=10, help="full reruns per session")
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each target")
    parser.add_argument(
        "--baseline",
        type=Path,
        action="append",
        default=[],
        help="also measure the app in this checkout (repeatable)",
    )
    parser.add_argument(
        "--lang",
        action="append",
        default=[],
        help="also measure the lecture in this language (?lang=; repeatable): its ratios "
        "to the English lecture's",
    )
    args = parser.parse_args()
    targets: list[tuple[str, str | Path, Path, str]] = [
        ("bare page", BARE, ROOT, ""),
        ("lecture", "app.py", ROOT, ""),
    ]
    bases = [f"lecture ({d.resolve().name})" for d in args.baseline]
    targets += [(b, "app.py", d.resolve(), "") for b, d in zip(bases, args.baseline, strict=True)]
    spoken = [f"lecture (lang={code})" for code in args.lang]
    targets += [(s, "app.py", ROOT, code) for s, code in zip(spoken, args.lang, strict=True)]
    print(
        f"{args.sessions} sessions at once, no think time, {args.rounds} rounds (medians); "
        f"{os.cpu_count()} cores; cpu = the server's CPU per run; KB = sent per run"
    )
    measured: dict[str, list[list[Phase]]] = {label: [] for label, *_ in targets}
    for r in range(args.rounds):
        for label, script, app_dir, lang in targets:
            seeds = 1000 + r * args.sessions  # every round's cold opens are cold
            try:
                phases = measure(script, app_dir, args.sessions, args.reruns, seeds, lang)
            except (RunError, OSError, RuntimeError, websockets.WebSocketException) as exc:
                sys.exit(f"{label}: {type(exc).__name__}: {exc}")
            measured[label].append(phases)
            print(
                f"  round {r + 1} {label}: "
                + ", ".join(f"{p.name} {p.per_s:.1f}/s {p.cpu_ms:.1f} ms" for p in phases),
                flush=True,
            )
    print(HEADER)
    by_phase: dict[tuple[str, str], list[Phase]] = {}
    for label, rounds in measured.items():
        for phases in rounds:
            for p in phases:
                by_phase.setdefault((label, p.name), []).append(p)
    for (label, _), phases in by_phase.items():
        print(row(label, phases))
        for message in [m for p in phases for m in p.errors][:5]:
            print("    " + message)

    def rate(label: str, phase: str) -> float:
        return statistics.median(p.per_s for p in by_phase[label, phase])

    def cpu(label: str, phase: str) -> float:
        return statistics.median(p.cpu_ms for p in by_phase[label, phase])

    print(
        f"lecture full reruns/s / bare page reruns/s: "
        f"{rate('lecture', 'rerun') / rate('bare page', 'rerun'):.2f} "
        f"(server CPU per rerun: {cpu('lecture', 'rerun') / cpu('bare page', 'rerun'):.1f}x)"
    )
    for base in bases:
        for phase in ("rerun", "open", "cold open"):
            print(
                f"lecture {phase}: {rate('lecture', phase) / rate(base, phase):.2f}x "
                f"the runs/s of {base}, {cpu('lecture', phase) / cpu(base, phase):.2f}x its "
                "CPU per run"
            )
    for other in spoken:
        for phase in ("rerun", "open", "cold open"):
            print(
                f"{other} {phase}: {rate(other, phase) / rate('lecture', phase):.2f}x the "
                f"runs/s of the English lecture, {cpu(other, phase) / cpu('lecture', phase):.2f}x "
                "its CPU per run"
            )
    if any(p.errors for phases in by_phase.values() for p in phases):
        sys.exit("errors or wrong answers (above)")


if __name__ == "__main__":
    main()

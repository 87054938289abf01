"""A class at once: N concurrent sessions pressing Step on the lecture page.

Starts one ``streamlit run app.py`` on a free port, then simulates N students
without a browser, over Streamlit's own websocket protocol:

- connect to ``ws://127.0.0.1:<port>/_stcore/stream`` with the subprotocol
  ``streamlit`` (the second and third subprotocol entries, an XSRF token and a
  session id to resume, are left out: a new session without an auth cookie);
- open the lecture page: a ``BackMsg.rerun_script`` whose ``ClientState`` has the
  URL's ``query_string`` and ``page_name="lecture"`` (what the browser sends on
  a first visit to ``/lecture``, before it knows any page hash); the server
  answers with ``new_session``, ``navigation`` (every page's
  ``page_script_hash`` and ``url_pathname``; the current page's hash), the
  deltas, and ``script_finished``;
- press Step: a ``rerun_script`` with the lecture page's ``page_script_hash``,
  the latest query string (``page_info_changed``), ``widget_states`` holding
  ``WidgetState(id=<id of the button delta with key lec_step>,
  trigger_value=True)`` and, because the button sits in an ``st.fragment``,
  ``fragment_id`` = the ``Delta.fragment_id`` the button came with (what the
  frontend sends when a widget inside a fragment fires): only the fragment
  reruns, and the run ends with ``FINISHED_FRAGMENT_RUN_SUCCESSFULLY``.
  ``--full-rerun`` sends no fragment id (a whole-page rerun) instead.

- drag on the margin lab (``--draggers``, a share of the sessions): open
  ``/margin``, take the drawing surface's ``bidi_component`` delta (its id, its
  fragment and the scene it draws: the points and the edit version ``v``), and
  drop a point somewhere else: a ``WidgetState`` with the component's trigger id
  (``$$STREAMLIT_INTERNAL_KEY_<id>__events``) and ``json_trigger_value``
  ``[{"event": "moved", "value": {"i", "x", "y", "v"}}]``, exactly what
  ``canvas.js`` sends on a drop. The answer must draw point i where it was
  dropped, with the version one higher.

The client is reused by ``benchmarks/attack.py`` and ``tests/load``: every keyed
element and block a run sends is remembered under its key (``Session.element``), so a
client can open a lazy expander (``open_expander``), fire any component's trigger
(``trigger``), rerun with the widget values it set (``rerun``), and read the text the
browser renders as markdown and the alerts (``RunView.texts``, ``RunView.alerts``).

Latency is measured in the client from sending the BackMsg to receiving
``script_finished``. Every answer is verified: the status markdown
``... step **t = N** of T ...`` must be in the response with ``N`` one more than
before the press. An exception element, a run that does not finish
successfully, a timeout or a dropped connection is an error.

Goals (issue 8): 50 sessions with zero errors and zero wrong answers, median
<= 300 ms, p95 <= 800 ms; 100 sessions with zero errors.

Run:  python benchmarks/load.py [--sessions 10,20,50,100] [--presses 10] [--think 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import streamlit_server  # noqa: E402

STEP_KEY = "lec_step"
CANVAS_KEY = "mar_canvas"
STATUS = re.compile(r"step \*\*t = (\d+)\*\* of (\d+)")
OK_FINISH = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
RUN_TIMEOUT = 60.0  # seconds a single run may take before it counts as an error


# ---------------------------------------------------------------------------- server


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------------- client


class RunError(Exception):
    """A run that failed: timeout, exception element, bad finish, lost connection."""


def message(state: ClientState) -> bytes:
    """The websocket frame of a ``BackMsg.rerun_script`` with this client state."""
    msg = BackMsg()
    msg.rerun_script.CopyFrom(state)
    return msg.SerializeToString()


@dataclass
class RunView:
    """What one script run sent back, as far as the benchmark cares."""

    status: ForwardMsg.ScriptFinishedStatus.ValueType | None = None
    t: int | None = None
    n_steps: int | None = None
    step_id: str | None = None
    fragment_id: str | None = None
    page_hash: str | None = None
    canvas_id: str | None = None
    canvas_fragment_id: str | None = None
    scene: dict[str, Any] | None = None
    exceptions: list[str] = field(default_factory=list)
    # every keyed element and block (widgets, components, stateful expanders): user key ->
    # (element id, fragment id), for clients that press more than Step (benchmarks/attack.py)
    keyed: dict[str, tuple[str, str]] = field(default_factory=dict)
    # text the browser renders as markdown: (element type, field, text)
    texts: list[tuple[str, str, str]] = field(default_factory=list)
    alerts: list[tuple[int, str]] = field(default_factory=list)  # (Alert.Format, body)


@dataclass
class SessionResult:
    page: str = "lecture"
    open_ms: float | None = None
    latencies_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)


def user_key(element_id: str) -> str:
    """The key a page gave an element, from its id ``$$ID-<hash>-<key>`` (else the id)."""
    parts = element_id.split("-", 2)
    return parts[2] if element_id.startswith("$$ID-") and len(parts) == 3 else element_id


_TEXT_FIELDS = frozenset({"body", "label", "help", "caption", "placeholder"})


def _collect(view: RunView, which: str, proto: Any, fragment_id: str) -> None:
    """Remember an element's id under its key and the text fields the browser renders."""
    element_id = getattr(proto, "id", "")
    if isinstance(element_id, str) and element_id:
        view.keyed[user_key(element_id)] = (element_id, fragment_id)
    for descriptor, value in proto.ListFields():
        if descriptor.name in _TEXT_FIELDS and isinstance(value, str) and value:
            view.texts.append((which, descriptor.name, value))
    if which == "alert":
        view.alerts.append((proto.format, proto.body))


class Session:
    """One simulated student on one websocket."""

    def __init__(
        self, url: str, query_string: str = "", full_rerun: bool = False, page: str = "lecture"
    ) -> None:
        self.url = url
        self.page = page
        self.canvas_id = ""
        self.canvas_fragment_id = ""
        self.scene: dict[str, Any] = {}
        self.query_string = query_string
        self.full_rerun = full_rerun
        self.ws: websockets.ClientConnection | None = None
        self.page_hash = ""
        self.step_id = ""
        self.fragment_id = ""
        self.t = 0
        self.n_steps = 0
        self.keyed: dict[str, tuple[str, str]] = {}  # every keyed element seen so far
        self.sticky: dict[str, WidgetState] = {}  # widget values this client set (resent)
        self.last: RunView | None = None  # what the last finished run sent

    async def __aenter__(self) -> Session:
        self.ws = await websockets.connect(
            self.url, subprotocols=[websockets.Subprotocol("streamlit")], max_size=None
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def _run(self, state: ClientState, timeout: float = RUN_TIMEOUT) -> RunView:
        """Send one rerun_script and read until its script_finished."""
        await self.send(message(state))
        return await self.answer(timeout)

    async def send(self, data: bytes) -> None:
        """Send one serialized BackMsg (see :func:`message`) without waiting."""
        assert self.ws is not None
        await self.ws.send(data)

    async def answer(self, timeout: float = RUN_TIMEOUT) -> RunView:
        """Read until a run finishes (a run ended by ``st.rerun`` is followed by the next)."""
        assert self.ws is not None
        view = RunView()
        async with asyncio.timeout(timeout):
            while view.status is None:
                fwd = ForwardMsg()
                fwd.ParseFromString(await self.ws.recv())
                self._read(fwd, view)
                if view.status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    view.status = None  # st.rerun: the run that follows answers the press
        self.keyed.update(view.keyed)
        self.last = view
        return view

    def state(
        self, widgets: list[WidgetState] | tuple[WidgetState, ...] = (), fragment_id: str = ""
    ) -> ClientState:
        """A rerun of this session's page: the widget values set so far (as a browser
        sends them all) plus ``widgets``, as a fragment rerun if ``fragment_id``."""
        state = ClientState(query_string=self.query_string, page_script_hash=self.page_hash)
        if fragment_id:
            state.fragment_id = fragment_id
        fresh = {w.id for w in widgets}
        state.widget_states.widgets.extend(
            [w for i, w in self.sticky.items() if i not in fresh] + list(widgets)
        )
        return state

    async def rerun(
        self,
        widgets: list[WidgetState] | tuple[WidgetState, ...] = (),
        fragment_id: str = "",
        timeout: float = RUN_TIMEOUT,
    ) -> RunView:
        """One rerun (see :meth:`state`); the view is returned unchecked."""
        return await self._run(self.state(widgets, fragment_id), timeout)

    def element(self, key: str) -> tuple[str, str]:
        """(id, fragment id) of the element the page keyed ``key`` (RunError if none)."""
        if key not in self.keyed:
            raise RunError(f"the page has no element with key {key!r}")
        return self.keyed[key]

    async def open_expander(self, key: str, timeout: float = RUN_TIMEOUT) -> RunView:
        """Open a stateful (lazy) ``st.expander(key=..., on_change="rerun")``, as a click on
        its label does: its widget state ``bool_value=True``, kept for later reruns."""
        element_id, fragment_id = self.element(key)
        widget = WidgetState(id=element_id, bool_value=True)
        self.sticky[element_id] = widget
        view = await self.rerun([widget], fragment_id, timeout)
        self._check(view)
        return view

    def trigger(self, key: str, raw: str) -> ClientState:
        """A rerun carrying the trigger of the component keyed ``key`` (a
        ``st.components.v2`` component) with ``json_trigger_value`` = ``raw``, as a
        fragment rerun when the component sits in one (unless ``full_rerun``)."""
        element_id, fragment_id = self.element(key)
        widget = WidgetState(
            id=f"$$STREAMLIT_INTERNAL_KEY_{element_id}__events", json_trigger_value=raw
        )
        return self.state([widget], "" if self.full_rerun else fragment_id)

    def _read(self, fwd: ForwardMsg, view: RunView) -> None:
        kind = fwd.WhichOneof("type")
        if kind == "script_finished":
            view.status = fwd.script_finished
        elif kind == "navigation":
            view.page_hash = fwd.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query_string = fwd.page_info_changed.query_string
        elif kind == "session_event":
            event = fwd.session_event.WhichOneof("type")
            if event == "script_compilation_exception":
                view.exceptions.append(fwd.session_event.script_compilation_exception.message)
        elif kind == "delta" and fwd.delta.WhichOneof("type") == "add_block":
            block = fwd.delta.add_block
            if block.id:
                view.keyed[user_key(block.id)] = (block.id, fwd.delta.fragment_id)
            if block.WhichOneof("type") == "expandable" and block.expandable.label:
                view.texts.append(("expandable", "label", block.expandable.label))
        elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
            element = fwd.delta.new_element
            which = element.WhichOneof("type")
            if which is not None:
                _collect(view, which, getattr(element, which), fwd.delta.fragment_id)
            if which == "button" and element.button.id.endswith(f"-{STEP_KEY}"):
                view.step_id = element.button.id
                view.fragment_id = fwd.delta.fragment_id
            elif which == "bidi_component" and element.bidi_component.id.endswith(f"-{CANVAS_KEY}"):
                view.canvas_id = element.bidi_component.id
                view.canvas_fragment_id = fwd.delta.fragment_id
                view.scene = json.loads(element.bidi_component.json)
            elif which == "markdown":
                found = STATUS.search(element.markdown.body)
                if found:
                    view.t, view.n_steps = int(found[1]), int(found[2])
            elif which == "exception":
                view.exceptions.append(f"{element.exception.type}: {element.exception.message}")

    def _check(self, view: RunView) -> None:
        if view.exceptions:
            raise RunError("exception on the page: " + "; ".join(view.exceptions))
        if view.status not in OK_FINISH:
            raise RunError(f"script_finished status {view.status}")
        if view.step_id:
            self.step_id = view.step_id
            self.fragment_id = view.fragment_id or ""
        if view.page_hash:
            self.page_hash = view.page_hash
        if view.canvas_id and view.scene is not None:
            self.canvas_id = view.canvas_id
            self.canvas_fragment_id = view.canvas_fragment_id or ""
            self.scene = view.scene

    async def open(self) -> float:
        """First visit to /lecture (or /margin); returns the latency in ms."""
        state = ClientState(query_string=self.query_string, page_name=self.page)
        start = time.perf_counter()
        view = await self._run(state)
        elapsed = (time.perf_counter() - start) * 1000
        self._check(view)
        if self.page == "margin":
            if not (self.page_hash and self.canvas_id and self.scene.get("points")):
                raise RunError("the margin lab came without its page hash or drawing surface")
            return elapsed
        if self.page != "lecture":
            if not self.page_hash:
                raise RunError(f"the page {self.page!r} came without its page hash")
            return elapsed
        if not (self.page_hash and self.step_id) or view.t is None or view.n_steps is None:
            raise RunError("the lecture page came without its page hash, Step button or status")
        self.t, self.n_steps = view.t, view.n_steps
        return elapsed

    async def flood(self, raw_values: list[str], quiet: float = 2.0) -> RunView:
        """Send one margin-lab trigger per ``json_trigger_value`` text, all at once, without
        waiting for answers (a hostile or broken browser); then read until the server has
        been quiet for ``quiet`` s. Returns what the last finished run drew."""
        assert self.ws is not None
        for raw in raw_values:
            await self.ws.send(message(self._canvas_event(raw)))
        last, view = RunView(), RunView()
        while True:
            try:
                data = await asyncio.wait_for(self.ws.recv(), quiet)
            except TimeoutError:
                return last
            fwd = ForwardMsg()
            fwd.ParseFromString(data)
            self._read(fwd, view)
            if view.status is not None:
                last, view = view, RunView()

    def _canvas_event(self, raw: str) -> ClientState:
        """A rerun carrying the margin lab's trigger with ``json_trigger_value`` = ``raw``."""
        state = ClientState(query_string=self.query_string, page_script_hash=self.page_hash)
        if not self.full_rerun:
            state.fragment_id = self.canvas_fragment_id
        widget = state.widget_states.widgets.add()
        widget.id = f"$$STREAMLIT_INTERNAL_KEY_{self.canvas_id}__events"
        widget.json_trigger_value = raw
        return state

    async def canvas_event(self, raw: str) -> RunView:
        """Send one margin-lab trigger and wait for the run it causes."""
        view = await self._run(self._canvas_event(raw))
        self._check(view)
        return view

    async def drag(self, rng: random.Random) -> tuple[float, str | None]:
        """Drop a random point of the margin lab at a random place near where it was."""
        points, v = self.scene["points"], self.scene["v"]
        x0, x1, y0, y1 = self.scene["view"]
        i = rng.randrange(len(points))
        x = round(min(max(points[i][0] + rng.uniform(-0.3, 0.3), x0), x1), 3)
        y = round(min(max(points[i][1] + rng.uniform(-0.3, 0.3), y0), y1), 3)
        event = {"event": "moved", "value": {"i": i, "x": x, "y": y, "v": v}}
        start = time.perf_counter()
        view = await self.canvas_event(json.dumps([event]))
        elapsed = (time.perf_counter() - start) * 1000
        if view.scene is None:
            return elapsed, "no drawing surface in the response"
        got = view.scene["points"][i][:2] if i < len(view.scene["points"]) else None
        if view.scene["v"] != v + 1 or got is None or max(abs(got[0] - x), abs(got[1] - y)) > 1e-9:
            where = f"is drawn at {got} (version {view.scene['v']}, was {v})"
            return elapsed, f"point {i} dropped at ({x}, {y}) {where}"
        return elapsed, None

    async def press_step(self) -> tuple[float, str | None]:
        """Click Step; returns (latency ms, None or what was wrong with the answer)."""
        state = ClientState(query_string=self.query_string, page_script_hash=self.page_hash)
        if not self.full_rerun:
            state.fragment_id = self.fragment_id
        widget = state.widget_states.widgets.add()
        widget.id = self.step_id
        widget.trigger_value = True
        start = time.perf_counter()
        view = await self._run(state)
        elapsed = (time.perf_counter() - start) * 1000
        self._check(view)
        expected = min(self.t + 1, self.n_steps)
        if view.t is None:
            return elapsed, "no status line in the response"
        wrong = None if view.t == expected else f"t = {view.t} after a press at t = {self.t}"
        self.t = view.t
        return elapsed, wrong


async def student(
    url: str,
    presses: int,
    think: float,
    rng: random.Random,
    full_rerun: bool,
    delay: float = 0,
    page: str = "lecture",
) -> SessionResult:
    """After ``delay`` s open the lecture page and press Step ``presses`` times (or open the
    margin lab and drag a point that often)."""
    result = SessionResult(page=page)
    await asyncio.sleep(delay)
    try:
        async with Session(url, full_rerun=full_rerun, page=page) as session:
            result.open_ms = await session.open()
            if page == "lecture" and session.n_steps < presses:
                raise RunError(f"the run has {session.n_steps} steps, fewer than {presses}")
            for _ in range(presses):
                await asyncio.sleep(rng.uniform(think, 2 * think))
                if page == "margin":
                    latency, wrong = await session.drag(rng)
                else:
                    latency, wrong = await session.press_step()
                result.latencies_ms.append(latency)
                if wrong:
                    result.wrong.append(wrong)
    except (RunError, TimeoutError, OSError, websockets.WebSocketException) as exc:
        result.errors.append(f"{type(exc).__name__}: {exc}")
    return result


@dataclass
class Summary:
    sessions: int
    presses: int
    median_ms: float
    p95_ms: float
    drags: int
    drag_median_ms: float
    drag_p95_ms: float
    open_median_ms: float
    open_p95_ms: float
    reruns_per_s: float
    errors: int
    wrong: int
    messages: list[str]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run_load(
    port: int,
    sessions: int,
    presses: int,
    think: float,
    seed: int = 0,
    full_rerun: bool = False,
    ramp: float = 0.0,
    draggers: float = 0.0,
) -> Summary:
    """N students; they open the page spread evenly over ``ramp`` s (0: all at once).

    A share ``draggers`` of them (every k-th student) is on the margin lab, dragging.
    """
    every = round(1 / draggers) if draggers > 0 else 0
    url = f"ws://127.0.0.1:{port}/_stcore/stream"
    start = time.perf_counter()
    results = await asyncio.gather(
        *(
            student(
                url,
                presses,
                think,
                random.Random(seed * 100_003 + i),
                full_rerun,
                delay=ramp * i / sessions,
                page="margin" if every and i % every == every - 1 else "lecture",
            )
            for i in range(sessions)
        )
    )
    wall = time.perf_counter() - start
    latencies = [ms for r in results if r.page == "lecture" for ms in r.latencies_ms]
    drags = [ms for r in results if r.page == "margin" for ms in r.latencies_ms]
    opens = [r.open_ms for r in results if r.open_ms is not None]
    messages = [m for r in results for m in r.errors + r.wrong]
    return Summary(
        sessions=sessions,
        presses=len(latencies),
        median_ms=statistics.median(latencies) if latencies else float("nan"),
        p95_ms=percentile(latencies, 0.95),
        drags=len(drags),
        drag_median_ms=statistics.median(drags) if drags else float("nan"),
        drag_p95_ms=percentile(drags, 0.95),
        open_median_ms=statistics.median(opens) if opens else float("nan"),
        open_p95_ms=percentile(opens, 0.95),
        reruns_per_s=(len(latencies) + len(drags) + len(opens)) / wall,
        errors=sum(len(r.errors) for r in results),
        wrong=sum(len(r.wrong) for r in results),
        messages=messages,
    )


# ---------------------------------------------------------------------------- main


HEADER = (
    f"{'N':>4} {'presses':>8} {'median ms':>10} {'p95 ms':>8} "
    f"{'drags':>6} {'drag med':>9} {'drag p95':>9} {'open med':>9} "
    f"{'open p95':>9} {'reruns/s':>9} {'errors':>7} {'wrong':>6} "
    f"{'server cpu':>10} {'client cpu':>10}"
)


def row(s: Summary, server_cpu: float, client_cpu: float) -> str:
    return (
        f"{s.sessions:>4} {s.presses:>8} {s.median_ms:>10.0f} {s.p95_ms:>8.0f} "
        f"{s.drags:>6} {s.drag_median_ms:>9.0f} {s.drag_p95_ms:>9.0f} "
        f"{s.open_median_ms:>9.0f} {s.open_p95_ms:>9.0f} {s.reruns_per_s:>9.1f} "
        f"{s.errors:>7} {s.wrong:>6} {server_cpu:>9.0%} {client_cpu:>9.0%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", default="10,20,50,100", help="comma-separated N values")
    parser.add_argument("--presses", type=int, default=10, help="Step presses per session")
    parser.add_argument("--think", type=float, default=1.0, help="think time: uniform(x, 2x) s")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--ramp", type=float, default=0.0, help="open the sessions over this many s (0: at once)"
    )
    parser.add_argument(
        "--draggers", type=float, default=0.2, help="share of sessions dragging on the margin lab"
    )
    parser.add_argument("--full-rerun", action="store_true", help="no fragment_id: whole page")
    parser.add_argument("--port", type=int, default=0, help="use a running server instead")
    args = parser.parse_args()
    counts = [int(n) for n in args.sessions.split(",") if n.strip()]

    proc = None
    port = args.port
    log_path = Path(tempfile.gettempdir()) / "perceptron_load_server.log"
    with open(os.devnull if args.port else log_path, "wb") as log:
        if not port:
            proc, url = streamlit_server.start("app.py", log=log)
            port = int(url.rsplit(":", 1)[1])
            print(f"streamlit run app.py on port {port} (pid {proc.pid}, log {log_path})")
        try:
            for share in (0.0, 1.0):  # one student on each page
                warm = asyncio.run(
                    run_load(port, 1, 2, 0.0, seed=-1, full_rerun=args.full_rerun, draggers=share)
                )
                if warm.errors or warm.wrong:
                    sys.exit(f"warm-up failed: {warm.messages}")
            mode = "full reruns" if args.full_rerun else "fragment reruns"
            print(
                f"{mode}; think time uniform({args.think:g}, {2 * args.think:g}) s; "
                f"sessions open over {args.ramp:g} s; "
                f"{args.draggers:.0%} of them drag points on the margin lab"
            )
            print(
                "latency: BackMsg sent -> script_finished received; presses = Step on the "
                "lecture page, drags = drops on the margin lab; open = first page run;"
            )
            print(f"cpu: share of one core over the run ({os.cpu_count()} cores on this machine)")
            print(HEADER)
            failures = []
            for n in counts:
                wall, server, client = time.perf_counter(), 0.0, time.process_time()
                if proc is not None:
                    server = cpu_seconds(proc.pid)
                summary = asyncio.run(
                    run_load(
                        port,
                        n,
                        args.presses,
                        args.think,
                        args.seed,
                        args.full_rerun,
                        args.ramp,
                        args.draggers,
                    )
                )
                wall = time.perf_counter() - wall
                server = (cpu_seconds(proc.pid) - server) / wall if proc else float("nan")
                client = (time.process_time() - client) / wall
                print(row(summary, server, client), flush=True)
                failures += [f"N={n}: {m}" for m in summary.messages]
            for message in failures[:20]:
                print("  " + message)
            if len(failures) > 20:
                print(f"  ... and {len(failures) - 20} more")
        finally:
            if proc is not None:
                streamlit_server.stop(proc)


if __name__ == "__main__":
    main()

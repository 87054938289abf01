"""A class at once: N concurrent sessions stepping through the lecture page.

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
  deltas, and ``script_finished``. The lecture's player is a ``bidi_component``
  delta (the ``st.components.v2`` component ``perceptron_lecture``, key
  ``lec_player``, inside an ``st.fragment``): its JSON holds the scene, a window
  of steps ``start..stop`` of a run of ``T`` steps, the server's step ``t`` and
  the number ``seq`` of the last report the server acted on;
- step: the browser steps inside the window by itself and tells the server the
  step once a burst of steps pauses (at once for a step outside the window). So
  a "Step" here is that report: a ``rerun_script`` with the lecture page's
  ``page_script_hash``, the latest query string (``page_info_changed``), the
  widget values set so far, and ``WidgetState(id=
  "$$STREAMLIT_INTERNAL_KEY_<id of the player delta>__events",
  json_trigger_value='[{"event": "at", "value": {"t": <step>, "seq": <n>}}]')``
  (``seq`` one more with every report; ``"play": true`` when a replay ran into
  the next window), exactly what ``player.js`` sends; with ``fragment_id`` = the
  ``Delta.fragment_id`` the player came with, so only the fragment reruns and the
  run ends with ``FINISHED_FRAGMENT_RUN_SUCCESSFULLY``. ``--full-rerun`` sends no
  fragment id (a whole-page rerun) instead. A step outside the window makes the
  server rerun the whole page (``FINISHED_SUCCESSFULLY``) with the window that
  holds it;
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
``script_finished``. Every answer to a report is verified (:func:`verify`): the
player in the response shows the reported step (clamped to 0..T) with a ``seq``
no older than the report's, its window holds the step, the scene's view at that
step says ``step t = N of T``, and a report that left the window came back as a
full rerun (a report inside it as a fragment rerun, but for the window's last
step, which the server draws as the first of the next window). An exception
element, an error alert (the page's guard turning an exception into a
sentence), a run that does not finish successfully, a timeout or a dropped
connection is an error.

Three measurements:

- the default: ``--sessions`` N students each press Step ``--presses`` times
  (a report of t + 1 after a think time of uniform(x, 2x) s), a share of them
  dragging on the margin lab instead; one row per N.
- ``--class N`` (issue 17): N students (200) step in bursts on one server, as
  the browser player lets them: one report per burst, a think time of
  uniform(1, 3) s between bursts, each burst t + 1..8 inside the window, and now
  and then (``--leave``, 10%) a step out of it (past its end, sometimes as a
  replay playing on, back before its start, or Reset), which makes the server
  rerun the whole page. All of them open the page first (over ``--ramp`` s); then
  they step for ``--duration`` s, and only that phase is measured: the server's
  CPU in cores (its CPU seconds over the wall time) and per report, the report
  latency, how many reports came back as full reruns, and how many reports were
  sent against the N / 2 a second the students would send if every answer came at
  once (a student waits for the answer before the next burst, so a server that
  falls behind is sent less, and its CPU figure alone would flatter it).
- ``--full-reruns``: throughput of full-page reruns (a ``rerun_script``
  without a fragment id) with ``--sessions`` N sessions (50) sending them back to
  back for ``--duration`` s: plain reruns (what a settings change or a reload
  costs the server) and reports of t + 1 sent as full reruns. ``--reference
  DIR`` measures the plain reruns of the lecture page of another copy of the app
  too (``git archive <commit> | tar -x -C DIR``) in the same run, and prints the
  ratio.

Through the front door (issue 15): ``--through-nginx N`` starts N app servers, one
``redis-server`` and nginx on this machine with the same code as ``scripts/serve_class.sh``
(``deploy/class_server.py``: sticky sessions by a cookie hash, so simulated students, who
carry no cookie, are spread over the servers) and connects the students to nginx's
``/_stcore/stream``; each server and then nginx are warmed up first. With the default
measurement it runs each N of ``--sessions`` (100,200) through nginx and then the same load
on one of the servers directly, in the same run, and prints how many sessions each server
got and its CPU. ``--class`` and ``--full-reruns`` run through nginx the same way.
``--url http://HOST:PORT`` sends the students to a front door that is already running
(as ``--port`` does to one server).

Goals (issue 8): 50 sessions with zero errors and zero wrong answers, median
<= 300 ms, p95 <= 800 ms; 100 sessions with zero errors. Issue 17: 200
simulated students stepping on one server with no errors, and the server's CPU
under one core (before the player, 100 students pressing Step saturated it), while
it keeps up (at least 90% of the reports the students would send);
full-page reruns of the lecture page with 50 sessions at least twice the
throughput before it (about 17 a second on this 2-core machine). Issue 15: 100 students
through nginx over 2 servers on this 2-core machine with a Step median of at most 100 ms
and no errors; 200 with no errors.

Run:  python benchmarks/load.py [--sessions 10,20,50,100] [--presses 10] [--think 1.0]
      python benchmarks/load.py --class 200 [--duration 30] [--leave 0.1]
      python benchmarks/load.py --full-reruns [--sessions 50] [--reference DIR]
      python benchmarks/load.py --through-nginx 2 [--sessions 100,200]
      python benchmarks/load.py --url http://HOST:PORT [--sessions 100]
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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import streamlit_server  # noqa: E402

PLAYER_KEY = "lec_player"
LECTURE_SCENE_KEY = "lec_scene"  # the scene rides on its own component, sent on full runs
CANVAS_KEY = "mar_canvas"
STATUS = re.compile(r"step t = ([\d,]+) of ([\d,]+)")  # in a step view's status line
OK_FINISH = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
RUN_TIMEOUT = 60.0  # seconds a single run may take before it counts as an error
GUARD_ERROR = "went wrong"  # kit.guard's sentence for an unexpected exception (st.error)
BURST = 8  # steps a burst may take before it pauses
CLASS_QUERY = "data_name=xor&lec_max_epochs=100"  # 40 points x 100 epochs: 4,000 steps
CLASS_THINK = (1.0, 3.0)  # s between a student's bursts
BEFORE_PLAYER = 17.0  # full reruns a second of the lecture page with 50 sessions (issue 17)


# ---------------------------------------------------------------------------- server


def cpu_seconds(pid: int | tuple[int, ...]) -> float:
    """User + system CPU time of a process so far (Linux /proc); of several, their sum
    (the app servers behind nginx)."""
    if isinstance(pid, tuple):
        return sum(cpu_seconds(p) for p in pid)
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


Pids = int | tuple[int, ...] | None  # the server process(es) whose CPU is measured


def stream_url(where: int | str) -> str:
    """The websocket of a server: a port on 127.0.0.1, or the address of a front door
    (``http://host:port`` or ``ws://host:port``: nginx in front of several servers)."""
    if isinstance(where, int):
        return f"ws://127.0.0.1:{where}/_stcore/stream"
    base = where.rstrip("/")
    if base.startswith(("http://", "https://")):
        base = "ws" + base[4:]
    return base if base.endswith("/_stcore/stream") else base + "/_stcore/stream"


# ---------------------------------------------------------------------------- client


class RunError(Exception):
    """A run that failed: timeout, exception element, bad finish, lost connection."""


def message(state: ClientState) -> bytes:
    """The websocket frame of a ``BackMsg.rerun_script`` with this client state."""
    msg = BackMsg()
    msg.rerun_script.CopyFrom(state)
    return msg.SerializeToString()


@dataclass
class PlayerView:
    """The lecture player as a response drew it (its ``bidi_component.json``)."""

    id: str
    fragment_id: str
    t: int = -1
    T: int = -1
    start: int = -1
    stop: int = -1
    seq: int = -1
    run: str = ""
    play: int = 0
    presenter: bool = False
    views: int = 0  # step views the scene carries (one per step start..stop)
    status: list[str] | None = None  # the status line of the view at t (None: none)
    problem: str | None = None  # data the browser could not draw

    @classmethod
    def read(
        cls, element_id: str, fragment_id: str, raw: str, scene: dict[str, Any] | None = None
    ) -> PlayerView:
        """The player's step (``raw``) in the scene the last full run sent (``scene``):
        the browser draws the step only if the scene is of the same run and window."""
        view = cls(element_id, fragment_id)
        try:
            data = json.loads(raw)
            view.t, view.seq = int(data["t"]), int(data["seq"])
            view.start, view.stop = int(data["start"]), int(data["stop"])
            view.run, view.play = str(data.get("run", "")), int(data.get("play") or 0)
            view.presenter = bool(data.get("presenter"))
            scene = scene or {}
            if (scene.get("run"), scene.get("start"), scene.get("stop")) != (
                view.run,
                view.start,
                view.stop,
            ):
                view.problem = "the player's step is not in the scene the browser holds"
                return view
            view.T = int(scene["T"])
            steps = scene.get("steps") or []
        except (ValueError, KeyError, TypeError) as exc:
            view.problem = f"the player's data cannot be read: {type(exc).__name__}: {exc}"
            return view
        view.views = len(steps)
        at = view.t - view.start
        if 0 <= at < len(steps) and isinstance(steps[at], dict) and steps[at].get("t") == view.t:
            view.status = list(steps[at].get("status") or [])
        else:
            views = (s for s in steps if isinstance(s, dict) and s.get("t") == view.t)
            view.status = next((list(s.get("status") or []) for s in views), None)
        if steps and len(steps) != view.stop - view.start + 1:
            view.problem = f"the scene {view.start}..{view.stop} carries {len(steps)} step views"
        return view


@dataclass
class RunView:
    """What one script run sent back, as far as the benchmark cares."""

    status: ForwardMsg.ScriptFinishedStatus.ValueType | None = None
    t: int | None = None  # the lecture player's step
    n_steps: int | None = None  # and its run's length T
    player: PlayerView | None = None
    page_hash: str | None = None
    canvas_id: str | None = None
    canvas_fragment_id: str | None = None
    scene: dict[str, Any] | None = None
    exceptions: list[str] = field(default_factory=list)
    # every keyed element and block (widgets, components, stateful expanders): user key ->
    # (element id, fragment id), for clients that use more than the player (benchmarks/attack.py)
    keyed: dict[str, tuple[str, str]] = field(default_factory=dict)
    # text the browser renders as markdown: (element type, field, text)
    texts: list[tuple[str, str, str]] = field(default_factory=list)
    alerts: list[tuple[int, str]] = field(default_factory=list)  # (Alert.Format, body)

    @property
    def full(self) -> bool:
        """A whole-page run (not a fragment's)."""
        return self.status == ForwardMsg.FINISHED_SUCCESSFULLY


@dataclass
class SessionResult:
    page: str = "lecture"
    open_ms: float | None = None
    latencies_ms: list[float] = field(default_factory=list)
    full_ms: list[float] = field(default_factory=list)  # the reports answered by a full rerun
    left: int = 0  # reports of a step outside the window
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


def clamp(value: int, lo: int, hi: int) -> int:
    return min(max(value, lo), hi)


@dataclass(frozen=True)
class Where:
    """The session's step and window when it sent a report."""

    t: int
    start: int
    stop: int
    T: int
    play: int


def verify(
    view: RunView, target: int, seq: int, before: Where, *, full_rerun: bool, play: bool = False
) -> str | None:
    """What is wrong with the answer to a report of step ``target`` numbered ``seq``
    (sent at ``before``), or None. See the module's docstring."""
    p = view.player
    said = f"a report of t = {target} at t = {before.t} (window {before.start}..{before.stop})"
    if p is None:
        return f"no lecture player in the answer to {said}"
    if p.problem:
        return f"{p.problem}, after {said}"
    expected = clamp(target, 0, before.T)
    if p.T != before.T:
        return f"the run has {p.T} steps after {said}, {before.T} before"
    if p.t != expected:
        return f"t = {p.t} after {said}"
    if p.seq < seq:
        return f"seq = {p.seq} after {said} with seq {seq}: the browser keeps its own step"
    if not p.start <= p.t <= p.stop:
        return f"the window {p.start}..{p.stop} does not hold t = {p.t} after {said}"
    left = not before.start <= expected <= before.stop
    if left and not view.full:
        return f"{said} left the window but came back as a fragment rerun"
    if not left and view.full and not full_rerun and expected != before.stop:
        return f"{said} inside the window came back as a full rerun"
    if play and left and expected < p.T and p.play <= before.play:
        return f"{said} from a replay: the next window does not play on (play = {p.play})"
    if p.views:
        found = next((m for m in map(STATUS.search, p.status or []) if m), None)
        shown = None if found is None else tuple(int(g.replace(",", "")) for g in found.groups())
        if shown != (p.t, p.T):
            return f"the status line at t = {p.t} says {p.status!r}, after {said}"
    return None


class Session:
    """One simulated student on one websocket."""

    def __init__(
        self,
        url: str,
        query_string: str = "",
        full_rerun: bool = False,
        page: str = "lecture",
        needs_player: bool = True,
    ) -> None:
        self.url = url
        self.page = page
        self.needs_player = needs_player  # False: any lecture page (a reference copy)
        self.canvas_id = ""
        self.canvas_fragment_id = ""
        self.scene: dict[str, Any] = {}
        self.lecture_scene: dict[str, Any] = {}  # the lecture's window, from the last full run
        self.query_string = query_string
        self.full_rerun = full_rerun
        self.ws: websockets.ClientConnection | None = None
        self.page_hash = ""
        self.player_id = ""
        self.player_fragment_id = ""
        self.t = 0  # the server's step, as the player last showed it
        self.n_steps = 0  # T
        self.start = self.stop = 0  # the player's window
        self.seq = 0  # the number of the last report sent (or the server's, if higher)
        self.play = 0
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
        """Read until a run finishes (a run ended by ``st.rerun`` is followed by the next:
        a fragment that reruns the whole page, as the player's does for a step outside
        its window, answers with the page's run)."""
        assert self.ws is not None
        view = RunView()
        async with asyncio.timeout(timeout):
            while view.status is None:
                fwd = ForwardMsg()
                fwd.ParseFromString(await self.ws.recv())
                self._read(fwd, view)
                if view.status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    view.status = None  # st.rerun: the run that follows answers the message
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
        return self._component_event(element_id, fragment_id, raw)

    def _component_event(self, element_id: str, fragment_id: str, raw: str) -> ClientState:
        """A rerun carrying the events ``raw`` (a ``json_trigger_value``) of the component
        ``element_id``: its trigger id is ``$$STREAMLIT_INTERNAL_KEY_<id>__events``."""
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
            if which == "bidi_component":
                component = element.bidi_component
                if component.id.endswith(f"-{LECTURE_SCENE_KEY}"):
                    self.lecture_scene = json.loads(component.bytes or component.json)
                elif component.id.endswith(f"-{PLAYER_KEY}"):
                    player = PlayerView.read(
                        component.id, fwd.delta.fragment_id, component.json, self.lecture_scene
                    )
                    view.player = player
                    view.t, view.n_steps = player.t, player.T
                elif component.id.endswith(f"-{CANVAS_KEY}"):
                    view.canvas_id = component.id
                    view.canvas_fragment_id = fwd.delta.fragment_id
                    view.scene = json.loads(component.json)
            elif which == "alert":
                body = element.alert.body
                if element.alert.format == Alert.ERROR and GUARD_ERROR in body:
                    view.exceptions.append(f"the page's error sentence: {body[:160]}")
            elif which == "exception":
                view.exceptions.append(f"{element.exception.type}: {element.exception.message}")

    def _check(self, view: RunView) -> None:
        if view.exceptions:
            raise RunError("exception on the page: " + "; ".join(view.exceptions))
        if view.status not in OK_FINISH:
            raise RunError(f"script_finished status {view.status}")
        if view.page_hash:
            self.page_hash = view.page_hash
        p = view.player
        if p is not None and p.problem is None:
            self.player_id, self.player_fragment_id = p.id, p.fragment_id
            self.t, self.n_steps, self.start, self.stop = p.t, p.T, p.start, p.stop
            self.seq, self.play = max(self.seq, p.seq), p.play
        if view.canvas_id and view.scene is not None:
            self.canvas_id = view.canvas_id
            self.canvas_fragment_id = view.canvas_fragment_id or ""
            self.scene = view.scene

    async def open(self) -> float:
        """First visit to /lecture (or /margin, or another page); returns the latency in ms."""
        state = ClientState(query_string=self.query_string, page_name=self.page)
        start = time.perf_counter()
        view = await self._run(state)
        elapsed = (time.perf_counter() - start) * 1000
        self._check(view)
        if self.page == "margin":
            if not (self.page_hash and self.canvas_id and self.scene.get("points")):
                raise RunError("the margin lab came without its page hash or drawing surface")
            return elapsed
        if self.page != "lecture" or not self.needs_player:
            if not self.page_hash:
                raise RunError(f"the page {self.page!r} came without its page hash")
            return elapsed
        if not (self.page_hash and self.player_id) or view.player is None:
            raise RunError("the lecture page came without its page hash or its player")
        if view.player.problem:
            raise RunError(view.player.problem)
        return elapsed

    async def flood(
        self, raw_values: list[str], quiet: float = 2.0, key: str = CANVAS_KEY
    ) -> RunView:
        """Send one trigger of the margin lab (or of the component keyed ``key``, such as
        the lecture player) per ``json_trigger_value`` text, all at once, without waiting
        for answers (a hostile or broken browser); then read until the server has been
        quiet for ``quiet`` s. Returns what the last finished run drew."""
        assert self.ws is not None
        for raw in raw_values:
            state = self._canvas_event(raw) if key == CANVAS_KEY else self.trigger(key, raw)
            await self.ws.send(message(state))
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
        return self._component_event(self.canvas_id, self.canvas_fragment_id, raw)

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

    # ------------------------------------------------------------------ the lecture player

    def player_event(self, raw: str) -> ClientState:
        """A rerun carrying the lecture player's trigger with ``json_trigger_value`` =
        ``raw``, in the player's fragment (unless ``full_rerun``)."""
        return self._component_event(self.player_id, self.player_fragment_id, raw)

    def report_state(self, target: Any, play: bool = False) -> ClientState:
        """What the browser sends once a burst of steps pauses at ``target`` (or at once
        for a step outside the window): the player's trigger ``at`` with ``{"t", "seq"}``,
        ``seq`` one more than the last report's (and ``"play": true`` for a replay that
        ran into the next window)."""
        self.seq += 1
        value: dict[str, Any] = {"t": target, "seq": self.seq}
        if play:
            value["play"] = True
        return self.player_event(json.dumps([{"event": "at", "value": value}]))

    async def report_view(
        self, target: Any, play: bool = False, timeout: float = RUN_TIMEOUT
    ) -> RunView:
        """Report the step ``target`` and wait for the run it causes; the view unchecked."""
        return await self._run(self.report_state(target, play), timeout)

    def where(self) -> Where:
        return Where(self.t, self.start, self.stop, self.n_steps, self.play)

    async def report(
        self, target: int, play: bool = False, full: list[float] | None = None
    ) -> tuple[float, str | None]:
        """Report the step ``target`` as the browser does; returns (latency ms, None or
        what was wrong with the answer, :func:`verify`). A run that fails raises RunError.
        The latency of an answer that was a full rerun is added to ``full`` too."""
        before = self.where()
        state = self.report_state(target, play)
        seq = self.seq
        start = time.perf_counter()
        view = await self._run(state)
        elapsed = (time.perf_counter() - start) * 1000
        self._check(view)
        if full is not None and view.full:
            full.append(elapsed)
        return elapsed, verify(view, target, seq, before, full_rerun=self.full_rerun, play=play)

    async def press_step(self) -> tuple[float, str | None]:
        """Step once and pause: the report of t + 1 (see :meth:`report`)."""
        return await self.report(self.t + 1)

    def burst(self, rng: random.Random, leave: float) -> tuple[int, bool]:
        """Where a student's next burst of steps pauses, and whether it is a replay.

        Inside the window: t + 1..8 (a burst that runs past the window's end is sent at
        once, at the first step outside it). With probability ``leave``, a step out of
        the window: past its end (half of those as a replay playing on), back before its
        start, or Reset. At the end of the run: Reset."""
        t, a, b, T = self.t, self.start, self.stop, self.n_steps
        if rng.random() < leave and (a > 0 or b < T):
            moves = (["past", "play"] if b < T else []) + (["back", "reset"] if a > 0 else [])
            move = rng.choice(moves)
            if move in ("past", "play"):
                return min(b + rng.randint(1, BURST), T), move == "play"
            return (max(a - rng.randint(1, BURST), 0) if move == "back" else 0), False
        if t >= T:
            return 0, False
        target = min(t + rng.randint(1, BURST), T)
        return (b + 1 if target > b else target), False


CLOSED_OR_FAILED = (RunError, TimeoutError, OSError, websockets.WebSocketException)


async def student(
    url: str,
    presses: int,
    think: float,
    rng: random.Random,
    full_rerun: bool,
    delay: float = 0,
    page: str = "lecture",
) -> SessionResult:
    """After ``delay`` s open the lecture page and press Step ``presses`` times (each a
    report of t + 1), or open the margin lab and drag a point that often."""
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
                    latency, wrong = await session.report(session.t + 1, full=result.full_ms)
                result.latencies_ms.append(latency)
                if wrong:
                    result.wrong.append(wrong)
    except CLOSED_OR_FAILED as exc:
        result.errors.append(f"{type(exc).__name__}: {exc}")
    return result


@dataclass
class Summary:
    sessions: int
    presses: int
    median_ms: float
    p95_ms: float
    full: int
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


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


async def run_load(
    port: int | str,
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
    url = stream_url(port)
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
        median_ms=median(latencies),
        p95_ms=percentile(latencies, 0.95),
        full=sum(len(r.full_ms) for r in results),
        drags=len(drags),
        drag_median_ms=median(drags),
        drag_p95_ms=percentile(drags, 0.95),
        open_median_ms=median(opens),
        open_p95_ms=percentile(opens, 0.95),
        reruns_per_s=(len(latencies) + len(drags) + len(opens)) / wall,
        errors=sum(len(r.errors) for r in results),
        wrong=sum(len(r.wrong) for r in results),
        messages=messages,
    )


# ---------------------------------------------------------------------------- phases


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


async def in_phase(
    sessions: int,
    ramp: float,
    make: Callable[[int], Session],
    act: Callable[[int, Session, SessionResult, float], Awaitable[None]],
    duration: float,
    pid: Pids,
) -> tuple[list[SessionResult], tuple[float, float, float, float]]:
    """Open ``sessions`` sessions (``make(i)``, spread over ``ramp`` s); once all are open,
    let each ``act(i, session, result, deadline)`` until ``deadline`` = now + ``duration``.
    Returns the results and the meter's reading over the acting phase only (and the
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
    return results, (*meter.read(), meter.load())


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


async def run_class(
    port: int | str,
    students: int,
    duration: float,
    *,
    think: tuple[float, float] = CLASS_THINK,
    leave: float = 0.1,
    query: str = CLASS_QUERY,
    seed: int = 0,
    ramp: float = 0.0,
    pid: Pids = None,
) -> PhaseSummary:
    """Issue 17's class: ``students`` open the lecture page (over ``ramp`` s), then for
    ``duration`` s each steps in bursts (:meth:`Session.burst`), one report a burst,
    ``think`` s apart. Measured over the stepping only."""
    url = stream_url(port)

    async def step(i: int, s: Session, result: SessionResult, deadline: float) -> None:
        rng = random.Random(seed * 100_003 + i)
        while True:
            pause = rng.uniform(*think)
            if time.perf_counter() + pause >= deadline:
                return
            await asyncio.sleep(pause)
            target, play = s.burst(rng, leave)
            result.left += not s.start <= target <= s.stop
            latency, wrong = await s.report(target, play, full=result.full_ms)
            result.latencies_ms.append(latency)
            if wrong:
                result.wrong.append(wrong)

    results, meter = await in_phase(
        students, ramp, lambda i: Session(url, query_string=query), step, duration, pid
    )
    return summarise(results, meter)


async def run_full_reruns(
    port: int | str,
    sessions: int,
    duration: float,
    *,
    reports: bool,
    query: str = "",
    ramp: float = 0.0,
    pid: Pids = None,
) -> PhaseSummary:
    """``sessions`` sessions on the lecture page each send full-page reruns (no fragment
    id) back to back for ``duration`` s: plain reruns, or (``reports``) reports of
    t + 1 (0 after the last step), each answer verified."""
    url = stream_url(port)

    async def hammer(i: int, s: Session, result: SessionResult, deadline: float) -> None:
        while time.perf_counter() < deadline:
            if reports:
                target = s.t + 1 if s.t < s.n_steps else 0
                latency, wrong = await s.report(target, full=result.full_ms)
            else:
                begin = time.perf_counter()
                view = await s.rerun()
                latency = (time.perf_counter() - begin) * 1000
                s._check(view)
                wrong = None if view.full else f"a plain rerun ended with status {view.status}"
                if view.full:
                    result.full_ms.append(latency)
            result.latencies_ms.append(latency)
            if wrong:
                result.wrong.append(wrong)

    def make(i: int) -> Session:
        return Session(url, query_string=query, full_rerun=True, needs_player=reports)

    results, meter = await in_phase(sessions, ramp, make, hammer, duration, pid)
    return summarise(results, meter)


# ---------------------------------------------------------------------------- main


HEADER = (
    f"{'N':>4} {'steps':>6} {'median ms':>10} {'p95 ms':>8} {'full':>5} "
    f"{'drags':>6} {'drag med':>9} {'drag p95':>9} {'open med':>9} "
    f"{'open p95':>9} {'reruns/s':>9} {'errors':>7} {'wrong':>6} "
    f"{'server cpu':>10} {'client cpu':>10}"
)


def row(s: Summary, server_cpu: float, client_cpu: float) -> str:
    return (
        f"{s.sessions:>4} {s.presses:>6} {s.median_ms:>10.0f} {s.p95_ms:>8.0f} {s.full:>5} "
        f"{s.drags:>6} {s.drag_median_ms:>9.0f} {s.drag_p95_ms:>9.0f} "
        f"{s.open_median_ms:>9.0f} {s.open_p95_ms:>9.0f} {s.reruns_per_s:>9.1f} "
        f"{s.errors:>7} {s.wrong:>6} {server_cpu:>9.0%} {client_cpu:>9.0%}"
    )


def print_failures(failures: list[str]) -> None:
    for message in failures[:20]:
        print("  " + message)
    if len(failures) > 20:
        print(f"  ... and {len(failures) - 20} more")


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def sessions_table(args: argparse.Namespace, port: int | str, pid: Pids) -> bool:
    """The default measurement: one row per N of ``--sessions``."""
    counts = [int(n) for n in args.sessions.split(",") if n.strip()]
    mode = "full reruns" if args.full_rerun else "fragment reruns"
    print(
        f"{mode}; think time uniform({args.think:g}, {2 * args.think:g}) s; "
        f"sessions open over {args.ramp:g} s; "
        f"{args.draggers:.0%} of them drag points on the margin lab"
    )
    print(
        "latency: BackMsg sent -> script_finished received; steps = Step on the lecture "
        "page (the player's report of t + 1), full = those answered by a full rerun "
        "(a step onto the window's last step); drags = drops on the margin lab; "
        "open = first page run;"
    )
    print(f"cpu: share of one core over the run ({os.cpu_count()} cores on this machine)")
    print(HEADER)
    failures = []
    for n in counts:
        meter = Meter(pid)
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
        _, server, client = meter.read()
        print(row(summary, server, client), flush=True)
        failures += [f"N={n}: {m}" for m in summary.messages]
    print(f"load average {Meter.load():.1f} (other work on the machine competes)")
    print_failures(failures)
    return not failures


def class_report(args: argparse.Namespace, port: int | str, pid: Pids) -> bool:
    """``--class N``: issue 17's class stepping in bursts."""
    n = args.class_size
    ramp = args.ramp if args.ramp else n / 5
    lo, hi = CLASS_THINK
    print(
        f"class: {n} students on /lecture?{args.query or CLASS_QUERY}, opened over {ramp:g} s, "
        f"then {args.duration:g} s of bursts: one report a burst (t + 1..{BURST} in the "
        f"window), uniform({lo:g}, {hi:g}) s apart, {args.leave:.0%} of them a step out of "
        f"the window; measured over the {args.duration:g} s only"
    )
    s = asyncio.run(
        run_class(
            port,
            n,
            args.duration,
            leave=args.leave,
            query=args.query or CLASS_QUERY,
            seed=args.seed,
            ramp=ramp,
            pid=pid,
        )
    )
    cores_ok = s.server_cores < 1.0
    offered = n / (sum(CLASS_THINK) / 2)  # reports a second if every answer came at once
    kept_up = s.per_s >= 0.9 * offered  # else answers queue and students report less often
    ok = s.errors == 0 and s.wrong == 0 and s.opened == n and cores_ok and kept_up
    cpu_ms = s.server_cores * s.wall_s / s.actions * 1000 if s.actions else float("nan")
    print(
        f"  opened {s.opened}/{s.sessions} (open median {s.open_median_ms:.0f} ms, "
        f"p95 {s.open_p95_ms:.0f} ms)\n"
        f"  reports {s.actions} in {s.wall_s:.1f} s: {s.per_s:.1f}/s of the {offered:.0f}/s "
        f"the students would send with instant answers ({verdict(kept_up)}: >= 90%)\n"
        f"  report latency median {s.median_ms:.0f} ms, p95 {s.p95_ms:.0f} ms\n"
        f"  steps out of the window {s.left}; full reruns {s.full} ({s.full_per_s:.1f}/s, "
        f"median {s.full_median_ms:.0f} ms, p95 {s.full_p95_ms:.0f} ms)\n"
        f"  server CPU {s.server_cores:.2f} cores (goal < 1: {verdict(cores_ok)}), "
        f"{cpu_ms:.1f} ms a report; client CPU {s.client_cores:.2f} cores; "
        f"{os.cpu_count()} cores on this machine, load average {s.load:.1f}\n"
        f"  errors {s.errors}, wrong answers {s.wrong}\n"
        f"  issue 17 goal, {n} students with no errors and under one core, the server "
        f"keeping up: {verdict(ok)}",
        flush=True,
    )
    print_failures(s.messages)
    return ok


def rate_line(name: str, s: PhaseSummary) -> str:
    return (
        f"  {name:<44} {s.per_s:>7.1f}/s  median {s.median_ms:>5.0f} ms  "
        f"p95 {s.p95_ms:>5.0f} ms  server {s.server_cores:.2f} cores  "
        f"errors {s.errors}  wrong {s.wrong}  load {s.load:.1f}"
    )


def full_rerun_report(args: argparse.Namespace, port: int | str, pid: Pids, log: Any) -> bool:
    """``--full-reruns``: full-page reruns a second of the lecture page."""
    counts = [int(n) for n in args.sessions.split(",") if n.strip()]
    n = counts[0] if args.sessions_given else 50
    ramp = args.ramp if args.ramp else n / 5
    query = args.query
    print(
        f"full-page reruns (rerun_script without a fragment id) of /lecture?{query}: {n} "
        f"sessions (opened over {ramp:g} s) each sending them back to back for "
        f"{args.duration:g} s"
    )

    def measure(p: int | str, pid: Pids, reports: bool) -> PhaseSummary:
        return asyncio.run(
            run_full_reruns(p, n, args.duration, reports=reports, query=query, ramp=ramp, pid=pid)
        )

    plain = measure(port, pid, False)
    print(rate_line("plain reruns", plain), flush=True)
    stepping = measure(port, pid, True)
    print(rate_line("reports of t + 1 as full reruns", stepping), flush=True)
    failures = [f"plain: {m}" for m in plain.messages] + [
        f"reports: {m}" for m in stepping.messages
    ]
    goal = 2 * BEFORE_PLAYER
    ok = plain.per_s >= goal and not failures
    if args.reference:
        ref_dir = args.reference.resolve()
        proc, url = streamlit_server.start("app.py", log=log, app_dir=ref_dir)
        try:
            ref_port = int(url.rsplit(":", 1)[1])
            asyncio.run(warm_up(ref_port, needs_player=False))
            ref = measure(ref_port, proc.pid, False)
        finally:
            streamlit_server.stop(proc)
        print(rate_line(f"reference: plain reruns, app in {ref_dir.name}", ref))
        ratio = plain.per_s / ref.per_s if ref.per_s else float("nan")
        print(f"  ratio: {ratio:.2f}x the reference's throughput (goal >= 2)")
        ok = ok and ratio >= 2
        failures += [f"reference: {m}" for m in ref.messages]
    print(
        f"  issue 17: about {BEFORE_PLAYER:g}/s before the player (not measured in this run); "
        f"goal >= {goal:g}/s: plain {plain.per_s / BEFORE_PLAYER:.1f}x that figure: "
        f"{verdict(ok)}"
    )
    print_failures(failures)
    return ok


def through_nginx(args: argparse.Namespace) -> bool:
    """``--through-nginx N`` (issue 15): N app servers, Redis and nginx on this machine
    (``deploy.class_server``, what ``scripts/serve_class.sh`` runs), the simulated
    students sent to nginx; the default measurement beside the same load on one of the
    servers directly, in the same run."""
    from deploy import class_server

    with class_server.serve_class(args.through_nginx) as cls:
        pids = tuple(a.proc.pid for a in cls.apps)
        print(
            f"nginx on {cls.url} in front of {len(cls.apps)} app servers "
            f"({', '.join(a.url for a in cls.apps)}; pids {', '.join(map(str, pids))}), "
            f"store {cls.store}; configurations and logs in {cls.run_dir}"
        )
        try:
            for app in cls.apps:  # each server's first runs, then once through the front door
                asyncio.run(warm_up(app.port, args.full_rerun))
            asyncio.run(warm_up(cls.url, args.full_rerun))
        except (*CLOSED_OR_FAILED,) as exc:
            sys.exit(f"warm-up failed: {exc}")
        if args.class_size:
            return class_report(args, cls.url, pids)
        if args.full_reruns:
            with open(os.devnull, "wb") as log:
                return full_rerun_report(args, cls.url, pids, log)
        return nginx_sessions(args, cls)


def nginx_pids(master: int) -> tuple[int, ...]:
    """nginx's master and its worker processes (Linux /proc)."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return (master, *map(int, children))


def nginx_sessions(args: argparse.Namespace, cls: Any) -> bool:
    """Each N of ``--sessions`` (100,200): through nginx, then on one server directly.

    Goals (issue 15): 100 students through nginx over 2 servers with a Step median of at
    most 100 ms and no errors or wrong answers; 200 with no errors or wrong answers."""
    counts = [int(n) for n in args.sessions.split(",") if n.strip()] if args.sessions_given else []
    counts = counts or [100, 200]
    one = cls.apps[0]
    print(
        f"{'fragment' if not args.full_rerun else 'full'} reruns; think time "
        f"uniform({args.think:g}, {2 * args.think:g}) s; {args.presses} actions each; sessions "
        f"open over {args.ramp:g} s; {args.draggers:.0%} of them drag points on the margin lab"
    )
    print(
        "latency: BackMsg sent -> script_finished received (see the default table); "
        f"server cpu: the servers' CPU summed, in cores x 100% ({os.cpu_count()} cores)"
    )
    print(f"{'where':<22}" + HEADER)
    ok, failures = True, []
    for n in counts:
        ways: list[tuple[str, int | str, Pids]] = [
            (f"nginx, {len(cls.apps)} servers", cls.url, tuple(a.proc.pid for a in cls.apps)),
            ("one server directly", one.port, one.proc.pid),
        ]
        for label, where, pids in ways:
            logged = len(cls.routes())
            meters = [Meter(p) for p in (pids if isinstance(pids, tuple) else (pids,))]
            meter, nginx = Meter(pids), Meter(nginx_pids(cls.nginx.pid))
            summary = asyncio.run(
                run_load(
                    where,
                    n,
                    args.presses,
                    args.think,
                    args.seed,
                    args.full_rerun,
                    args.ramp,
                    args.draggers,
                )
            )
            _, server, client = meter.read()
            print(f"{label:<22}" + row(summary, server, client), flush=True)
            if where == cls.url:
                streams = [up for req, up, _ in cls.routes()[logged:] if "/_stcore/stream" in req]
                spread = ", ".join(
                    f"{a.address} {sum(up.split(',')[-1].strip() == a.address for up in streams)} "
                    f"sessions, cpu {m.read()[1]:.0%}"
                    for a, m in zip(cls.apps, meters, strict=True)
                )
                print(f"{'':<22}  per server: {spread}; nginx cpu {nginx.read()[1]:.0%}")
                good = summary.errors == 0 and summary.wrong == 0 and summary.presses > 0
                if n == 100:
                    fast = summary.median_ms <= 100
                    print(
                        f"{'':<22}  goal, 100 students through nginx: Step median "
                        f"{summary.median_ms:.0f} ms <= 100 ms and no errors or wrong answers: "
                        f"{verdict(fast and good)}"
                    )
                    ok = ok and fast and good
                elif n == 200:
                    print(
                        f"{'':<22}  goal, 200 students through nginx with no errors or wrong "
                        f"answers: {verdict(good)}"
                    )
                    ok = ok and good
            failures += [f"{label}, N={n}: {m}" for m in summary.messages]
    print(f"load average {Meter.load():.1f} (other work on the machine competes)")
    print_failures(failures)
    return ok


async def warm_up(port: int | str, full_rerun: bool = False, needs_player: bool = True) -> None:
    """First runs on a fresh server (imports, compiled kernels, the pages' code): a
    student on each page, and the class's run on the lecture page."""
    url = stream_url(port)
    if not needs_player:
        async with Session(url, needs_player=False) as s:
            await s.open()
            await s._run(s.state())
        return
    for share in (0.0, 1.0):  # one student on each page
        warm = await run_load(port, 1, 2, 0.0, seed=-1, full_rerun=full_rerun, draggers=share)
        if warm.errors or warm.wrong:
            raise RunError(f"warm-up failed: {warm.messages}")
    async with Session(url, query_string=CLASS_QUERY) as s:
        await s.open()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", help="comma-separated N values (10,20,50,100)")
    parser.add_argument("--presses", type=int, default=10, help="Step presses per session")
    parser.add_argument("--think", type=float, default=1.0, help="think time: uniform(x, 2x) s")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="open the sessions over this many s (0: at once; --class and --full-reruns: N/5 s)",
    )
    parser.add_argument(
        "--draggers", type=float, default=0.2, help="share of sessions dragging on the margin lab"
    )
    parser.add_argument("--full-rerun", action="store_true", help="no fragment_id: whole page")
    parser.add_argument(
        "--class",
        dest="class_size",
        type=int,
        default=0,
        help="issue 17: N students stepping in bursts (200)",
    )
    parser.add_argument(
        "--leave", type=float, default=0.1, help="--class: share of bursts leaving the window"
    )
    parser.add_argument(
        "--full-reruns",
        action="store_true",
        help="issue 17: full-page reruns a second with --sessions N (50) sessions",
    )
    parser.add_argument(
        "--duration", type=float, default=30.0, help="--class, --full-reruns: measured s"
    )
    parser.add_argument(
        "--query", default="", help=f"--class ({CLASS_QUERY}), --full-reruns (''): the URL's query"
    )
    parser.add_argument(
        "--reference", type=Path, help="--full-reruns: also measure the app in this directory"
    )
    parser.add_argument("--port", type=int, default=0, help="use a running server instead")
    parser.add_argument(
        "--url",
        default="",
        help="use a running front door instead (http://host:port: nginx before several servers)",
    )
    parser.add_argument(
        "--through-nginx",
        type=int,
        default=0,
        metavar="N",
        help="issue 15: start N servers + Redis + nginx and send the students through nginx "
        "(--sessions: 100,200, beside one server directly)",
    )
    args = parser.parse_args()
    args.sessions_given = args.sessions is not None
    args.sessions = args.sessions or ("50" if args.full_reruns else "10,20,50,100")

    if args.through_nginx:
        sys.exit(0 if through_nginx(args) else 1)
    proc = None
    port: int | str = args.url or args.port
    log_path = Path(tempfile.gettempdir()) / "perceptron_load_server.log"
    with open(os.devnull if port else log_path, "wb") as log:
        if not port:
            proc, url = streamlit_server.start("app.py", log=log)
            port = int(url.rsplit(":", 1)[1])
            print(f"streamlit run app.py on port {port} (pid {proc.pid}, log {log_path})")
        pid = proc.pid if proc is not None else None
        try:
            try:
                asyncio.run(warm_up(port, args.full_rerun))
            except (*CLOSED_OR_FAILED,) as exc:
                sys.exit(f"warm-up failed: {exc}")
            if args.class_size:
                ok = class_report(args, port, pid)
            elif args.full_reruns:
                ok = full_rerun_report(args, port, pid, log)
            else:
                ok = sessions_table(args, port, pid)
        finally:
            if proc is not None:
                streamlit_server.stop(proc)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

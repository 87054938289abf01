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
- ``--class N``: N students (200) step in bursts on one server, as
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

Through the front door: ``--through-nginx N`` starts N app servers, one
``redis-server`` and nginx on this machine with the same code as ``scripts/serve_class.sh``
(``deploy/class_server.py``: sticky sessions by a cookie hash, so simulated students, who
carry no cookie, are spread over the servers) and connects the students to nginx's
``/_stcore/stream``; each server and then nginx are warmed up first. With the default
measurement it runs each N of ``--sessions`` (100,200) through nginx and then the same load
on one of the servers directly, in the same run, and prints how many sessions each server
got and its CPU. ``--class`` and ``--full-reruns`` run through nginx the same way.
``--url http://HOST:PORT`` sends the students to a front door that is already running
(as ``--port`` does to one server).

A class in a room: ``--room N`` makes a room and N seats in the store the
server uses (``ui.classmode.classroom``; the server started here gets a temporary SQLite file as
its ``PERCEPTRON_STORE``, ``--store`` names the store of a server given by ``--port`` or
``--url``). A lecturer's session opens /lecture with the lecturer link (``?room=<code>&key=
<secret>``), then each student with its seat (``?room=<code>&seat=<id>``: the seat is
restored, following is on). Every session is then left open as a browser leaves a tab
(:class:`Live`): the class strip is a fragment with ``run_every`` (the server sends a
``ForwardMsg.auto_rerun`` with its fragment id and interval: 1 s for the lecturer's live
tally, ``classbar.HEARTBEAT_S`` for a student's) and the client asks for it at that
interval as the browser's timer does (a ``rerun_script`` with that ``fragment_id`` and
``is_auto_rerun``), reading everything that comes back: the reruns the server starts by
itself when the room changes (``ui/classmode/push.py``: a student's strip, or on Step by step
the lecture's instrument) and the whole-page runs they lead to included. Measured: the
server's CPU per second and per poll while nothing changes (with and without a question on
every page) against the same number of sessions on /lecture in no room, in the same run;
the lecturer's ``--changes`` steps (``--gap`` s apart): for every follower, the time from the change
written to the room (the store's document read every 2 ms) to its page receiving the lecture
player at the new step; "Ask the class" (the lecturer's strip button) to each student's
question card; every student's answer (the card's pills, a widget value as the browser
sends it; 30% change it once) must be said counted on its page and counted once in the
store (``classroom.tally`` of ``answers_of``); "Reveal" steps the lecture (measured like a
step) and every page shows the truth with its answer marked. With ``--through-nginx M``
the students go through nginx with sticky cookies of their own (the server each reaches
read from nginx's log) and there is a lecturer session on each server (the lecturer
link opens the room on another device), stepping in turn: at every other change a
student follows a lecturer on the other server, through Redis.

Goals. The default: 50 sessions with zero errors and zero wrong answers, median
<= 300 ms, p95 <= 800 ms; 100 sessions with zero errors. ``--class``: 200
simulated students stepping on one server with no errors, and the server's CPU
under one core (a server that reruns the whole page on every Step is saturated by
100 students), while it keeps up (at least 90% of the reports the students would
send). ``--full-reruns``: full-page reruns of the lecture page with 50 sessions at
least twice :data:`BEFORE_PLAYER` (about 17 a second on this 2-core machine, the
page without the browser player). ``--through-nginx``: 100 students through nginx
over 2 servers on this 2-core machine with a Step median of at most 100 ms and no
errors; 200 with no errors. ``--room``: 100 students in one room on one server, and
through nginx over 2 servers, every follower showing the lecturer's new step within 2 s
(p95), every answer counted once, no errors; the idle cost of a follower stated.

Run:  python benchmarks/load.py [--sessions 10,20,50,100] [--presses 10] [--think 1.0]
      python benchmarks/load.py --class 200 [--duration 30] [--leave 0.1]
      python benchmarks/load.py --full-reruns [--sessions 50] [--reference DIR]
      python benchmarks/load.py --through-nginx 2 [--sessions 100,200]
      python benchmarks/load.py --url http://HOST:PORT [--sessions 100]
      python benchmarks/load.py --room 100 [--changes 10] [--gap 4] [--idle 15]
      python benchmarks/load.py --room 100 --through-nginx 2
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import websockets
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import streamlit_server  # noqa: E402

if TYPE_CHECKING:
    from ui.classmode.classroom import Room

PLAYER_KEY = "lec_player"
LECTURE_SCENE_KEY = "lec_scene"  # the scene rides on its own component, sent on full runs
CANVAS_KEY = "mar_canvas"
STATUS = re.compile(r"step t = ([\d,]+) of ([\d,]+)")  # in a step view's status line
OK_FINISH = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
RUN_TIMEOUT = 60.0  # seconds a single run may take before it counts as an error
GUARD_ERROR = "went wrong"  # ui.server.guard's sentence for an unexpected exception (st.error)
BURST = 8  # steps a burst may take before it pauses
CLASS_QUERY = "data_name=xor&lec_max_epochs=100"  # 40 points x 100 epochs: 4,000 steps
CLASS_THINK = (1.0, 3.0)  # s between a student's bursts
BEFORE_PLAYER = 17.0  # full reruns/s of the lecture page, 50 sessions, no browser player


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
    frame: bytes = msg.SerializeToString()  # protobuf's Message is untyped
    return frame


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
                view.problem = MISSING_SCENE
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


# the player's step came without its scene: player.js asks for it after a second (trigger
# ``scene``), and so do Session.ask_scene and the Driver
MISSING_SCENE = "the player's step is not in the scene the browser holds"


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
    # fragments the server asked the browser to rerun every interval s (st.fragment's
    # run_every: a ForwardMsg.auto_rerun), and those whose timers it stopped
    auto_reruns: dict[str, float] = field(default_factory=dict)
    stopped: list[str] = field(default_factory=list)

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
        headers: dict[str, str] | None = None,
    ) -> None:
        self.url = url
        self.headers = headers  # the handshake's extra headers (nginx's sticky cookie)
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
        self.last_with: dict[str, RunView] = {}  # an element key -> the last run that drew it
        self.auto_reruns: dict[str, float] = {}  # fragment id -> interval (see RunView)

    async def __aenter__(self) -> Session:
        self.ws = await websockets.connect(
            self.url,
            subprotocols=[websockets.Subprotocol("streamlit")],
            max_size=None,
            additional_headers=self.headers,
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
            while True:  # until the run ends (not ``while view.status is None``: _read sets it)
                fwd = ForwardMsg()
                fwd.ParseFromString(await self.ws.recv())
                self._read(fwd, view)
                if view.status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    view.status = None  # st.rerun: the run that follows answers the message
                if view.status is not None:
                    break
        self._took(view)
        return view

    async def settle(self, *, runs: int = 0, quiet: float = 0.5) -> RunView | None:
        """Read the runs the server started without being asked (a rerun pushed when the
        room changed, ``ui.classmode.push``): at least ``runs`` of them, then until nothing has
        come for ``quiet`` seconds. The last run's view (None if none came).

        Without this, a pushed run's ``script_finished`` is read as the answer to the
        next message this client sends, and that message's own answer as the one after."""
        assert self.ws is not None
        view, last, done = RunView(), None, 0
        async with asyncio.timeout(RUN_TIMEOUT):
            while True:
                try:
                    async with asyncio.timeout(None if done < runs else quiet):
                        data = await self.ws.recv()  # cancelling recv() loses no message
                except TimeoutError:
                    if done < runs:
                        raise
                    return last
                fwd = ForwardMsg()
                fwd.ParseFromString(data)
                self._read(fwd, view)
                if view.status is None or view.status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    if view.status is not None:
                        view.status = None
                    continue
                self._took(view)
                last, view, done = view, RunView(), done + 1

    def _took(self, view: RunView) -> None:
        """Keep what a finished run sent that later messages build on."""
        self.keyed.update(view.keyed)
        self.auto_reruns.update(view.auto_reruns)
        for fragment_id in view.stopped:
            self.auto_reruns.pop(fragment_id, None)
        self.last = view
        for key in view.keyed:
            self.last_with[key] = view

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

    def poll_state(self, fragment_id: str) -> ClientState:
        """What the browser's timer for a ``run_every`` fragment sends each interval:
        a rerun of that fragment with ``is_auto_rerun`` and the widget values."""
        state = self.state(fragment_id=fragment_id)
        state.is_auto_rerun = True
        return state

    def press(self, key: str) -> ClientState:
        """A click on the button keyed ``key``: its ``trigger_value``, in its fragment."""
        element_id, fragment_id = self.element(key)
        widget = WidgetState(id=element_id, trigger_value=True)
        return self.state([widget], "" if self.full_rerun else fragment_id)

    def choose(self, key: str, *values: str) -> ClientState:
        """A choice in the segmented control (or pills) keyed ``key``: the formatted
        options as ``string_array_value``, kept for later reruns as the browser keeps it."""
        element_id, fragment_id = self.element(key)
        widget = WidgetState(id=element_id)
        widget.string_array_value.data.extend(values)
        self.sticky[element_id] = widget
        return self.state([widget], "" if self.full_rerun else fragment_id)

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
        elif kind == "auto_rerun":
            view.auto_reruns[fwd.auto_rerun.fragment_id] = fwd.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            view.stopped.extend(fwd.stop_auto_rerun.fragment_ids)
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

    async def ask_scene(self) -> RunView:
        """Ask for the lecture's scene again, as player.js does when a step has waited a
        second for its scene: the answer is the page's run, which sends it."""
        raw = json.dumps([{"event": "scene", "value": {"run": "", "start": 0}}])
        view = await self._run(self.trigger(PLAYER_KEY, raw))
        self._check(view)
        return view

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
    """A class stepping: ``students`` open the lecture page (over ``ramp`` s), then for
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


# ---------------------------------------------------------------------------- a class in a room

ROOM_QUERY = CLASS_QUERY  # the lecturer's lecture (4,000 steps); the followers take it
ROOM_STEP = 3  # each change of the lecturer's: a burst of 3 steps (inside the window)
ROOM_GOAL_S = 2.0  # a follower shows the lecturer's new step within 2 s (p95)
ROOM_WAIT_S = 10.0  # a follower that has not shown a change after this missed it
ROOM_CHANGERS = 0.3  # share of the students who change their answer once
ROOM_ANSWERS = ("mistake", "no mistake")  # the question card's choices (classbar.ANSWERS)


@dataclass(frozen=True)
class Door:
    """How a simulated browser reaches the app: its websocket's URL, the handshake's
    extra headers (nginx's sticky cookie) and the app server behind it (its index)."""

    url: str
    headers: dict[str, str] | None = None
    server: int = 0


class Live:
    """A session left open as a browser leaves a tab, its class strip polling.

    Every message is read as it comes, the runs this client did not ask for included (a
    poll that finds the lecturer's change reruns the whole page). Every fragment the server
    asked to rerun by itself (``st.fragment(run_every=...)``, a ``ForwardMsg.auto_rerun``
    with the fragment's id and interval) is asked for every interval, as the browser's
    timer does: ``setInterval`` from the first ``auto_rerun`` (one timer a fragment, kept
    while the interval stays, cleared by ``stop_auto_rerun``) sending a ``rerun_script``
    with the fragment's id, ``is_auto_rerun``, the latest query string and the widget
    values, whether or not a run is going (the server folds what arrives during a run into
    one rerun). Actions are sent without waiting (:meth:`send`); what they did is read
    from what arrives: each lecture player's step and when it first came (:attr:`shown`),
    each element key and when it first came (:attr:`keys`), the last finished run
    (``session.last``)."""

    def __init__(self, session: Session, server: int = 0) -> None:
        self.session = session
        self.server = server
        self.shown: dict[int, float] = {}  # the player's step -> first received (perf_counter)
        self.keys: dict[str, float] = {}  # an element's key -> first received in a finished run
        self.polls = 0
        self.polled: list[float] = []  # when each poll was sent (perf_counter)
        self.runs = 0
        self.errors: list[str] = []
        self.asked = 0  # steps that came without their scene (asked for again)
        self._ask: asyncio.Task[None] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._timers: dict[str, tuple[float, asyncio.Task[None]]] = {}
        self._closing = False

    def start(self) -> None:
        """Read from now on; the timers of the fragments the page's runs asked for so far."""
        for fragment_id, interval in self.session.auto_reruns.items():
            self._timer(fragment_id, interval)
        self._reader = asyncio.create_task(self._read())

    async def _ask_scene(self) -> None:
        await asyncio.sleep(1.0)
        self._ask = None
        last = self.session.last
        if last is not None and last.player is not None and last.player.problem == MISSING_SCENE:
            raw = json.dumps([{"event": "scene", "value": {"run": "", "start": 0}}])
            await self.send(self.session.trigger(PLAYER_KEY, raw))

    async def stop(self) -> None:
        self._closing = True
        tasks = [task for _, task in self._timers.values()]
        tasks += [self._reader] if self._reader is not None else []
        tasks += [self._ask] if self._ask is not None else []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def send(self, state: ClientState) -> None:
        await self.session.send(message(state))

    def says(self, text: str, where: str | None = None) -> bool:
        """The last finished run drew ``text`` (in a markdown, caption, label...); with
        ``where`` (an element's key), the last run that drew that element (the question
        card is drawn by the lecture's instrument on Step by step, by the strip elsewhere)."""
        last = self.session.last if where is None else self.session.last_with.get(where)
        return last is not None and any(text in body for _, _, body in last.texts)

    def _timer(self, fragment_id: str, interval: float) -> None:
        old = self._timers.get(fragment_id)
        if old is not None and old[0] == interval:
            return
        if old is not None:
            old[1].cancel()
        self._timers[fragment_id] = (
            interval,
            asyncio.create_task(self._every(fragment_id, interval)),
        )

    async def _every(self, fragment_id: str, interval: float) -> None:
        due = time.perf_counter() + interval
        while True:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            due = max(due + interval, time.perf_counter())  # a late tick is not made up
            try:
                await self.send(self.session.poll_state(fragment_id))
            except websockets.WebSocketException:
                return  # the reader says why
            self.polls += 1
            self.polled.append(time.perf_counter())

    def first_poll(self, after: float) -> float | None:
        """When the first poll after ``after`` was sent (None: none yet)."""
        i = bisect.bisect_left(self.polled, after)
        return self.polled[i] if i < len(self.polled) else None

    async def _read(self) -> None:
        s = self.session
        assert s.ws is not None
        view = RunView()
        try:
            while True:
                data = await s.ws.recv()
                now = time.perf_counter()
                fwd = ForwardMsg()
                fwd.ParseFromString(data)
                had = view.player
                s._read(fwd, view)
                if view.player is not None and view.player is not had:
                    if view.player.problem == MISSING_SCENE:
                        self.asked += 1  # as the browser does, after a second
                        self._ask = self._ask or asyncio.create_task(self._ask_scene())
                    elif view.player.problem:
                        self.errors.append(view.player.problem)
                    else:
                        self.shown.setdefault(view.player.t, now)
                kind = fwd.WhichOneof("type")
                if kind == "auto_rerun":
                    self._timer(fwd.auto_rerun.fragment_id, fwd.auto_rerun.interval)
                elif kind == "stop_auto_rerun":
                    for fragment_id in fwd.stop_auto_rerun.fragment_ids:
                        timer = self._timers.pop(fragment_id, None)
                        if timer is not None:
                            timer[1].cancel()
                if view.status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    view.status = None  # st.rerun: the run that follows ends it
                if view.status is not None:
                    self._finished(view, now)
                    view = RunView()
        except (websockets.WebSocketException, OSError) as exc:
            if not self._closing:
                self.errors.append(f"{type(exc).__name__}: {exc}"[:300])

    def _finished(self, view: RunView, now: float) -> None:
        self.session._took(view)
        for key in view.keyed:
            self.keys.setdefault(key, now)
        self.runs += 1
        if view.exceptions:
            self.errors.append("exception on the page: " + "; ".join(view.exceptions)[:300])
        elif view.status not in OK_FINISH:
            self.errors.append(f"script_finished status {view.status}")
        else:
            self.session._check(view)


async def until(ready: Callable[[], bool], deadline: float, every: float = 0.02) -> bool:
    """Wait until ``ready()`` or the ``deadline`` (perf_counter); whether it was ready."""
    while not ready():
        if time.perf_counter() >= deadline:
            return False
        await asyncio.sleep(every)
    return True


def watch_room(
    store: Any, code: str, ready: Callable[[Room], bool], timeout: float
) -> tuple[float, Room]:
    """(when, room): the first read of the room's document (``load_room(fresh=True)``,
    every 2 ms, in a thread) that is ``ready``; RunError after ``timeout`` s."""
    from ui.classmode import classroom

    deadline = time.perf_counter() + timeout
    while True:
        room = classroom.load_room(store, code, fresh=True)
        now = time.perf_counter()
        if room is not None and ready(room):
            return now, room
        if now > deadline:
            raise RunError(f"the room's document did not change within {timeout:g} s")
        time.sleep(0.002)


async def written(
    store: Any, code: str, ready: Callable[[Room], bool], act: Awaitable[None]
) -> tuple[float, Room]:
    """Do ``act`` (a lecturer's message) and return (when, room) of the room's document
    once it is ``ready``: the time a change was written, within a few ms."""
    watch = asyncio.create_task(asyncio.to_thread(watch_room, store, code, ready, ROOM_WAIT_S))
    await asyncio.sleep(0.01)  # the watcher has read the document as it was
    await act
    return await watch


async def open_live(door: Door, query: str, page: str = "lecture") -> Live:
    """A session on ``page`` with ``query``, open and reading (see :class:`Live`)."""
    session = Session(door.url, query_string=query, page=page, headers=door.headers)
    await session.__aenter__()
    try:
        await session.open()
    except BaseException:
        await session.__aexit__()
        raise
    live = Live(session, door.server)
    live.start()
    return live


async def close_all(lives: list[Live]) -> None:
    for live in lives:
        await live.stop()
    await asyncio.gather(*(live.session.__aexit__() for live in lives), return_exceptions=True)


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


@dataclass
class RoomSummary:
    """What ``--room N`` measured (see :func:`run_room`)."""

    code: str = ""
    students: int = 0
    opened: int = 0
    lecturer_servers: list[int] = field(default_factory=list)
    per_server: dict[int, int] = field(default_factory=dict)  # students on each app server
    changes: int = 0
    follow_s: list[float] = field(default_factory=list)  # every (step, follower)
    served_s: list[float] = field(default_factory=list)  # the same, from the next poll sent
    other_s: list[float] = field(default_factory=list)  # those on another server
    worst_follower_p95_s: float = float("nan")
    missed: int = 0
    card_s: list[float] = field(default_factory=list)
    answered: int = 0  # students who answered
    changed: int = 0  # of those, who changed their answer once
    confirmed: int = 0  # pages that said "Counted: you said <the last answer>"
    counted: int = 0  # fields in the question's answers map
    tally: str = ""
    tally_ok: bool = False
    reveal_s: list[float] = field(default_factory=list)
    marked: int = 0  # pages that showed the truth with their own answer marked
    per_step_s: list[list[float]] = field(default_factory=list)  # each step's latencies
    steps_cpu_s: float = float("nan")  # the server's CPU over the steps phase
    steps_wall_s: float = float("nan")
    steps_client: float = float("nan")  # this process's CPU (cores) over the steps phase
    idle: Idle = field(default_factory=Idle)  # no change, no question
    asked: Idle = field(default_factory=Idle)  # no change, a question on every page
    reference: Idle = field(default_factory=Idle)  # sessions in no room
    load: float = 0.0
    errors: list[str] = field(default_factory=list)


async def run_room(
    store_setting: str,
    lecturers: list[Door],
    students: list[Door],
    *,
    changes: int = 10,
    gap: float = 4.0,
    idle: float = 15.0,
    ramp: float = 0.0,
    seed: int = 0,
    pid: Pids = None,
) -> RoomSummary:
    """A class in a room: a room in the store the server(s) use, ``len(students)`` seats
    joined in it; the lecturer's sessions (one per door; the lecturer link opens the room
    on another device) and then the students open /lecture (``?room=<code>&key=<secret>``
    for a lecturer, ``?room=<code>&seat=<id>`` for a student: the seat is restored,
    following is on), all of them left open as :class:`Live` tabs that poll the class
    strip every second.

    1. idle: ``idle`` s without a change: the server's CPU, per second and per poll;
    2. ``changes`` steps of the lecturer's, ``gap`` s apart (with several lecturer
       sessions, each in turn): for every follower the time from the change written to
       the room (the store's document read every 2 ms) to its page receiving the lecture
       player at the new step;
    3. the last lecturer to step presses "Ask the class": the time to each student's
       question card; every student answers with the card's pills (a widget value, as
       the browser sends it), a share of them changing their answer once; every
       page must say the last answer was counted, and the question's answers in the store
       (``classroom.tally``) must count every student once, with their last answer;
    4. the next lecturer presses "Reveal": the lecture steps to t + 1 (measured as a
       change) and every page shows the truth with its own answer marked;
    5. the reference: as many sessions on /lecture through the same doors, in no room (no
       strip), idle for ``idle`` s, in the same run.
    """
    import perceptron_store as store_mod
    from ui.classmode import classroom

    out = RoomSummary(students=len(students), changes=changes)
    store = store_mod.open_store(store_setting)
    room, secret = classroom.create_room(store)
    code = out.code = room.code
    seats = [classroom.join(store, room, f"student {i + 1}") for i in range(len(students))]
    lecs: list[Live] = []
    followers: list[tuple[int, Live]] = []

    async def student(i: int, door: Door) -> None:
        await asyncio.sleep(ramp * i / len(students))
        try:
            live = await open_live(door, f"room={code}&seat={seats[i]}")
        except CLOSED_OR_FAILED as exc:
            out.errors.append(f"student {i + 1} could not open the page: {exc}"[:300])
            return
        followers.append((i, live))
        lecture = lecs[0].session
        if not live.says("Following the lecturer") or live.session.n_steps != lecture.n_steps:
            out.errors.append(f"student {i + 1} does not follow the lecturer on arrival")

    try:
        for door in lecturers:
            lecs.append(await open_live(door, f"{ROOM_QUERY}&room={code}&key={secret}"))
        out.lecturer_servers = [lec.server for lec in lecs]
        await asyncio.gather(*(student(i, d) for i, d in enumerate(students)))
        followers.sort(key=lambda pair: pair[0])
        out.opened = len(followers)
        for _, f in followers:
            out.per_server[f.server] = out.per_server.get(f.server, 0) + 1
        everyone = lecs + [f for _, f in followers]

        # 1. idle: nobody changes anything; every tab polls its class strip
        out.idle = await idle_phase(everyone, idle, pid)

        # 2. the lecturer's steps
        t = lecs[0].session.t
        per_follower: dict[int, list[float]] = {i: [] for i, _ in followers}

        async def follow(t: int, lec: Live, act: Awaitable[None], into: list[float]) -> float:
            """Do ``act`` (a lecturer's message that steps to ``t``); every follower's
            time to show t from the write, into ``into``; returns the write's time."""
            current = classroom.load_room(store, code, fresh=True)
            assert current is not None, "the class is open"
            before = current.lecture_n
            at, doc = await written(store, code, lambda r: r.lecture_n > before, act)
            if doc.lecture_query.get("lec_t") != str(t):
                out.errors.append(f"the room holds lec_t={doc.lecture_query.get('lec_t')}, not {t}")
            await until(lambda: all(t in f.shown for _, f in followers), at + ROOM_WAIT_S)
            for i, f in followers:
                if t not in f.shown:
                    out.missed += 1
                    following = "following" if f.says("Following the lecturer") else "not following"
                    out.errors.append(
                        f"student {i + 1} (server {f.server}) did not show t = {t} within "
                        f"{ROOM_WAIT_S:g} s: its page shows t = {f.session.t}, {following}"
                    )
                    continue
                into.append(f.shown[t] - at)
                per_follower[i].append(f.shown[t] - at)
                polled = f.first_poll(at)
                if polled is not None and polled <= f.shown[t]:
                    out.served_s.append(f.shown[t] - polled)
                if f.server != lec.server:
                    out.other_s.append(f.shown[t] - at)
            return at

        meter = Meter(pid)
        for k in range(changes):
            lec = lecs[k % len(lecs)]
            t += ROOM_STEP
            out.per_step_s.append([])
            at = await follow(t, lec, lec.send(lec.session.report_state(t)), out.per_step_s[-1])
            out.follow_s += out.per_step_s[-1]
            await asyncio.sleep(max(0.0, at + gap - time.perf_counter()))
        out.steps_wall_s, cores, out.steps_client = meter.read()
        out.steps_cpu_s = cores * out.steps_wall_s

        # 3. a question: asked, answered (some change their minds), counted once each
        asker, revealer = lecs[(changes - 1) % len(lecs)], lecs[changes % len(lecs)]
        if not await until(lambda: "room_ask" in asker.session.keyed, time.perf_counter() + 5):
            raise RunError("the lecturer's strip has no 'Ask the class' button")
        at, room = await written(
            store,
            code,
            lambda r: r.question is not None and not r.question.revealed,
            asker.send(asker.session.press("room_ask")),
        )
        q = room.question
        assert q is not None  # the room was read once its question was open
        card = f"room_card_{q.id}"
        await until(lambda: all(card in f.keys for _, f in followers), at + ROOM_WAIT_S)
        out.card_s = [f.keys[card] - at for _, f in followers if card in f.keys]
        finals: dict[int, str] = {}

        async def answer(i: int, f: Live) -> None:
            if card not in f.keys:
                out.errors.append(f"student {i + 1} was not shown question {q.id}")
                return
            rng = random.Random(seed * 100_003 + i)
            await asyncio.sleep(rng.uniform(0.2, 3.0))  # reading the question
            said = rng.choice(ROOM_ANSWERS)
            await f.send(f.session.choose(f"room_q{q.id}_said", said))
            if rng.random() < ROOM_CHANGERS:
                await asyncio.sleep(rng.uniform(0.5, 2.0))
                said = ROOM_ANSWERS[1 - ROOM_ANSWERS.index(said)]
                await f.send(f.session.choose(f"room_q{q.id}_said", said))
                out.changed += 1
            finals[i] = said

        await asyncio.gather(*(answer(i, f) for i, f in followers))
        out.answered = len(finals)
        mine = {i: f"Counted: you said {said}." for i, said in finals.items()}
        live_of = dict(followers)
        await until(
            lambda: all(live_of[i].says(text, card) for i, text in mine.items()),
            time.perf_counter() + ROOM_WAIT_S,
        )
        out.confirmed = sum(live_of[i].says(text, card) for i, text in mine.items())
        got = classroom.answers_of(store, room, q.id)
        tally = classroom.tally(got)
        out.counted = len(got)
        said_mistake = sum(said == "mistake" for said in finals.values())
        out.tally = (
            f"{tally.answered} answered: mistake {tally.mistake}, no mistake {tally.no_mistake} "
            f"(the students' last answers: {said_mistake} and {len(finals) - said_mistake})"
        )
        each = all(
            seats[i] in got and json.loads(got[seats[i]])["mistake"] == (said == "mistake")
            for i, said in finals.items()
        )
        out.tally_ok = (
            each
            and set(got) == {seats[i] for i in finals}
            and (tally.answered, tally.mistake) == (len(finals), said_mistake)
        )

        out.asked = await idle_phase(everyone, idle, pid)  # the class thinks it over

        # 4. the reveal: the lecture steps to t + 1; every page shows the truth and its answer
        if not await until(
            lambda: "room_reveal" in revealer.session.keyed, time.perf_counter() + 5
        ):
            raise RunError("the lecturer's strip has no 'Reveal' button")
        await follow(
            q.t + 1, revealer, revealer.send(revealer.session.press("room_reveal")), out.reveal_s
        )
        right = {
            i: f"**Yours:** {said} — "
            + ("✓ right." if (said == "mistake") == q.mistake else "✗ not this time.")
            for i, said in finals.items()
        }
        await until(
            lambda: all(live_of[i].says(text, card) for i, text in right.items()),
            time.perf_counter() + ROOM_WAIT_S,
        )
        out.marked = sum(live_of[i].says(text, card) for i, text in right.items())
        out.worst_follower_p95_s = max(
            (percentile(v, 0.95) for v in per_follower.values() if v), default=float("nan")
        )
    except CLOSED_OR_FAILED as exc:
        out.errors.append(f"{type(exc).__name__}: {exc}"[:300])
    finally:
        for who, live in [("the lecturer", x) for x in lecs] + [
            (f"student {i + 1}", x) for i, x in followers
        ]:
            out.errors += [f"{who}: {e}" for e in live.errors]
        await close_all(lecs + [f for _, f in followers])

    # 5. the reference: as many sessions on /lecture in no room, idle
    doors = students
    plain: list[Live] = []

    async def visitor(i: int, door: Door) -> None:
        await asyncio.sleep(ramp * i / len(doors))
        try:
            plain.append(await open_live(door, ROOM_QUERY))
        except CLOSED_OR_FAILED as exc:
            out.errors.append(f"reference session {i + 1}: {exc}"[:300])

    try:
        await asyncio.gather(*(visitor(i, d) for i, d in enumerate(doors)))
        out.reference = await idle_phase(plain, idle, pid)
        out.load = Meter.load()
    finally:
        out.errors += [f"reference: {e}" for x in plain for e in x.errors]
        await close_all(plain)
    return out


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
    """``--class N``: a class of N students stepping in bursts."""
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
        f"  goal, {n} students with no errors and under one core, the server "
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
        f"  about {BEFORE_PLAYER:g}/s without the browser player (not measured in this run); "
        f"goal >= {goal:g}/s: plain {plain.per_s / BEFORE_PLAYER:.1f}x that figure: "
        f"{verdict(ok)}"
    )
    print_failures(failures)
    return ok


def through_nginx(args: argparse.Namespace) -> bool:
    """``--through-nginx N``: N app servers, Redis and nginx on this machine
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
        if args.room:
            return nginx_room(args, cls)
        if args.class_size:
            return class_report(args, cls.url, pids)
        if args.full_reruns:
            with open(os.devnull, "wb") as log:
                return full_rerun_report(args, cls.url, pids, log)
        return nginx_sessions(args, cls)


def sticky_doors(cls: Any, n: int, rng: random.Random) -> list[Door]:
    """``n`` browsers through nginx, each with a sticky cookie of its own, as nginx sets it
    on a browser's first request; the server each cookie reaches is read from nginx's log
    of a first plain request with it (a websocket is logged only when it closes)."""
    import urllib.request

    keys = [f"{rng.getrandbits(64):016x}" for _ in range(n)]
    for key in keys:
        health = urllib.request.Request(
            f"{cls.url}/_stcore/health", headers={"Cookie": f"perceptron_server={key}"}
        )
        with urllib.request.urlopen(health, timeout=10) as answer:
            answer.read()
    deadline = time.perf_counter() + 10
    while True:  # nginx logs a request just after its answer has gone
        served = {route: up.split(",")[-1].strip() for _, up, route in cls.routes()}
        if all(k in served for k in keys) or time.perf_counter() > deadline:
            break
        time.sleep(0.05)
    index = {app.address: i for i, app in enumerate(cls.apps)}
    url = stream_url(cls.url)
    return [Door(url, {"Cookie": f"perceptron_server={k}"}, index[served[k]]) for k in keys]


def nginx_room(args: argparse.Namespace, cls: Any) -> bool:
    """``--room N --through-nginx M``: the students through nginx (spread over the servers
    by their cookies), one lecturer session on each server (the first by its lecturer's
    start, the others by the lecturer link), stepping in turn: a student follows a lecturer
    on another server at every other change."""
    rng = random.Random(args.seed)
    students = sticky_doors(cls, args.room, rng)
    lecturers: dict[int, Door] = {}
    while len(lecturers) < len(cls.apps):
        for door in sticky_doors(cls, 4, rng):
            lecturers.setdefault(door.server, door)
    pids = tuple(a.proc.pid for a in cls.apps)
    where = f"nginx {cls.url} before {len(cls.apps)} app servers, CPU summed over them"
    ordered = [lecturers[i] for i in sorted(lecturers)]
    return room_report(args, cls.store, ordered, students, pids, where)


def nginx_pids(master: int) -> tuple[int, ...]:
    """nginx's master and its worker processes (Linux /proc)."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return (master, *map(int, children))


def nginx_sessions(args: argparse.Namespace, cls: Any) -> bool:
    """Each N of ``--sessions`` (100,200): through nginx, then on one server directly.

    Goals: 100 students through nginx over 2 servers with a Step median of at
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


def ms_line(name: str, values: list[float], expected: int) -> str:
    ms = [v * 1000 for v in values]
    top = max(ms, default=float("nan"))
    return (
        f"  {name:<40} {f'{len(ms)}/{expected}':>9} {median(ms):>9.0f} "
        f"{percentile(ms, 0.95):>8.0f} {top:>8.0f}"
    )


def idle_line(name: str, x: Idle, reference: Idle) -> str:
    ratio = x.cores / reference.cores if reference.cores > 0 else float("inf")
    return (
        f"  {name:<40} {x.sessions:>9} {x.cores:>12.3f} {x.poll_ms:>9.2f} "
        f"{x.polls / x.wall_s if x.wall_s else 0:>8.1f} {x.client:>7.2f} {ratio:>8.1f}x"
    )


def room_report(
    args: argparse.Namespace,
    store_setting: str,
    lecturers: list[Door],
    students: list[Door],
    pid: Pids,
    where: str,
) -> bool:
    """``--room N``: a class in one room (see :func:`run_room`).

    Goals: every follower shows the lecturer's new step within 2 s (p95 over
    every change every follower saw, none missed), every answer counted once, no errors;
    the idle cost of a follower is stated (the server's CPU per poll)."""
    n = len(students)
    ramp = args.ramp if args.ramp else n / 10
    print(
        f"room: {n} students and {len(lecturers)} lecturer session(s) on /lecture ({where}; "
        f"store {store_setting}); every tab's class strip runs on its timer and when the "
        f"server reruns it, as in a browser; opened over {ramp:g} s; {args.changes} steps of "
        f"the lecturer's {args.gap:g} s apart, a question, the reveal; the same-run reference: "
        f"{n} sessions on /lecture in no room",
        flush=True,
    )
    s = asyncio.run(
        run_room(
            store_setting,
            lecturers,
            students,
            changes=args.changes,
            gap=args.gap,
            idle=args.idle,
            ramp=ramp,
            seed=args.seed,
            pid=pid,
        )
    )
    spread = ", ".join(f"server {k}: {v}" for k, v in sorted(s.per_server.items()))
    print(
        f"  class {s.code}: {s.opened}/{s.students} students opened ({spread}); lecturer "
        f"session(s) on server {', '.join(map(str, s.lecturer_servers))}"
    )
    print(
        f"  {'from the write to the store':<40} {'seen':>9} {'median ms':>9} {'p95 ms':>8} "
        f"{'max ms':>8}"
    )
    print(
        ms_line(
            f"lecturer's step -> follower ({s.changes} steps)", s.follow_s, s.changes * s.opened
        )
    )
    print(ms_line("reveal -> follower at t + 1", s.reveal_s, s.opened))
    every = s.follow_s + s.reveal_s
    p95 = percentile(every, 0.95)
    if len(s.lecturer_servers) > 1:
        print(ms_line("  both: followers on the other server", s.other_s, len(s.other_s)))
    # how long the server took: from the follower's first poll after the write
    print(ms_line("  both: from the next poll sent", s.served_s, len(every)))
    print(ms_line("ask -> question card shown", s.card_s, s.opened))
    each = " ".join(f"{percentile(v, 0.95) * 1000:.0f}" for v in s.per_step_s)
    print(f"  each step's p95 ms: {each}; missed {s.missed}")
    # the steps' CPU beyond what the polls cost while idle, per follower and step
    extra = s.steps_cpu_s - s.idle.cores * s.steps_wall_s
    catch_up = extra / (s.changes * s.opened) * 1000 if s.changes * s.opened else float("nan")
    print(
        f"  the worst follower's own p95 ({s.changes + 1} changes): "
        f"{s.worst_follower_p95_s * 1000:.0f} ms; server CPU over the steps "
        f"{s.steps_cpu_s:.1f} s in {s.steps_wall_s:.0f} s, {catch_up:.0f} ms a follower's "
        f"catch-up beyond the idle polls; client {s.steps_client:.2f} cores"
    )
    answers_ok = s.tally_ok and s.confirmed == s.answered == s.opened
    print(
        f"  answers: {s.answered} students answered ({s.changed} changed their answer once), "
        f"{s.confirmed} pages said the last one was counted, the store holds {s.counted}: "
        f"{s.tally}: {verdict(answers_ok)}; after the reveal {s.marked} pages showed the "
        "truth with their answer marked"
    )
    print(
        f"  {f'idle, {args.idle:g} s each':<40} {'sessions':>9} {'server cores':>12} "
        f"{'ms a poll':>9} {'polls/s':>8} {'client':>7} {'vs ref':>9}"
    )
    print(idle_line("room: followers + lecturer, no question", s.idle, s.reference))
    print(idle_line("room: the question on every page", s.asked, s.reference))
    print(idle_line("reference: /lecture in no room", s.reference, s.reference))
    ok = (
        p95 <= ROOM_GOAL_S
        and s.missed == 0
        and s.opened == s.students
        and answers_ok
        and s.marked == s.opened
        and not s.errors
    )
    print(
        f"  goal, {n} students: every follower shows the lecturer's step within "
        f"{ROOM_GOAL_S:g} s (p95 {p95 * 1000:.0f} ms over {len(every)} changes seen, "
        f"{s.missed} missed), every answer counted once, no errors ({len(s.errors)}): "
        f"{verdict(ok)}; {os.cpu_count()} cores, load average {s.load:.1f}",
        flush=True,
    )
    print_failures(s.errors)
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
        help="N students stepping in bursts (200)",
    )
    parser.add_argument(
        "--leave", type=float, default=0.1, help="--class: share of bursts leaving the window"
    )
    parser.add_argument(
        "--full-reruns",
        action="store_true",
        help="full-page reruns a second with --sessions N (50) sessions",
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
    parser.add_argument(
        "--room",
        type=int,
        default=0,
        metavar="N",
        help="N students (100) following a lecturer in one room, a question",
    )
    parser.add_argument("--changes", type=int, default=10, help="--room: the lecturer's steps")
    parser.add_argument("--gap", type=float, default=4.0, help="--room: s between the steps")
    parser.add_argument("--idle", type=float, default=15.0, help="--room: measured idle s")
    parser.add_argument(
        "--store",
        default=os.environ.get("PERCEPTRON_STORE", ""),
        help="--room with --port or --url: the store the server uses (its PERCEPTRON_STORE)",
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
        help="start N servers + Redis + nginx and send the students through nginx "
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
    env: dict[str, str] = {}
    if args.room and not port:  # the room is made in the store the server is given
        room_dir = tempfile.mkdtemp(prefix="perceptron-room-")
        args.store = env["PERCEPTRON_STORE"] = os.path.join(room_dir, "room.sqlite3")
    elif args.room and not args.store:
        sys.exit("--room with --port or --url needs --store: the server's PERCEPTRON_STORE")
    with open(os.devnull if port else log_path, "wb") as log:
        if not port:
            proc, url = streamlit_server.start("app.py", log=log, env=env)
            port = int(url.rsplit(":", 1)[1])
            print(f"streamlit run app.py on port {port} (pid {proc.pid}, log {log_path})")
        pid = proc.pid if proc is not None else None
        try:
            try:
                asyncio.run(warm_up(port, args.full_rerun))
            except (*CLOSED_OR_FAILED,) as exc:
                sys.exit(f"warm-up failed: {exc}")
            if args.room:
                door = Door(stream_url(port))
                where = f"one server, pid {pid}" if pid else f"the server at {port}"
                ok = room_report(args, args.store, [door], [door] * args.room, pid, where)
            elif args.class_size:
                ok = class_report(args, port, pid)
            elif args.full_reruns:
                ok = full_rerun_report(args, port, pid, log)
            else:
                ok = sessions_table(args, port, pid)
        finally:
            if proc is not None:
                streamlit_server.stop(proc)
            if "PERCEPTRON_STORE" in env:
                shutil.rmtree(Path(env["PERCEPTRON_STORE"]).parent, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

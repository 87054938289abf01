"""The app's two drawing components as the browser reads them, and what an answer must show.

The lecture's player is a ``bidi_component`` delta (the ``st.components.v2`` component
``perceptron.lecture``, key ``lec_player``, inside an ``st.fragment``): its JSON holds a
window of steps ``start..stop`` of a run, the server's step ``t`` and the number ``seq``
of the last report the server acted on; the scene it draws rides on its own component
(key ``lec_scene``), sent on full runs only: the run's length ``T`` and one step view per
step of the window. The browser steps inside the window by itself and tells the server
the step once a burst of steps pauses (at once for a step outside the window): a report,
the player's trigger ``at`` with ``{"t", "seq"}``.

The margin lab's drawing surface (key ``mar_canvas``) draws the points and the edit
version ``v``; a drop is its trigger ``moved`` with ``{"i", "x", "y", "v"}``.

Nothing here speaks to a server: :mod:`tools.app_client` does, with these.
"""

from __future__ import annotations

import json
import math
import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tools.streamlit_client import RunView

PLAYER_KEY = "lec_player"
LECTURE_SCENE_KEY = "lec_scene"  # the scene rides on its own component, sent on full runs
CANVAS_KEY = "mar_canvas"
# in a step view's status line, in any language: "step t = 201 of 4,000", "étape t = 201
# sur 4 000" (a narrow no-break space groups), "Schritt t = 201 von 4.000"
STATUS = re.compile(r"\bt = (\d[\d,.\u202f]*)\D+?(\d[\d,.\u202f]*)")
BURST = 8  # steps a burst may take before it pauses
# the player's step came without its scene: player.js asks for it after a second (trigger
# ``scene``), and so do tools.app_client.Session.ask_scene and tools.live.Live
MISSING_SCENE = "the player's step is not in the scene the browser holds"
ASK_SCENE = json.dumps([{"event": "scene", "value": {"run": "", "start": 0}}])
# the class's live channel on a student's page (ui/classmode/live.py): its component's key,
# and the triggers live.js and player.js send for what the page cannot draw by itself
CHANNEL_KEY = "room_channel"
CARD_KEY = "room_pcard"  # Step by step's question card, drawn by the page (ui.classmode.card)


def card_words(view: dict[str, Any] | None) -> str:
    """The words of a question card the page draws (``ui/live/card.js``, from the view of
    ``ui.classmode.card``), its bold parts in Markdown's ``**`` as the server card writes
    them."""
    if not view:
        return ""
    parts = [f"**{view.get('head', '')}** {view.get('lead', '')}", view.get("text", "")]
    parts += [view.get(k, "") for k in ("first", "counted", "turnAsk", "said", "line", "none")]
    if view.get("barHead"):
        parts.append(f"**{view['barHead']}** {view.get('bar', '')}")
    parts.append(view.get("ask", ""))
    if view.get("revealed"):
        parts.append(f"**Answer:** {view.get('answer', '')}")
    parts += [f"**{name}:** {text}" for name, text in view.get("yours", [])]
    return "\n".join(str(p) for p in parts if p)


STRIP_CHANGED = json.dumps([{"event": "changed", "value": 0}])


def player_live(n: int) -> str:
    """The player's trigger ``live``: the lecturer's change ``n`` needs a rerun."""
    return json.dumps([{"event": "live", "value": {"n": n}}])


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
    along: dict[str, float] | None = None  # a follower's: the lecturer's Play it plays along with
    follow: dict[str, Any] | None = None  # a student's: what the live channel is compared with
    post: dict[str, str] | None = None  # a student alone: where the steps are posted (url, k)
    sent: float | None = None  # the server's clock (time.time) as it sent this
    quick: bool = False  # sent by a rerun of the instrument alone, not a whole page's run
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
            along = data.get("along")
            view.sent = None if data.get("sent") is None else float(data["sent"])
            view.quick = bool(data.get("quick"))
            follow = data.get("follow")
            view.follow = dict(follow) if isinstance(follow, dict) else None
            post = data.get("post")
            view.post = {"url": str(post["url"]), "k": str(post["k"])} if post else None
            if along is not None:
                view.along = {k: float(along[k]) for k in ("from", "rate", "elapsed")}
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
    (sent at ``before``), or None.

    The player in the answer must show the reported step (clamped to 0..T) with a ``seq``
    no older than the report's, its window must hold the step, the scene's view at that
    step must say ``step t = N of T``, and a report that left the window must come back
    as a full rerun (a report inside it as a fragment rerun, but for the window's last
    step, which the server draws as the first of the next window)."""
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
        shown = None if found is None else tuple(int(re.sub(r"\D", "", g)) for g in found.groups())
        if shown != (p.t, p.T):
            return f"the status line at t = {p.t} says {p.status!r}, after {said}"
    return None


def next_burst(at: Where, rng: random.Random, leave: float) -> tuple[int, bool]:
    """Where a student's next burst of steps from ``at`` pauses, and whether it is a replay.

    Inside the window: t + 1..8 (a burst that runs past the window's end is sent at
    once, at the first step outside it). With probability ``leave``, a step out of
    the window: past its end (half of those as a replay playing on), back before its
    start, or Reset. At the end of the run: Reset."""
    t, a, b, T = at.t, at.start, at.stop, at.T
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


def report(target: Any, seq: int, play: bool = False, **extra: Any) -> str:
    """The player's ``json_trigger_value`` for a report of step ``target`` numbered ``seq``
    (``"play": true`` for a replay that ran into the next window), as ``player.js``
    sends it; ``extra``: a class lecturer's Play (``from``, ``rate``, ``elapsed``)."""
    value: dict[str, Any] = {"t": target, "seq": seq, **extra}
    if play:
        value["play"] = True
    return json.dumps([{"event": "at", "value": value}])


@dataclass(frozen=True)
class Drop:
    """A drop of point ``i`` at (x, y) on the margin lab's data of version ``v``."""

    i: int
    x: float
    y: float
    v: int

    @classmethod
    def near(cls, scene: dict[str, Any], rng: random.Random) -> Drop:
        """A random point of ``scene`` dropped at a random place near where it was."""
        points, v = scene["points"], scene["v"]
        x0, x1, y0, y1 = scene["view"]
        i = rng.randrange(len(points))
        x = round(clamp(points[i][0] + rng.uniform(-0.3, 0.3), x0, x1), 3)
        y = round(clamp(points[i][1] + rng.uniform(-0.3, 0.3), y0, y1), 3)
        return cls(i, x, y, v)

    def event(self) -> str:
        """The surface's ``json_trigger_value``, as ``canvas.js`` sends it on a drop."""
        value = {"i": self.i, "x": self.x, "y": self.y, "v": self.v}
        return json.dumps([{"event": "moved", "value": value}])

    def problem(self, scene: dict[str, Any] | None) -> str | None:
        """What is wrong with the surface an answer drew (``scene``), or None: point i
        must be drawn where it was dropped, with the version one higher."""
        if scene is None:
            return "no drawing surface in the response"
        got = scene["points"][self.i][:2] if self.i < len(scene["points"]) else None
        moved = got is not None and max(abs(got[0] - self.x), abs(got[1] - self.y)) <= 1e-9
        if scene["v"] == self.v + 1 and moved:
            return None
        where = f"is drawn at {got} (version {scene['v']}, was {self.v})"
        return f"point {self.i} dropped at ({self.x}, {self.y}) {where}"


def shown_step(view: PlayerView, received: float, now: float, late: float = 0.0) -> int:
    """The step a browser's player shows at ``now`` (seconds, the clock ``received`` was
    read on) after it received ``view``, ``late`` seconds after the quickest message so far
    would have: the player's step, or while it plays along with a lecturer's Play, the step
    by its own clock from the moment the view arrived (``player.js``'s ``playAlong``: from +
    rate × (elapsed + late + the time since), whole steps, held at the Play's start until it
    starts, at the window's last step and at the run's)."""
    a = view.along
    if a is None:
        return view.t
    at = math.floor(a["from"] + a["rate"] * max(0.0, a["elapsed"] + late + now - received))
    return max(0, min(at, view.stop, view.T))


class Lateness:
    """``player.js``'s ``lateness``: how much later than the quickest of the instrument's
    own reruns so far (``quick``) a message arrived, by the difference of the receiver's
    clock and the sender's (``sent``), from 0 to ``cap`` seconds; 0 before such a rerun."""

    def __init__(self, cap: float = 1.0) -> None:
        self.quickest: float | None = None
        self.cap = cap

    def __call__(self, sent: float | None, received_wall: float, quick: bool = True) -> float:
        if sent is None:
            return 0.0
        gap = received_wall - sent
        if quick and (self.quickest is None or gap < self.quickest):
            self.quickest = gap
        if self.quickest is None:
            return 0.0
        return min(max(gap - self.quickest, 0.0), self.cap)

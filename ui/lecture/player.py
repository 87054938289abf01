"""The lecture page's instrument: controls, status, maths and chart, stepped in the browser.

Two components: ``carry`` sends the scene (``figures.lecture_scene``) once per
window, from outside the page's fragment; ``player`` mounts the instrument at the
server's step inside the fragment, which a report of the browser reruns.

``player.js`` (shipped with the app, no CDN) draws the scene Python computed
(``figures.lecture_scene``: one window of steps of the run) and moves through it
with no server round trip. It reports the step once a burst of steps pauses, or
at once for a step outside the window (trigger ``at``: ``{"t", "seq"}``, and
``"play": true`` when a replay ran into the next window); and the presenter
switch (trigger ``presenter``: ``{"on"}``). A student stepping alone with the mistake log
closed posts the report to the app's route instead (``data.post``, :mod:`ui.live.reports`:
no rerun), and the session takes it at its next run (:func:`take_report`). What Python
does with a report is
:func:`on_event`, a pure function the tests call directly (``AppTest`` cannot fire
component events).

A scene sent can still miss the browser: when a full run starts, Streamlit drops the
messages of the run before that it has not delivered yet. So the page forgets the
scene it sent at the start of each full run (:func:`forget_scene`) and records it
once sent (:func:`sent_scene`); and a browser that holds a step without its scene
asks for it (trigger ``scene``). Either way the player's next run redraws the page,
which sends the scene again (:func:`scene_window`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

from ui import words
from ui.app.state import Session, session_key, widget_key
from ui.classmode import follow as class_follow
from ui.classmode import live
from ui.lecture.restart import RUN, go_to
from ui.live import reports
from ui.look.clip import CLIP_JS
from ui.look.figure import FONTS_JS, with_figure
from ui.look.palette import ASKED, BOUND, CURRENT_LINE, MINUS, MISTAKE, PLUS, STAR, W_COLOUR
from ui.look.style import PRESENTER_FONT, page_style
from ui.server import code as component_code
from ui.server import guard
from ui.server.internals import testid

# figure.js's functions first, then clip.js's: Save figure draws the file (and a clip its
# frames) from the chart on the page. The offline file (ui.lecture.export) carries the
# same without FONTS_JS, which fetches the page's fonts: the file fetches nothing and gives
# its own inline font instead
_PARTS = (
    "player_types.js",
    "player_chart.js",
    "player_maths.js",
    "player_moves.js",
    "player_follow.js",
    "player.js",
)
# words.js's tr first: the player says its words in the session's language (data.words)
_OWN_JS = with_figure(
    words.SCRIPT
    + CLIP_JS
    + "\n".join(Path(__file__).with_name(f).read_text(encoding="utf-8") for f in _PARTS),
    fonts=False,
)
# the live page posts a student's own steps (post.js); the file posts nothing
_JS = "\n".join(
    [_OWN_JS, FONTS_JS, Path(__file__).with_name("post.js").read_text(encoding="utf-8")]
)

WINDOW = 100  # steps per scene: inside a window a step is drawn in the browser
SEQ = session_key("lec_seq")  # the number of the last report the server acted on
PLAY = session_key("lec_play")  # a new value: the next window plays on
PRESENTER_FLIP = session_key("lec_presenter_flip")  # the presenter switch was pressed
RESEND = session_key("lec_resend")  # the browser holds a step without its scene
SENT = session_key("lec_window")  # (run, start, stop) of the scene sent in this full run
TAB = session_key("lec_tab")  # the key this session's page posts its own steps under
MAX_SEQ = 2**31 - 1

_CSS = f"""
.lec {{ font-family: var(--st-font, "Source Sans Pro", sans-serif);
  color: var(--st-text-color, #31333f); font-size: 1rem; }}
.lec .bar {{ display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }}
.lec button, .lec select {{ font: inherit; font-size: 0.95em; padding: 0.35em 0.8em;
  border: 1px solid #c4c6cf; border-radius: 0.5rem; background: #fff; color: inherit;
  cursor: pointer; min-height: 2.4em; }}
.lec button:hover {{ border-color: {PLUS}; color: {PLUS}; }}
.lec button:focus-visible, .lec select:focus-visible, .lec input:focus-visible {{
  outline: 3px solid {PLUS}; outline-offset: 2px; }}
.lec button:disabled {{ color: #9a9ca5; border-color: #e1e2e6; cursor: default; }}
.lec button[data-act="step"] {{ background: {PLUS}; color: #fff; border-color: {PLUS};
  font-weight: 600; }}
.lec button[data-act="step"]:disabled {{ background: #e8e9ee; color: #9a9ca5;
  border-color: #e1e2e6; }}
.lec .tools {{ margin-left: auto; display: flex; gap: 6px; }}
.lec .save {{ position: relative; }}
.lec .save summary {{ list-style: none; font-size: 0.95em; padding: 0.35em 0.8em;
  border: 1px solid #c4c6cf; border-radius: 0.5rem; background: #fff; cursor: pointer;
  min-height: 2.4em; box-sizing: border-box; display: flex; align-items: center;
  white-space: nowrap; }}
.lec .save summary::-webkit-details-marker {{ display: none; }}
.lec .save summary::after {{ content: " ▾"; white-space: pre; }}
.lec .save summary:hover {{ border-color: {PLUS}; color: {PLUS}; }}
.lec .save summary:focus-visible {{ outline: 3px solid {PLUS}; outline-offset: 2px; }}
.lec .save .menu {{ position: absolute; right: 0; top: calc(100% + 4px); z-index: 5;
  display: flex; flex-direction: column; gap: 4px; padding: 6px; background: #fff;
  border: 1px solid #c4c6cf; border-radius: 0.5rem; box-shadow: 0 4px 12px #0002;
  white-space: nowrap; }}
.lec .save .cliprow {{ display: flex; flex-wrap: wrap; align-items: center; gap: 6px;
  border-top: 1px solid #e1e2e6; padding-top: 6px; }}
.lec .save .cliprow select {{ padding: 0.25em 0.4em; }}
.lec.presenter .save summary {{ padding: 0.2em 0.6em; min-height: 2.1em; }}
.lec .scrub {{ display: flex; align-items: center; gap: 10px; margin: 6px 0 0; }}
.lec .scrub input {{ flex: 1; accent-color: {PLUS}; min-height: 1.6em; }}
.lec .rangetext {{ font-variant-numeric: tabular-nums; min-width: 11em; }}
.lec .status {{ margin: 6px 0 2px; line-height: 1.6; }}
.lec .status span + span::before {{ content: " · "; color: #777; font-weight: 400; }}
.lec .status .name {{ font-weight: 700; }}
.lec .status .chip {{ font-weight: 600; font-variant-numeric: tabular-nums; }}
.lec .status .end {{ font-weight: 700; color: {PLUS}; }}
.lec .note {{ min-height: 1.3em; margin: 0; color: #6b4a00; font-size: 0.95em; }}
.lec .note .linkbox {{ width: min(100%, 48em); font: inherit; }}
.lec .maths {{ min-height: 3.6em; margin: 2px 0 4px; overflow-x: auto; font-size: 1.05em; }}
.lec .maths math {{ display: block; margin: 2px 0; text-align: left; }}
.lec .maths .hint, .lec .maths .tie {{ margin: 0; }}
.lec .chart svg {{ display: block; user-select: none; }}
/* the chart's layers (player_moves.js redraw), each its own paint layer (position): a step
   repaints the one it changes; the points' tooltips answer through the layer over them */
.lec .fig {{ position: relative; }}
.lec .fig svg {{ position: relative; }}
.lec .fig svg + svg {{ position: absolute; left: 0; top: 0; pointer-events: none; }}
.lec .fig .points > * {{ pointer-events: auto; }}
.lec.busy .chart {{ opacity: 0.55; cursor: progress; }}
.lec .say {{ position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }}
.lec .legend {{ display: flex; flex-wrap: wrap; gap: 2px 16px; font-size: 0.9em; }}
.lec .legend .plus {{ color: {PLUS}; }} .lec .legend .minus {{ color: {MINUS}; }}
.lec .legend .wline {{ color: #000; }} .lec .legend .wtxt {{ color: {W_COLOUR}; }}
.lec .legend .star, .lec .legend .ringtxt {{ color: {STAR}; }}
.lec .legend .shownr {{ color: {CURRENT_LINE}; }} .lec .legend .shownm {{ color: {MISTAKE}; }}
.lec .legend svg.sw {{ width: 1.1em; height: 1.1em; vertical-align: -0.2em; margin-right: 0.25em; }}
.lec .legend .boundtxt {{ color: {BOUND}; }}
.lec .keys {{ font-size: 0.85em; color: #555; margin: 4px 0 0; }}
.lec.presenter {{ font-size: 1rem; }}
.lec.presenter button, .lec.presenter select {{ padding: 0.2em 0.6em; min-height: 2.1em; }}
.lec.presenter .scrub {{ margin: 2px 0 0; }}
.lec.presenter .status {{ margin: 2px 0 0; }}
/* two lines of maths at every step (the first one's hint included): the chart stays put */
.lec.presenter .maths {{ min-height: 4.4em; margin: 0; }}
.lec.presenter .keys {{ display: none; }}
.lec .facts {{ display: none; }}
.lec.presenter .facts {{ display: block; margin: 0 0 2px; font-size: 0.85em; color: #555;
  line-height: 1.35; }}
.lec .facts span + span::before {{ content: " · "; color: #777; }}
.lec.presenter .bar .scrub {{ flex: 1 1 6em; min-width: 6em; margin: 0 6px; }}
.lec.presenter .rangetext {{ display: none; }}
.lec .mathrow {{ position: relative; }}
.lec.presenter .note {{ position: absolute; top: 0; right: 0; z-index: 2; max-width: 60%;
  min-height: 0; padding: 0.2em 0.6em; background: #fff8e1; border-radius: 0.4em; }}
.lec.presenter .note:empty {{ padding: 0; }}
.fig text {{ fill: #31333f; }}
.fig .title {{ font-weight: 600; }}
.fig .key {{ font-size: 0.92em; }}
.fig .key .w {{ fill: {W_COLOUR}; font-weight: 600; }}
.fig .boundtxt {{ fill: {BOUND}; }}
.fig .key .plus {{ fill: {PLUS}; }} .fig .key .minus {{ fill: {MINUS}; }}
.fig .frame {{ fill: #fff; stroke: #c9c9c9; }}
.fig .grid line {{ stroke: #ececec; }}
.fig .grid line.axis {{ stroke: #8a8a8a; }}
.fig .grid text {{ fill: #555; font-size: 0.9em; }}
.fig .axlabel {{ font-style: italic; }}
.fig .half.plus {{ fill: {PLUS}; fill-opacity: 0.09; }}
.fig .half.minus {{ fill: {MINUS}; fill-opacity: 0.09; }}
.fig .ring {{ fill: none; stroke: {STAR}; stroke-width: 1.2; stroke-dasharray: 10 3 2 3; }}
.fig .band {{ fill: none; stroke: {STAR}; stroke-width: 1.2; stroke-dasharray: 2 3; }}
.fig .wstar {{ fill: none; stroke: {STAR}; stroke-width: 2; stroke-dasharray: 8 5; }}
.fig .points .plus {{ fill: {PLUS}; stroke: #fff; stroke-width: 1; }}
.fig .points .minus {{ stroke: {MINUS}; stroke-width: 3; fill: none; }}
.fig .wline {{ fill: none; stroke: #000; stroke-width: 3; }}
.fig .warrow {{ stroke: {W_COLOUR}; stroke-width: 3; }}
.fig .whead {{ fill: {W_COLOUR}; }}
.fig .wlabel {{ fill: {W_COLOUR}; font-weight: 700; }}
.fig .label {{ paint-order: stroke; stroke: #fff; stroke-width: 4px; }}
.fig .shown, .sw .swring {{ fill: none; stroke-width: 3; }}
.fig .shown.right, .sw .swring.right {{ stroke: {CURRENT_LINE}; }}
.fig .shown.mistake, .sw .swring.mistake {{ stroke: {MISTAKE}; stroke-dasharray: 5 3; }}
.fig .asked {{ fill: none; stroke: {ASKED}; stroke-width: 3; stroke-dasharray: 2 4; }}
.fig .askedtxt {{ fill: {ASKED}; font-weight: 700; }}
.lec .status .asked {{ font-weight: 700; }}
.fig .stamptxt {{ font-weight: 700; }}
.fig .stampmore {{ font-weight: 600; }}
.fig .said.mistake {{ fill: {MISTAKE}; font-weight: 600; }}
.fig .said.right {{ fill: {CURRENT_LINE}; font-weight: 600; }}
.fig .bound {{ fill: none; stroke: {BOUND}; stroke-width: 2; stroke-dasharray: 7 4; }}
.fig .w .curve {{ fill: none; stroke: {W_COLOUR}; stroke-width: 2; }}
.fig .w circle {{ fill: {W_COLOUR}; }}
.fig .sq .curve {{ display: none; }}
.fig .sq.plus circle {{ fill: {PLUS}; }} .fig .sq.minus path {{ fill: {MINUS}; }}
.fig .low {{ fill: none; stroke: {PLUS}; stroke-width: 2; stroke-dasharray: 7 4; }}
.fig .up {{ fill: none; stroke: {MINUS}; stroke-width: 2; stroke-dasharray: 7 4; }}
.fig .boundline {{ stroke: {BOUND}; stroke-width: 2; }}
.fig .kline {{ stroke: #000; stroke-width: 1; stroke-dasharray: 2 3; }}
.fig .note {{ fill: {MINUS}; font-weight: 600; }}
/* the projector theme (presenter mode, unless the lecturer turned it off): lines and marks
   thicker, tints and grid stronger, for a washed-out projector seen from the back row */
.lec.projector .fig .wline, .lec.projector .fig .warrow {{ stroke-width: 5; }}
.lec.projector .fig .points .minus {{ stroke-width: 4.5; }}
.lec.projector .fig .points .plus {{ stroke-width: 1.5; }}
.lec.projector .fig .shown, .lec.projector .sw .swring,
.lec.projector .fig .asked {{ stroke-width: 4.5; }}
.lec.projector .fig .wstar, .lec.projector .fig .bound, .lec.projector .fig .low,
.lec.projector .fig .up, .lec.projector .fig .w .curve,
.lec.projector .fig .boundline {{ stroke-width: 3.5; }}
.lec.projector .fig .ring, .lec.projector .fig .band {{ stroke-width: 2; }}
.lec.projector .fig .half.plus, .lec.projector .fig .half.minus {{ fill-opacity: 0.16; }}
.lec.projector .fig .grid line {{ stroke: #d6d6d6; }}
.lec.projector .fig .grid line.axis {{ stroke: #555; }}
.lec.projector .fig .frame {{ stroke: #8a8a8a; }}
.lec.projector .fig text {{ fill: #000; }}
.lec.projector .fig .grid text {{ fill: #222; }}
@media (prefers-reduced-motion: reduce) {{ .lec * {{ transition: none !important;
  animation: none !important; }} }}
"""

_player = component_code.component("perceptron.lecture", js=_JS, css=_CSS)
# the offline file (ui.lecture.export) inlines the same player and the same styles; the
# light page (ui.lecture.light) loads the live page's own files
PLAYER_JS, PLAYER_CSS = _OWN_JS, _CSS
LIVE_PLAYER_JS = _JS

# The scene rides on a component of its own, mounted outside the fragment that hears
# the browser's reports: a report then re-sends the step (a few bytes), not the scene
# (about 85 kB a window, JSON-encoded on every mount). It draws nothing; player.js
# reads the scene it leaves in the page's shared state.
_SCENE_JS = """
export default function (component) {
  const S = (window.__perceptronLecture ||= {});
  const raw = component.data; // UTF-8 JSON bytes (runs.scene), parsed once per change
  if (!raw || raw === S.sceneRaw) return;
  const d = raw instanceof Uint8Array ? JSON.parse(new TextDecoder().decode(raw)) : raw;
  if (!d || !d.steps) return;
  S.sceneRaw = raw;
  S.scene = d;
  if (S.onScene) S.onScene();
}
"""
PRESENTER_KEY = "lec_presenter_on"  # the container the page draws in presenter mode
# The page's own CSS, in the document (not in a shadow root), from this component's
# definition: no st.html, so no markup reaches the page from a run. The carrier takes
# no room.
_PAGE_CSS = """
.st-key-lec_scene { display: none; }
"""
# In presenter mode (the page mounts it with the container keyed PRESENTER_KEY): no
# sidebar and no header (the player's button or P leaves it), little padding and every
# font a step larger (rem-based: all of the page). Mounted only then, so its rules need no
# ``html:has(...)`` marker, which would restyle the whole document on every layout.
presenter_style = page_style(
    "lec_presenter",
    f"""
html {{ font-size: {PRESENTER_FONT}; }}
section{testid("stSidebar")},
{testid("stExpandSidebarButton")},
header{testid("stHeader")} {{ display: none !important; }}
{testid("stMainBlockContainer")} {{
  padding: 0.6rem 1.2rem 1rem !important; max-width: 100% !important; }}
{testid("stCaptionContainer")} {{ font-size: 0.95rem; }}
""",
)
_scene = st.components.v2.component(
    "perceptron_lecture_scene", js=_SCENE_JS, css=_PAGE_CSS, isolate_styles=False
)


def window(t: int, n_steps: int) -> tuple[int, int]:
    """The first and last step of the scene that shows step t (t is in it)."""
    start = min((t // WINDOW) * WINDOW, max(0, n_steps - WINDOW))
    return start, min(start + WINDOW, n_steps)


def forget_scene(session: Session) -> None:
    """A full run starts: the scene of the run before may never reach the browser."""
    session[SENT] = None


def sent_scene(session: Session, run_id: str, start: int, stop: int) -> None:
    """This full run sent the scene of steps start..stop of run ``run_id``."""
    session[SENT] = (run_id, start, stop)


def scene_window(session: Session, run_id: str, t: int) -> tuple[int, int] | None:
    """The window (start, stop) of the scene the browser holds, if it shows step ``t`` of
    run ``run_id``; None when the page must be drawn again: another run or window, a
    scene that may not have arrived, or the presenter switch (a new layout)."""
    flip = session.pop(PRESENTER_FLIP, False)
    resend = session.pop(RESEND, False)
    sent = session.get(SENT)
    if flip or resend or sent is None or sent[0] != run_id or not sent[1] <= t <= sent[2]:
        return None
    return int(sent[1]), int(sent[2])


def _int(value: Any, lo: int, hi: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return None
    if value in (float("inf"), float("-inf")):
        return None
    return int(min(max(value, lo), hi))


def on_event(session: Session, value: Any, *, n_steps: int) -> None:
    """The browser shows step ``value["t"]``: make it the step. Malformed values change
    nothing. ``value["seq"]`` numbers the report (the browser keeps steps the server
    has not heard of yet); ``value["play"]`` asks the next window to play on. A class's
    lecturer's browser also says whether it plays (``"rate"`` steps a second from step
    ``"from"``, ``"elapsed"`` seconds ago), which the followers' players follow; a
    follower's browser playing along with the lecturer asks for the next window
    (``"follow": true``), and its step is the lecturer's, not its own
    (``ui.classmode.follow.play_along``)."""
    if not isinstance(value, dict):
        return
    t = _int(value.get("t"), 0, n_steps)
    seq = _int(value.get("seq"), -1, MAX_SEQ + 1)
    if t is None or seq is None or not 0 <= seq <= MAX_SEQ:
        return  # a browser numbers its reports 1, 2, 3, ...: no other number is its
    session[SEQ] = max(seq, int(session.get(SEQ, 0)))
    if value.get("follow") is True and class_follow.following(session):
        return  # the page's run takes the lecturer's step now
    # a follower's page that drew the lecturer's change n by itself, then moved on its own
    class_follow.caught_up(session, value.get("n"))
    go_to(session, t)
    class_follow.lead_play(session, value.get("from"), value.get("rate"), value.get("elapsed"))
    if value.get("play") is True and t < n_steps:
        session[PLAY] = int(session.get(PLAY, 0)) + 1


def tab_key(session: Session) -> str:
    """The key this session's page posts its own steps under, open in this process."""
    key = session.get(TAB)
    if not isinstance(key, str):
        key = session[TAB] = secrets.token_hex(16)
    reports.REPORTS.open(key)
    return key


def take_report(session: Session, n_steps: int = MAX_SEQ) -> None:
    """The step the page posted since the session's last run, if of the run it still shows:
    made the step as a report through the session would (:func:`on_event`)."""
    key = session.get(TAB)
    if not isinstance(key, str) or (found := reports.REPORTS.take(key)) is None:
        return
    if found.run == session.get(RUN) and found.seq > int(session.get(SEQ, 0)):
        on_event(session, {"t": found.t, "seq": found.seq}, n_steps=n_steps)


def step_now(session: Session, t: int) -> Callable[[], int]:
    """What tells, later and in any thread, the step the page shows: its latest post since
    this run (which is at step ``t``), else ``t``. The offline file opens at it."""
    key, run, seq = session.get(TAB), session.get(RUN), int(session.get(SEQ, 0))

    def now() -> int:
        found = reports.REPORTS.peek(key) if isinstance(key, str) else None
        return t if found is None or found.run != run or found.seq <= seq else found.t

    return now


def post_to() -> str:
    """Where a page posts its own steps: the reports' route under the server's base path."""
    return reports.path(str(st.get_option("server.baseUrlPath") or ""))


def on_presenter(session: Session, value: Any) -> None:
    """The presenter switch in the player (or the P key): turn presenter mode on/off."""
    if isinstance(value, dict) and isinstance(value.get("on"), bool):
        session["app_presenter"] = value["on"]
        session[widget_key("app_presenter")] = value["on"]  # the sidebar's switch agrees
        session[PRESENTER_FLIP] = True


def carry(scene: bytes) -> None:
    """Send the scene (``runs.scene``: a window of steps as UTF-8 JSON) to the browser;
    call it outside the fragment that mounts :func:`player`, so a report does not send
    it again."""
    _scene(key="lec_scene", data=scene)


def player(
    session: Session,
    *,
    t: int,
    n_steps: int,
    window_now: tuple[int, int],
    run_id: str,
    presenter: bool,
    asked: tuple[int, int] | None = None,
    summary: str = "",
    lead: bool = False,
    along: class_follow.Play | None = None,
    follow: dict[str, Any] | None = None,
    post: str | None = None,
    remote: int | None = None,
) -> None:
    """Mount the instrument at step ``t`` of the scene ``carry`` sent (run ``run_id``,
    window ``window_now``); ``asked`` (step, point): the class's open question, marked on
    the chart at that step; ``summary``: the run's settings, which presenter mode shows
    under the status line (its widgets are hidden); ``lead``: a class's lecturer, whose
    browser reports Play as it starts and stops; ``along``: the lecturer's Play a follower's
    browser plays along with (``ui.classmode.follow.play_along``), and the lecturer's own
    plays on; ``follow``: a follower's (``ui.classmode.follow.live_follow``), whose browser
    draws the lecturer's next step itself when the live channel tells of it; ``post``: the
    route a student stepping alone posts the step to (:func:`post_to`), None to report
    through the session (a class's page, the mistake log open: they redraw with the step);
    ``remote``: the lecturer's, the number of the remote's last press before this draw
    (the browser does each later press it hears on the live channel: Step, Play, ...).

    ``sent`` is this server's clock as the step is sent: the browser compares it with its own
    clock only to see how much later than the quickest message so far this one arrived (a
    page run, a busy moment), which it adds to the Play's elapsed time."""

    def handle(event: str, value: Any) -> None:
        if event == "at":
            on_event(session, value, n_steps=n_steps)
        elif event == "scene":
            session[RESEND] = True  # a forged ask costs what a step outside the window does
        elif event == "live":
            live.asked_for(session, "lecture")  # the lecturer's change: follow_here reads the room
        else:
            on_presenter(session, value)

    start, stop = window_now
    now = time.time()
    # the first event of each kind in a message is read, and only if it is the size of a report
    callbacks = guard.component_callbacks(
        session, "lec_player", ("at", "presenter", "scene", "live"), handle
    )
    _player(
        key="lec_player",
        data={
            "t": t,
            "seq": int(session.get(SEQ, 0)),
            "run": run_id,
            "start": start,
            "stop": stop,
            "presenter": presenter,
            # the projector theme: thicker lines and marks, stronger tints (_CSS's .projector)
            "projector": presenter and bool(session.get("app_projector", True)),
            "play": int(session.get(PLAY, 0)),
            "asked": None if asked is None else [int(asked[0]), int(asked[1])],
            "summary": summary,
            "lead": lead,
            "along": None if along is None else along.sent(now),
            "follow": follow,
            "post": None if post is None else {"url": post, "k": tab_key(session)},
            "remote": remote,
            "sent": round(now, 3),
            # a rerun of the instrument alone (a report, the push), whose delay is the
            # network's: the page judges its lateness by these (player.js's lateness)
            "quick": guard.fragment_rerun(),
        },
        **callbacks,
    )

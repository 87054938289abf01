"""The margin lab's numbers: w*, γ, R, the bound and the perceptron's mistakes on the
drawn points, and how an edit from the drawing surface reaches the shared dataset.

``analyse`` and friends are pure (numpy + the engine); ``cached_*`` wrap them in
``ui.server.cache`` (every session gets its own copy of a result, within a byte budget).
``apply_event`` works on any mutable mapping, so the event -> dataset path is tested with a dict.

With bias the perceptron runs on ``z = (x, c)``: the bias is the constant feature
``c`` appended last (seeds 003 and 004 use c = 1), so R, γ and the bound are
those of the space the algorithm actually runs in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from perceptron_core import MaxMargin, NotSeparableError, Trace, max_margin, train
from ui.app.state import MAR_MODES, MAX_EPOCHS, MAX_STEPS, Session, passes_within, session_key
from ui.look.geometry import Box, view_box
from ui.look.numbers import count, number, signed
from ui.look.text import lesson_text
from ui.margin import edits
from ui.server.cache import cached
from ui.words import N_, t

HISTORY = session_key("mar_history")
NOTICE = session_key("mar_notice")
TICK = session_key("mar_tick")
BOX = session_key("mar_box")
LOG = session_key("mar_log")
PRESET = session_key("mar_preset")
SIDEBAR = session_key("mar_sidebar")
SHOWN = session_key("mar_shown")
TABLE = session_key("mar_table")
EDIT = session_key("mar_edit")
CUSTOM = session_key("data_custom")
DRAWN = "drawn in the margin lab"
ORDERS = 20  # shuffled orders the perceptron is also run in
MAX_LOGGED = 200  # edits the chart of edits shows (the last ones; its title says so)


def features(X: np.ndarray, bias: bool, c: float) -> np.ndarray:
    """The vectors the perceptron sees: x, or (x, c) with the bias feature c last."""
    if not bias:
        return np.ascontiguousarray(X, dtype=np.float64)
    return np.column_stack([X, np.full(len(X), float(c))])


def in_plane(w: np.ndarray, bias: bool, c: float) -> np.ndarray:
    """(a, b, d) with the classifier's line a·x1 + b·x2 + d = 0 in the plane."""
    return np.array([w[0], w[1], w[2] * c if bias else 0.0], dtype=np.float64)


@dataclass(frozen=True, eq=False)
class Analysis:
    """Everything the page shows about one dataset and one setting of the bias."""

    X: np.ndarray  # (n, 2) the drawn points
    y: np.ndarray  # (n,)
    bias: bool
    c: float  # the bias feature's value (only with bias)
    Z: np.ndarray  # (n, d') what the perceptron sees
    trace: Trace  # the perceptron from w = 0, η = 1, in the given order
    mm: MaxMargin | None  # None when not separable
    reason: str | None  # why not separable, in words
    orders: tuple[int, int] | None  # fewest and most mistakes in ORDERS shuffled orders
    orders_cut: int  # how many of those runs stopped at the limit (their M is a lower bound)
    r_plane: float  # max ‖x‖ of the drawn points (the circle in the plane)

    @property
    def M(self) -> int:
        return self.trace.n_mistakes

    @property
    def cut(self) -> bool:
        """The run stopped at its limit of passes, so M is a lower bound, not the count."""
        return not self.trace.converged

    def functional(self, w: np.ndarray) -> np.ndarray:
        """y·w·z for every point (seed 001's functional margin)."""
        return np.asarray(self.y * (self.Z @ w))

    def geometric(self, w: np.ndarray) -> np.ndarray | None:
        """y·w·z / ‖w‖ for every point (seed 001's geometric margin); None if w = 0."""
        norm = float(np.linalg.norm(w))
        return None if norm == 0.0 else self.functional(w) / norm


PASSES_HELP = N_(
    "Where the points are separable the perceptron runs until a pass makes no mistake "
    "(at most {epochs} passes and {steps} steps), so M is the whole count; "
    "this limit stops it on points that are not separable."
)


def passes_help() -> str:
    """The help of the lab's limit of passes, in this run's language."""
    return t(PASSES_HELP).format(epochs=number(MAX_EPOCHS), steps=number(MAX_STEPS))


def bound_sentence(an: Analysis) -> str:
    """M against the bound, and M in shuffled orders, each said as a lower bound where its
    run stopped at the limit (separable points only)."""
    assert an.mm is not None and an.orders is not None
    bound = number(an.mm.bound)
    if an.cut:
        head = t(
            "M ≥ **{M}**: the perceptron has not converged after {passes}, the most the lab "
            "runs on {points}. The theorem's bound is (R/γ)² = **{bound}**."
        ).format(
            M=number(an.M),
            passes=count(an.trace.n_epochs, "pass"),
            points=count(len(an.y), "point"),
            bound=bound,
        )
    else:
        head = t("M = **{M}** ≤ (R/γ)² = **{bound}** (the last of {passes} made no mistake).")
        head = head.format(M=number(an.M), bound=bound, passes=count(an.trace.n_epochs, "pass"))
    lo, hi = (number(k) for k in an.orders)
    if an.orders_cut == 0 and lo == hi:
        tail = t(
            "In {orders} shuffled orders M was {lo} every time: the bound holds for every order."
        )
    elif an.orders_cut == 0:
        tail = t("In {orders} shuffled orders M was {lo} to {hi}: the bound holds for every order.")
    elif lo == hi:
        tail = t(
            "In {orders} shuffled orders M was {lo} every time; {cut} of these runs had not "
            "converged at the limit, so their counts are only lower bounds."
        )
    else:
        tail = t(
            "In {orders} shuffled orders M was {lo} to {hi}; {cut} of these runs had not "
            "converged at the limit, so their counts are only lower bounds."
        )
    tail = tail.format(orders=ORDERS, lo=lo, hi=hi, cut=an.orders_cut)
    return f"{head} {tail}"


def band_half_width(an: Analysis) -> float | None:
    """How far the dashed band lines w*·z = ±γ lie from w*'s solid line in the plane.

    Along the plane's normal (w₁*, w₂*) a step of length h changes w*·z by h·‖(w₁*, w₂*)‖,
    so the half-width is γ/‖(w₁*, w₂*)‖. Without bias w* lies in the plane (‖w*‖ = 1) and it
    is γ itself; with bias it is at least γ, and more whenever w₃* ≠ 0, that is whenever the
    line misses the origin. None without a w*, or when w* has no line in the plane (it lies
    along the c axis: every point has the same label).
    """
    if an.mm is None:
        return None
    share = float(np.linalg.norm(an.mm.w_star[:2]))
    return an.mm.gamma / share if share > 1e-12 else None


def band_sentence(an: Analysis) -> str:
    """γ next to the band's half-width in the plane, for the text under "What you see"."""
    half = band_half_width(an)
    if an.mm is None or half is None:
        return ""
    gamma = number(an.mm.gamma)
    if not an.bias:
        return t("Here γ = {gamma}, the band's half-width in the plane is {half}.").format(
            gamma=gamma, half=number(half)
        )
    return t(
        "Here γ = {gamma} is measured on the vectors (x, {c}); the band's "
        "half-width in the plane is {half}."
    ).format(gamma=gamma, c=number(an.c), half=number(half))


def analyse(X: np.ndarray, y: np.ndarray, *, bias: bool, c: float, max_epochs: int) -> Analysis:
    """Run the perceptron on (X, y) and find w*, γ, R (or why there are none).

    On separable points M is counted as the lesson defines it, pass after pass until a
    pass makes no mistake: the run may take up to MAX_EPOCHS passes (and MAX_STEPS steps),
    whatever ``max_epochs`` says, which only stops a run on points that are not separable.
    A run that reaches its limit is marked (``cut``) and shown as a lower bound.
    """
    Z = features(X, bias, c)
    orders, orders_cut = None, 0
    try:
        mm: MaxMargin | None = max_margin(Z, y, bias=False)
        reason = None
    except NotSeparableError as exc:  # no bound to hold: no need for other orders
        mm, reason = None, str(exc)
        if bias:  # the engine's sentence speaks of lines "through the origin" of (x, c)-space
            reason = reason.replace(" through the origin", "")
    passes = run_passes(len(y), mm is not None, max_epochs)
    trace = train(Z, y, bias=False, max_epochs=passes)
    if mm is not None:
        runs = [train(Z, y, bias=False, max_epochs=passes, seed=s) for s in range(ORDERS)]
        counts = [r.n_mistakes for r in runs]
        orders = (min(counts), max(counts))
        orders_cut = sum(not r.converged for r in runs)
    r_plane = float(np.linalg.norm(X, axis=1).max())
    return Analysis(X, y, bias, float(c), Z, trace, mm, reason, orders, orders_cut, r_plane)


def mistakes_until_done(
    Z: np.ndarray, y: np.ndarray, *, separable: bool, max_epochs: int
) -> tuple[int, bool]:
    """The perceptron's mistakes on Z from w = 0 in the given order, and whether the run
    converged. Separable points run to convergence as in :func:`analyse`; others stop
    after ``max_epochs`` passes."""
    trace = train(Z, y, bias=False, max_epochs=run_passes(len(y), separable, max_epochs))
    return trace.n_mistakes, trace.converged


def run_passes(n: int, separable: bool, max_epochs: int) -> int:
    """The lab's limit of passes over n points: separable points run until a pass makes no
    mistake (MAX_EPOCHS at most), others ``max_epochs``; within MAX_STEPS steps either way."""
    return passes_within(n, MAX_EPOCHS if separable else max_epochs)


@dataclass(frozen=True)
class ConstantRow:
    """The bound for one value of the bias feature c."""

    c: float
    R: float  # √(max‖x‖² + c²)
    gamma_fixed: float  # γ of the one fixed line, written as (w, b/c)
    bound_fixed: float
    gamma_best: float | None  # γ of w*(c), the best separator in (x, c)-space
    bound_best: float | None
    M: int  # the perceptron's mistakes on (x, c)
    M_cut: bool = False  # the run stopped at its limit: M is a lower bound


def constant_sweep(
    X: np.ndarray, y: np.ndarray, line: np.ndarray, cs: tuple[float, ...], max_epochs: int
) -> list[ConstantRow]:
    """How R, γ and the bound move with c while one classifier stays put.

    ``line`` is (a, b, d): the fixed classifier sign(a·x1 + b·x2 + d). With the
    constant c it is the vector w = (a, b, d/c) in (x, c)-space: the same line,
    the same predictions, for every c > 0 — but ‖w‖ and R, and so γ and the
    bound, change with c.
    """
    r2 = float((X**2).sum(axis=1).max())
    score = y * (X @ line[:2] + line[2])  # y·(w·x + b): the same for every c
    out = []
    for c in cs:
        R = float(np.sqrt(r2 + c * c))
        norm = float(np.hypot(np.hypot(line[0], line[1]), line[2] / c))
        gamma = float(score.min()) / norm
        Z = features(X, True, c)
        g_best, b_best = _best_margin(Z, y)
        M, done = mistakes_until_done(Z, y, separable=g_best is not None, max_epochs=max_epochs)
        bound = (R / gamma) ** 2 if gamma > 0 else np.inf
        out.append(ConstantRow(c, R, gamma, bound, g_best, b_best, M, not done))
    return out


def _best_margin(Z: np.ndarray, y: np.ndarray) -> tuple[float | None, float | None]:
    """γ and (R/γ)² of the max-margin separator of the vectors Z as given (None, None:
    not separable)."""
    try:
        mm = max_margin(Z, y, bias=False)
    except NotSeparableError:
        return None, None
    return mm.gamma, mm.bound


@dataclass(frozen=True)
class ScaledRow:
    s: float
    R: float
    gamma: float | None
    bound: float | None
    M: int
    M_cut: bool = False  # the run stopped at its limit: M is a lower bound


def scaling_rows(
    Z: np.ndarray, y: np.ndarray, scales: tuple[float, ...], max_epochs: int
) -> list[ScaledRow]:
    """R, γ, (R/γ)² and M when every vector z (bias feature included) is multiplied by s."""
    rows = []
    for s in scales:
        Zs = Z * s
        gamma, bound = _best_margin(Zs, y)
        R = float(np.linalg.norm(Zs, axis=1).max())
        M, done = mistakes_until_done(Zs, y, separable=gamma is not None, max_epochs=max_epochs)
        rows.append(ScaledRow(s, R, gamma, bound, M, not done))
    return rows


cached_analysis = cached(max_mb=16, heavy=True)(analyse)
cached_sweep = cached(max_mb=4, heavy=True)(constant_sweep)
cached_scaling = cached(max_mb=4, heavy=True)(scaling_rows)


def steady_box(X: np.ndarray, previous: Box | None) -> Box:
    """The drawing area: the previous one while every point is well inside it and it is
    not far too big, else a fresh square around the data and the origin."""
    fresh = view_box(X)
    if previous is None:
        return fresh
    w = previous.x1 - previous.x0
    inner = 0.03 * w
    inside = (
        (X[:, 0] >= previous.x0 + inner).all()
        and (X[:, 0] <= previous.x1 - inner).all()
        and (X[:, 1] >= previous.y0 + inner).all()
        and (X[:, 1] <= previous.y1 - inner).all()
    )
    if inside and w <= 2.5 * (fresh.x1 - fresh.x0):
        return previous
    return fresh


def sync(session: Session, X: np.ndarray, y: np.ndarray, name: str, custom: bool) -> edits.History:
    """The history of the shared dataset (X, y): kept if it still is its present, else
    started afresh (another dataset was chosen or uploaded), which also becomes the preset."""
    old = session.get(HISTORY)
    new = edits.rebase(old, X, y)
    if new is not old:
        session[HISTORY] = new
        session[PRESET] = (new.present, name if custom else None)
        session.pop(LOG, None)
        session.pop(SHOWN, None)  # other data: no change to show against the last picture
    return new


def sidebar_says(session: Session, history: edits.History) -> tuple[bool, str | None, int]:
    """What the shared sidebar shows about the data: whether they are custom, their name and
    size. A drop that changes it needs a full rerun; one that does not (a move, a flip of
    drawn points) reruns only the page's fragment."""
    custom = session.get(CUSTOM)
    return (custom is not None, custom[2] if custom is not None else None, len(history.present))


def publish(session: Session, history: edits.History) -> None:
    """Make the present points the shared dataset, so the lecture page steps through them.

    Back at the preset, the preset itself is shared again (the generated data, with
    their controls in the sidebar, or the uploaded file under its own name).
    """
    p = history.present
    preset, preset_name = session.get(PRESET, (None, None))
    if preset is not None and preset.same(p.X, p.y):
        if preset_name is None:
            session.pop(CUSTOM, None)
        else:
            session[CUSTOM] = (np.array(p.X), np.array(p.y), preset_name)
    else:
        session[CUSTOM] = (np.array(p.X), np.array(p.y), DRAWN)
    # the lecture restarts on the new data by itself (ui.lecture.restart.follow)


Numbers = tuple[float | None, float, float | None, int]  # γ, R, bound, M


def numbers(an: Analysis) -> Numbers:
    mm = an.mm
    if mm is None:
        return None, float(np.linalg.norm(an.Z, axis=1).max()), None, an.M
    return mm.gamma, mm.radius, mm.bound, an.M


def before_last_edit(
    session: Session, settings: tuple[Any, ...], version: int, now: Numbers
) -> Numbers | None:
    """The numbers shown before the last edit under the same settings (for the deltas)."""
    shown = session.get(SHOWN)
    prev = None
    if shown is not None and shown[0] == settings:
        prev = shown[2] if shown[1] != version else shown[3]
    session[SHOWN] = (settings, version, now, prev)
    return prev


# The theorem's numbers as the lab shows them: (key, label, which way is good: +1 up, −1 down)
READOUTS = (
    ("gamma", N_("margin γ"), 1),
    ("R", N_("radius R"), 0),
    ("bound", N_("bound (R/γ)²"), -1),
    ("M", N_("mistakes M"), -1),
)


def _shown(key: str, v: float | None) -> str:
    if v is None:
        return "—"
    return number(int(v)) if key == "M" else number(v)


def readouts(now: Numbers, prev: Numbers | None, *, cut: bool = False) -> list[dict[str, Any]]:
    """γ, R, the bound and M as shown, each with its change since the last edit; M as
    "≥ M" when ``cut`` (its run stopped at the limit before converging).

    Rebuilt from the numbers of the data on show after every edit, undo, redo, reset
    and upload. A change shows only where the number on show changed: a γ that moved
    by 3e−15 (rounding noise of the solver) shows no arrow.
    """
    before = prev if prev is not None else (None,) * len(now)
    out = []
    for (key, label, good), a, b in zip(READOUTS, now, before, strict=True):
        value = _shown(key, a)
        if key == "M" and cut:
            value = f"≥ {value}"
        delta = None
        if a is not None and b is not None and _shown(key, b) != value:
            d = float(a) - float(b)
            delta = {
                "text": signed(d),
                "up": d > 0,
                "good": None if good == 0 else (d > 0) == (good > 0),
            }
        out.append({"key": key, "label": t(label), "value": value, "delta": delta})
    return out


def set_mode(session: Session, payload: Any) -> None:
    """The surface's mode buttons: what a tap does (one of ``MAR_MODES``), or nothing."""
    mode = payload.get("mode") if isinstance(payload, Mapping) else None
    if isinstance(mode, str) and mode in MAR_MODES:
        session["mar_mode"] = mode


def on_surface(session: Session, event: str, payload: Any) -> None:
    """One event from the drawing surface: a mode button, or an edit.

    The surface numbers its edits (``payload["e"]``) and sends one again when no redraw
    came (a rerun Streamlit dropped): an edit whose number was acted on already is not
    applied twice (the second would be refused as made on an older picture)."""
    if event == "mode":
        set_mode(session, payload)
        return
    number = payload.get("e") if isinstance(payload, Mapping) else None
    if isinstance(number, int) and not isinstance(number, bool):
        if number == session.get(EDIT):
            return
        session[EDIT] = number
    apply_event(session, event, payload)


def log_edit(
    session: Session, settings: tuple[Any, ...], version: int, an: Analysis
) -> list[tuple[int, float, float, int, bool]]:
    """Record (version, γ, bound, M, M cut) once per version for the chart of the last
    MAX_LOGGED edits."""
    kept = session.get(LOG)
    entries: list[tuple[int, float, float, int, bool]] = (
        list(kept[1]) if kept is not None and kept[0] == settings else []
    )
    if an.mm is not None and (not entries or entries[-1][0] != version):
        entries.append((version, an.mm.gamma, an.mm.bound, an.M, an.cut))
        entries = entries[-MAX_LOGGED:]
    session[LOG] = (settings, entries)
    return entries


def explain(title: str) -> str:
    """The section of assets/margin.md under the heading ``## title``."""
    return lesson_text("margin")[title]


def apply_event(session: Session, event: str, payload: Any) -> edits.Result:
    """Apply one edit to the session: the reducer, then the shared dataset if it changed."""
    history = session.get(HISTORY)
    if history is None:  # pragma: no cover - the page sets it before drawing any control
        return edits.Result(edits.start(np.zeros((1, 2)), np.ones(1)), error=t("No data yet."))
    result = edits.reduce(history, event, payload, box=session.get(BOX))
    session[TICK] = int(session.get(TICK, 0)) + 1
    session[NOTICE] = (result.error, result.note)
    if result.history is not history:
        session[HISTORY] = result.history
        publish(session, result.history)
    return result


def refuse(session: Session, sentence: str) -> None:
    """A browser message the lab did not read: say so, and redraw the surface as it was."""
    session[TICK] = int(session.get(TICK, 0)) + 1
    session[NOTICE] = (sentence, None)


def table_key(session: Session, version: int) -> str:
    """The table editor's key: new for every version of the data and after every table
    event, so an edit the lab refused is not sent back (and re-applied) on every rerun."""
    return f"mar_table_{version}_{int(session.get(TABLE, 0))}"


def table_event(session: Session, key: str) -> None:
    """Apply the table editor's delta, then give the next table a fresh key."""
    session[TABLE] = int(session.get(TABLE, 0)) + 1
    apply_event(session, "table", session.get(key))


POINTS_COLUMNS = {
    "x1": st.column_config.NumberColumn("x1", required=True, default=0.0, format="%.3f"),
    "x2": st.column_config.NumberColumn("x2", required=True, default=0.0, format="%.3f"),
    "y": st.column_config.SelectboxColumn("y", options=[1, -1], required=True, default=1),
}

"""The lecture chart as a scene: a run in, a JSON-ready dict out (no Streamlit here).

The browser draws the scene itself (``player.js``: an SVG of our own, no Plotly):
the data panel with the current line w·x = 0, and the proof's three panels
(Claim 1, Claim 2, the squeeze). A scene holds one *window* of steps of a run:
what stays (the points, w*, the γ band, the bounds, the claims' axes) once, and
for each step t of the window what moves (the line, the half-planes, the arrow w,
the example just shown, the status line, the update's numbers and a sentence
for screen readers). So Step, Back, Play and the scrubber move the chart, the
status and the math together in the browser, with nothing sent to the server,
and every number on the screen is written here, by :func:`ui.look.numbers.number`.

Counting is the handouts': epochs, examples and points from 1; step t is the
number of examples shown so far (t = 0: none yet, w = w0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from perceptron_core import RULES, augment, mistakes, start_bound
from ui import words
from ui.compute.model import Run
from ui.lecture.sentences import line_said, shown_said
from ui.look.geometry import Box, boundary_segment, halfplane, view_box
from ui.look.numbers import count, number, spoken, vector_text
from ui.words import t

MAX_CURVE_POINTS = 300  # longer per-mistake curves are thinned for drawing
SQUEEZE_POINTS = 80  # the squeeze's two bounding curves, sampled


def _r(values: Any) -> Any:
    """Coordinates rounded to 4 decimals (a pixel is far coarser), as plain lists."""
    return np.round(np.asarray(values, dtype=float), 4).tolist()


def _thin(k: int) -> np.ndarray:
    """Indices 0..k, at most MAX_CURVE_POINTS of them, always with both ends."""
    if k + 1 <= MAX_CURVE_POINTS:
        return np.arange(k + 1)
    return np.unique(np.linspace(0, k, MAX_CURVE_POINTS).round().astype(int))


def epoch_and_example(t: int, n: int) -> tuple[int, int]:
    """The epoch (from 1) and the example within it (from 1) of the t-th example shown.

    Step t = 4 with n = 4 is the 4th example of epoch 1 (not "epoch 2"); t = 0 is
    epoch 1 with no example shown yet (example 0).
    """
    if t <= 0:
        return 1, 0
    return (t - 1) // n + 1, (t - 1) % n + 1


def _titles(eta: float) -> dict[str, str]:
    """The panels' titles: with a step size η ≠ 1 each mistake moves w·w* by at least ηγ
    and ‖w‖² by at most η²R² (``proof_curves``' lower and upper), and the squeeze plots
    w·w*/η and ‖w‖/η against kγ and R√k."""
    if eta == 1:
        return {
            "data": t("data, the current line w·x = 0 and w"),
            "claim1": t("Claim 1: w·w* grows by at least γ per mistake"),
            "claim2": t("Claim 2: ‖w‖² grows by at most R² per mistake"),
            "squeeze": t("the squeeze: kγ ≤ w·w* ≤ ‖w‖ ≤ R√k"),
        }
    rate = spoken(f"{eta:g}")
    return {
        "data": t("data, the current line w·x = 0 and w"),
        "claim1": t("Claim 1: w·w* grows by at least ηγ per mistake (η = {eta})").format(eta=rate),
        "claim2": t("Claim 2: ‖w‖² grows by at most η²R² per mistake (η = {eta})").format(eta=rate),
        "squeeze": t("the squeeze: kγ ≤ w·w*/η ≤ ‖w‖/η ≤ R√k"),
    }


# --- the scene -----------------------------------------------------------------------


def lecture_scene(run: Run, *, start: int, stop: int, data_name: str) -> dict[str, Any]:
    """The chart, status and math for steps ``start..stop`` of ``run``, JSON-ready.

    Parameters
    ----------
    run : Run
        A recorded run (``record_steps=True``).
    start, stop : int
        The window: ``0 <= start <= stop <= run.trace.n_steps``.
    data_name : str
        The dataset's name as the student gave it: plain text, the browser
        writes it with ``textContent`` (never as markup).

    Returns
    -------
    dict
        ``steps`` (one view per t in start..stop, :func:`step_view`) and what
        stays: ``panels`` (title, ranges, labels), ``points``, ``wstar``,
        ``band``, ``ring``, the claims' and the squeeze's curves, ``facts``
        (γ, R, the bound) and the next mistake after the window (``after``).
    """
    trace = run.trace
    T = trace.n_steps
    if not 0 <= start <= stop <= T:
        raise ValueError(f"the window must lie in 0..{T}, not {start}..{stop}")
    box = view_box(run.X)
    shown = trace.mistakes_before(stop)  # the claims' axes reach the window's last step
    ranges = _ranges(run, shown)
    ts = trace.mistake_steps[:, 0]
    later = ts[ts >= stop]
    scene: dict[str, Any] = {
        "name": str(data_name)[:80],
        "T": T,
        "n": trace.n_examples,
        "start": start,
        "stop": stop,
        "after": int(later[0]) + 1 if later.size else T,  # Next mistake from the window's end
        "eta": number(trace.eta),  # as written
        "eta_value": trace.eta,  # to divide by
        "bias": trace.bias,
        "facts": facts(run),
        "panels": _panels(run, box, ranges),
        "points": _points(run),
        **_fixed_lines(run, box),
        **_curves(run, shown),
        "steps": [step_view(run, t, box) for t in range(start, stop + 1)],
    }
    return scene


def facts(run: Run) -> list[str]:
    """The status line's constant part: γ, R and the bound, or why there is none."""
    if run.mm is None:
        return [t("not separable: no w*, no bound")]
    mm = run.mm
    out = [
        f"γ = {number(mm.gamma)}",
        f"R = {number(mm.radius)}",
        t("bound (R/γ)² = {bound}").format(bound=number(mm.bound)),
    ]
    if run.curves is not None and _squeeze(run).from_start:
        out.append(t("bound from w₀ = {bound}").format(bound=number(_squeeze(run).bound)))
    return out


def end_text(run: Run, t: int) -> str:
    """How the run ended, at its last step; "" before it."""
    trace = run.trace
    if t < trace.n_steps:
        return ""
    if trace.converged:
        w = trace.w_before(t)
        unsure = int(_undecided(run, w).sum())
        rule = words.t(RULES[trace.rule].short)
        if not w.any():
            return words.t(
                "end of the run: no mistake, so nothing was learned: w = 0 is never wrong "
                "under the rule “{rule}” (start from w₀ ≠ 0)"
            ).format(rule=rule)
        if unsure:
            return words.t(
                "end of the run: a pass with no mistake under the rule “{rule}”, but "
                "{points} on the line w·x = 0 (not separated)"
            ).format(rule=rule, points=count(unsure, "point"))
        return words.t("end of the run: converged (a pass with no mistake)")
    return words.t("end of the run: stopped after {epochs}").format(
        epochs=count(trace.n_epochs, "epoch")
    )


def _undecided(run: Run, w: np.ndarray) -> np.ndarray:
    """Points on the line w·x = 0 that the rule counts as no mistake though it predicts no
    label for them (the strict rule of seed 002: mistake iff y·(w·x) < 0), shape (n,)."""
    rule = RULES[run.trace.rule]
    if rule.tie_pos or rule.tie_neg:  # the other rules predict a label on the line
        return np.zeros(run.y.shape[0], dtype=bool)
    Xa = augment(run.X) if run.trace.bias else run.X
    return np.asarray(Xa @ w == 0.0)


def status(run: Run, t: int) -> list[str]:
    """The status line's parts at step t: epoch and example, step, mistakes."""
    trace = run.trace
    n, T = trace.n_examples, trace.n_steps
    epoch, example = epoch_and_example(t, n)
    where = (
        words.t("epoch {epoch}, example {example} of {n}").format(epoch=epoch, example=example, n=n)
        if t
        else words.t("no example shown yet")
    )
    return [
        where,
        words.t("step t = {t} of {T}").format(t=number(t), T=number(T)),
        words.t("mistakes k = {k}").format(k=number(trace.mistakes_before(t))),
    ]


def step_view(run: Run, t: int, box: Box | None = None) -> dict[str, Any]:
    """What the chart, the status line and the math show at step t (JSON-ready).

    ``line`` (w·x = 0 inside the view, or None), ``plus``/``minus`` (the half-planes
    predicted +1/−1), ``arrow`` (the tip of w, or None) and ``arrow_label``;
    ``shown`` (the row of the example just shown, or None) and ``mistake``;
    ``dot`` (w·w*, None without w*) and ``nsq`` (‖w‖²); ``status``, ``end``,
    ``said`` (what happened, for the chart), ``math`` (the numbers of the
    update) and ``say`` (one sentence for a screen reader).
    """
    trace = run.trace
    box = box or view_box(run.X)
    w = trace.w_before(t)
    k = trace.mistakes_before(t)
    bias = trace.bias
    drawn = bool(np.any(w[:2]))
    seg = boundary_segment(w, bias, box) if drawn else None
    view: dict[str, Any] = {
        "t": t,
        "k": k,
        "status": status(run, t),
        "end": end_text(run, t),
        "line": None if seg is None else _r(seg),
        "plus": _r(halfplane(w, bias, box, 1.0)) if drawn else [],
        "minus": _r(halfplane(w, bias, box, -1.0)) if drawn else [],
        "dot": None if run.curves is None else round(float(run.curves.w_dot_wstar[k]), 6),
        "nsq": round(float(w @ w), 6),
    }
    view["arrow"], view["arrow_label"] = _arrow(w, box)
    shown = None
    if t > 0 and trace.steps is not None:
        i = int(trace.steps.index[t - 1])
        mistake = bool(trace.steps.mistake[t - 1])
        margin = float(trace.steps.margin[t - 1])
        shown = (i, mistake, margin)
        view["shown"], view["mistake"] = i, mistake
        verdict = words.t("mistake, w updated") if mistake else words.t("correct, w kept")
        if margin == 0:  # a tie: the rule decided (the maths and the sentence name it)
            verdict = (
                words.t("w·x = 0, mistake, w updated")
                if mistake
                else words.t("w·x = 0, no mistake, w kept")
            )
        view["said"] = words.t("point {i}: {verdict}").format(i=i + 1, verdict=verdict)
    else:
        view["shown"], view["mistake"], view["said"] = None, False, ""
    view["math"] = _math(run, t)
    view["say"] = _say(run, t, w, k, shown)
    return view


def _arrow(w: np.ndarray, box: Box) -> tuple[list[float] | None, str]:
    """w's first two coordinates as an arrow from the origin, shortened to fit the view."""
    v = np.asarray(w[:2], dtype=float)
    length = float(np.hypot(*v))
    if length == 0.0:
        return None, ""
    scale = min(1.0, 0.45 * (box.x1 - box.x0) / length)
    label = "w" if scale == 1.0 else f"w (×{number(scale, 2)})"
    return _r(scale * v), label


def _math(run: Run, t: int) -> dict[str, Any]:
    """The numbers of the step just done (t − 1), written once here for the browser's
    MathML: the prediction y_i(w·x_i) and the update w ← w + η y x (or w kept)."""
    trace = run.trace
    if t == 0:
        return {"w0": [number(v) for v in trace.weights[0]]}
    s = t - 1
    assert trace.steps is not None  # a Run is recorded with record_steps=True
    i = int(trace.steps.index[s])
    x = np.append(run.X[i], 1.0) if trace.bias else run.X[i]
    mistake = bool(trace.steps.mistake[s])
    out = {
        "i": i + 1,
        "y": "+1" if run.y[i] > 0 else "−1",
        "w": [number(v) for v in trace.w_before(s)],
        "x": [number(v) for v in x],
        "m": number(float(trace.steps.margin[s]), 4),
        "mistake": mistake,
        # on a tie only the rule decides, so it is named there (the browser writes it out)
        "rule": words.t(RULES[trace.rule].short) if trace.steps.margin[s] == 0 else "",
    }
    if mistake:
        out["wa"] = [number(v) for v in trace.w_before(t)]
    return out


def _say(run: Run, t: int, w: np.ndarray, k: int, shown: tuple[int, bool, float] | None) -> str:
    """The chart in one sentence, for a screen reader: the line, how many points it
    gets right, the example just shown, and the two claims at k."""
    trace = run.trace
    n, T = trace.n_examples, trace.n_steps
    wrong = mistakes(w, run.X, run.y, bias=trace.bias, rule=trace.rule)
    unsure = int(_undecided(run, w).sum())
    right = n - int(wrong.sum()) - unsure
    head = words.t("Step t = {t} of {T}, after k = {mistakes}.").format(
        t=number(t), T=number(T), mistakes=count(k, "mistake")
    )
    rule = words.t(RULES[trace.rule].short)
    line = line_said(bool(np.any(w[:2])), unsure).format(
        w=vector_text(w), right=right, n=n, unsure=unsure, rule=rule
    )
    sentences = [head, line]
    if shown is not None:
        i, mistake, margin = shown
        sentences.append(
            shown_said(mistake, margin == 0).format(
                i=i + 1, label="+1" if run.y[i] > 0 else "−1", rule=rule
            )
        )
    c = run.curves
    if c is not None:
        sentences.append(
            words.t(
                "Claim 1: w·w* = {dot} ≥ {lower_name} = {lower}. "
                "Claim 2: ‖w‖² = {nsq} ≤ {upper_name} = {upper}."
            ).format(
                dot=number(c.w_dot_wstar[k]),
                lower_name=_lower_name(run),
                lower=number(c.lower[k]),
                nsq=number(c.w_norm_sq[k]),
                upper_name=_upper_name(run),
                upper=number(c.upper[k]),
            )
        )
    else:
        sentences.append(
            words.t(
                "Claim 2: ‖w‖² = {nsq} ≤ {upper_name} = {upper}. "
                "Not separable: no w*, so no Claim 1 and no bound."
            ).format(
                nsq=number(float(w @ w)),
                upper_name=_upper_name(run),
                upper=number(_plain_upper(run, k)),
            )
        )
    return " ".join(sentences)


def _plain_upper(run: Run, k: int) -> float:
    """Claim 2's bound ‖w₀‖² + kη²R² without a w* (R = max ‖x̃‖)."""
    trace = run.trace
    w0 = trace.weights[0]
    radius_sq = float(np.max(np.einsum("nd,nd->n", run.X, run.X)) + trace.bias)
    return float(w0 @ w0 + trace.eta**2 * k * radius_sq)


def _points(run: Run) -> dict[str, Any]:
    X, y = run.X, run.y
    out: dict[str, Any] = {"x": _r(X[:, 0]), "y": _r(X[:, 1]), "label": y.astype(int).tolist()}
    if len(y) <= 500:  # a tooltip per point: "point 4: (0.5, 1.2), y = +1"
        tip = t("point {i}: {x}, y = {y}")
        out["tip"] = [
            tip.format(i=i + 1, x=vector_text((a, b)), y="+1" if c > 0 else "−1")
            for i, (a, b, c) in enumerate(zip(X[:, 0], X[:, 1], y, strict=True))
        ]
    return out


def _fixed_lines(run: Run, box: Box) -> dict[str, Any]:
    """w* and its γ band (when there is a w*), and the ring of the farthest point."""
    bias = run.trace.bias
    out: dict[str, Any] = {"wstar": None, "band": []}
    if run.mm is not None:
        seg = boundary_segment(run.mm.w_star, bias, box)
        out["wstar"] = None if seg is None else _r(seg)
        for level in (run.mm.gamma, -run.mm.gamma):
            seg = boundary_segment(run.mm.w_star, bias, box, level)
            if seg is not None:
                out["band"].append(_r(seg))
    r_plane = float(np.linalg.norm(run.X, axis=1).max())
    out["ring"] = {"r": round(r_plane, 4), "name": ring_name(run)}
    return out


def _curves(run: Run, shown: int) -> dict[str, Any]:
    """The claims up to ``shown`` mistakes and the squeeze over the whole bound: the
    browser draws the points with k at most the step's k, nothing later."""
    trace = run.trace
    W = trace.weights
    eta = trace.eta
    ks = _thin(shown)
    out: dict[str, Any] = {}
    norm_sq = np.einsum("kd,kd->k", W[ks], W[ks])
    c = run.curves
    if c is None:
        out["claim1"] = None
        out["claim2"] = {
            "k": ks.tolist(),
            "v": _r(norm_sq),
            "bound": [
                [0, round(_plain_upper(run, 0), 4)],
                [shown, round(_plain_upper(run, shown), 4)],
            ],
        }
        out["squeeze"] = None
        return out
    out["claim1"] = {
        "k": ks.tolist(),
        "v": _r(c.w_dot_wstar[ks]),
        "bound": [[0, round(float(c.lower[0]), 4)], [shown, round(float(c.lower[shown]), 4)]],
    }
    out["claim2"] = {
        "k": ks.tolist(),
        "v": _r(c.w_norm_sq[ks]),
        "bound": [[0, round(float(c.upper[0]), 4)], [shown, round(float(c.upper[shown]), 4)]],
    }
    K = trace.n_mistakes
    sq = _squeeze(run)
    ks = _thin(shown)  # the squeeze's points too: none after the window's last step
    kk = np.linspace(0, max(sq.bound, K) * 1.08, SQUEEZE_POINTS)
    low, up = sq.names(eta)
    out["squeeze"] = {
        "k": ks.tolist(),
        "dot": _r(c.w_dot_wstar[ks] / eta),
        "norm": _r(np.sqrt(c.w_norm_sq[ks]) / eta),
        "lower": [_r(kk), _r(sq.lower(kk))],
        "upper": [_r(kk), _r(sq.upper(kk))],
        "bound": round(float(sq.bound), 4),
        "bound_text": sq.bound_text(),
        "names": [low, up],
        "per_eta": eta != 1,
    }
    return out


def _panels(
    run: Run, box: Box, ranges: dict[str, tuple[float, float, float, float]]
) -> dict[str, Any]:
    """Each panel's title, ranges, axis names and the legend line under its title."""
    eta = run.trace.eta
    titles = _titles(eta)
    per = "" if eta == 1 else "/η"
    separable = run.curves is not None and run.mm is not None
    if separable and _squeeze(run).from_start:
        low, up = _squeeze(run).names(eta)
        titles["squeeze"] = t("the squeeze from w₀: {low} ≤ w·w*{per} ≤ ‖w‖{per} ≤ {up}").format(
            low=low, per=per, up=up
        )
    panels: dict[str, Any] = {
        "data": {
            "title": titles["data"],
            "x": [box.x0, box.x1],
            "y": [box.y0, box.y1],
            "xlabel": "x₁",
            "ylabel": "x₂",
        }
    }
    keys = {
        "claim1": ("w_k·w*", "≥", _lower_name(run)),
        "claim2": ("‖w_k‖²", "≤", _upper_name(run)),
        "squeeze": None,
    }
    for panel in ("claim1", "claim2", "squeeze"):
        x0, x1, y0, y1 = ranges[panel]
        spec: dict[str, Any] = {
            "title": titles[panel],
            "x": [x0, x1],
            "y": [y0, y1],
            "xlabel": t("mistakes k"),
            "key": keys[panel],
        }
        if not separable and panel != "claim2":
            spec["note"] = (
                t("not separable: no w*, no γ, no bound")
                if panel == "claim1"
                else t("no γ > 0, so nothing forces the mistakes to stop")
            )
        panels[panel] = spec
    if separable:
        low, up = _squeeze(run).names(eta)
        panels["squeeze"]["key"] = (f"w·w*{per}", f"‖w‖{per}", low, up)
    return panels


# --- the proof's yardsticks, shared by the panels and the sentence ---------------------


@dataclass(frozen=True)
class _Squeeze:
    """The squeeze panel's two curves and its bound, in units of one step η: from
    w₀ = 0, kγ and R√k meeting at (R/γ)²; from any other w₀, w₀·w*/η + kγ and
    √(‖w₀‖²/η² + kR²) meeting at the bound from w₀ (``start_bound``)."""

    a: float  # w₀·w*/η
    b: float  # ‖w₀‖²/η²
    gamma: float
    radius: float
    bound: float
    from_start: bool

    def lower(self, k: Any) -> Any:
        return self.a + np.asarray(k) * self.gamma

    def upper(self, k: Any) -> Any:
        return np.sqrt(self.b + np.asarray(k) * self.radius**2)

    def names(self, eta: float) -> tuple[str, str]:
        if not self.from_start:
            return "kγ", "R√k"
        per, per_sq = ("", "") if eta == 1 else ("/η", "/η²")
        return f"w₀·w*{per} + kγ", f"√(‖w₀‖²{per_sq} + kR²)"

    def bound_text(self) -> str:
        if not self.from_start:
            return f"(R/γ)² = {number(self.bound)}"
        return t("bound from w₀ = {bound}").format(bound=number(self.bound))


def _squeeze(run: Run) -> _Squeeze:
    c = run.curves
    assert c is not None
    eta = run.trace.eta
    a, b = float(c.lower[0]), float(c.upper[0])  # w₀·w*, ‖w₀‖²
    if a == 0 and b == 0:
        return _Squeeze(0.0, 0.0, c.gamma, c.radius, c.bound, False)
    bound = start_bound(start_dot=a, start_norm_sq=b, gamma=c.gamma, radius=c.radius, eta=eta)
    return _Squeeze(a / eta, b / eta**2, c.gamma, c.radius, bound, True)


def _lower_name(run: Run) -> str:
    """Claim 1's line, as ``proof_curves`` draws it: w₀·w* + kηγ (kγ from w₀ = 0, η = 1)."""
    c = run.curves
    start = "" if c is not None and c.lower[0] == 0 else "w₀·w* + "
    return f"{start}k{'' if run.trace.eta == 1 else 'η'}γ"


def _upper_name(run: Run) -> str:
    """Claim 2's line: ‖w₀‖² + kη²R² (kR² from w₀ = 0, η = 1)."""
    w0 = run.trace.weights[0]
    start = "" if not np.any(w0) else "‖w₀‖² + "
    return f"{start}k{'' if run.trace.eta == 1 else 'η²'}R²"


def ring_name(run: Run) -> str:
    """What the ring around the data is: max ‖x‖ in the plane. With a bias the theorem's R
    is max ‖(x, 1)‖ (the status line's R), which no circle in the plane shows, so the
    name gives both; through the origin the ring is R itself."""
    X = run.X
    r_plane = float(np.linalg.norm(X, axis=1).max())
    if not run.trace.bias:
        return t("radius R = {r} = max ‖x‖").format(r=number(r_plane))
    radius = run.mm.radius if run.mm is not None else math.sqrt(r_plane**2 + 1.0)
    return t("max ‖x‖ = {r} (R = {R} counts the bias 1)").format(
        r=number(r_plane), R=number(radius)
    )


def _ranges(run: Run, shown: int) -> dict[str, tuple[float, float, float, float]]:
    """(x0, x1, y0, y1) of each proof panel: fixed in one chart so nothing jumps; the
    claims reach ``shown`` mistakes, the squeeze the whole run and its bound."""
    trace = run.trace
    K = trace.n_mistakes
    W = trace.weights[: shown + 1]
    norm_sq = np.einsum("kd,kd->k", W, W)
    kmax = max(shown, 1) * 1.04
    c = run.curves
    if c is None:
        radius_sq = float(np.max(np.einsum("nd,nd->n", run.X, run.X)) + trace.bias)
        upper = float(norm_sq[0] + trace.eta**2 * shown * radius_sq)
        return {
            "claim1": (0.0, 1.0, 0.0, 1.0),
            "claim2": (0.0, kmax, *_padded(norm_sq, [upper])),
            "squeeze": (0.0, 1.0, 0.0, 1.0),
        }
    sq = _squeeze(run)
    sq_kmax = max(sq.bound, K) * 1.08
    top = max(float(sq.upper(sq_kmax)), float(np.sqrt(c.w_norm_sq.max())) / trace.eta)
    bottom = min(0.0, float(sq.lower(0)), float(c.w_dot_wstar.min()) / trace.eta)
    return {
        "claim1": (0.0, kmax, *_padded(c.w_dot_wstar[: shown + 1], c.lower[: shown + 1])),
        "claim2": (0.0, kmax, *_padded(c.w_norm_sq[: shown + 1], c.upper[: shown + 1])),
        "squeeze": (0.0, sq_kmax, bottom - 0.05 * (top - bottom), top * 1.05),
    }


def _padded(*arrays: Any) -> tuple[float, float]:
    lo = min(float(np.min(a)) for a in arrays)
    hi = max(float(np.max(a)) for a in arrays)
    lo = min(lo, 0.0)
    pad = 0.06 * (hi - lo) or 1.0
    return lo - pad, hi + pad

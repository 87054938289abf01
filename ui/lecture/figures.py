"""Pure figure builders: numbers in, Plotly figures out (no Streamlit here).

The lecture figure is built as a plain dict and wrapped without validation:
``make_subplots`` + ``add_trace`` validate every property and cost ~150 ms for
this figure, the dict costs a few. Traces that change from step to step
("dynamic") are built by one function, so the figure at step t and the
animation frames for a replay come from the same code.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from perceptron_core import start_bound
from ui.kit.geometry import Box, boundary_segment, halfplane, view_box
from ui.kit.model import Run, epoch_of
from ui.kit.palette import BOUND, CURRENT, MINUS, PLUS, STAR, W_COLOUR
from ui.kit.plots import LABELS, labelled_points

Trace = dict[str, Any]

# the four panels: data (left, full height) and the proof's three (right column)
_PANELS = {
    "data": ("x", "y", (0.0, 0.54), (0.0, 1.0)),
    "claim1": ("x2", "y2", (0.63, 1.0), (0.76, 1.0)),
    "claim2": ("x3", "y3", (0.63, 1.0), (0.39, 0.63)),
    "squeeze": ("x4", "y4", (0.63, 1.0), (0.0, 0.26)),
}


def _titles(eta: float) -> dict[str, str]:
    """The panels' titles: with a step size η ≠ 1 each mistake moves w·w* by at least ηγ
    and ‖w‖² by at most η²R² (``proof_curves``' lower and upper), and the squeeze plots
    w·w*/η and ‖w‖/η against kγ and R√k."""
    if eta == 1:
        return {
            "data": "data, the current line w·x = 0 and w",
            "claim1": "Claim 1: w·w* grows by at least γ per mistake",
            "claim2": "Claim 2: ‖w‖² grows by at most R² per mistake",
            "squeeze": "the squeeze: kγ ≤ w·w* ≤ ‖w‖ ≤ R√k",
        }
    return {
        "data": "data, the current line w·x = 0 and w",
        "claim1": f"Claim 1: w·w* grows by at least ηγ per mistake (η = {eta:g})",
        "claim2": f"Claim 2: ‖w‖² grows by at most η²R² per mistake (η = {eta:g})",
        "squeeze": "the squeeze: kγ ≤ w·w*/η ≤ ‖w‖/η ≤ R√k",
    }


_MOVES = ("x", "y", "text", "marker")  # what a frame changes in a dynamic trace
MAX_CURVE_POINTS = 300  # longer per-mistake curves are thinned for drawing


def _on(panel: str, trace: Trace) -> Trace:
    xa, ya, _, _ = _PANELS[panel]
    return {"type": "scatter", "xaxis": xa, "yaxis": ya, **trace}


def _list(values: Any) -> list[float]:
    return np.round(np.asarray(values, dtype=float), 4).tolist()


def _polygon(points: list[tuple[float, float]]) -> tuple[list[float], list[float]]:
    if not points:
        return [], []
    xs = [p[0] for p in points] + [points[0][0]]
    ys = [p[1] for p in points] + [points[0][1]]
    return _list(xs), _list(ys)


def _segment(seg: tuple[tuple[float, float], tuple[float, float]] | None) -> tuple[list, list]:
    if seg is None:
        return [], []
    return _list([seg[0][0], seg[1][0]]), _list([seg[0][1], seg[1][1]])


def _arrow(w: np.ndarray, box: Box) -> tuple[list[float], list[float], str]:
    """w's first two coordinates as an arrow from the origin, shortened to fit the view."""
    v = np.asarray(w[:2], dtype=float)
    length = float(np.hypot(*v))
    if length == 0.0:
        return [], [], ""
    scale = min(1.0, 0.45 * (box.x1 - box.x0) / length)
    label = "<b>w</b>" if scale == 1.0 else f"<b>w</b> (×{scale:.2g})"
    return _list([0.0, scale * v[0]]), _list([0.0, scale * v[1]]), label


def _line(panel: str, xs, ys, name: str, line: dict, **extra: Any) -> Trace:
    return _on(
        panel,
        {"x": xs, "y": ys, "mode": "lines", "line": line, "name": name, "hoverinfo": "skip"}
        | extra,
    )


def _thin(k: int) -> np.ndarray:
    """Indices 0..k, at most MAX_CURVE_POINTS of them, always with both ends."""
    if k + 1 <= MAX_CURVE_POINTS:
        return np.arange(k + 1)
    return np.unique(np.linspace(0, k, MAX_CURVE_POINTS).round().astype(int))


# --- what changes from step to step ---------------------------------------------------


def dynamic_traces(
    run: Run, t: int, box: Box, ranges: dict[str, tuple[float, float, float, float]]
) -> dict[str, Trace]:
    """The traces that show step t: the current w, its line and half-planes, the example
    just shown, and the proof's quantities for the mistakes made so far."""
    X, trace = run.X, run.trace
    bias = trace.bias
    w = trace.w_before(t)
    k = trace.mistakes_before(t)
    out: dict[str, Trace] = {}
    for sign, colour, slot in ((1.0, PLUS, "half+"), (-1.0, MINUS, "half-")):
        xs, ys = _polygon(halfplane(w, bias, box, sign) if np.any(w[:2]) else [])
        out[slot] = _on(
            "data",
            {
                "x": xs,
                "y": ys,
                "fill": "toself",
                "fillcolor": colour,
                "opacity": 0.10,
                "mode": "none",
                "name": f"predicted {'+1' if sign > 0 else '−1'}",
                "hoverinfo": "skip",
                "hoveron": "points",
                "showlegend": False,
            },
        )
    xs, ys = _segment(boundary_segment(w, bias, box))
    out["line"] = _line("data", xs, ys, "line w·x = 0", {"color": "black", "width": 3})
    ax, ay, label = _arrow(w, box)
    out["arrow"] = _on(
        "data",
        {
            "x": ax,
            "y": ay,
            "mode": "lines+markers+text",
            "line": {"color": W_COLOUR, "width": 3},
            "marker": {"symbol": "arrow", "angleref": "previous", "size": [0, 16]},
            "text": ["", label],
            "textposition": "middle right",
            "textfont": {"color": W_COLOUR},
            "name": "w",
            "hoverinfo": "skip",
        },
    )
    ring = {"symbol": "circle-open", "size": 26, "line": {"width": 3}, "color": CURRENT}
    xs, ys, name = [], [], "example just shown"
    if t > 0 and trace.steps is not None:
        i = int(trace.steps.index[t - 1])
        mistake = bool(trace.steps.mistake[t - 1])
        ring["color"] = MINUS if mistake else CURRENT
        xs, ys = [float(X[i, 0])], [float(X[i, 1])]
        name = "mistake: w updated" if mistake else "shown: correct"
    out["ring"] = _on(
        "data",
        {"x": xs, "y": ys, "mode": "markers", "marker": ring, "name": name, "hoverinfo": "skip"},
    )
    epoch = epoch_of(trace, t)
    said = ""
    if t > 0 and trace.steps is not None:
        i = int(trace.steps.index[t - 1])
        said = (
            f"<br><span style='color:{MINUS}'>point {i}: mistake, w updated</span>"
            if trace.steps.mistake[t - 1]
            else f"<br><span style='color:#8A5A00'>point {i}: correct, w kept</span>"
        )
    out["stamp"] = _on(
        "data",
        {
            "x": [box.x0 + 0.02 * (box.x1 - box.x0)],
            "y": [box.y1 - 0.02 * (box.y1 - box.y0)],
            "mode": "text",
            "text": [f"<b>t = {t} · k = {k}</b> · epoch {epoch}{said}"],
            "textposition": "bottom right",
            "textfont": {"size": 16, "color": "black"},
            "hoverinfo": "skip",
            "showlegend": False,
        },
    )
    # the proof panels hold the whole run; a veil hides the mistakes not made yet
    for panel, slot in (("claim1", "veil1"), ("claim2", "veil2"), ("squeeze", "veil3")):
        _, x1, y0, y1 = ranges[panel]
        left = k + 0.015 * x1  # just right of the marker at k
        out[slot] = _on(
            panel,
            {
                "x": _list([left, x1, x1, left, left]),
                "y": _list([y0, y0, y1, y1, y0]),
                "fill": "toself",
                "fillcolor": "rgba(255,255,255,0.9)",
                "mode": "none",
                "hoverinfo": "skip",
                "showlegend": False,
                "name": "not yet",
            },
        )
    return out


def _series(panel: str, ks: np.ndarray, values: np.ndarray, name: str) -> Trace:
    return _on(
        panel,
        {
            "x": ks.tolist(),
            "y": _list(values),
            "mode": "lines+markers",
            "line": {"color": W_COLOUR},
            "marker": {"size": 7, "color": W_COLOUR},
            "name": name,
            "showlegend": False,
            "hovertemplate": "k = %{x}<br>" + name + " = %{y:.3g}<extra></extra>",
        },
    )


# --- what stays -----------------------------------------------------------------------


def _static_traces(run: Run, box: Box, shown: int) -> dict[str, Trace]:
    """What does not move in one chart; the claims up to ``shown`` mistakes."""
    X, y, trace = run.X, run.y, run.trace
    bias = trace.bias
    out: dict[str, Trace] = {}
    if run.mm is not None:
        mm = run.mm
        xs, ys = _segment(boundary_segment(mm.w_star, bias, box))
        out["w*"] = _line("data", xs, ys, "max-margin w*", {"color": STAR, "dash": "dash"})
        band_x: list = []
        band_y: list = []
        for level in (mm.gamma, -mm.gamma):
            bx, by = _segment(boundary_segment(mm.w_star, bias, box, level))
            band_x += [*bx, None]
            band_y += [*by, None]
        band = {"color": STAR, "dash": "dot", "width": 1}
        out["band"] = _line("data", band_x, band_y, "γ band", band)
    r_plane = float(np.linalg.norm(X, axis=1).max())
    angle = np.linspace(0, 2 * math.pi, 121)
    out["radius"] = _line(
        "data",
        _list(r_plane * np.cos(angle)),
        _list(r_plane * np.sin(angle)),
        ring_name(run),
        {"color": STAR, "width": 1, "dash": "longdashdot"},
        meta="radius",
    )
    points = labelled_points(
        X,
        y,
        marker={"size": 10, "line": {"width": 1, "color": "white"}},
        index=True,
        digits=4,
        hover="point %{customdata}<br>x = (%{x:.3g}, %{y:.3g})<br>y = {label}<extra></extra>",
    )
    for (_, _, name), points_trace in zip(LABELS, points, strict=True):
        out[f"points{name}"] = _on("data", points_trace)
    K = trace.n_mistakes
    ks = _thin(shown)
    W = trace.weights
    out["c2"] = _series("claim2", ks, np.einsum("kd,kd->k", W[ks], W[ks]), "‖w_k‖²")
    if run.curves is not None:
        c = run.curves
        eta = trace.eta
        out["c1"] = _series("claim1", ks, c.w_dot_wstar[ks], "w_k·w*")
        ks = _thin(K)  # the squeeze shows the whole run against its bound
        per_eta = "" if eta == 1 else "/η"  # the squeeze is in units of one step η
        for slot, values, colour, symbol, name in (
            ("sq_dot", c.w_dot_wstar[ks] / eta, PLUS, "circle", "w_k·w*" + per_eta),
            ("sq_norm", np.sqrt(c.w_norm_sq[ks]) / eta, MINUS, "diamond", "‖w_k‖" + per_eta),
        ):
            out[slot] = _on(
                "squeeze",
                {
                    "x": ks.tolist(),
                    "y": _list(values),
                    "mode": "markers",
                    "marker": {"color": colour, "size": 7, "symbol": symbol},
                    "name": name,
                    "hovertemplate": "k = %{x}<br>" + name + " = %{y:.3g}<extra></extra>",
                    "showlegend": False,
                },
            )
        out["c1_bound"] = _bound("claim1", shown, c.lower[[0, shown]], _lower_name(run))
        out["c2_bound"] = _bound("claim2", shown, c.upper[[0, shown]], _upper_name(run))
        sq = _squeeze(run)
        kk = np.linspace(0, max(sq.bound, K) * 1.08, 200)
        low_name, up_name = sq.names(eta)
        for slot, values, colour, name in (
            ("sq_gamma", sq.lower(kk), PLUS, low_name),
            ("sq_radius", sq.upper(kk), MINUS, up_name),
        ):
            out[slot] = _line(
                "squeeze",
                _list(kk),
                _list(values),
                name,
                {"color": colour, "dash": "dash"},
                showlegend=False,
            )
    else:
        W = trace.weights
        radius_sq = float(np.max(np.einsum("nd,nd->n", X, X)) + bias)
        upper = W[0] @ W[0] + trace.eta**2 * np.array([0, shown]) * radius_sq
        out["c2_bound"] = _bound("claim2", shown, upper, _upper_name(run))
    return out


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
            return f"(R/γ)² = {self.bound:.3g}"
        return f"bound from w₀ = {self.bound:.3g}"


def _squeeze(run: Run) -> _Squeeze:
    c = run.curves
    assert c is not None
    eta = run.trace.eta
    a, b = float(c.lower[0]), float(c.upper[0])  # w₀·w*, ‖w₀‖²
    if a == 0 and b == 0:
        return _Squeeze(0.0, 0.0, c.gamma, c.radius, c.bound, False)
    bound = start_bound(start_dot=a, start_norm_sq=b, gamma=c.gamma, radius=c.radius, eta=eta)
    return _Squeeze(a / eta, b / eta**2, c.gamma, c.radius, bound, True)


def _bound(panel: str, k: int, ends: np.ndarray, name: str) -> Trace:
    """A claim's straight line from 0 to k mistakes (its two ends are enough)."""
    return _line(
        panel,
        [0, k],
        _list(ends),
        name,
        {"color": BOUND, "dash": "dash"},
        showlegend=False,
        hoverinfo=None,
        hovertemplate=name + " = %{y:.3g}<extra></extra>",
    )


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
        return f"radius R = {r_plane:.3g} = max ‖x‖"
    radius = run.mm.radius if run.mm is not None else math.sqrt(r_plane**2 + 1.0)
    return f"max ‖x‖ = {r_plane:.3g} (R = {radius:.3g} counts the bias 1)"


# trace order (z-order): half-planes under everything, the current line over the points
ORDER = (
    "half+",
    "half-",
    "w*",
    "band",
    "radius",
    "points+1",
    "points−1",
    "line",
    "arrow",
    "ring",
    "stamp",
    "c1",
    "veil1",
    "c1_bound",
    "c2",
    "veil2",
    "c2_bound",
    "sq_dot",
    "sq_norm",
    "veil3",
    "sq_gamma",
    "sq_radius",
)


# --- the figure -----------------------------------------------------------------------


def lecture_figure(
    run: Run,
    t: int,
    *,
    height: int = 720,
    font_size: int = 14,
    replay: Sequence[int] | None = None,
    speeds: Sequence[int] = (2, 8, 30),
) -> dict[str, Any]:
    """The data with the current hyperplane beside the proof's three panels, at step t.

    With ``replay`` (steps, e.g. ``range(t, t + 200)``) the figure also carries one
    animation frame per step, Play/Pause buttons at ``speeds`` steps per second and
    a scrubber: the browser replays the run with no server round trip per frame.
    """
    box = view_box(run.X)
    # the claims' axes reach the mistakes made by the chart's last step
    shown = run.trace.mistakes_before(max(replay) if replay else t)
    static = _static_traces(run, box, shown)
    ranges = _ranges(run, shown)
    dynamic = dynamic_traces(run, t, box, ranges)
    slots = [s for s in ORDER if s in static or s in dynamic]
    data = [static[s] if s in static else dynamic[s] for s in slots]
    layout = _layout(run, box, ranges, height=height, font_size=font_size)
    spec: dict[str, Any] = {"data": data, "layout": layout}
    if replay:
        moving = [i for i, s in enumerate(slots) if s in dynamic]
        frames = []
        for s in replay:
            dyn = dynamic_traces(run, s, box, ranges)
            data = [{k: dyn[slots[i]][k] for k in _MOVES if k in dyn[slots[i]]} for i in moving]
            frames.append({"name": str(s), "data": data, "traces": moving})
        spec["frames"] = frames
        layout["updatemenus"] = [_player_buttons(speeds)]
        layout["sliders"] = [_scrubber(replay, t)]
        layout["margin"]["b"] = 190
    return spec


def _layout(
    run: Run, box: Box, ranges: dict[str, tuple[float, ...]], *, height: int, font_size: int
) -> dict[str, Any]:
    trace = run.trace
    K = trace.n_mistakes
    layout: dict[str, Any] = {
        "height": height,
        "margin": {"l": 50, "r": 20, "t": 40, "b": 70},
        "font": {"size": font_size},
        "legend": {"orientation": "h", "y": -0.09, "x": 0.0, "yanchor": "top"},
        "hovermode": "closest",
        "uirevision": "lecture",
        "plot_bgcolor": "white",
        "annotations": [],
        "shapes": [],
    }
    titles = _titles(trace.eta)
    if run.curves is not None and _squeeze(run).from_start:
        low, up = _squeeze(run).names(trace.eta)
        per = "" if trace.eta == 1 else "/η"
        titles["squeeze"] = f"the squeeze from w₀: {low} ≤ w·w*{per} ≤ ‖w‖{per} ≤ {up}"
    grid = {"showgrid": True, "gridcolor": "#e5e5e5", "zeroline": True, "zerolinecolor": "#999"}
    for panel, (xa, ya, xdom, ydom) in _PANELS.items():
        xname = "xaxis" + xa[1:]
        yname = "yaxis" + ya[1:]
        layout[xname] = {"domain": list(xdom), "anchor": ya, **grid}
        layout[yname] = {"domain": list(ydom), "anchor": xa, **grid}
        layout["annotations"].append(
            {
                "text": titles[panel],
                "showarrow": False,
                "xref": f"{xa} domain",  # the axes' domains: the data panel is
                "yref": f"{ya} domain",  # shrunk to one scale, its title follows
                "x": 0.5,
                "y": 1.0,
                "yshift": 4,
                "xanchor": "center",
                "yanchor": "bottom",
            }
        )
    # constrain="domain": the panel shrinks to keep x and y at one scale, so the
    # shaded half-planes fill it
    layout["xaxis"] |= {"range": [box.x0, box.x1], "title": {"text": "x1"}, "constrain": "domain"}
    layout["yaxis"] |= {
        "range": [box.y0, box.y1],
        "title": {"text": "x2"},
        "scaleanchor": "x",
        "scaleratio": 1,
        "constrain": "domain",
    }
    for panel, number in (("claim1", 2), ("claim2", 3), ("squeeze", 4)):
        x0, x1, y0, y1 = ranges[panel]
        layout[f"xaxis{number}"]["range"] = [x0, x1]
        layout[f"yaxis{number}"]["range"] = [y0, y1]
    if run.curves is None or run.mm is None:
        for panel, text in (
            ("claim1", "not separable:<br>no w*, no γ, no bound"),
            ("squeeze", "no γ > 0, so nothing forces<br>the mistakes to stop"),
        ):
            xa, ya, _, _ = _PANELS[panel]
            layout[f"xaxis{xa[1:]}"] |= {"visible": False}
            layout[f"yaxis{ya[1:]}"] |= {"visible": False}
            layout["annotations"].append(
                {
                    "text": text,
                    "showarrow": False,
                    "xref": f"{xa} domain",
                    "yref": f"{ya} domain",
                    "x": 0.5,
                    "y": 0.5,
                    "font": {"size": font_size + 2, "color": MINUS},
                }
            )
        _claim_label(layout, "claim2", "‖w_k‖²", "≤", _upper_name(run))
        return layout
    _claim_label(layout, "claim1", "w_k·w*", "≥", _lower_name(run))
    _claim_label(layout, "claim2", "‖w_k‖²", "≤", _upper_name(run))
    sq = _squeeze(run)
    layout["xaxis4"]["title"] = {"text": "mistakes k"}
    for x, colour, dash, text, where in (
        (sq.bound, BOUND, "solid", sq.bound_text(), "left"),
        (K, "black", "dot", f"M = {K}", "right"),
    ):
        layout["shapes"].append(
            {
                "type": "line",
                "xref": "x4",
                "yref": "y4 domain",
                "x0": x,
                "x1": x,
                "y0": 0,
                "y1": 1,
                "line": {"color": colour, "width": 2 if dash == "solid" else 1, "dash": dash},
            }
        )
        layout["annotations"].append(
            {
                "text": text,
                "showarrow": False,
                "xref": "x4",
                "yref": "y4 domain",
                "x": x,
                "y": 1.0 if where == "left" else 0.02,
                "xanchor": "right" if where == "left" else "left",
                "yanchor": "top" if where == "left" else "bottom",
                "font": {"color": colour},
            }
        )
    return layout


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


def _claim_label(layout: dict, panel: str, name: str, where: str, bound_name: str) -> None:
    xa, ya, _, _ = _PANELS[panel]
    layout["annotations"].append(
        {
            "text": f"<b>{name}</b> {where} <span style='color:{BOUND}'>{bound_name}</span>",
            "showarrow": False,
            "xref": f"{xa} domain",
            "yref": f"{ya} domain",
            "x": 0.02,
            "y": 0.98,
            "xanchor": "left",
            "yanchor": "top",
        }
    )


def _animate(frames: list | None, duration: int) -> dict[str, Any]:
    return {
        "method": "animate",
        "args": [
            frames,
            {
                "frame": {"duration": duration, "redraw": False},
                "transition": {"duration": 0},
                "fromcurrent": True,
                "mode": "immediate",
            },
        ],
    }


def _player_buttons(speeds: Sequence[int]) -> dict[str, Any]:
    buttons = [{"label": f"Play {v}/s", **_animate(None, round(1000 / v))} for v in speeds] + [
        {"label": "Pause", **_animate([None], 0)}
    ]
    return {
        "type": "buttons",
        "direction": "left",
        "showactive": False,
        "x": 0.0,
        "xanchor": "left",
        "y": -0.2,
        "yanchor": "top",
        "pad": {"t": 0, "r": 6},
        "buttons": buttons,
    }


def _scrubber(replay: Sequence[int], t: int) -> dict[str, Any]:
    steps = [{"label": str(s), **_animate([str(s)], 0)} for s in replay]
    return {
        "active": max(0, min(len(steps) - 1, t - replay[0])),
        "steps": steps,
        "x": 0.36,
        "len": 0.64,
        "xanchor": "left",
        "y": -0.18,
        "yanchor": "top",
        "pad": {"t": 0},
        "currentvalue": {"prefix": "step t = ", "visible": True},
        "transition": {"duration": 0},
    }

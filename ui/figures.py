"""Pure figure builders: numbers in, Plotly figures out (no Streamlit here)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from perceptron_core import MaxMargin, ProofCurves, Trace

from .geometry import Box, boundary_segment, halfplane, view_box

# Okabe-Ito, a colour-blind-safe palette
PLUS = "#0072B2"  # blue: y = +1
MINUS = "#D55E00"  # vermillion: y = -1
W_COLOUR = "#009E73"  # bluish green: the current w
STAR = "#555555"  # grey: w*, its margin band, the radius
CURRENT = "#E69F00"  # orange: the example just shown
BOUND = "#CC79A7"  # reddish purple: the bound (R/gamma)^2


@dataclass(frozen=True, eq=False)
class LectureView:
    """Everything the lecture figure shows at step t of a run."""

    X: np.ndarray  # (n, 2) the points the perceptron sees (normalized if asked)
    y: np.ndarray  # (n,)
    trace: Trace  # recorded with record_steps=True
    t: int  # steps done, 0..trace.n_steps
    mm: MaxMargin | None  # None when not separable
    curves: ProofCurves | None
    reason: str | None  # why not separable


def _polygon(points: list[tuple[float, float]]) -> tuple[list[float], list[float]]:
    if not points:
        return [], []
    xs = [p[0] for p in points] + [points[0][0]]
    ys = [p[1] for p in points] + [points[0][1]]
    return xs, ys


def _segment(seg: tuple[tuple[float, float], tuple[float, float]] | None) -> tuple[list, list]:
    if seg is None:
        return [], []
    return [seg[0][0], seg[1][0]], [seg[0][1], seg[1][1]]


def _arrow(w: np.ndarray, box: Box) -> tuple[list[float], list[float], str]:
    """w's first two coordinates as an arrow from the origin, shortened to fit the view."""
    v = np.asarray(w[:2], dtype=float)
    length = float(np.hypot(*v))
    if length == 0.0:
        return [], [], ""
    room = 0.45 * (box.x1 - box.x0)
    scale = min(1.0, room / length)
    label = "w" if scale == 1.0 else f"w (×{scale:.2g})"
    return [0.0, scale * v[0]], [0.0, scale * v[1]], label


def _data_line(fig: go.Figure, xs, ys, name: str, line: dict) -> None:
    """A line in the data panel (w*, its band, the radius, the current line): no hover."""
    fig.add_trace(
        go.Scatter(x=xs, y=ys, mode="lines", line=line, name=name, hoverinfo="skip"),
        row=1,
        col=1,
    )


def lecture_figure(view: LectureView, *, height: int = 720, font_size: int = 14) -> go.Figure:
    """The data with the current hyperplane beside the proof's three panels."""
    X, y, trace, t = view.X, view.y, view.trace, view.t
    bias = trace.bias
    box = view_box(X)
    w = trace.w_before(t)
    k = trace.mistakes_before(t)
    fig = make_subplots(
        rows=3,
        cols=2,
        specs=[[{"rowspan": 3}, {}], [None, {}], [None, {}]],
        column_widths=[0.55, 0.45],
        horizontal_spacing=0.08,
        vertical_spacing=0.11,
        subplot_titles=(
            "data, the current line w·x = 0 and w",
            "Claim 1: w·w* grows by at least γ per mistake",
            "Claim 2: ‖w‖² grows by at most R² per mistake",
            "the squeeze: kγ ≤ w·w* ≤ ‖w‖ ≤ R√k",
        ),
    )
    # --- data panel ---------------------------------------------------------------
    for sign, colour, name in ((1.0, PLUS, "predicted +1"), (-1.0, MINUS, "predicted −1")):
        xs, ys = _polygon(halfplane(w, bias, box, sign) if np.any(w[:2]) else [])
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                fill="toself",
                fillcolor=colour,
                opacity=0.10,
                mode="none",
                name=name,
                hoverinfo="skip",
                showlegend=False,
            ),
            row=1,
            col=1,
        )
    if view.mm is not None:
        mm = view.mm
        xs, ys = _segment(boundary_segment(mm.w_star, bias, box))
        _data_line(fig, xs, ys, "max-margin w*", {"color": STAR, "dash": "dash", "width": 2})
        band_x: list = []
        band_y: list = []
        for level in (mm.gamma, -mm.gamma):
            bx, by = _segment(boundary_segment(mm.w_star, bias, box, level))
            band_x += [*bx, None]
            band_y += [*by, None]
        band = {"color": STAR, "dash": "dot", "width": 1}
        _data_line(fig, band_x, band_y, "γ band: w*·x = ±γ", band)
    r_plane = float(np.linalg.norm(X, axis=1).max())
    angle = np.linspace(0, 2 * math.pi, 121)
    circle = {"color": STAR, "width": 1, "dash": "longdashdot"}
    _data_line(fig, r_plane * np.cos(angle), r_plane * np.sin(angle), "radius of the data", circle)
    idx = np.arange(len(y))
    for label, colour, symbol, name in ((1.0, PLUS, "circle", "+1"), (-1.0, MINUS, "x", "−1")):
        sel = y == label
        fig.add_trace(
            go.Scatter(
                x=X[sel, 0],
                y=X[sel, 1],
                mode="markers",
                name=f"y = {name}",
                marker={
                    "color": colour,
                    "symbol": symbol,
                    "size": 10,
                    "line": {"width": 1, "color": "white"},
                },
                customdata=idx[sel],
                hovertemplate="point %{customdata}<br>x = (%{x:.3g}, %{y:.3g})<br>y = "
                + name
                + "<extra></extra>",
            ),
            row=1,
            col=1,
        )
    xs, ys = _segment(boundary_segment(w, bias, box))
    _data_line(fig, xs, ys, "current line w·x = 0", {"color": "black", "width": 3})
    ax, ay, alabel = _arrow(w, box)
    fig.add_trace(
        go.Scatter(
            x=ax,
            y=ay,
            mode="lines+markers+text",
            line={"color": W_COLOUR, "width": 3},
            marker={"symbol": "arrow", "angleref": "previous", "size": [0, 16], "color": W_COLOUR},
            text=["", alabel],
            textposition="top right",
            name="w (normal of the line)",
            hoverinfo="skip",
        ),
        row=1,
        col=1,
    )
    if t > 0 and trace.steps is not None:
        i = int(trace.steps.index[t - 1])
        was_mistake = bool(trace.steps.mistake[t - 1])
        fig.add_trace(
            go.Scatter(
                x=[X[i, 0]],
                y=[X[i, 1]],
                mode="markers",
                marker={
                    "symbol": "circle-open",
                    "size": 26,
                    "line": {"width": 3},
                    "color": MINUS if was_mistake else CURRENT,
                },
                name="mistake: w was updated" if was_mistake else "just shown: correct",
                hoverinfo="skip",
            ),
            row=1,
            col=1,
        )
    fig.update_xaxes(range=[box.x0, box.x1], title_text="x1", row=1, col=1, zeroline=True)
    fig.update_yaxes(
        range=[box.y0, box.y1],
        title_text="x2",
        row=1,
        col=1,
        zeroline=True,
        scaleanchor="x",
        scaleratio=1,
    )
    _proof_panels(fig, view, k)
    fig.update_layout(
        height=height,
        margin={"l": 40, "r": 20, "t": 60, "b": 40},
        font={"size": font_size},
        legend={"orientation": "h", "y": -0.08, "x": 0.0},
        hovermode="closest",
        uirevision="lecture",
    )
    fig.update_annotations(font_size=font_size)
    return fig


def _proof_panels(fig: go.Figure, view: LectureView, k: int) -> None:
    """Claim 1, Claim 2 and the squeeze, for the mistakes made so far (k of them)."""
    trace = view.trace
    K = trace.n_mistakes
    W = trace.weights
    ks = np.arange(K + 1)
    if view.curves is None or view.mm is None:
        norm_sq = np.einsum("kd,kd->k", W, W)
        fig.add_annotation(
            text="not separable:<br>no w*, no γ, no bound",
            showarrow=False,
            xref="x2 domain",
            yref="y2 domain",
            x=0.5,
            y=0.5,
            font={"size": 16, "color": MINUS},
        )
        fig.add_annotation(
            text="no γ > 0, so nothing forces<br>the mistakes to stop",
            showarrow=False,
            xref="x4 domain",
            yref="y4 domain",
            x=0.5,
            y=0.5,
            font={"size": 16, "color": MINUS},
        )
        radius = float(np.sqrt(np.max(np.einsum("nd,nd->n", view.X, view.X)) + trace.bias))
        upper = norm_sq[0] + trace.eta**2 * ks * radius**2
        _claim(fig, 2, ks, norm_sq, upper, k, "‖w_k‖²", "‖w₀‖² + kR²·η²", above=True)
        return
    c = view.curves
    lower_name = "kγ" if c.lower[0] == 0 and trace.eta == 1 else "w₀·w* + kγη"
    upper_name = "kR²" if c.upper[0] == 0 and trace.eta == 1 else "‖w₀‖² + kR²η²"
    _claim(fig, 1, ks, c.w_dot_wstar, c.lower, k, "w_k·w*", lower_name, above=False)
    _claim(fig, 2, ks, c.w_norm_sq, c.upper, k, "‖w_k‖²", upper_name, above=True)
    # the squeeze, in units of eta so the lines are k gamma and R sqrt k from w0 = 0
    kmax = max(c.bound, K) * 1.08
    kk = np.linspace(0, kmax, 200)
    eta = trace.eta
    row, col = 3, 2
    for values, colour, name in (
        (kk * c.gamma, PLUS, "kγ"),
        (c.radius * np.sqrt(kk), MINUS, "R√k"),
    ):
        fig.add_trace(
            go.Scatter(
                x=kk,
                y=values,
                mode="lines",
                line={"color": colour, "dash": "dash"},
                name=name,
                showlegend=False,
                hoverinfo="skip",
            ),
            row=row,
            col=col,
        )
    fig.add_trace(
        go.Scatter(
            x=ks[: k + 1],
            y=c.w_dot_wstar[: k + 1] / eta,
            mode="markers",
            marker={"color": PLUS, "size": 7},
            name="w_k·w*",
            showlegend=False,
        ),
        row=row,
        col=col,
    )
    fig.add_trace(
        go.Scatter(
            x=ks[: k + 1],
            y=np.sqrt(c.w_norm_sq[: k + 1]) / eta,
            mode="markers",
            marker={"color": MINUS, "size": 7, "symbol": "diamond"},
            name="‖w_k‖",
            showlegend=False,
        ),
        row=row,
        col=col,
    )
    fig.add_vline(
        x=c.bound,
        line={"color": BOUND, "width": 2},
        row=row,
        col=col,
        annotation_text=f"(R/γ)² = {c.bound:.3g}",
        annotation_position="top left",
    )
    fig.add_vline(
        x=K,
        line={"color": "black", "width": 1, "dash": "dot"},
        row=row,
        col=col,
        annotation_text=f"M = {K}",
        annotation_position="bottom right",
    )
    fig.update_xaxes(title_text="mistakes k", range=[0, kmax], row=row, col=col)


def _claim(fig, row, ks, values, bound, k, name, bound_name, *, above):
    """One claim panel: the quantity after each of the first k mistakes, and its line."""
    col = 2
    fig.add_trace(
        go.Scatter(
            x=ks,
            y=bound,
            mode="lines",
            line={"color": BOUND, "dash": "dash"},
            name=bound_name,
            showlegend=False,
            hovertemplate=bound_name + " = %{y:.3g}<extra></extra>",
        ),
        row=row,
        col=col,
    )
    fig.add_trace(
        go.Scatter(
            x=ks[: k + 1],
            y=values[: k + 1],
            mode="lines+markers",
            line={"color": W_COLOUR},
            marker={"size": 7},
            name=name,
            showlegend=False,
            hovertemplate="k = %{x}<br>" + name + " = %{y:.3g}<extra></extra>",
        ),
        row=row,
        col=col,
    )
    where = "≤" if above else "≥"
    fig.add_annotation(
        text=f"<b>{name}</b> {where} <span style='color:{BOUND}'>{bound_name}</span>",
        showarrow=False,
        xref=f"x{row + 1} domain",
        yref=f"y{row + 1} domain",
        x=0.02,
        y=0.98,
        xanchor="left",
        yanchor="top",
    )
    fig.update_xaxes(range=[0, max(len(ks) - 1, 1) * 1.04], row=row, col=col)

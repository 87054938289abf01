"""Beyond linear (pure): learning curves of runs that never stop, the witness that no line
exists, the lifted space of a feature map, and the pocket / averaged remedies.

Numbers in, plain Plotly figure dicts out (wrap with ``ui.kit.plots.as_figure``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from perceptron_core import FEATURE_MAPS, Trace, Witness, decision
from ui.kit.geometry import view_box
from ui.kit.palette import CURRENT, MINUS, PLUS, W_COLOUR
from ui.kit.plots import labelled_points, plane_axes
from ui.kit.text import vector

Fig = dict[str, Any]
GRID = 120  # points per side of the grid the induced boundary is drawn on


def _points(X: np.ndarray, y: np.ndarray) -> list[dict]:
    return labelled_points(
        X,
        y,
        marker={"size": 11},
        index=True,
        hover="point %{customdata}: (%{x:.3g}, %{y:.3g})<extra></extra>",
        xaxis="x",
        yaxis="y",
    )


_MARGIN = {"l": 50, "r": 10, "t": 10, "b": 40}


def _plane_layout(X: np.ndarray, height: int) -> dict[str, Any]:
    """A square data panel around X with the legend under it."""
    box = view_box(X)
    return {
        "height": height,
        "margin": _MARGIN,
        "legend": {"orientation": "h", "y": -0.15},
        **plane_axes(box),
    }


# XOR on the integer corners (seeds 002, 003): +1 where exactly one coordinate is positive
XOR_X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([-1.0, -1.0, 1.0, 1.0])


# --- runs that never stop -------------------------------------------------------------


def curves_figure(runs: list[tuple[str, Trace, str]], *, height: int = 360) -> Fig:
    """Mistakes per epoch, cumulative mistakes against epochs, and ‖w‖ after each mistake,
    for a few runs side by side (label, trace, colour)."""
    data: list[dict] = []
    for label, trace, colour in runs:
        n = trace.n_examples
        per_epoch = np.bincount(trace.mistake_steps[:, 0] // n, minlength=trace.n_epochs)
        epochs = np.arange(1, trace.n_epochs + 1)
        ks = np.arange(1, trace.n_mistakes + 1)
        style = {"color": colour}
        data += [
            {
                "type": "scatter",
                "x": epochs.tolist(),
                "y": per_epoch.tolist(),
                "mode": "lines+markers",
                "line": style,
                "name": label,
                "legendgroup": label,
            },
            {
                "type": "scatter",
                "x": (trace.mistake_steps[:, 0] / n).tolist(),
                "y": ks.tolist(),
                "mode": "lines",
                "line": style,
                "name": label,
                "legendgroup": label,
                "showlegend": False,
                "xaxis": "x2",
                "yaxis": "y2",
            },
            {
                "type": "scatter",
                "x": np.arange(trace.n_mistakes + 1).tolist(),
                "y": np.linalg.norm(trace.weights, axis=1).round(4).tolist(),
                "mode": "lines",
                "line": style,
                "name": label,
                "legendgroup": label,
                "showlegend": False,
                "xaxis": "x3",
                "yaxis": "y3",
            },
        ]
    titles = ("mistakes in each epoch", "mistakes so far", "‖w‖ after each mistake")
    layout: dict[str, Any] = {
        "height": height,
        "margin": {"l": 50, "r": 10, "t": 40, "b": 50},
        "legend": {"orientation": "h", "y": -0.2},
        "annotations": [],
    }
    for j, title in enumerate(titles):
        dom = [j * 0.35, j * 0.35 + 0.29]
        suffix = "" if j == 0 else str(j + 1)
        layout[f"xaxis{suffix}"] = {"domain": dom, "anchor": f"y{suffix}"}
        layout[f"yaxis{suffix}"] = {"anchor": f"x{suffix}", "rangemode": "tozero"}
        layout["annotations"].append(
            {
                "text": title,
                "x": sum(dom) / 2,
                "y": 1.02,
                "xref": "paper",
                "yref": "paper",
                "showarrow": False,
                "yanchor": "bottom",
            }
        )
    layout["xaxis"]["title"] = {"text": "epoch"}
    layout["xaxis2"]["title"] = {"text": "epochs"}
    layout["xaxis3"]["title"] = {"text": "mistakes k"}
    return {"data": data, "layout": layout}


# --- why no line exists ---------------------------------------------------------------


def witness_figure(X: np.ndarray, y: np.ndarray, witness: Witness, *, height: int = 420) -> Fig:
    """The data with a point z that is a convex combination of positives and of negatives."""
    z = witness.point
    data: list[dict] = []
    for idx, colour, name in (
        (witness.positives, PLUS, "z from +1 points"),
        (witness.negatives, MINUS, "z from −1 points"),
    ):
        xs: list = []
        ys: list = []
        for i in idx:
            xs += [float(z[0]), float(X[i, 0]), None]
            ys += [float(z[1]), float(X[i, 1]), None]
        data.append(
            {
                "type": "scatter",
                "x": xs,
                "y": ys,
                "mode": "lines",
                "line": {"color": colour, "dash": "dot", "width": 2},
                "name": name,
                "hoverinfo": "skip",
            }
        )
    data += _points(X, y)
    data.append(
        {
            "type": "scatter",
            "x": [float(z[0])],
            "y": [float(z[1])],
            "mode": "markers+text",
            "marker": {"symbol": "star", "size": 20, "color": CURRENT, "line": {"width": 1}},
            "text": ["z"],
            "textposition": "top right",
            "name": "z: in both hulls",
            "hovertemplate": "z = (%{x:.3g}, %{y:.3g})<extra></extra>",
        }
    )
    return {"data": data, "layout": _plane_layout(X, height)}


# --- the fix: a feature map -----------------------------------------------------------


def boundary_figure(X: np.ndarray, y: np.ndarray, map_key: str, w: np.ndarray) -> Fig:
    """The classifier learned on phi(x), drawn back in the plane: its sign and its zero line."""
    box = view_box(X)
    gx = np.linspace(box.x0, box.x1, GRID)
    gy = np.linspace(box.y0, box.y1, GRID)
    G = np.column_stack([np.repeat(gx, GRID), np.tile(gy, GRID)])  # x varies slowest
    score = decision(w, FEATURE_MAPS[map_key].fn(G), bias=True).reshape(GRID, GRID).T
    data = [
        {
            "type": "contour",
            "x": gx.round(4).tolist(),
            "y": gy.round(4).tolist(),
            "z": np.sign(score).tolist(),
            "colorscale": [[0, MINUS], [1, PLUS]],
            "opacity": 0.18,
            "showscale": False,
            "contours": {"coloring": "fill", "start": 0, "end": 0, "size": 1},
            "line": {"width": 0},
            "hoverinfo": "skip",
            "name": "predicted side",
        },
        {
            "type": "contour",
            "x": gx.round(4).tolist(),
            "y": gy.round(4).tolist(),
            "z": score.round(5).tolist(),
            "contours": {"coloring": "none", "start": 0, "end": 0, "size": 1},
            "line": {"color": "black", "width": 3},
            "showscale": False,
            "hoverinfo": "skip",
            "name": "w·φ(x) + b = 0",
        },
        *_points(X, y),
    ]
    return {"data": data, "layout": _plane_layout(X, 420)}


def _cells(A: np.ndarray) -> list[list[float | None]]:
    """A grid for JSON: rounded, with NaN (outside the box) as None."""
    return [[None if np.isnan(v) else round(float(v), 4) for v in row] for row in A]


def lifted_figure(X: np.ndarray, y: np.ndarray, w: np.ndarray) -> Fig:
    """The points lifted by phi(x) = (x1², √2 x1x2, x2²), with the plane w·phi + b = 0."""
    Z = FEATURE_MAPS["quadratic"].fn(X)
    data = labelled_points(
        Z, y, kind="scatter3d", symbols=("circle", "diamond"), marker={"size": 5}
    )
    # the plane w . (u, v, s) + d = 0, solved for the coordinate with the largest weight
    coef, d = np.asarray(w[:3], dtype=float), float(w[3])
    axis = int(np.argmax(np.abs(coef)))
    if coef[axis] != 0.0:
        lo, hi = Z.min(axis=0) - 0.5, Z.max(axis=0) + 0.5
        free = [a for a in range(3) if a != axis]
        A, B = np.meshgrid(*(np.linspace(lo[a], hi[a], 12) for a in free))
        C = -(coef[free[0]] * A + coef[free[1]] * B + d) / coef[axis]
        C = np.where((lo[axis] - 1 <= C) & (hi[axis] + 1 >= C), C, np.nan)
        grid = {free[0]: A, free[1]: B, axis: C}
        data.append(
            {
                "type": "surface",
                "x": _cells(grid[0]),
                "y": _cells(grid[1]),
                "z": _cells(grid[2]),
                "showscale": False,
                "opacity": 0.45,
                "colorscale": [[0, W_COLOUR], [1, W_COLOUR]],
                "name": "separating plane",
                "hoverinfo": "skip",
            }
        )
    scene = {
        "xaxis": {"title": {"text": "x1²"}},
        "yaxis": {"title": {"text": "√2·x1x2"}},
        "zaxis": {"title": {"text": "x2²"}},
        "camera": {"eye": {"x": 1.6, "y": -1.6, "z": 0.9}},
    }
    return {
        "data": data,
        "layout": {
            "height": 420,
            "margin": {"l": 0, "r": 0, "t": 10, "b": 10},
            "scene": scene,
            "legend": {"orientation": "h", "y": 0.0},
        },
    }


# --- noisy data: the remedies ---------------------------------------------------------


def remedies_figure(errors: dict[str, np.ndarray], *, height: int = 340) -> Fig:
    """Training error after each epoch: plain perceptron, pocket, averaged."""
    styles = {
        "plain": ("plain perceptron (last w)", MINUS, "solid"),
        "pocket": ("pocket (best w so far)", PLUS, "dash"),
        "averaged": ("averaged w", W_COLOUR, "dot"),
    }
    data = []
    for key, values in errors.items():
        name, colour, dash = styles[key]
        data.append(
            {
                "type": "scatter",
                "x": list(range(1, len(values) + 1)),
                "y": (100 * values).round(2).tolist(),
                "mode": "lines+markers",
                "line": {"color": colour, "dash": dash},
                "name": name,
                "hovertemplate": "epoch %{x}: %{y:.1f}% wrong<extra></extra>",
            }
        )
    return {
        "data": data,
        "layout": {
            "height": height,
            "margin": _MARGIN,
            "xaxis": {"title": {"text": "epoch"}},
            "yaxis": {"title": {"text": "training error (%)"}, "rangemode": "tozero"},
            "legend": {"orientation": "h", "y": -0.25},
            "plot_bgcolor": "white",
        },
    }


def witness_latex(X: np.ndarray, witness: Witness) -> str:
    """z written as a convex combination of +1 points and of -1 points (LaTeX)."""
    lam = witness.weights
    s = float(lam[witness.positives].sum()) or 1.0

    def combo(idx: np.ndarray) -> str:
        return " + ".join(rf"{lam[i] / s:.3g}\,x_{{{i}}}" for i in idx)

    return (
        rf"z = {vector(witness.point)} = \underbrace{{{combo(witness.positives)}}}_{{y = +1}}"
        rf" = \underbrace{{{combo(witness.negatives)}}}_{{y = -1}}"
    )


def kernel_latex(X: np.ndarray) -> str:
    """The kernel identity phi(x).phi(z) = (x.z)^2, with the numbers of two data points."""
    i = 0
    others = np.arange(1, min(len(X), 10))
    j = int(others[np.argmax(np.abs(X[others] @ X[i]))]) if len(others) else 0
    phi = FEATURE_MAPS["quadratic"].fn(X[[i, j]])
    lhs = float(phi[0] @ phi[1])
    dot = float(X[i] @ X[j])
    return (
        rf"x_{{{i}}} = {vector(X[i])},\ x_{{{j}}} = {vector(X[j])}:\quad "
        rf"\varphi(x_{{{i}}})\cdot\varphi(x_{{{j}}}) = {lhs:.4g} = ({dot:.4g})^2"
        rf" = (x_{{{i}}}\cdot x_{{{j}}})^2"
    )

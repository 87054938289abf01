"""The perceptron as SGD (pure): the landscape of E_p over (w1, w2) with paths on it, the
losses of the margin, and mistakes / updates per epoch of online, mini-batch and batch runs.

Numbers in, plain Plotly figure dicts out (wrap with ``ui.look.plots.as_figure``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from perceptron_core import LOSSES, BatchTrace, loss_step, margin_loss, perceptron_criterion
from ui.look.numbers import AXIS, D3
from ui.look.palette import BOUND, CURRENT, PLUS, STAR, W_COLOUR
from ui.words import N_, t

Fig = dict[str, Any]
GRID = 81  # points per side of the E_p grid (81² w's x n points)
MAX_PATH = 1000  # updates drawn per path; the end is always marked
MAX_CURVE = 2000  # points drawn on the E_p-along-the-path curve
GRID_WORK = 4_000_000  # at most this many margins y_i w.x_i per grid: fewer points for big n


def grid_size(n: int, wanted: int = GRID) -> int:
    """Points per side for n data points: ``wanted``, fewer if size² x n > GRID_WORK."""
    return int(min(wanted, max(21, (GRID_WORK / max(n, 1)) ** 0.5)))


ZERO = "rgba(0, 158, 115, 0.30)"  # the cone E_p = 0, in W_COLOUR
LOSS_COLOURS = {
    "zero_one": STAR,
    "perceptron": W_COLOUR,
    "hinge": CURRENT,
    "logistic": PLUS,
    "squared": BOUND,
}


@dataclass(frozen=True, eq=False)
class Surface:
    """E_p on a square grid [-r, r]² of (w1, w2): ``values[i, j] = E_p((axis[j], axis[i]))``."""

    axis: np.ndarray  # (size,)
    values: np.ndarray  # (size, size)

    @property
    def r(self) -> float:
        return float(self.axis[-1])


@dataclass(frozen=True, eq=False)
class Path:
    """Weights w_0, w_1, ... of one run, drawn on the landscape."""

    label: str
    weights: np.ndarray  # (k + 1, 2)
    colour: str
    dash: str = "solid"  # paths that coincide (online and a mini-batch of 1) differ by dash


def half_width(paths: Sequence[np.ndarray], pad: float = 0.15) -> float:
    """Half-width r of a square [-r, r]² around the origin that holds every path."""
    biggest = max((float(np.abs(p).max()) for p in paths if len(p)), default=0.0)
    return biggest * (1 + pad) if biggest > 0 else 1.0


def surface(X: np.ndarray, y: np.ndarray, r: float, size: int = GRID) -> Surface:
    """E_p (no bias) on a size x size grid of [-r, r]²."""
    axis = np.linspace(-r, r, size)
    W = np.column_stack([np.tile(axis, size), np.repeat(axis, size)])  # w1 varies fastest
    values = perceptron_criterion(W, X, y, bias=False).reshape(size, size)
    return Surface(axis, values)


def scaled(s: Surface, eta: float) -> Surface:
    """The surface around eta·w: E_p(eta w) = eta E_p(w), so only the numbers change."""
    return Surface(s.axis * eta, s.values * eta)


def zero_cone(X: np.ndarray, y: np.ndarray) -> tuple[float, float] | None:
    """The cone where E_p = 0 (no bias), as an arc of angles [lo, hi] in radians, or None.

    E_p(w) = 0 iff ``w . z_i >= 0`` for every ``z_i = y_i x_i``. If the angles of the z_i
    fit in an arc [a, b] of width at most pi (the largest gap between them is >= pi), the
    w at angle within pi/2 of every z_i form the arc [b - pi/2, a + pi/2]; otherwise only
    w = 0 has E_p = 0. O(n log n).
    """
    Z = np.asarray(y, dtype=float)[:, None] * np.asarray(X, dtype=float)
    Z = Z[np.linalg.norm(Z, axis=1) > 0]
    if len(Z) == 0:
        return (0.0, 2 * np.pi)  # only points at the origin: every w has E_p = 0
    phi = np.sort(np.arctan2(Z[:, 1], Z[:, 0]))
    gaps = np.diff(np.append(phi, phi[0] + 2 * np.pi))
    j = int(np.argmax(gaps))
    if gaps[j] < np.pi - 1e-12:
        return None
    a = float(phi[(j + 1) % len(phi)])  # the z's run from a to b = a + width, counter-clockwise
    b = a + 2 * np.pi - float(gaps[j])
    return b - np.pi / 2, a + np.pi / 2


def _round(a: np.ndarray) -> list[Any]:
    rounded: list[Any] = (np.round(np.asarray(a, dtype=float), 4) + 0.0).tolist()  # + 0.0: no -0
    return rounded


def _w(x: str = "x", y: str = "y") -> str:
    """A weight vector in a hover text: w = (1.23, −4.5)."""
    return f"w = (%{{{x}:{D3}}}, %{{{y}:{D3}}})"


def landscape_figure(
    s: Surface,
    paths: Sequence[Path],
    X: np.ndarray,
    y: np.ndarray,
    *,
    height: int = 440,
    legend: bool = True,
) -> Fig:
    """E_p over the (w1, w2) plane, its zero cone shaded, and each path with its start and end."""
    axis = _round(s.axis)
    data: list[dict[str, Any]] = [
        {
            "type": "contour",
            "x": axis,
            "y": axis,
            "z": _round(s.values),
            "colorscale": [[0, "#ffffff"], [1, "#707070"]],  # low E_p light, so the cone shows
            "ncontours": 14,
            "contours": {"coloring": "heatmap"},
            "line": {"width": 0.5, "color": "rgba(80, 80, 80, 0.5)"},
            "colorbar": {"title": {"text": "Eₚ(w)"}, "thickness": 12, "len": 0.8, **AXIS},
            "hovertemplate": f"{_w()}<br>Eₚ = %{{z:{D3}}}<extra></extra>",
            "name": "Eₚ(w)",
            "showlegend": False,
        },
    ]
    cone = zero_cone(X, y)
    if cone is not None:
        far = 3 * s.r  # beyond the corners of the view; the plot clips the sector
        angle = np.linspace(cone[0], cone[1], 60)
        data.append(
            {
                "type": "scatter",
                "x": _round(np.concatenate([[0.0], far * np.cos(angle), [0.0]])),
                "y": _round(np.concatenate([[0.0], far * np.sin(angle), [0.0]])),
                "mode": "lines",
                "fill": "toself",
                "fillcolor": ZERO,
                "line": {"color": W_COLOUR, "width": 1},
                "name": t("Eₚ = 0: no mistake"),
                "hoverinfo": "skip",
            }
        )
    for p in paths:
        full = np.asarray(p.weights, dtype=float)
        W = full[: MAX_PATH + 1]
        label = p.label
        if len(full) > len(W):
            label = t("{label} (first {shown} of {total} updates)").format(
                label=label, shown=MAX_PATH, total=len(full) - 1
            )
        e = perceptron_criterion(W, X, y, bias=False)
        k = np.arange(len(W))
        after = t("after update {k}: {w}").format(k="%{customdata[0]:,}", w=_w())
        data.append(
            {
                "type": "scatter",
                "x": _round(W[:, 0]),
                "y": _round(W[:, 1]),
                "mode": "lines+markers",
                "line": {"color": p.colour, "width": 2, "dash": p.dash},
                "marker": {"color": p.colour, "size": 5},
                "name": label,
                "legendgroup": p.label,
                "customdata": (np.column_stack([k, e]).round(4) + 0.0).tolist(),
                "hovertemplate": (
                    f"{p.label}<br>{after}<br>Eₚ = %{{customdata[1]:{D3}}}<extra></extra>"
                ),
            }
        )
        data.append(
            {
                "type": "scatter",
                "x": _round(full[[0, -1], 0]),
                "y": _round(full[[0, -1], 1]),
                "mode": "markers",
                "marker": {
                    "color": ["white", p.colour],
                    "symbol": ["circle", "diamond"],
                    "size": [11, 13],
                    "line": {"color": p.colour, "width": 2},
                },
                "legendgroup": p.label,
                "showlegend": False,
                "hovertemplate": f"{_w()}<extra></extra>",
            }
        )
    r = s.r
    layout = {
        "height": height,
        "margin": {"l": 55, "r": 10, "t": 10, "b": 45},
        "showlegend": legend,
        "legend": {"orientation": "h", "y": -0.18},
        "xaxis": {"range": [-r, r], "title": {"text": "w1"}, "constrain": "domain", **AXIS},
        "yaxis": {
            "range": [-r, r],
            "title": {"text": "w2"},
            "scaleanchor": "x",
            "constrain": "domain",
            **AXIS,
        },
    }
    return {"data": data, "layout": layout}


def criterion_along(W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """E_p(w_k) for every row of W, shape (k + 1,)."""
    return perceptron_criterion(np.asarray(W, dtype=float), X, y, bias=False)


def along_path_figure(values: np.ndarray, *, height: int = 440) -> Fig:
    """E_p(w_k) against the update k, the steps that raised it marked."""
    k = np.arange(len(values))
    up = np.flatnonzero(np.diff(values) > 1e-12) + 1
    if len(k) > MAX_CURVE:  # thin long runs for drawing (every update still counted)
        k = np.unique(np.linspace(0, len(values) - 1, MAX_CURVE).astype(int))
        up = up[np.unique(np.linspace(0, len(up) - 1, min(len(up), MAX_CURVE)).astype(int))]
    data = [
        {
            "type": "scatter",
            "x": k.tolist(),
            "y": _round(values[k]),
            "mode": "lines+markers" if len(k) <= 200 else "lines",
            "line": {"color": W_COLOUR},
            "marker": {"size": 5},
            "name": "Eₚ(w_k)",
            "hovertemplate": t("after update {k}: Eₚ = {E}").format(k="%{x:,}", E=f"%{{y:{D3}}}")
            + "<extra></extra>",
        },
        {
            "type": "scatter",
            "x": up.tolist(),
            "y": _round(values[up]),
            "mode": "markers",
            "marker": {
                "color": CURRENT,
                "size": 10 if len(up) <= 100 else 5,
                "symbol": "triangle-up",
            },
            "name": t("Eₚ went up"),
            "hovertemplate": t("update {k} raised Eₚ to {E}").format(k="%{x:,}", E=f"%{{y:{D3}}}")
            + "<extra></extra>",
        },
    ]
    layout = {
        "height": height,
        "margin": {"l": 55, "r": 10, "t": 10, "b": 45},
        "legend": {"orientation": "h", "y": -0.18},
        "xaxis": {"title": {"text": t("update k")}, "rangemode": "tozero", **AXIS},
        "yaxis": {"title": {"text": "Eₚ(w_k)"}, "rangemode": "tozero", **AXIS},
    }
    return {"data": data, "layout": layout}


# the losses' two panels, and the schedule's: each its own figure, so that a phone stacks
# them (two panels in one figure squeezed both, and their titles ran into each other)
LOSS_PANELS = {
    "loss": (N_("loss l(z)"), margin_loss),
    "step": (N_("step −l′(z)"), loss_step),
}


def losses_figure(
    panel: str = "loss", *, lo: float = -3.0, hi: float = 3.0, height: int = 340
) -> Fig:
    """Each loss l(z) of the margin z = y w·x (``panel="loss"``), or the step -l'(z) it
    gives (``panel="step"``), with mistakes (z <= 0) shaded."""
    title, values_of = LOSS_PANELS[panel]
    z = np.linspace(lo, hi, 601)
    data: list[dict[str, Any]] = []
    for key, loss in LOSSES.items():
        colour = LOSS_COLOURS[key]
        dash = "dot" if key == "zero_one" else "solid"
        width = 4 if key == "perceptron" else 2  # under the others where they coincide
        data.append(
            {
                "type": "scatter",
                "x": _round(z),
                "y": _round(values_of(key, z)),
                "mode": "lines",
                "line": {"color": colour, "dash": dash, "width": width, "shape": "linear"},
                "name": t(loss.title),
                "hovertemplate": f"{t(loss.title)}: z = %{{x:.2f}}, %{{y:{D3}}}<extra></extra>",
            }
        )
    layout = {
        "height": height,
        "margin": {"l": 50, "r": 10, "t": 10, "b": 45},
        "showlegend": panel == "loss",
        "legend": {"orientation": "h", "y": -0.22},
        "xaxis": {"title": {"text": t("margin z = y·w·x")}, **AXIS},
        "yaxis": {"range": [-0.2, 4.2], "title": {"text": t(title)}, **AXIS},
        "shapes": [
            {
                "type": "rect",
                "xref": "x",
                "yref": "y domain",
                "y0": 0,
                "y1": 1,
                "x0": lo,
                "x1": 0,
                "fillcolor": "rgba(213, 94, 0, 0.08)",
                "line": {"width": 0},
                "layer": "below",
            }
        ],
    }
    return {"data": data, "layout": layout}


SCHEDULE_PANELS = {"mistakes": "mistakes_per_epoch", "updates": "updates_per_epoch"}
# each panel's axis title and hover text (run, epoch, count)
SCHEDULE_WORDS = {
    "mistakes": (N_("mistakes"), N_("{run}, epoch {epoch}: {k} mistakes")),
    "updates": (N_("updates"), N_("{run}, epoch {epoch}: {k} updates")),
}
RUN_DASHES = ("solid", "dash", "dot")  # online, mini-batch, batch: each visible on the others


def schedule_figure(
    runs: Sequence[tuple[str, BatchTrace, str]], panel: str = "mistakes", *, height: int = 320
) -> Fig:
    """Mistakes (``panel="mistakes"``) or updates (changes of w) in each epoch, for a few
    runs; where two runs coincide (a mini-batch of 1 is online) the dashes tell them apart."""
    field = SCHEDULE_PANELS[panel]
    axis_title, hover = (t(words) for words in SCHEDULE_WORDS[panel])
    data: list[dict[str, Any]] = []
    for i, (label, run, colour) in enumerate(runs):
        dash = RUN_DASHES[i % len(RUN_DASHES)]
        data.append(
            {
                "type": "scatter",
                "x": np.arange(1, run.n_epochs + 1).tolist(),
                "y": getattr(run, field).tolist(),
                "mode": "lines+markers",
                "line": {"color": colour, "dash": dash, "width": 3 - i * 0.5},
                "marker": {"size": 7 - 1.5 * i},
                "name": label,
                "hovertemplate": hover.format(run=label, epoch="%{x:,}", k="%{y:,}")
                + "<extra></extra>",
            }
        )
    longest = max((run.n_epochs for _, run, _ in runs), default=1)
    layout = {
        "height": height,
        "margin": {"l": 50, "r": 10, "t": 10, "b": 45},
        "showlegend": panel == "mistakes",
        "legend": {"orientation": "h", "y": -0.25},
        "xaxis": {
            "title": {"text": t("epoch")},
            "dtick": max(1, -(-longest // 10)),
            "rangemode": "tozero",
            **AXIS,
        },
        "yaxis": {"title": {"text": axis_title}, "rangemode": "tozero", **AXIS},
    }
    return {"data": data, "layout": layout}

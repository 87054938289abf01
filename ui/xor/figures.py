"""Beyond linear (pure): learning curves of runs that never stop, the witness that no line
exists, the lifted space of a feature map, and the pocket / averaged remedies.

Numbers in, plain Plotly figure dicts out (wrap with ``ui.look.plots.as_figure``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from perceptron_core import FEATURE_MAPS, Trace, Witness, decision
from ui.look.geometry import view_box
from ui.look.numbers import AXIS, D3, count, tex, vector_text
from ui.look.palette import CURRENT, MINUS, PLUS, W_COLOUR
from ui.look.plots import labelled_points, plane_axes
from ui.words import N_, t, tn

Fig = dict[str, Any]
GRID = 120  # points per side of the grid the induced boundary is drawn on


def _points(X: np.ndarray, y: np.ndarray) -> list[dict[str, Any]]:
    return labelled_points(
        X,
        y,
        marker={"size": 11},
        index=True,
        hover=t("point {i}: ({x}, {y})").format(
            i="%{customdata}", x=f"%{{x:{D3}}}", y=f"%{{y:{D3}}}"
        )
        + "<extra></extra>",
        xaxis="x",
        yaxis="y",
    )


_MARGIN = {"l": 50, "r": 10, "t": 10, "b": 40}


def _plane_layout(X: np.ndarray, height: int) -> dict[str, Any]:
    """A square data panel around X with the legend under it."""
    axes = plane_axes(view_box(X))
    return {
        "height": height,
        "margin": _MARGIN,
        "legend": {"orientation": "h", "y": -0.15},
        **{name: axis | AXIS for name, axis in axes.items()},  # ticks never go exponential
    }


# XOR on the integer corners (seeds 002, 003): +1 where exactly one coordinate is positive
XOR_X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([-1.0, -1.0, 1.0, 1.0])


# --- runs that never stop -------------------------------------------------------------


# (title, x axis, hover, mode) of the three charts of runs that never stop; a hover's
# {x} and {y} are Plotly's values, filled in after translation (:func:`hover_of`)
CURVES = (
    (N_("mistakes in each epoch"), N_("epoch"), N_("epoch {x}: {y} mistakes"), "lines+markers"),
    (N_("mistakes so far"), N_("epochs"), N_("after {x} epochs: {y} mistakes"), "lines"),
    (N_("‖w‖ after each mistake"), N_("mistakes k"), "k = {x}: ‖w‖ = {y}", "lines"),
)
# the Plotly values of each chart's hover: (x, y)
_HOVER_VALUES = (("%{x}", "%{y:,}"), (f"%{{x:{D3}}}", "%{y:,}"), ("%{x:,}", f"%{{y:{D3}}}"))
# each of CURVES' charts saved by its tool bar's camera button as perceptron-xor-<this>.png
CURVE_FILES = ("mistakes-per-epoch", "mistakes-so-far", "norm-w")
CURVE_SAVED = (640, 400)  # CSS px, saved at 2×: a third of the page is too narrow for a slide


def curves_figures(runs: list[tuple[str, Trace, str]], *, height: int = 330) -> list[Fig]:
    """Three charts for a few runs side by side (label, trace, colour): mistakes per epoch,
    cumulative mistakes against epochs, and ‖w‖ after each mistake.

    Three figures, not one with three panels: in ``st.columns`` they sit side by side on
    a wide screen and one under the other on a phone (one figure's panels squeezed their
    titles into each other at 390 px). The first run is solid, the others dashed, so the
    runs differ by more than colour. Their titles (``CURVES``) are the page's to write:
    in the chart the touch screen's tool bar covered them."""
    series: list[list[tuple[Sequence[float], Sequence[float]]]] = [[], [], []]
    for _, trace, _ in runs:
        n = trace.n_examples
        per_epoch = np.bincount(trace.mistake_steps[:, 0] // n, minlength=trace.n_epochs)
        series[0].append((np.arange(1, trace.n_epochs + 1).tolist(), per_epoch.tolist()))
        ks = np.arange(1, trace.n_mistakes + 1)
        series[1].append(((trace.mistake_steps[:, 0] / n).round(4).tolist(), ks.tolist()))
        norms = np.linalg.norm(trace.weights, axis=1).round(4)
        series[2].append((np.arange(trace.n_mistakes + 1).tolist(), norms.tolist()))
    figures = []
    for (_, x_title, said, mode), (hx, hy), panel in zip(
        CURVES, _HOVER_VALUES, series, strict=True
    ):
        hover = t(said).format(x=hx, y=hy)
        data = [
            {
                "type": "scatter",
                "x": xs,
                "y": ys,
                "mode": mode,
                "line": {"color": colour, "dash": "solid" if r == 0 else "dash"},
                "name": label,
                "hovertemplate": hover + "<extra>" + label + "</extra>",
            }
            for r, ((label, _, colour), (xs, ys)) in enumerate(zip(runs, panel, strict=True))
        ]
        layout = {
            "height": height,
            "margin": {"l": 50, "r": 10, "t": 30, "b": 110},  # the legend under every chart
            # one run a row, each row the chart's width: no entry runs into the next or is
            # cut, whatever font draws it (a PNG saved by the tool bar falls back from the
            # page's font, which Plotly measured, to a wider one)
            "legend": {
                "orientation": "h",
                "entrywidth": 1,
                "entrywidthmode": "fraction",
                "y": -0.3,
                "yanchor": "top",
            },
            "xaxis": {"title": {"text": t(x_title)}, **AXIS},
            "yaxis": {"rangemode": "tozero", **AXIS},
        }
        figures.append({"data": data, "layout": layout})
    return figures


# --- why no line exists ---------------------------------------------------------------


def witness_figure(X: np.ndarray, y: np.ndarray, witness: Witness, *, height: int = 420) -> Fig:
    """The data with a point z that is a convex combination of positives and of negatives."""
    z = witness.point
    data: list[dict[str, Any]] = []
    for idx, colour, name in (
        (witness.positives, PLUS, t("z from +1 points")),
        (witness.negatives, MINUS, t("z from −1 points")),
    ):
        xs: list[float | None] = []
        ys: list[float | None] = []
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
            "name": t("z: in both hulls"),
            "hovertemplate": f"z = (%{{x:{D3}}}, %{{y:{D3}}})<extra></extra>",
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
            "name": t("predicted side"),
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


def coinciding(Z: np.ndarray, decimals: int = 9) -> list[np.ndarray]:
    """Groups of two or more rows of Z (lifted points) on one spot, each as row indices."""
    if len(Z) == 0:
        return []
    _, inverse, counts = np.unique(
        np.round(Z, decimals), axis=0, return_inverse=True, return_counts=True
    )
    inverse = inverse.ravel()
    groups = [np.flatnonzero(inverse == g) for g in np.flatnonzero(counts > 1)]
    return sorted(groups, key=lambda g: int(g[0]))


def coinciding_text(X: np.ndarray, y: np.ndarray, Z: np.ndarray, limit: int = 3) -> str | None:
    """Markdown under the 3-D view: which points φ puts on one spot, why, and whether a spot
    holds both labels (then no plane separates them); None when every point has its own.

    φ(x) = (x1², √2·x1x2, x2²) only has squares and the product x1x2, so x and −x have
    the same image: XOR's four corners land on two spots, two points on each."""
    groups = coinciding(Z)
    if not groups:
        return None
    shown = len(Z) - sum(len(g) - 1 for g in groups)
    parts = []  # clauses of a list, each whole, joined by semicolons
    for g in groups[:limit]:
        names = [vector_text(X[i]) for i in g]
        spot = vector_text(Z[g[0]])
        if len(names) == 2:
            said = t("{a} and {b} both land on {spot}").format(a=names[0], b=names[1], spot=spot)
        else:
            said = t("{some} and {last} all land on {spot}").format(
                some=", ".join(names[:-1]), last=names[-1], spot=spot
            )
        parts.append(said)
    more = len(groups) - limit
    if more > 0:
        parts.append(
            tn("and {n} more spot like these", "and {n} more spots like these", more).format(n=more)
        )
    mixed = int(sum(len(np.unique(y[g])) > 1 for g in groups))
    if mixed:
        said = tn(
            "**{n} points, {shown} markers.** UMass CMPSCI 689's φ(x) = (x₁², √2·x₁x₂, x₂²) is "
            "the same for x and −x (squares and the product x₁x₂ do not change when both "
            "signs flip), so {spots}. A black ring and a count mark each such spot; {mixed} "
            "spot holds both labels, so no plane can separate the lifted points.",
            "**{n} points, {shown} markers.** UMass CMPSCI 689's φ(x) = (x₁², √2·x₁x₂, x₂²) is "
            "the same for x and −x (squares and the product x₁x₂ do not change when both "
            "signs flip), so {spots}. A black ring and a count mark each such spot; {mixed} "
            "spots hold both labels, so no plane can separate the lifted points.",
            mixed,
        )
    else:
        said = t(
            "**{n} points, {shown} markers.** UMass CMPSCI 689's φ(x) = (x₁², √2·x₁x₂, x₂²) is "
            "the same for x and −x (squares and the product x₁x₂ do not change when both "
            "signs flip), so {spots}. A black ring and a count mark each such spot; each "
            "spot holds points of one label only, so a plane can still separate them."
        )
    return said.format(n=len(Z), shown=shown, spots="; ".join(parts), mixed=mixed)


def lifted_figure(X: np.ndarray, y: np.ndarray, w: np.ndarray) -> Fig:
    """The points lifted by phi(x) = (x1², √2 x1x2, x2²), with the plane w·phi + b = 0.

    Points that phi puts on one spot (x and −x) get a ring and a count ("2 points"): without
    them XOR's 4 points show as 2 markers."""
    Z = FEATURE_MAPS["quadratic"].fn(X)
    hover = t("φ(point {i}) = ({x}, {y}, {z})").format(
        i="%{customdata}", x=f"%{{x:{D3}}}", y=f"%{{y:{D3}}}", z=f"%{{z:{D3}}}"
    )
    hover += "<extra></extra>"
    data = labelled_points(
        Z,
        y,
        kind="scatter3d",
        symbols=("circle", "diamond"),
        marker={"size": 5},
        index=True,
        hover=hover,
    )
    groups = coinciding(Z)
    if groups:
        spots = np.array([Z[g[0]] for g in groups])
        data.append(
            {
                "type": "scatter3d",
                "x": spots[:, 0].round(4).tolist(),
                "y": spots[:, 1].round(4).tolist(),
                "z": spots[:, 2].round(4).tolist(),
                "mode": "markers+text",
                "marker": {"symbol": "circle-open", "size": 16, "color": "black"},
                "text": [count(len(g), "point") for g in groups],
                # away from the middle of the view, where the plane usually stands
                "textposition": ["top right" if v >= 0 else "top left" for v in spots[:, 1]],
                "textfont": {"size": 14},
                "name": t("several points on one spot"),
                "hoverinfo": "skip",
            }
        )
    lo, hi = Z.min(axis=0) - 0.5, Z.max(axis=0) + 0.5  # the box drawn: every axis a range
    # the plane w . (u, v, s) + d = 0, solved for the coordinate with the largest weight
    coef, d = np.asarray(w[:3], dtype=float), float(w[3])
    axis = int(np.argmax(np.abs(coef)))
    if coef[axis] != 0.0:
        free = [a for a in range(3) if a != axis]
        A, B = np.meshgrid(*(np.linspace(lo[a], hi[a], 12) for a in free))
        C = -(coef[free[0]] * A + coef[free[1]] * B + d) / coef[axis]
        C = np.where((lo[axis] <= C) & (hi[axis] >= C), C, np.nan)
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
                "name": t("separating plane"),
                "hoverinfo": "skip",
            }
        )
    names = FEATURE_MAPS["quadratic"].names
    scene: dict[str, Any] = {
        f"{ax}axis": {"title": {"text": name}, "range": [float(a), float(b)], **AXIS}
        for ax, name, a, b in zip(("x", "y", "z"), names, lo, hi, strict=True)
    }
    scene["aspectmode"] = "cube"
    # a drag turns the view (once the page lets it: ui.xor.view), whatever the figure's
    # own dragmode (ui.look.plots turns drag-to-zoom off for 2-D charts, and a scene inherits it)
    scene["dragmode"] = "turntable"
    # far enough that the whole box fits a phone's narrow panel; the √2·x1x2 axis (the one
    # that separates XOR) runs across the view, so the plane stands between the spots
    scene["camera"] = {"eye": {"x": 2.1, "y": -1.0, "z": 0.8}}
    return {
        "data": data,
        "layout": {
            "height": 420,
            "margin": {"l": 30, "r": 0, "t": 10, "b": 10},  # room for the x2² title
            "scene": scene,
            "legend": {"orientation": "h", "y": 1.0, "yanchor": "top"},  # the empty corner
        },
    }


# --- noisy data: the remedies ---------------------------------------------------------


# (legend name, colour, line, marker) of each remedy; drawn in this order, so the thin
# dotted averaged line lies on top of the pocket's wide band where their errors are equal
REMEDIES: dict[str, tuple[str, str, dict[str, Any], dict[str, Any]]] = {
    "pocket": (
        N_("pocket (best w so far): wide band"),
        PLUS,
        {"width": 9},
        {"size": 11, "symbol": "square"},
    ),
    "plain": (
        N_("plain perceptron (last w)"),
        MINUS,
        {"width": 2},
        {"size": 6, "symbol": "circle"},
    ),
    "averaged": (
        N_("averaged w: dotted"),
        W_COLOUR,
        {"width": 3, "dash": "dot"},
        {"size": 7, "symbol": "diamond"},
    ),
}


# each remedy by its short name (a hover's tag, a sentence of :func:`coinciding_note`)
REMEDY_NAMES = {"pocket": N_("pocket"), "plain": N_("plain"), "averaged": N_("averaged")}


def remedies_figure(errors: dict[str, np.ndarray], *, height: int = 340) -> Fig:
    """Training error after each epoch: plain perceptron, pocket, averaged.

    Equal errors put lines on top of each other (the pocket and the averaged w often
    share the best error for many epochs): the pocket is a wide pale band under the
    others, the averaged w a dotted line on top, so both show (``coinciding_note``)."""
    data = []
    for key, (name, colour, line, marker) in REMEDIES.items():
        values = errors[key]
        data.append(
            {
                "type": "scatter",
                "x": list(range(1, len(values) + 1)),
                "y": (100 * values).round(2).tolist(),
                "mode": "lines+markers",
                "line": {"color": colour, **line},
                "marker": {"color": colour, **marker},
                "opacity": 0.45 if key == "pocket" else 1.0,
                "name": t(name),
                "hovertemplate": t("epoch {x}: {y}% wrong").format(x="%{x}", y="%{y:.1f}")
                + "<extra>"
                + t(REMEDY_NAMES[key])
                + "</extra>",
            }
        )
    return {
        "data": data,
        "layout": {
            "height": height,
            "margin": _MARGIN,
            "xaxis": {"title": {"text": t("epoch")}, **AXIS},
            "yaxis": {"title": {"text": t("training error (%)")}, "rangemode": "tozero", **AXIS},
            "legend": {"orientation": "h", "y": -0.25},
            "plot_bgcolor": "white",
        },
    }


def coinciding_note(errors: dict[str, np.ndarray]) -> str | None:
    """Markdown under the remedies chart: in how many epochs two of the lines have the same
    error, and how the chart keeps both in view (None when no two lines meet)."""
    epochs = len(errors["plain"])
    met = []  # clauses of a list, each whole, joined by semicolons
    for a, b in (("pocket", "averaged"), ("plain", "pocket"), ("plain", "averaged")):
        same = np.isclose(errors[a], errors[b], rtol=0.0, atol=1e-12)
        names = {"a": t(REMEDY_NAMES[a]), "b": t(REMEDY_NAMES[b]), "epochs": epochs}
        if same.all():
            met.append(t("{a} and {b} in all {epochs} epochs").format(**names))
        elif same.any():
            met.append(
                t("{a} and {b} in {k} of {epochs} epochs").format(k=int(same.sum()), **names)
            )
    if not met:
        return None
    return t(
        "**Lines on top of each other.** The same error: {met}. Where they meet, the dotted "
        "averaged line and the thin plain line run inside the pocket's wide pale band, so "
        "all three stay in view."
    ).format(met="; ".join(met))


def _vector_tex(v: np.ndarray) -> str:
    return "(" + r",\ ".join(tex(x) for x in v) + ")"


def witness_latex(X: np.ndarray, witness: Witness) -> str:
    """z written as a convex combination of +1 points and of −1 points (LaTeX), one line
    each, so the formula fits a phone's width."""
    lam = witness.weights
    s = float(lam[witness.positives].sum()) or 1.0

    def combo(idx: np.ndarray) -> str:
        return " + ".join(rf"{tex(lam[i] / s)}\,x_{{{i + 1}}}" for i in idx)  # x_1 is point 1

    return (
        rf"\begin{{aligned}} z &= {_vector_tex(witness.point)} \\"
        rf" &= \underbrace{{{combo(witness.positives)}}}_{{y = +1}} \\"
        rf" &= \underbrace{{{combo(witness.negatives)}}}_{{y = -1}} \end{{aligned}}"
    )


def kernel_latex(X: np.ndarray) -> str:
    """The kernel identity phi(x).phi(z) = (x.z)^2, with the numbers of two data points, on
    three lines (a phone's width)."""
    i = 0
    others = np.arange(1, min(len(X), 10))
    j = int(others[np.argmax(np.abs(X[others] @ X[i]))]) if len(others) else 0
    phi = FEATURE_MAPS["quadratic"].fn(X[[i, j]])
    lhs = float(phi[0] @ phi[1])
    dot = float(X[i] @ X[j])
    a, b = i + 1, j + 1  # named as a student counts the points, from 1
    return (
        rf"\begin{{gathered}} x_{{{a}}} = {_vector_tex(X[i])},\quad x_{{{b}}} = "
        rf"{_vector_tex(X[j])} \\ \begin{{aligned}} \varphi_{{\mathrm{{quad}}}}(x_{{{a}}})\cdot"
        rf"\varphi_{{\mathrm{{quad}}}}(x_{{{b}}}) &= "
        rf"{tex(lhs, 4)} \\ &= ({tex(dot, 4)})^2 = (x_{{{a}}}\cdot x_{{{b}}})^2 \end{{aligned}}"
        r" \end{gathered}"
    )

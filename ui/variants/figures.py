"""Which perceptron to deploy (pure): the experiments of the variants page and their
figures (the price of a vote and the verdict: ``ui.variants.verdict``, whose names are
also read here as ``figures.cost_rows``, ``figures.verdict``, ``figures.swing``).

No Streamlit here: ``ui.variants.runs`` caches these; figures are plain Plotly
dicts (wrap with ``ui.look.plots.as_figure``); every number is written by ``ui.look.numbers``.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from perceptron_core import (
    DIGIT_PAIRS,
    METHODS,
    EpochErrors,
    ManyRuns,
    NotSeparableError,
    averaged_weights,
    epoch_errors,
    flip_labels,
    holdout_split,
    many_runs,
    max_margin,
    predict,
    start_bound,
    train,
    voted_score,
)
from ui.look.geometry import boundary_segment, view_box
from ui.look.numbers import AXIS, D3, number, percent
from ui.look.palette import AVERAGED, LAST, STAR, VOTED
from ui.look.plots import labelled_points, plane_axes
from ui.variants.verdict import NAMES
from ui.variants.verdict import TIE as TIE
from ui.variants.verdict import cost_rows as cost_rows
from ui.variants.verdict import swing as swing
from ui.variants.verdict import verdict as verdict
from ui.words import t

Fig = dict[str, Any]
TEST_FRACTION = 0.3
GRID = 50  # points per side of the grid the voted boundary is drawn on
MAX_RUN_STEPS = 1_000_000  # runs x epochs x training points in section 3: about a second
COLOURS = {"last": LAST, "averaged": AVERAGED, "voted": VOTED}
DASH = {"last": "solid", "averaged": "dash", "voted": "dot"}
PAIRS = DIGIT_PAIRS  # (+1 digit, -1 digit) pairs of the 8x8 digits: the engine's registry


# --- experiments -----------------------------------------------------------------------


def bundled_digits() -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's bundled 8x8 handwritten digits, offline: X (1797, 64) with pixels
    scaled to [0, 1], and the digit of each image.

    Read from the CSV scikit-learn ships (``sklearn/datasets/data/digits.csv.gz``, what
    ``load_digits`` reads) without importing scikit-learn, whose import pulls in
    scipy.stats: about 0.8 s of a cold page against 20 ms for the file.
    """
    spec = importlib.util.find_spec("sklearn")  # finds the package, does not import it
    where = spec.submodule_search_locations if spec else None
    path = Path(next(iter(where))) / "datasets" / "data" / "digits.csv.gz" if where else None
    if path is not None and path.is_file():
        data = np.loadtxt(path, delimiter=",")
        return data[:, :-1] / 16.0, data[:, -1].astype(np.int64)
    from sklearn.datasets import load_digits  # the file moved: the slow way

    d = load_digits()
    return np.asarray(d.data, dtype=np.float64) / 16.0, np.asarray(d.target, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class Experiment:
    """One stream on a held-out split, read three ways, with the max-margin reference."""

    X_train: np.ndarray  # (n, d)
    y_train: np.ndarray  # (n,) labels the perceptron saw (some flipped)
    X_test: np.ndarray  # (m, d)
    y_test: np.ndarray  # (m,) clean labels
    flipped: np.ndarray  # indices into the training set of the flipped labels
    errors: EpochErrors
    w_last: np.ndarray  # (d',) after the last epoch
    w_avg: np.ndarray  # (d',)
    n_mistakes: int
    converged: bool
    star: np.ndarray | None  # w* of the clean training labels, or None
    star_test: float | None  # its test error
    star_reason: str | None  # why there is no w*


def experiment(
    X: np.ndarray, y: np.ndarray, *, noise: float, epochs: int, seed: int
) -> tuple[Experiment, Any]:
    """Split (X, y) 70/30, flip ``noise`` of the training labels, train one shuffled
    stream for ``epochs`` epochs, and read it as last / averaged / voted.

    Returns the experiment and the trace (for the voted boundary)."""
    tr, te = holdout_split(y, test_fraction=TEST_FRACTION, seed=seed)
    y_clean = y[tr]
    y_train, flipped = flip_labels(y_clean, fraction=noise, seed=seed)
    trace = train(X[tr], y_train, bias=True, max_epochs=epochs, seed=seed)
    errors = epoch_errors(trace, X[tr], y_train, X[te], y[te], epochs=epochs)
    T = epochs * len(tr)  # seed 003 runs all T epochs: a converged run keeps its last w
    star, star_test, reason = None, None, None
    try:
        mm = max_margin(X[tr], y_clean, bias=True)
        star = mm.w_star
        star_test = float((predict(star, X[te]) != y[te]).mean())
    except NotSeparableError as exc:
        reason = str(exc)
    return (
        Experiment(
            X_train=X[tr],
            y_train=y_train,
            X_test=X[te],
            y_test=y[te],
            flipped=flipped,
            errors=errors,
            w_last=trace.w_before(T),
            w_avg=averaged_weights(trace, steps=T),
            n_mistakes=trace.mistakes_before(T),
            converged=trace.converged,
            star=star,
            star_test=star_test,
            star_reason=reason,
        ),
        trace,
    )


def voted_grid(trace: Any, X: np.ndarray, steps: int) -> dict[str, list[Any]]:
    """The voted perceptron's vote on a GRID x GRID grid over the view box of X."""
    box = view_box(X)
    gx = np.linspace(box.x0, box.x1, GRID)
    gy = np.linspace(box.y0, box.y1, GRID)
    G = np.column_stack([np.repeat(gx[None, :], GRID, 0).ravel(), np.repeat(gy, GRID)])
    votes = voted_score(trace, G, steps=steps).reshape(GRID, GRID)
    return {"x": gx.tolist(), "y": gy.tolist(), "z": np.sign(votes).tolist()}


@dataclass(frozen=True, eq=False)
class Starts:
    """Many runs over seeded orders and starts on the clean training labels."""

    X_train: np.ndarray  # (n, d) the clean training split every run saw
    y_train: np.ndarray
    runs: ManyRuns
    bound: float | None  # (R/γ)² + 2‖w0‖/γ, or None if the training set is not separable
    star: np.ndarray | None


def starts_epochs(runs: int, epochs: int, n: int) -> int:
    """Epochs per run in section 3, so that runs x epochs x n_train <= MAX_RUN_STEPS."""
    n_train = n - round(TEST_FRACTION * n)
    return max(1, min(epochs, MAX_RUN_STEPS // max(1, runs * n_train)))


def starts(
    X: np.ndarray,
    y: np.ndarray,
    *,
    runs: int,
    epochs: int,
    w0_norm: float,
    seed: int,
) -> Starts:
    """``runs`` perceptrons on the clean 70% training split, each with its own order and start."""
    tr, te = holdout_split(y, test_fraction=TEST_FRACTION, seed=seed)
    result = many_runs(
        X[tr], y[tr], X[te], y[te], runs=runs, max_epochs=epochs, w0_norm=w0_norm, seed=seed
    )
    try:
        mm = max_margin(X[tr], y[tr], bias=True)
    except NotSeparableError:
        return Starts(X[tr], y[tr], runs=result, bound=None, star=None)
    # the proof from a start w0 (seed 002's two steps, w0 kept), at the worst direction of
    # w0, w0.w* = -||w0||: M <= (R/γ)² + 2||w0||/γ holds for every run
    bound = start_bound(
        start_dot=-w0_norm, start_norm_sq=w0_norm**2, gamma=mm.gamma, radius=mm.radius, eta=1.0
    )
    return Starts(X[tr], y[tr], runs=result, bound=bound, star=mm.w_star)


# --- figures ------------------------------------------------------------------------------


def _points(
    X: np.ndarray, y: np.ndarray, *, test: bool, flipped: np.ndarray | None = None
) -> list[dict[str, Any]]:
    split = "test" if test else "train"  # the legend group
    out = labelled_points(
        X,
        y,
        symbols=("circle-open", "x-open") if test else ("circle", "x"),
        marker={"size": 8 if test else 9, "opacity": 0.9 if test else 0.75},
        name=t("test y = {label}") if test else t("train y = {label}"),
        hover=f"(%{{x:{D3}}}, %{{y:{D3}}})<extra></extra>",
        legendgroup=split,
    )
    if flipped is not None and len(flipped):
        out.append(
            {
                "type": "scatter",
                "x": X[flipped, 0].tolist(),
                "y": X[flipped, 1].tolist(),
                "mode": "markers",
                "marker": {
                    "color": "rgba(0,0,0,0)",
                    "size": 15,
                    "line": {"color": "#222222", "width": 1.5},
                },
                "name": t("flipped label"),
                "hoverinfo": "skip",
            }
        )
    return out


def _line(
    w: np.ndarray, box: Any, name: str, colour: str, dash: str, width: float = 3
) -> dict[str, Any]:
    seg = boundary_segment(np.asarray(w), True, box)
    xs, ys = ([seg[0][0], seg[1][0]], [seg[0][1], seg[1][1]]) if seg else ([], [])
    return {
        "type": "scatter",
        "x": xs,
        "y": ys,
        "mode": "lines",
        "line": {"color": colour, "dash": dash, "width": width},
        "name": name,
        "hoverinfo": "skip",
    }


def _plane_layout(box: Any, height: int) -> dict[str, Any]:
    axes = plane_axes(box)
    for key in ("xaxis", "yaxis"):
        axes[key] = {**axes[key], **AXIS}
    return {
        "height": height,
        "margin": {"l": 50, "r": 10, "t": 30, "b": 40},
        "legend": {"orientation": "h", "y": -0.2, "yanchor": "top"},
        **axes,
    }


def boundaries_figure(exp: Experiment, grid: dict[str, list[Any]], *, height: int = 520) -> Fig:
    """The 2-D data (training filled, test open, flipped labels ringed) with the last,
    averaged and voted boundaries after the last epoch, and w* of the clean labels."""
    X_all = np.vstack([exp.X_train, exp.X_test])
    box = view_box(X_all)
    data = _points(exp.X_train, exp.y_train, test=False, flipped=exp.flipped)
    data += _points(exp.X_test, exp.y_test, test=True)
    data.append(
        {
            "type": "contour",
            "x": grid["x"],
            "y": grid["y"],
            "z": grid["z"],
            "contours": {"start": 0, "end": 0, "size": 1, "coloring": "none"},
            "line": {"color": COLOURS["voted"], "width": 3, "dash": DASH["voted"]},
            "showscale": False,
            "showlegend": True,
            "name": t("voted (vote = 0)"),
            "hoverinfo": "skip",
        }
    )
    data.append(_line(exp.w_last, box, t(NAMES["last"]), COLOURS["last"], DASH["last"]))
    data.append(_line(exp.w_avg, box, t(NAMES["averaged"]), COLOURS["averaged"], DASH["averaged"]))
    if exp.star is not None:
        data.append(_line(exp.star, box, t("w* (clean labels)"), STAR, "longdash", 1.5))
    return {"data": data, "layout": _plane_layout(box, height)}


def errors_figure(
    errors: EpochErrors, star_test: float | None, *, title: str, height: int = 460
) -> Fig:
    """Training (dotted, thin) and test (solid) error per epoch of the three read-outs, with
    the max-margin separator's test error as a horizontal reference line.

    ``title`` is Plotly text, already escaped (``ui.look.text.safe(..., sink="plotly")``); it
    sits between the chart's tool bar and the plot (``automargin``), so on a touch screen,
    where the tool bar always shows, the bar does not cover it."""
    x = errors.epochs.tolist()
    data: list[dict[str, Any]] = []
    # (name, hover) of a read-out's test and training curves
    words = {
        "test": (t("{method}, test"), t("{method} test: {error}% after epoch {epoch}")),
        "train": (t("{method}, train"), t("{method} train: {error}% after epoch {epoch}")),
    }
    for m in METHODS:
        for split, values, width, dash in (
            ("test", errors.test[m], 3, DASH[m]),
            ("train", errors.train[m], 1.2, "dot"),
        ):
            name, hover = words[split]
            data.append(
                {
                    "type": "scatter",
                    "x": x,
                    "y": (100 * values).round(2).tolist(),
                    "mode": "lines+markers" if split == "test" else "lines",
                    "marker": {"size": 5},
                    "line": {"color": COLOURS[m], "width": width, "dash": dash},
                    "name": name.format(method=t(NAMES[m])),
                    "legendgroup": m,
                    "hovertemplate": hover.format(
                        method=t(NAMES[m]), error="%{y:.1f}", epoch="%{x}"
                    )
                    + "<extra></extra>",
                }
            )
    if star_test is not None:
        data.append(
            {
                "type": "scatter",
                "x": [0.5, max(x) + 0.5],
                "y": [100 * star_test] * 2,
                "mode": "lines",
                "line": {"color": STAR, "dash": "longdash", "width": 2},
                "name": t("w* test ({error})").format(error=percent(star_test)),
            }
        )
    return {
        "data": data,
        "layout": {
            "height": height,
            "title": {
                "text": title,
                "font": {"size": 14},
                "x": 0,
                "xanchor": "left",
                "xref": "paper",
                "y": 1,
                "yanchor": "bottom",
                "yref": "paper",
                "pad": {"b": 8},
                "automargin": True,
            },
            # the title's two lines sit under the tool bar's band (about 30 px at the top)
            "margin": {"l": 55, "r": 10, "t": 80, "b": 40},
            "legend": {"orientation": "h", "y": -0.2},
            "xaxis": {"title": {"text": t("epoch")}, "range": [0.5, max(x) + 0.5], **AXIS},
            "yaxis": {"title": {"text": t("error (%)")}, "rangemode": "tozero", **AXIS},
        },
    }


def mistakes_head(title: str, s: Starts) -> str:
    """What the histogram of one dataset shows, above it: "2-D: M from 0 to 14; bound 78",
    and how many runs stopped at the epoch limit, whose M is only a lower bound."""
    M, stopped = s.runs.n_mistakes, int((~np.asarray(s.runs.converged, dtype=bool)).sum())
    if s.bound is None:
        head = (
            t(
                "{title}: M from {low} to {high} ({stopped} of {runs} runs had not converged: "
                "their M is a lower bound); not separable: no bound"
            )
            if stopped
            else t("{title}: M from {low} to {high}; not separable: no bound")
        )
    else:
        head = (
            t(
                "{title}: M from {low} to {high} ({stopped} of {runs} runs had not converged: "
                "their M is a lower bound); bound {bound}"
            )
            if stopped
            else t("{title}: M from {low} to {high}; bound {bound}")
        )
    return head.format(
        title=title,
        low=number(M.min()),
        high=number(M.max()),
        stopped=stopped,
        runs=len(M),
        bound=number(s.bound) if s.bound is not None else "",
    )


def mistakes_figure(s: Starts, *, height: int = 320) -> Fig:
    """Histogram of the mistakes M of every run on one dataset, with the bound (a line, or
    a note where it is off the chart). One figure per dataset, so a phone stacks them."""
    M = s.runs.n_mistakes
    data: list[dict[str, Any]] = [
        {
            "type": "histogram",
            "x": M.tolist(),
            "marker": {"color": COLOURS["last"]},
            "name": t("runs"),
            "hovertemplate": t("M in {M}: {k} runs").format(M="%{x}", k="%{y:,}")
            + "<extra></extra>",
        }
    ]
    xaxis: dict[str, Any] = {"title": {"text": t("mistakes M of a run")}, "rangemode": "tozero"}
    layout: dict[str, Any] = {
        "height": height,
        "margin": {"l": 55, "r": 10, "t": 10, "b": 45},
        "showlegend": False,
        "annotations": [],
        "shapes": [],
        "bargap": 0.05,
        "xaxis": xaxis,
        "yaxis": {"title": {"text": t("runs")}, **AXIS},
    }
    top = max(int(M.max()), 1)
    if s.bound is not None and s.bound > 3 * top:  # the bound is off the chart: say where
        xaxis["range"] = [-0.5, top * 1.15 + 1]
        layout["annotations"].append(
            {
                "text": t("bound {bound} →<br>(off the chart)").format(bound=number(s.bound)),
                "x": 1.0,
                "y": 0.95,
                "xref": "x domain",
                "yref": "y domain",
                "xanchor": "right",
                "showarrow": False,
                "font": {"size": 12, "color": STAR},
            }
        )
    elif s.bound is not None:
        layout["shapes"].append(
            {
                "type": "line",
                "x0": s.bound,
                "x1": s.bound,
                "y0": 0,
                "y1": 1,
                "xref": "x",
                "yref": "y domain",
                "line": {"color": STAR, "dash": "dash", "width": 2},
            }
        )
        xaxis["range"] = [0, s.bound * 1.05]
    xaxis.update(AXIS)
    return {"data": data, "layout": layout}


def _many_lines(W: np.ndarray, box: Any) -> tuple[list[float | None], list[float | None]]:
    xs: list[float | None] = []
    ys: list[float | None] = []
    for w in W:
        seg = boundary_segment(w, True, box)
        if seg is None:
            continue
        xs += [seg[0][0], seg[1][0], None]
        ys += [seg[0][1], seg[1][1], None]
    return xs, ys


def hyperplanes_figure(s: Starts, key: str = "last", *, height: int = 400) -> Fig:
    """Every run's final line (``key="last"``) or every run's averaged line
    (``key="averaged"``) over the training data, with w*. One figure per read-out, so a
    phone stacks them."""
    X, y = s.X_train, s.y_train
    box = view_box(X)
    W = s.runs.w if key == "last" else s.runs.w_avg
    data: list[dict[str, Any]] = _points(X, y, test=False)
    xs, ys = _many_lines(W, box)
    data.append(
        {
            "type": "scatter",
            "x": xs,
            "y": ys,
            "mode": "lines",
            "line": {"color": COLOURS[key], "width": 1},
            "opacity": 0.35,
            "name": t("{method} of each run").format(method=t(NAMES[key])),
            "hoverinfo": "skip",
        }
    )
    if s.star is not None:
        data.append(_line(s.star, box, "w*", STAR, "longdash", 2))
    return {"data": data, "layout": _plane_layout(box, height)}


def spread_figure(panels: list[tuple[str, Starts]], *, height: int = 360) -> Fig:
    """Box plots of the test error over the runs: one group per dataset, one box per read-out."""
    data = []
    for m in METHODS:
        xs: list[str] = []
        ys: list[float] = []
        for title, s in panels:
            e = s.runs.test_error[m]
            xs += [title] * len(e)
            ys += (100 * e).round(2).tolist()
        data.append(
            {
                "type": "box",
                "x": xs,
                "y": ys,
                "name": t(NAMES[m]),
                "marker": {"color": COLOURS[m], "size": 4},
                "boxpoints": "all",
                "jitter": 0.4,
                "pointpos": 0,
                "boxmean": True,
            }
        )
    return {
        "data": data,
        "layout": {
            "height": height,
            "boxmode": "group",
            "margin": {"l": 55, "r": 10, "t": 20, "b": 40},
            "legend": {"orientation": "h", "y": -0.15},
            "yaxis": {
                "title": {"text": t("test error (%)")},
                "rangemode": "tozero",
                "hoverformat": ".1f",
                **AXIS,
            },
        },
    }

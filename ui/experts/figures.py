"""Seed 004's experts application (pure): the mistake count against n·k, the weights
concentrating on the committee, and the bound derived with the instance's numbers.

Numbers in, plain Plotly figure dicts (wrap with ``ui.look.plots.as_figure``) or markdown
with LaTeX out; every number written by ``ui.look.numbers``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from perceptron_core import ExpertsRun
from ui.look.numbers import AXIS, number, percent, tex
from ui.look.palette import BOUND, MINUS, PLUS, STAR
from ui.words import t, tn

Fig = dict[str, Any]
MAX_POINTS = 400  # a weight curve drawn with more change points is thinned
MAX_LISTED = 12  # committee members written out in the derivation


def analysts(indices: Any) -> str:
    """0-based analyst indices as the 1-based numbers a student reads: "3, 7, 12"."""
    return ", ".join(str(int(i) + 1) for i in indices)


def committee_sentence(run: ExpertsRun) -> str:
    """Who the committee is: "The committee is analysts 3, 7, 12." ("analyst 3" for k = 1)."""
    return tn(
        "The committee is analyst {who}.", "The committee is analysts {who}.", len(run.committee)
    ).format(who=analysts(run.committee))


def cosine(run: ExpertsRun, day: int) -> float:
    """cos of the angle between w after day ``day`` and u (0 while w = 0)."""
    w = run.weights[day]
    norm = float(np.linalg.norm(w))
    return float(w @ run.u) / norm if norm else 0.0


def mistakes_figure(run: ExpertsRun, *, height: int = 380) -> Fig:
    """Cumulative mistakes day by day, under seed 004's bound n·k."""
    days = np.arange(0, run.days + 1)
    made = np.concatenate([[0], np.cumsum(run.mistakes)])
    changes = np.flatnonzero(np.diff(made)) + 1  # days on which the count rose
    keep = np.unique(np.concatenate([[0], changes - 1, changes, [run.days]]))
    top = max(run.bound, run.n_mistakes)
    data = [
        {
            "type": "scatter",
            "x": days[keep].tolist(),
            "y": made[keep].tolist(),
            "mode": "lines",
            "line": {"color": MINUS, "width": 3, "shape": "hv"},
            "name": t("mistakes so far (M = {M})").format(M=number(run.n_mistakes)),
            "hovertemplate": t("after day {day}: {k} mistakes").format(day="%{x:,}", k="%{y:,}")
            + "<extra></extra>",
        },
        {
            "type": "scatter",
            "x": [0, run.days],
            "y": [run.bound, run.bound],
            "mode": "lines",
            "line": {"color": BOUND, "width": 3, "dash": "dash"},
            "name": t("bound n·k = {n} · {k} = {bound}").format(
                n=run.n, k=run.k, bound=number(run.bound)
            ),
            "hoverinfo": "skip",
        },
    ]
    return {
        "data": data,
        "layout": {
            "height": height,
            "margin": {"l": 60, "r": 20, "t": 20, "b": 50},
            "xaxis": {"title": {"text": t("day t")}, "range": [0, run.days], **AXIS},
            "yaxis": {"title": {"text": t("mistakes")}, "range": [0, 1.08 * top], **AXIS},
            "legend": {"orientation": "h", "y": -0.22},
            "plot_bgcolor": "white",
        },
    }


def _thin(idx: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    if idx.shape[0] <= MAX_POINTS:
        return idx
    pick = np.linspace(0, idx.shape[0] - 1, MAX_POINTS).round().astype(int)
    thinned: npt.NDArray[np.intp] = idx[np.unique(pick)]  # numpy types fancy indexing Any
    return thinned


def _weight_range(run: ExpertsRun) -> list[float]:
    """The y range both weight figures share: every weight of the run, and 0."""
    lo, hi = float(run.weights.min()), float(run.weights.max())
    pad = 0.08 * max(hi - lo, 1.0)
    return [min(lo, 0.0) - pad, max(hi, 0.0) + pad]


def _in_committee(run: ExpertsRun) -> np.ndarray:
    member = np.zeros(run.n, dtype=bool)
    member[run.committee] = True
    return member


def weights_figure(run: ExpertsRun, *, height: int = 380) -> Fig:
    """Every analyst's weight after each day (committee in blue, the others grey)."""
    changes = np.flatnonzero(run.mistakes) + 1  # w changes only after a mistake
    keep = _thin(np.unique(np.concatenate([[0], changes, [run.days]])))
    in_committee = _in_committee(run)
    names = {True: t("committee"), False: t("other analysts")}
    hover = t("analyst {i}: w = {w} after day {day}") + "<extra></extra>"
    data: list[dict[str, Any]] = []
    for i in np.argsort(in_committee, kind="stable"):  # the others first: blue on top
        member = bool(in_committee[i])
        first = i == int(run.committee[0]) if member else i == int(np.argmin(in_committee))
        data.append(
            {
                "type": "scatter",
                "x": keep.tolist(),
                "y": run.weights[keep, i].tolist(),
                "mode": "lines",
                "line": {
                    "color": PLUS if member else STAR,
                    "width": 2.5 if member else 1,
                    "shape": "hv",
                },
                "opacity": 1.0 if member else 0.45,
                "name": names[member],
                "legendgroup": "committee" if member else "others",
                "showlegend": first,
                "hovertemplate": hover.format(i=i + 1, w="%{y:,}", day="%{x:,}"),
            }
        )
    return {
        "data": data,
        "layout": {
            "height": height,
            "margin": {"l": 60, "r": 20, "t": 10, "b": 50},
            "xaxis": {"title": {"text": t("day t")}, "range": [0, run.days], **AXIS},
            "yaxis": {
                "title": {"text": t("weight w_i")},
                "range": _weight_range(run),
                "zeroline": True,
                **AXIS,
            },
            "legend": {"orientation": "h", "y": -0.22},
            "plot_bgcolor": "white",
        },
    }


def final_weights_figure(run: ExpertsRun, *, height: int = 380) -> Fig:
    """The final weights, one bar per analyst (committee in blue), on the weights' y range."""
    in_committee = _in_committee(run)
    data = [
        {
            "type": "bar",
            "x": list(range(1, run.n + 1)),
            "y": run.weights[-1].tolist(),
            "marker": {"color": [PLUS if m else STAR for m in in_committee]},
            "showlegend": False,
            "hovertemplate": t("analyst {i}: w = {w}").format(i="%{x}", w="%{y:,}")
            + "<extra></extra>",
        }
    ]
    return {
        "data": data,
        "layout": {
            "height": height,
            "margin": {"l": 60, "r": 20, "t": 10, "b": 50},
            "xaxis": {"title": {"text": t("analyst i")}, **AXIS},
            "yaxis": {
                "title": {"text": t("final weight w_i")},
                "range": _weight_range(run),
                "zeroline": True,
                **AXIS,
            },
            "plot_bgcolor": "white",
        },
    }


def derivation_markdown(run: ExpertsRun) -> str:
    """Seed 004's derivation of the bound n·k, line by line, with this instance's numbers:
    a numbered list with inline formulas, which wrap on a narrow screen (a display formula
    does not)."""
    n, k = run.n, run.k
    members = analysts(run.committee[:MAX_LISTED]) + (r",\ \dots" if k > MAX_LISTED else "")
    gamma, D = tex(run.gamma, 4), tex(run.radius, 4)
    right, wrong = t("right"), t("wrong")  # as the formula counts the committee's votes
    lines = [
        t(
            r"{u} with $u_i = 1$ for the committee {members} and $0$ otherwise, so $\|u\| = 1$."
        ).format(
            u=rf"$u = \tfrac{{1}}{{\sqrt{{{k}}}}}\,(u_1, \dots, u_{{{n}}})$",
            members=rf"$i \in \{{{members}\}}$",
        ),
        t("{formula}, since k = {k} is odd: a right majority means right − wrong ≥ 1.").format(
            formula=rf"$\displaystyle y_t\,(x_t\cdot u) = \frac{{\#\text{{{right}}} - "
            rf"\#\text{{{wrong}}}}}{{\sqrt{{{k}}}}} \ge \frac{{1}}{{\sqrt{{{k}}}}} = {gamma} "
            r"= \gamma$",
            k=k,
        ),
        rf"$\|x_t\| = \sqrt{{1^2 + \dots + 1^2}} = \sqrt{{{n}}} = {D} = D$.",
        rf"$\displaystyle \Big(\frac{{D}}{{\gamma}}\Big)^2 = \frac{{{n}}}{{1/{k}}} = {n} \cdot {k}"
        rf" = {tex(run.bound)} = n\,k$.",
    ]
    return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1))


def lemma_checks(run: ExpertsRun) -> list[tuple[str, float, float, bool]]:
    """Seed 004's two lemmas at the end of the run: (statement, left, right, holds)."""
    w, m = run.weights[-1], run.n_mistakes
    wu, ww = float(w @ run.u), float(w @ w)
    return [
        (t("Lemma 1: w·u ≥ M γ"), wu, m * run.gamma, wu >= m * run.gamma - 1e-9),
        (t("Lemma 2: ‖w‖² ≤ M D²"), ww, m * run.n, ww <= m * run.n + 1e-9),
    ]


def days_table(run: ExpertsRun, first: int = 30) -> dict[str, list[Any]]:
    """The first days, one row each: the market, the committee's vote, w·x, the guess."""
    rows = min(first, run.days)
    X, y = run.predictions[:rows], run.truth[:rows]
    right = (X[:, run.committee] == y[:, None]).sum(axis=1)
    a = np.einsum("ij,ij->i", run.weights[:rows], X)  # w before day t, dotted with x_t
    guess = np.where(a >= 0, 1, -1)  # seed 004: predict +1 iff w.x >= 0
    word = {1: t("up"), -1: t("down")}
    of_k = t("{right} of {k}")
    return {
        t("day"): list(range(1, rows + 1)),
        t("market"): [word[int(v)] for v in y],
        t("committee right"): [of_k.format(right=int(r), k=run.k) for r in right],
        t("others saying up"): [
            int((np.delete(X[day], run.committee) > 0).sum()) for day in range(rows)
        ],
        "w·x": [number(v) for v in a],  # as text: "1,204", as everywhere on the page
        t("perceptron says"): [word[int(v)] for v in guess],
        t("mistake"): [t("yes") if m else "" for m in run.mistakes[:rows]],
    }


def summary(run: ExpertsRun) -> str:
    """One sentence on the run: mistakes against the bound, when the last one came."""
    wrong = np.flatnonzero(run.mistakes)
    if wrong.size:
        said = tn(
            "**M = {M}** mistake in {days} days (the last on day {last}): {share} of the bound "
            "n·k = {bound}.",
            "**M = {M}** mistakes in {days} days (the last on day {last}): {share} of the bound "
            "n·k = {bound}.",
            run.n_mistakes,
        )
    else:
        said = t(
            "**M = {M}** mistakes in {days} days (none at all): {share} of the bound n·k = {bound}."
        )
    return said.format(
        M=number(run.n_mistakes),
        days=number(run.days),
        last=number(int(wrong[-1]) + 1) if wrong.size else "",
        share=percent(run.n_mistakes / run.bound, 0),
        bound=number(run.bound),
    )


def angle_degrees(run: ExpertsRun) -> float:
    """The angle between the final w and u, in degrees (90 while w = 0)."""
    return math.degrees(math.acos(max(-1.0, min(1.0, cosine(run, run.days)))))

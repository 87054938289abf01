"""The projector's pictures of a class: the challenge's submissions against the bound."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go

from ui.classmode.classroom import Submission
from ui.look.numbers import AXIS, D3, number
from ui.look.palette import BOUND, PLUS
from ui.look.plots import as_figure

BEST = 5  # submissions the projector lists by name


def challenge_figure(subs: Sequence[Submission]) -> go.Figure:
    """Every submission as its mistakes M against its bound (R/γ)², on log axes, with the
    line M = (R/γ)²: the theorem says every point is on or under it. Points are named by
    rank (#1 most mistakes): nicknames are listed beside the chart, never drawn in it."""
    # the same set twice (two students, one idea) is one mark named by both ranks: two
    # labels drawn on one spot read as neither
    spots: dict[tuple[int, float], list[int]] = {}
    for rank, sub in enumerate(subs, start=1):
        spots.setdefault((max(sub.M, 0), round(sub.bound, 9)), []).append(rank)
    firsts = [subs[ranks[0] - 1] for ranks in spots.values()]
    top = max([10.0, *(b for _, b in spots), *(float(m) for m, _ in spots)]) * 1.5
    lo = 0.8
    traces: list[dict[str, Any]] = [
        {
            "type": "scatter",
            "x": [lo, top],
            "y": [lo, top],
            "mode": "lines",
            "name": "M = (R/γ)², the bound",
            "line": {"color": BOUND, "dash": "dash", "width": 3},
            "hoverinfo": "skip",
        },
        {
            "type": "scatter",
            "x": [b for _, b in spots],
            "y": [max(m, lo) for m, _ in spots],  # M = 0 is drawn on the axis's floor
            "mode": "markers+text",
            "name": "a submission (M, (R/γ)²)",
            "text": [", ".join(f"#{r}" for r in ranks) for ranks in spots.values()],
            "textposition": "top center",
            "customdata": [[s.M, s.gamma, s.n] for s in firsts],
            "hovertemplate": (
                "%{text}: M = %{customdata[0]}, (R/γ)² = %{x:" + D3 + "}<br>"
                "γ = %{customdata[1]:" + D3 + "}, %{customdata[2]} points<extra></extra>"
            ),
            "marker": {
                "size": [12 + 4 * min(len(r) - 1, 4) for r in spots.values()],
                "color": PLUS,
                "symbol": "circle",
                "line": {"width": 1, "color": "#fff"},
            },
        },
    ]
    # labels at 1, 10, 100, ... only (a log axis's minor labels crowd a projector)
    log = {"type": "log", "range": [math.log10(lo), math.log10(top)], "dtick": 1, **AXIS}
    return as_figure(
        {
            "data": traces,
            "layout": {
                "height": 420,
                "font": {"size": 16},
                "margin": {"l": 70, "r": 10, "t": 10, "b": 60},
                "xaxis": {**log, "title": {"text": "the bound (R/γ)²"}},
                "yaxis": {**log, "title": {"text": "mistakes M"}},
                "legend": {"orientation": "h", "y": -0.18},
            },
        }
    )


def challenge_text(subs: Sequence[Submission]) -> str:
    """The chart in words (its text alternative)."""
    if not subs:
        return "No submissions yet."
    under = sum(s.bound + 1e-9 >= s.M for s in subs)
    best = subs[0]
    return (
        f"{len(subs)} submission{'s' if len(subs) != 1 else ''}; {under} of them make at most "
        f"(R/γ)² mistakes, as the theorem says. The most mistakes: M = {best.M} with the "
        f"bound (R/γ)² = {number(best.bound)} (M is {best.M / best.bound:.0%} of the bound)."
    )


def best_rows(subs: Sequence[Submission], k: int = BEST) -> list[dict[str, Any]]:
    """The best few for the projector's table (nicknames as plain text in a table)."""
    return [
        {
            "rank": i,
            "nickname": s.nick or "(no name)",
            "mistakes M": s.M,
            "bound (R/γ)²": number(s.bound),
            "M / bound": f"{s.M / s.bound:.0%}",
        }
        for i, s in enumerate(subs[:k], start=1)
    ]

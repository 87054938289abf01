"""Pure builders for the margin lab: numbers in; the drawing surface's scene, Plotly
figures (plain dicts, wrapped by ``ui.look.plots.as_figure``) and tables out. No Streamlit here.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ui.look.geometry import Box, boundary_segment, clip
from ui.look.numbers import count, number, vector_text
from ui.look.palette import BOUND, STAR, W_COLOUR
from ui.look.plots import as_figure
from ui.margin import lab
from ui.margin.lab import Analysis, ConstantRow, ScaledRow, in_plane
from ui.words import t

Point = tuple[float, float]


def nice_ticks(lo: float, hi: float, target: int = 7) -> list[float]:
    """Round tick values inside [lo, hi], about ``target`` of them (1, 2 or 5 times 10^k)."""
    span = hi - lo
    if not (math.isfinite(span) and span > 0):
        return []
    raw = span / target
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step)
    last = math.floor(hi / step)
    return [round(k * step, 10) + 0.0 for k in range(first, last + 1)]


def _line(
    line: np.ndarray, box: Box, level: float, cls: str, label: str, where: float
) -> dict[str, Any] | None:
    seg = boundary_segment(line, True, box, level)
    if seg is None:
        return None
    (ax, ay), (bx, by) = seg
    at = (ax + where * (bx - ax), ay + where * (by - ay))
    return {"d": [[ax, ay], [bx, by]], "cls": cls, "label": label, "at": list(at)}


_f = number


def canvas_scene(
    an: Analysis,
    box: Box,
    *,
    version: int,
    tick: int,
    mode: str,
    readouts: Sequence[dict[str, Any]] = (),
    note: str | None = None,
    error: str | None = None,
) -> dict[str, Any]:
    """What the lab's instrument shows: the surface in data units (grid, w* with its γ band,
    the circle of radius max‖x‖, the perceptron's final line, the points with a tip each,
    numbered from 1), the theorem's numbers (``lab.readouts``) and the last edit's sentence."""
    lines: list[dict[str, Any] | None] = []
    fills: list[dict[str, Any]] = []
    mm, trace = an.mm, an.trace
    support = np.zeros(len(an.y), dtype=bool)
    m_star = None
    if mm is not None:
        star = in_plane(mm.w_star, an.bias, an.c)
        g = mm.gamma
        street = clip(box.corners(), star[0], star[1], star[2] + g)
        street = clip(street, -star[0], -star[1], -star[2] + g)
        if len(street) >= 3:
            fills.append({"cls": "street", "d": [list(p) for p in street]})
        lines += [
            _line(star, box, -g, "band", "", 0.5),
            _line(star, box, g, "band", "γ", 0.9),
            _line(star, box, 0.0, "wstar", "w*", 0.95),
        ]
        support[mm.support] = True
        m_star = an.functional(mm.w_star)
    w = trace.w
    lines.append(_line(in_plane(w, an.bias, an.c), box, 0.0, "w", t("perceptron"), 0.08))
    f_w = an.functional(w)
    g_w = an.geometric(w)
    wrong = f_w <= 0  # the default mistake rule: y·w·x <= 0
    # a tip's parts, joined by " · ": translated once, not once a point
    said_point = t("point {i}: {at}, y = {label}")
    said_star = t("w*: y·w*·x = {m}")
    said_support = t("w*: y·w*·x = {m} (support vector)")
    said_w = t("perceptron w: y·w·x = {f}, y·w·x/‖w‖ = {g}")
    said_zero = t("perceptron w: y·w·x = {f} (w = 0)")
    points = []
    for i, (x, y) in enumerate(an.X):
        at = vector_text((x, y))
        parts = [said_point.format(i=i + 1, at=at, label="+1" if an.y[i] > 0 else "−1")]
        if m_star is not None:
            parts.append((said_support if support[i] else said_star).format(m=_f(m_star[i])))
        if g_w is not None:
            parts.append(said_w.format(f=_f(f_w[i]), g=_f(g_w[i])))
        else:
            parts.append(said_zero.format(f=_f(f_w[i])))
        flags = int(support[i]) | (2 if wrong[i] else 0)
        points.append([float(x), float(y), int(an.y[i]), flags, " · ".join(parts)])
    banner = ""
    if mm is None:
        banner = t("Not separable: no w*, no margin γ, no bound")
    elif not trace.converged:  # the run reached the lab's limit of passes
        banner = t("The perceptron has not converged after {passes}").format(
            passes=count(trace.n_epochs, "pass")
        )
    n_plus = int((an.y > 0).sum())
    return {
        "v": version,
        "tick": tick,
        "mode": mode,
        "numbers": list(readouts),
        "note": note,
        "error": error,
        "view": [box.x0, box.x1, box.y0, box.y1],
        "ticks": {"x": nice_ticks(box.x0, box.x1), "y": nice_ticks(box.y0, box.y1)},
        "fills": fills,
        "lines": [line for line in lines if line is not None],
        "circle": {"r": an.r_plane} if an.r_plane > 0 else None,
        "points": points,
        "banner": banner,
        "alt": " ".join(
            [
                t("{points}, {plus} labelled +1 and {minus} labelled −1.").format(
                    points=count(len(an.y), "point"), plus=n_plus, minus=len(an.y) - n_plus
                ),
                t("Not separable.")
                if mm is None
                else t("Margin γ = {gamma}.").format(gamma=_f(mm.gamma)),
                *([t("{banner}.").format(banner=banner)] if banner and mm is not None else []),
            ]
        ),
    }


def margins_frame(an: Analysis) -> pd.DataFrame:
    """Per point: seed 001's functional margin y·w·x and geometric margin y·w·x/‖w‖,
    for the perceptron's final w and for w* (‖w*‖ = 1, so the two agree there)."""
    f_w = an.functional(an.trace.w)
    g_w = an.geometric(an.trace.w)
    frame = pd.DataFrame(
        {
            t("point"): np.arange(1, len(an.y) + 1),  # counted from 1, as on the surface
            "x1": an.X[:, 0],
            "x2": an.X[:, 1],
            "y": an.y.astype(int),
            t("y·w·x (perceptron)"): f_w,
            t("y·w·x/‖w‖ (perceptron)"): g_w if g_w is not None else np.full(len(an.y), np.nan),
        }
    )
    if an.mm is not None:
        m = an.functional(an.mm.w_star)
        frame[t("y·w*·x (w*, ‖w*‖ = 1)")] = m
        frame[t("support vector")] = np.isin(np.arange(len(an.y)), an.mm.support)
    return frame


def points_frame(X: np.ndarray, y: np.ndarray) -> pd.DataFrame:
    """The points as the keyboard table edits them: x1, x2, y."""
    frame = pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1], "y": y.astype(int)})
    frame.index = pd.RangeIndex(1, len(y) + 1, name=t("point"))  # counted from 1, as on the surface
    return frame


def scaling_frame(rows: Sequence[ScaledRow]) -> pd.DataFrame:
    """R, γ, (R/γ)² and M for every vector scaled by s: only R and γ change."""
    unit = t("{s} (= 1/R)")
    return pd.DataFrame(
        {
            t("scale s"): [
                unit.format(s=number(r.s)) if abs(r.R - 1) < 1e-9 else number(r.s) for r in rows
            ],
            "R": [number(r.R) for r in rows],
            "γ": ["—" if r.gamma is None else number(r.gamma) for r in rows],
            "(R/γ)²": ["—" if r.bound is None else number(r.bound) for r in rows],
            t("mistakes M"): [mistakes_text(r.M, r.M_cut) for r in rows],
        }
    )


def mistakes_text(M: int, cut: bool) -> str:
    """M as a table cell: "≥ 200 (not converged)" when the run stopped at its limit."""
    return t("≥ {M} (not converged)").format(M=number(M)) if cut else number(M)


def _layout(**extra: Any) -> dict[str, Any]:
    return {
        "margin": {"l": 60, "r": 20, "t": 40, "b": 50},
        "height": 330,
        "legend": {"orientation": "h", "y": -0.25},
        "plot_bgcolor": "white",
        **extra,
    }


def _axis(title: str, **extra: Any) -> dict[str, Any]:
    return {"title": {"text": title}, "gridcolor": "#ececec", "zeroline": False, **extra}


def edits_svg(
    log: Sequence[tuple[int, float, float, int] | tuple[int, float, float, int, bool]],
    current: int,
    radius: float | None,
    *,
    width: int = 400,
    height: int = 300,
) -> str:
    """Mistakes M and the bound (R/γ)² against the margin γ, one pair of marks per edit,
    with the curve (R/γ)² for the current R, as SVG markup (no Plotly: a drop redraws
    this in well under a millisecond instead of ~50 ms). An entry's fifth field, when true,
    says its run stopped at the limit: M is a lower bound, drawn as a hollow dot."""
    left, right, top, bottom = 52, 12, 46, 40
    pw, ph = width - left - right, height - top - bottom
    gammas = [e[1] for e in log]
    g_max = 1.25 * max(gammas, default=1.0)
    y_hi = math.log10(3 * max([e[2] for e in log] + [e[3] for e in log] + [10.0]))
    y_lo = math.log10(0.7)

    def sx(g: float) -> float:
        return left + pw * g / g_max

    def sy(v: float) -> float:
        return top + ph * (1 - (math.log10(max(v, 0.8)) - y_lo) / (y_hi - y_lo))

    said = _said_svg()
    title = (
        t("Your last {n} edits: M and the bound against the margin γ").format(n=lab.MAX_LOGGED)
        if len(log) >= lab.MAX_LOGGED
        else t("Your edits: M and the bound against the margin γ")
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{said["alt"]}" font-family="sans-serif" font-size="12">',
        f'<text x="{left}" y="16" font-size="14" font-weight="600" fill="#31333f">'
        f"{html.escape(title)}</text>",
    ]
    for g in nice_ticks(0.0, g_max, 5):
        out.append(
            f'<line x1="{sx(g):.1f}" x2="{sx(g):.1f}" y1="{top}" y2="{top + ph}" stroke="#ececec"/>'
            f'<text x="{sx(g):.1f}" y="{top + ph + 15}" text-anchor="middle" fill="#6b6b6b">'
            f"{g:g}</text>"
        )
    for k in range(0, math.floor(y_hi) + 1):
        v = 10.0**k
        yv = sy(v)
        out.append(
            f'<line x1="{left}" x2="{left + pw}" y1="{yv:.1f}" y2="{yv:.1f}" stroke="#ececec"/>'
            f'<text x="{left - 6}" y="{yv + 4:.1f}" text-anchor="end" fill="#6b6b6b">{v:g}</text>'
        )
    out.append(
        f'<text x="{left + pw / 2}" y="{height - 6}" text-anchor="middle" fill="#31333f">'
        f"{said['x']}</text>"
        f'<text transform="translate(14 {top + ph / 2}) rotate(-90)" text-anchor="middle" '
        f'fill="#31333f">{said["y"]}</text>'
        f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#c9c9c9"/>'
    )
    if radius is not None and gammas:
        along = np.geomspace(radius / math.sqrt(10**y_hi), g_max, 50)
        pts = " ".join(f"{sx(v):.1f},{sy((radius / v) ** 2):.1f}" for v in along)
        out.append(
            f'<polyline points="{pts}" fill="none" stroke="{BOUND}" stroke-dasharray="2 3"/>'
        )
    for version, gamma, bound, m, *rest in log:
        cut = bool(rest and rest[0])
        now = version == current
        r = 7 if now else 4.5
        x, yb, ym = sx(gamma), sy(bound), sy(m)
        name = (said["now"] if now else said["edit"]).format(version=version)
        made = (said["cut"] if cut else said["M"]).format(M=number(m))
        tip = said["tip"].format(name=name, gamma=number(gamma), bound=number(bound), made=made)
        dot = f'fill="white" stroke="{W_COLOUR}" stroke-width="2"' if cut else f'fill="{W_COLOUR}"'

        out.append(
            f'<g class="edit"><title>{tip}</title>'
            f'<path d="M{x:.1f} {yb - r:.1f} L{x + r:.1f} {yb:.1f} L{x:.1f} {yb + r:.1f} '
            f'L{x - r:.1f} {yb:.1f} Z" fill="white" stroke="{BOUND}" stroke-width="2"/>'
            f'<circle class="m" cx="{x:.1f}" cy="{ym:.1f}" r="{r}" {dot}/></g>'
        )
    lx, ly = left + 6, 30  # the legend, between the title and the plot
    out.append(
        f'<g font-size="12" fill="#31333f"><path d="M{lx} {ly - 5} l5 5 l-5 5 l-5 -5 Z" '
        f'fill="white" stroke="{BOUND}" stroke-width="2"/>'
        f'<text x="{lx + 9}" y="{ly + 4}">{said["bound"]}</text>'
        f'<circle cx="{lx + 100}" cy="{ly}" r="4.5" fill="{W_COLOUR}"/>'
        f'<text x="{lx + 108}" y="{ly + 4}">{said["mistakes"]}</text>'
        f'<line x1="{lx + 186}" x2="{lx + 206}" y1="{ly}" y2="{ly}" stroke="{BOUND}" '
        f'stroke-dasharray="2 3"/><text x="{lx + 210}" y="{ly + 4}">{said["curve"]}</text></g>'
    )
    if any(len(e) > 4 and e[4] for e in log):  # the hollow dot, said in the picture
        out.append(
            f'<g font-size="12" fill="#31333f"><circle cx="{left + 12}" cy="{top + ph - 10}" '
            f'r="4.5" fill="white" stroke="{W_COLOUR}" stroke-width="2"/>'
            f'<text x="{left + 20}" y="{top + ph - 6}">{said["hollow"]}</text></g>'
        )
    if not log:
        out.append(
            f'<text x="{left + pw / 2}" y="{top + ph / 2}" text-anchor="middle" fill="#6b6b6b">'
            f"{said['none']}</text>"
        )
    out.append("</svg>")
    return "".join(out)


def _said_svg() -> dict[str, str]:
    """The chart of edits' words in this run's language, escaped for SVG markup (a tip's
    templates are escaped after they are filled: they hold numbers only)."""
    words = {
        "alt": t("mistakes M and the bound against the margin γ, one mark per edit"),
        "x": t("margin γ"),
        "y": t("mistakes (log scale)"),
        "bound": t("bound (R/γ)²"),
        "mistakes": t("mistakes M"),
        "curve": t("(R/γ)² at this R"),
        "hollow": t("not converged: M is at least this"),
        "none": t("no separable edits yet"),
        "edit": t("edit {version}"),
        "now": t("edit {version} (now)"),
        "cut": t("M ≥ {M} (not converged)"),
        "M": "M = {M}",
        "tip": t("{name}: γ = {gamma}, (R/γ)² = {bound}, {made}"),
    }
    return {key: html.escape(text) for key, text in words.items()}


def constant_figure(rows: Sequence[ConstantRow], c_now: float) -> go.Figure:
    """The bound against the bias feature's value c: for one fixed line, for the best
    separator at each c, and the perceptron's mistakes."""
    cs = [r.c for r in rows]
    any_cut = any(r.M_cut for r in rows)
    data = [
        {
            "type": "scatter",
            "x": cs,
            "y": [r.bound_best for r in rows],
            "mode": "lines",
            "name": t("bound for w*(c), the best line at each c"),
            "line": {"color": BOUND, "width": 3},
            "hovertemplate": "c = %{x:.3~r}<br>(R/γ)² = %{y:,.3~r}<extra>w*(c)</extra>",
        },
        {
            "type": "scatter",
            "x": cs,
            "y": [r.bound_fixed for r in rows],
            "mode": "lines",
            "name": t("bound for the line of w* at your c, kept fixed"),
            "line": {"color": STAR, "dash": "dash", "width": 2.5},
            "hovertemplate": "c = %{x:.3~r}<br>(R/γ)² = %{y:,.3~r}<extra>"
            + t("fixed line")
            + "</extra>",
        },
        {
            "type": "scatter",
            "x": cs,
            "y": [max(r.M, 0.8) for r in rows],
            "customdata": [mistakes_text(r.M, r.M_cut) for r in rows],
            "mode": "markers",
            "name": t("mistakes M (▲: not converged, at least)") if any_cut else t("mistakes M"),
            "marker": {
                "color": W_COLOUR,
                "size": [11 if r.M_cut else 7 for r in rows],
                "symbol": ["triangle-up" if r.M_cut else "circle" for r in rows],
            },
            "hovertemplate": "c = %{x:.3~r}<br>M = %{customdata}<extra></extra>",
        },
    ]
    layout = _layout(
        title={"text": t("The same data, the bias feature c varied")},
        xaxis=_axis(t("bias feature c"), type="log", tickvals=[0.1, 0.2, 0.5, 1, 2, 5, 10]),
        yaxis=_axis(t("(R/γ)² and M (log scale)"), type="log", dtick=1),
        shapes=[
            {
                "type": "line",
                "xref": "x",
                "yref": "paper",
                "x0": c_now,
                "x1": c_now,
                "y0": 0,
                "y1": 1,
                "line": {"color": STAR, "width": 1, "dash": "dot"},
            }
        ],
    )
    return as_figure({"data": data, "layout": layout})

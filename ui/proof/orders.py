"""The proof page's orders figure (pure): the mistakes M of many runs, one row per kind of
order, against the bound that applies to them; a run stopped at its limit drawn as ▶.

Numbers in, a plain Plotly figure dict out (no Streamlit).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ui.look.numbers import AXIS, number
from ui.look.palette import BOUND, CURRENT, MINUS, PLUS, STAR
from ui.words import t

Fig = dict[str, Any]
_LOG_TICKS = [m * 10**e for e in range(7) for m in (1, 2, 5)]


def orders_figure(
    rows: list[tuple[str, np.ndarray]],
    bound: float,
    *,
    name: str = "(R/γ)²",
    height: int = 300,
    done: list[np.ndarray] | None = None,
) -> Fig:
    """Mistakes M of many runs on one row per kind of order (label, counts), with the bound
    that applies to them, called ``name`` (``run_bound``: (R/γ)² from w0 = 0).

    The x axis is logarithmic, so the bound and counts far below it both show; a count of
    0 is drawn at 0.5 and a bound of 0 (w0 already separates) at 0.5 too. ``done`` (one
    array per row) says which runs converged; the others stopped at their limit, and their
    M, a lower bound, is drawn as ▶ and said as "≥"."""
    data: list[dict[str, Any]] = []
    colours = (PLUS, STAR, CURRENT, MINUS)
    rng = np.random.default_rng(0)  # jitter only, for overlapping dots
    top = max(float(bound), 1.0)
    at = max(float(bound), 0.5)  # where the bound's line is drawn on the log axis
    # the bound named in words: "bound (R/γ)²", or its name when that is words already
    named = t("bound {name}").format(name=name) if name.startswith("(") else name
    for r, (label, counts) in enumerate(rows):
        m = np.asarray(counts, dtype=np.float64)
        top = max(top, float(m.max(initial=1.0)))
        jitter = rng.uniform(-0.18, 0.18, int(m.shape[0])) if m.shape[0] > 1 else np.zeros(1)
        ended = np.ones(m.shape, bool) if done is None else np.asarray(done[r], dtype=bool)
        data.append(
            {
                "type": "scatter",
                "x": np.maximum(m, 0.5).tolist(),
                "y": (r + jitter).round(3).tolist(),
                "customdata": m.astype(int).tolist(),
                "text": ["" if e else "≥ " for e in ended],
                "mode": "markers",
                "marker": {
                    "color": colours[r % len(colours)],
                    "size": 9,
                    "opacity": 0.7,
                    "symbol": ["circle" if e else "triangle-right" for e in ended],
                },
                "name": label,
                "hovertemplate": label + ": M = %{text}%{customdata:,}<extra></extra>",
            }
        )
    n = len(rows)
    data.append(
        {
            "type": "scatter",
            "x": [at, at],
            "y": [-0.5, n - 0.5],
            "mode": "lines",
            "line": {"color": BOUND, "dash": "dash", "width": 3},
            "name": named,
            "hovertemplate": f"{name} = {number(bound, 4)}<extra></extra>",
        }
    )
    layout = {
        "height": height,
        "margin": {"l": 10, "r": 10, "t": 10, "b": 50},
        "showlegend": False,
        "xaxis": {
            "type": "log",
            "title": {"text": t("mistakes M (log scale)")},
            "tickvals": [v for v in _LOG_TICKS if v <= top * 2.0],
            "range": [math.log10(0.4), math.log10(top * 2.0)],
            **AXIS,
        },
        "yaxis": {
            "tickvals": list(range(n)),
            "ticktext": [label for label, _ in rows],
            "range": [-0.6, n - 0.4],
            "automargin": True,
            **AXIS,  # rows, labelled in words: ui.look's axis settings all the same
        },
        "annotations": [
            {  # at the bottom, under the dots: the top is where a touch screen's tool bar is
                "x": math.log10(at),
                "y": -0.55,
                "text": f"{named} = {number(bound, 4)}",
                "showarrow": False,
                "xanchor": "right",
                "yanchor": "bottom",
                "font": {"color": BOUND},
            }
        ],
    }
    return {"data": data, "layout": layout}

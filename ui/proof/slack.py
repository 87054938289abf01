"""The proof page's "Which step is loose?" (pure): the squeeze ηkγ ≤ w·w* ≤ ‖w‖ ≤ ηR√k
cut into its three gaps at every mistake, as a sentence and a stacked bar chart.

Numbers in, markdown and a plain Plotly figure dict out (no Streamlit).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from perceptron_core import ProofCheck
from ui.look.numbers import AXIS, D3, number, percent
from ui.look.palette import CURRENT, PLUS, STAR
from ui.words import N_, t

Fig = dict[str, Any]
MAX_BARS = 300  # the slack figure draws at most this many mistakes

# the three gaps of the squeeze ηkγ ≤ w·w* ≤ ‖w‖ ≤ ηR√k, all lengths in units of ‖w‖, as
# the slack chart and the loosest sentence name them: (name, formula, colour)
GAPS = (
    (N_("Lemma 1 slack"), "w·w* − ηkγ", PLUS),
    (N_("Cauchy–Schwarz slack"), "‖w‖ − w·w*", STAR),
    (N_("Lemma 2 gap"), "ηR√k − ‖w‖", CURRENT),
)


def _gaps(c: ProofCheck) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    assert c.lemma1 is not None and c.cauchy is not None
    return c.lemma1.slack, c.cauchy.slack, c.lemma2_root.slack


def loosest(c: ProofCheck, *, cut: bool = False) -> str:
    """Markdown: at the last mistake, the three gaps of the squeeze as shares of the room
    (``cut``: the run stopped before converging, so it is the last mistake it made)."""
    parts = {
        t(name): float(values[-1]) for (name, _, _), values in zip(GAPS, _gaps(c), strict=True)
    }
    K = c.n_mistakes
    room = sum(parts.values())
    if min(parts.values()) < 0 or room <= 0:
        bad = ", ".join(name for name, v in parts.items() if v < 0) or t("the room")
        return (
            t(
                "At the last mistake before the run stopped k = {K} the squeeze does not "
                "hold: {bad} below 0."
            )
            if cut
            else t("At the last mistake k = {K} the squeeze does not hold: {bad} below 0.")
        ).format(K=number(K), bad=bad)
    order = sorted(parts, key=lambda name: -parts[name])
    share = t("{gap} ({share})")
    shares = t(", then ").join(
        share.format(gap=name, share=percent(parts[name] / room, 0)) for name in order
    )
    return (
        t(
            "At the last mistake before the run stopped k = {K} the room is {room} (in units "
            "of ‖w‖); the loosest step is {shares}."
        )
        if cut
        else t(
            "At the last mistake k = {K} the room is {room} (in units of ‖w‖); the loosest "
            "step is {shares}."
        )
    ).format(K=number(K), room=number(room, 4), shares=shares)


def _thin(K: int) -> np.ndarray:
    """Indices of at most MAX_BARS mistakes, evenly spread, always the last."""
    if K <= MAX_BARS:
        return np.arange(K)
    return np.unique(np.linspace(0, K - 1, MAX_BARS).round().astype(np.int64))


def slack_figure(c: ProofCheck, *, height: int = 380) -> Fig:
    """Which step is loose: the squeeze ηkγ ≤ w·w* ≤ ‖w‖ ≤ ηR√k cut into its three gaps
    (``GAPS``), stacked per mistake k; their sum is the room ηR√k − ηkγ left before the
    bound. All lengths in units of ‖w‖: Lemma 2 enters as its square root ‖w‖ ≤ ηR√k, so
    its piece is the gap ηR√k − ‖w‖, not the slack kη²R² − ‖w‖² of card 2 (which names
    both)."""
    assert c.lemma1 is not None
    idx = _thin(c.n_mistakes)
    ks = c.k[idx].tolist()
    named = t("{gap}: {formula}")
    data: list[dict[str, Any]] = [
        {
            "type": "bar",
            "x": ks,
            "y": np.round(values[idx], 6).tolist(),
            "name": named.format(gap=t(name), formula=formula),
            "marker": {"color": colour},
            "hovertemplate": f"k = %{{x:,}}: %{{y:{D3}}}<extra>{t(name)}</extra>",
        }
        for (name, formula, colour), values in zip(GAPS, _gaps(c), strict=True)
    ]
    room = c.lemma2_root.large - c.lemma1.small
    data.append(
        {
            "type": "scatter",
            "x": ks,
            "y": np.round(room[idx], 6).tolist(),
            "mode": "lines",
            "line": {"color": "black", "dash": "dot", "width": 2},
            "name": t("room left: ηR√k − ηkγ (0 at k = (R/γ)²)"),
            "hovertemplate": t("k = {k}: room {room}").format(k="%{x:,}", room=f"%{{y:{D3}}}")
            + "<extra></extra>",
        }
    )
    layout = {
        "height": height,
        "barmode": "relative",
        "bargap": 0.1 if len(ks) < 60 else 0.0,
        "margin": {"l": 60, "r": 10, "t": 10, "b": 50},
        "legend": {"orientation": "h", "y": -0.22},
        "xaxis": {"title": {"text": t("mistake k")}, **AXIS}
        | ({"dtick": 1} if len(ks) <= 20 else {}),
        "yaxis": {"title": {"text": t("gap, in units of ‖w‖")}, "zeroline": True, **AXIS},
    }
    return {"data": data, "layout": layout}

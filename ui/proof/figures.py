"""The proof page (pure): each line of the convergence proof written with the run's numbers,
per-mistake tables, the slack figure and the orders figure.

Numbers in, LaTeX strings / DataFrames / plain Plotly figure dicts out (no Streamlit).
A line is ``small <= large`` (``perceptron_core.Inequality``); k counts mistakes from 1.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from perceptron_core import Inequality, ProofCheck
from ui.kit.palette import BOUND, CURRENT, MINUS, PLUS, STAR

Fig = dict[str, Any]
TABLE_ROWS = 1000  # per-mistake tables show at most this many rows
MAX_BARS = 300  # the slack figure draws at most this many mistakes
_LOG_TICKS = [m * 10**e for e in range(7) for m in (1, 2, 5)]
HOLDS = ":green[:material/check_circle:]"  # markdown icons: Streamlit ships the font
FAILS = ":red[:material/cancel:]"
OK = r"\quad\checkmark"
BAD = r"\quad\textcolor{#D55E00}{\boldsymbol{\times}\ \text{fails}}"


def num(v: float, digits: int = 4) -> str:
    """A number for LaTeX: 4 significant digits, powers of ten written out."""
    if not math.isfinite(v):
        return r"\infty" if v > 0 else (r"-\infty" if v < 0 else r"\text{NaN}")
    if v == 0:
        return "0"
    s = f"{v:.{digits}g}"
    if "e" in s:
        mant, exp = s.split("e")
        return rf"{mant}\times 10^{{{int(exp)}}}"
    return s


def vector(v: Any) -> str:
    """A vector's entries for LaTeX, comma separated."""
    return r",\ ".join(num(float(a)) for a in np.asarray(v).ravel())


def _par(v: float) -> str:
    """A term after a plus sign: negative numbers in brackets."""
    return f"({num(v)})" if v < 0 else num(v)


def _mark(line: Inequality, j: int) -> str:
    return OK if line.holds[j] else BAD


def _eta(eta: float, power: str = "") -> str:
    """The learning rate in a formula, left out when it is 1 (as in every seed)."""
    return "" if eta == 1.0 else rf"\eta{power}\,"


def from_zero(c: ProofCheck) -> bool:
    """Whether the run started at w0 = 0, where the bound is the seeds' (R/γ)²."""
    return c.start_norm_sq == 0.0


def run_bound(c: ProofCheck) -> tuple[float, Inequality | None, str]:
    """The mistake bound that applies to the run, its line k ≤ bound, and its name:
    (R/γ)² from w0 = 0, else the bound with the proof redone from w0 (``start_bound``)."""
    if from_zero(c):
        return c.bound, c.conclusion, "(R/γ)²"
    return c.start_bound, c.conclusion_start, "the bound from w₀"


def no_mistakes_reason(margins: Any, rule: str, w0_is_zero: bool) -> str:
    """Markdown: why a run made no mistake at all. ``margins`` are y·(w0·x) of every point
    (with the bias feature when the run has one), ``rule`` a key of ``RULES``."""
    m = np.asarray(margins, dtype=np.float64)
    head = "No mistakes at all, so there is nothing to check. "
    if w0_is_zero and rule == "negative":
        return head + (
            "With the strict rule (seed 002) w = 0 is never wrong, so it never moves: M = 0 is "
            "within the bound, but w = 0 separates nothing. Start from w₀ ≠ 0 (random or typed) "
            "to make it learn."
        )
    if w0_is_zero:
        return head + (
            "Under this rule w₀ = 0 predicts the one label every point has, so it is never "
            "wrong and never moves: M = 0 is within the bound."
        )
    if m.size and float(m.min()) > 0.0:
        return head + (
            f"The start w₀ already separates the data: every y·(w₀·x) > 0 (the smallest is "
            f"{float(m.min()):.3g}), so no point is a mistake under any rule and w never moves. "
            "M = 0 is within the bound; the proof has no mistake to count."
        )
    return head + (
        "The start w₀ gets every point right except those exactly on its line "
        "(y·(w₀·x) = 0), and this rule does not count w·x = 0 as a mistake there, so w "
        "never moves. M = 0 is within the bound."
    )


def verdict(line: Inequality, what: str, *, ge: bool = False) -> str:
    """One markdown sentence: does ``what`` hold at every mistake, and where is it tightest
    (or where does it fail first)? ``ge``: the line is written large ≥ small."""
    K = line.slack.shape[0]
    if K == 0:
        return f"{what}: no mistakes, so nothing to check."
    if line.all_hold:
        j = int(np.argmin(line.slack))
        slack = max(float(line.slack[j]), 0.0)  # within rounding of 0: exactly tight
        return (
            f"{HOLDS} {what} holds at all **{K}** mistakes; tightest at k = {j + 1} "
            f"(slack {slack:.3g})."
        )
    j = int(line.first_failure or 1) - 1
    bad = int((~line.holds).sum())
    return f"{FAILS} {what} **fails** at {bad} of {K} mistakes, first at k = {j + 1}: " + (
        f"{line.large[j]:.4g} is not ≥ {line.small[j]:.4g}."
        if ge
        else f"{line.small[j]:.4g} is not ≤ {line.large[j]:.4g}."
    )


# --- the theorem --------------------------------------------------------------------------


def theorem_latex(c: ProofCheck, M: int) -> tuple[str, str]:
    """The bound in the general form (seeds 001, 004) and in the unit-ball form (seeds
    000, 002: x scaled by 1/R), with the run's numbers; M is the run's mistake count."""
    R, g = c.radius, c.gamma
    mark = OK if c.bound * (1 + 1e-9) >= M else BAD
    general = (
        rf"\begin{{gathered}}R = \max_i\|x_i\| = {num(R)},\quad \gamma = {num(g)}\\ "
        rf"M = {M} \;\le\; \Big(\frac{{R}}{{\gamma}}\Big)^2 = {num(c.bound)}{mark}"
        r"\end{gathered}"
    )
    unit = (
        rf"\begin{{gathered}}x \leftarrow x/R:\quad \|x\| \le 1,\quad "
        rf"\gamma \leftarrow \gamma/R = {num(g / R)}\\ "
        rf"M = {M} \;\le\; \frac{{1}}{{(\gamma/R)^2}} = {num((R / g) ** 2)}{mark}"
        r"\end{gathered}"
    )
    return general, unit


def theorem_start_latex(c: ProofCheck, M: int) -> str:
    """The run's M against the bound redone from its start w0 ≠ 0 (card 0 derives it)."""
    mark = OK if c.start_bound * (1 + 1e-9) >= M else BAD
    return (
        rf"\text{{from }} w_0 \ne 0:\quad M = {M} \;\le\; k_{{\max}}(w_0) = "
        rf"{num(c.start_bound)}{mark}"
    )


# --- the cards, at mistake k (1-based) -------------------------------------------------------


def claim1_latex(c: ProofCheck, k: int) -> tuple[str, str, str]:
    """Claim 1 (seed 000) in general, with the numbers at mistake k, and Lemma 1 (seed 004)."""
    assert c.claim1 is not None and c.lemma1 is not None
    j, e = k - 1, _eta(c.eta)
    gain, step = c.claim1.large[j], c.claim1.small[j]  # w_k.w* - w_{k-1}.w*, eta gamma
    d_k = c.lemma1.large[j]
    d_prev = d_k - gain
    general = (
        rf"w_k\cdot w^* = (w_{{k-1}} + {e}y\,x)\cdot w^* = w_{{k-1}}\cdot w^* + {e}"
        rf"\underbrace{{y\,(x\cdot w^*)}}_{{\ge\,\gamma}} \;\ge\; w_{{k-1}}\cdot w^* + {e}\gamma"
    )
    live = (
        rf"k = {k}:\quad w_{{{k}}}\cdot w^* = {num(d_prev)} + {_par(gain)} = {num(d_k)}"
        rf"\;\ge\; {num(d_prev)} + {num(step)} = {num(d_prev + step)}{_mark(c.claim1, j)}"
    )
    lemma = (
        rf"w_{{{k}}}\cdot w^* = {num(d_k)} \;\ge\; {e}k\gamma = {num(c.lemma1.small[j])}"
        rf"{_mark(c.lemma1, j)}"
    )
    return general, live, lemma


def claim2_latex(c: ProofCheck, k: int) -> tuple[str, str, str]:
    """Claim 2 (seed 000) / Lemma 2 (seed 004) in general and with the numbers at mistake k."""
    j, e, e2 = k - 1, _eta(c.eta), _eta(c.eta, "^2")
    n_k = c.lemma2.small[j]
    cross, square = c.cross.small[j], c.square.small[j]
    n_prev = n_k - cross - square
    general = (
        rf"\|w_k\|^2 = \|w_{{k-1}} + {e}y\,x\|^2 = \|w_{{k-1}}\|^2 + "
        rf"\underbrace{{2{e}y\,(w_{{k-1}}\cdot x)}}_{{\le\,0}} + "
        rf"\underbrace{{{e2}y^2\|x\|^2}}_{{\le\,{e2}R^2}} \;\le\; \|w_{{k-1}}\|^2 + {e2}R^2"
    )
    live = (
        rf"k = {k}:\quad \|w_{{{k}}}\|^2 = {num(n_prev)} + {_par(cross)} + {_par(square)} = "
        rf"{num(n_k)} \;\le\; {num(n_prev)} + {num(c.claim2.large[j])} = "
        rf"{num(n_prev + c.claim2.large[j])}{_mark(c.claim2, j)}"
    )
    lemma = (
        rf"\|w_{{{k}}}\|^2 = {num(n_k)} \;\le\; k\,{e2}R^2 = {num(c.lemma2.large[j])}"
        rf"{_mark(c.lemma2, j)}"
    )
    return general, live, lemma


def why_latex(c: ProofCheck, k: int) -> tuple[str, str]:
    """The two 'why?' of seed 002 with the numbers at mistake k: the cross term and y²‖x‖²."""
    j, e, e2 = k - 1, _eta(c.eta), _eta(c.eta, "^2")
    cross = rf"2{e}y\,(w_{{k-1}}\cdot x) = {num(c.cross.small[j])} \;\le\; 0{_mark(c.cross, j)}"
    sq = c.square.small[j]
    square = (
        rf"0 \;\le\; {e2}y^2\,\|x\|^2 = {num(sq)} \;\le\; {e2}R^2 = {num(c.square.large[j])}"
        rf"{_mark(c.square, j)}"
    )
    return cross, square


def cauchy_latex(c: ProofCheck, k: int) -> str:
    """Cauchy–Schwarz at mistake k, in seed 002's form with the angle θ between w_k and w*."""
    assert c.cauchy is not None
    j = k - 1
    d, n = c.cauchy.small[j], c.cauchy.large[j]
    cos = d / n if n > 0 else float("nan")
    return (
        rf"w_{{{k}}}\cdot w^* = \|w_{{{k}}}\|\,\|w^*\|\cos\theta = {num(n)}\cdot 1\cdot "
        rf"{_par(cos)} = {num(d)} \;\le\; \|w_{{{k}}}\| = {num(n)}{_mark(c.cauchy, j)}"
    )


def conclusion_latex(c: ProofCheck, k: int) -> tuple[str, str]:
    """The squeeze at mistake k with its numbers, then k ≤ (R/γ)²."""
    assert c.lemma1 is not None and c.cauchy is not None and c.conclusion is not None
    j, e = k - 1, _eta(c.eta)
    chain = (
        rf"{e}k\gamma = {num(c.lemma1.small[j])} \;\le\; w_{{{k}}}\cdot w^* = "
        rf"{num(c.lemma1.large[j])} \;\le\; \|w_{{{k}}}\| = {num(c.cauchy.large[j])} \;\le\; "
        rf"{e}R\sqrt{{k}} = {num(c.lemma2_root.large[j])}"
    )
    ok = all(line.holds[j] for line in (c.lemma1, c.cauchy, c.lemma2_root))
    end = (
        rf"\Rightarrow\; {e}k\gamma \le {e}R\sqrt{{k}} \;\Rightarrow\; k = {k} \;\le\; "
        rf"\Big(\frac{{R}}{{\gamma}}\Big)^2 = {num(c.bound)}{_mark(c.conclusion, j)}"
    )
    return chain + (OK if ok else BAD), end


def start_latex(c: ProofCheck) -> str:
    """The proof redone from w0 (both inductions start at w0 instead of 0)."""
    e, e2 = _eta(c.eta), _eta(c.eta, "^2")
    a, b = c.start_dot, c.start_norm_sq
    return (
        rf"w_k\cdot w^* \ge \underbrace{{w_0\cdot w^*}}_{{{num(a)}}} + {e}k\gamma,\quad "
        rf"\|w_k\|^2 \le \underbrace{{\|w_0\|^2}}_{{{num(b)}}} + k\,{e2}R^2\quad\Rightarrow\quad "
        rf"k \le k_{{\max}}(w_0) = {num(c.start_bound)}"
    )


def loosest(c: ProofCheck) -> str:
    """Markdown: at the last mistake, the three slacks of the squeeze as shares of the room."""
    assert c.lemma1 is not None and c.cauchy is not None
    parts = {
        "Claim 1": float(c.lemma1.slack[-1]),
        "Cauchy–Schwarz": float(c.cauchy.slack[-1]),
        "Claim 2": float(c.lemma2_root.slack[-1]),
    }
    K = c.n_mistakes
    room = sum(parts.values())
    if min(parts.values()) < 0 or room <= 0:
        bad = [name for name, v in parts.items() if v < 0]
        return (
            f"At the last mistake k = {K} the squeeze does not hold: "
            f"{', '.join(bad) or 'the room'} below 0."
        )
    order = sorted(parts, key=lambda name: -parts[name])
    shares = ", then ".join(f"{name} ({parts[name] / room:.0%})" for name in order)
    return f"At the last mistake k = {K} the room is {room:.3g}; the loosest step is {shares}."


# --- tables ------------------------------------------------------------------------------------


def _marks(line: Inequality) -> np.ndarray:
    return np.where(line.holds, "✓", "✗")


def _frame(c: ProofCheck, columns: dict[str, Any]) -> pd.DataFrame:
    rows = min(c.n_mistakes, TABLE_ROWS)
    data = {"k": c.k[:rows], "step t": c.t[:rows], "point i": c.i[:rows]}
    for name, values in columns.items():
        data[name] = np.asarray(values)[:rows]
    return pd.DataFrame(data)


def claim1_table(c: ProofCheck) -> pd.DataFrame:
    """Claim 1 and Lemma 1 at every mistake: both sides, slack, ✓."""
    assert c.claim1 is not None and c.lemma1 is not None
    return _frame(
        c,
        {
            "gain η·y·x·w*": c.claim1.large,
            "ηγ": c.claim1.small,
            "slack 1": c.claim1.slack,
            "✓ claim 1": _marks(c.claim1),
            "w_k·w*": c.lemma1.large,
            "ηkγ": c.lemma1.small,
            "slack": c.lemma1.slack,
            "✓ lemma 1": _marks(c.lemma1),
        },
    )


def claim2_table(c: ProofCheck) -> pd.DataFrame:
    """Claim 2 and Lemma 2 at every mistake: the cross term, η²‖x‖², both sides, slack, ✓."""
    return _frame(
        c,
        {
            "2η·y·w·x": c.cross.small,
            "✓ ≤ 0": _marks(c.cross),
            "η²‖x‖²": c.square.small,
            "gain in ‖w‖²": c.claim2.small,
            "η²R²": c.claim2.large,
            "slack 2": c.claim2.slack,
            "✓ claim 2": _marks(c.claim2),
            "‖w_k‖²": c.lemma2.small,
            "kη²R²": c.lemma2.large,
            "slack": c.lemma2.slack,
            "✓ lemma 2": _marks(c.lemma2),
        },
    )


def cauchy_table(c: ProofCheck) -> pd.DataFrame:
    """Cauchy–Schwarz at every mistake."""
    assert c.cauchy is not None
    with np.errstate(invalid="ignore", divide="ignore"):
        cos = np.where(c.cauchy.large > 0, c.cauchy.small / c.cauchy.large, np.nan)
    return _frame(
        c,
        {
            "w_k·w*": c.cauchy.small,
            "‖w_k‖": c.cauchy.large,
            "cos θ": cos,
            "slack": c.cauchy.slack,
            "✓": _marks(c.cauchy),
        },
    )


def conclusion_table(c: ProofCheck) -> pd.DataFrame:
    """The squeeze ηkγ ≤ w·w* ≤ ‖w‖ ≤ ηR√k and k ≤ (R/γ)² at every mistake; from w0 ≠ 0
    also k ≤ the bound from w0."""
    assert c.lemma1 is not None and c.cauchy is not None and c.conclusion is not None
    columns: dict[str, Any] = {
        "ηkγ": c.lemma1.small,
        "w_k·w*": c.lemma1.large,
        "‖w_k‖": c.cauchy.large,
        "ηR√k": c.lemma2_root.large,
        "room ηR√k − ηkγ": c.lemma2_root.large - c.lemma1.small,
        "(R/γ)²": c.conclusion.large,
        "✓ k ≤ (R/γ)²": _marks(c.conclusion),
    }
    if not from_zero(c) and c.conclusion_start is not None:
        columns["bound from w₀"] = c.conclusion_start.large
        columns["✓ k ≤ bound from w₀"] = _marks(c.conclusion_start)
    return _frame(c, columns)


# --- figures -----------------------------------------------------------------------------------


def _thin(K: int) -> np.ndarray:
    """Indices of at most MAX_BARS mistakes, evenly spread, always the last."""
    if K <= MAX_BARS:
        return np.arange(K)
    return np.unique(np.linspace(0, K - 1, MAX_BARS).round().astype(np.int64))


def slack_figure(c: ProofCheck, *, height: int = 380) -> Fig:
    """Which step is loose: the squeeze ηkγ ≤ w·w* ≤ ‖w‖ ≤ ηR√k cut into its three gaps,
    stacked per mistake k; their sum is the room ηR√k − ηkγ left before the bound."""
    assert c.lemma1 is not None and c.cauchy is not None
    idx = _thin(c.n_mistakes)
    ks = c.k[idx].tolist()
    parts = (
        ("Claim 1 slack: w·w* − ηkγ", c.lemma1.slack, PLUS),
        ("Cauchy–Schwarz slack: ‖w‖ − w·w*", c.cauchy.slack, STAR),
        ("Claim 2 slack: ηR√k − ‖w‖", c.lemma2_root.slack, CURRENT),
    )
    data: list[dict[str, Any]] = [
        {
            "type": "bar",
            "x": ks,
            "y": np.round(values[idx], 6).tolist(),
            "name": name,
            "marker": {"color": colour},
            "hovertemplate": "k = %{x}: %{y:.4g}<extra>" + name.split(":")[0] + "</extra>",
        }
        for name, values, colour in parts
    ]
    room = c.lemma2_root.large - c.lemma1.small
    data.append(
        {
            "type": "scatter",
            "x": ks,
            "y": np.round(room[idx], 6).tolist(),
            "mode": "lines",
            "line": {"color": "black", "dash": "dot", "width": 2},
            "name": "room left: ηR√k − ηkγ (0 at k = (R/γ)²)",
            "hovertemplate": "k = %{x}: room %{y:.4g}<extra></extra>",
        }
    )
    layout = {
        "height": height,
        "barmode": "relative",
        "bargap": 0.1 if len(ks) < 60 else 0.0,
        "margin": {"l": 60, "r": 10, "t": 10, "b": 50},
        "legend": {"orientation": "h", "y": -0.22},
        "xaxis": {"title": {"text": "mistake k"}} | ({"dtick": 1} if len(ks) <= 20 else {}),
        "yaxis": {"title": {"text": "length (units of w)"}, "zeroline": True},
    }
    return {"data": data, "layout": layout}


def orders_figure(
    rows: list[tuple[str, np.ndarray]],
    bound: float,
    *,
    name: str = "(R/γ)²",
    height: int = 300,
) -> Fig:
    """Mistakes M of many runs on one row per kind of order (label, counts), with the bound
    that applies to them, called ``name`` (``run_bound``: (R/γ)² from w0 = 0).

    The x axis is logarithmic, so the bound and counts far below it both show; a count of
    0 is drawn at 0.5 and a bound of 0 (w0 already separates) at 0.5 too."""
    data: list[dict[str, Any]] = []
    colours = (PLUS, STAR, CURRENT, MINUS)
    rng = np.random.default_rng(0)  # jitter only, for overlapping dots
    top = max(float(bound), 1.0)
    at = max(float(bound), 0.5)  # where the bound's line is drawn on the log axis
    for r, (label, counts) in enumerate(rows):
        m = np.asarray(counts, dtype=np.float64)
        top = max(top, float(m.max(initial=1.0)))
        jitter = rng.uniform(-0.18, 0.18, m.shape[0]) if m.shape[0] > 1 else np.zeros(1)
        data.append(
            {
                "type": "scatter",
                "x": np.maximum(m, 0.5).tolist(),
                "y": (r + jitter).round(3).tolist(),
                "customdata": m.astype(int).tolist(),
                "mode": "markers",
                "marker": {"color": colours[r % len(colours)], "size": 9, "opacity": 0.7},
                "name": label,
                "hovertemplate": label + ": M = %{customdata}<extra></extra>",
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
            "name": f"bound {name}" if name.startswith("(") else name,
            "hovertemplate": f"{name} = {bound:.4g}<extra></extra>",
        }
    )
    layout = {
        "height": height,
        "margin": {"l": 10, "r": 10, "t": 10, "b": 50},
        "showlegend": False,
        "xaxis": {
            "type": "log",
            "title": {"text": "mistakes M (log scale)"},
            "tickvals": [v for v in _LOG_TICKS if v <= top * 2.0],
            "range": [math.log10(0.4), math.log10(top * 2.0)],
        },
        "yaxis": {
            "tickvals": list(range(n)),
            "ticktext": [label for label, _ in rows],
            "range": [-0.6, n - 0.4],
            "automargin": True,
        },
        "annotations": [
            {
                "x": math.log10(at),
                "y": n - 0.5,
                "text": (f"bound {name}" if name.startswith("(") else name) + f" = {bound:.4g}",
                "showarrow": False,
                "xanchor": "right",
                "yanchor": "bottom",
                "font": {"color": BOUND},
            }
        ],
    }
    return {"data": data, "layout": layout}

"""The proof page (pure): each line of the convergence proof written with the run's numbers,
per-mistake tables (the slack figure: ``ui.proof.slack``; the orders figure:
``ui.proof.orders``).

Numbers in, LaTeX strings / markdown / DataFrames out (no Streamlit).
A line is ``small <= large`` (``perceptron_core.Inequality``); k counts mistakes from 1.
Steps t and points i are shown from 1, as the handouts and the Step by step log count them;
the engine's ``ProofCheck.t`` and ``.i`` are 0-based indices, so 1 is added where they show.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from perceptron_core import Inequality, ProofCheck
from ui.look.numbers import count, number, signed, tex, vector_text
from ui.words import t, tn

SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
TABLE_ROWS = 1000  # per-mistake tables show at most this many rows
HOLDS = ":green[:material/check_circle:]"  # markdown icons: Streamlit ships the font
FAILS = ":red[:material/cancel:]"
OK = r"\quad\checkmark"
BAD = r"\quad\textcolor{#D55E00}{\boldsymbol{\times}\ \text{fails}}"


def num(v: float, digits: int = 4) -> str:
    """A number for LaTeX: 4 significant digits through ``ui.look.numbers.tex`` (5{,}940,
    never 5.94e+03 or −0.00)."""
    return r"\text{NaN}" if math.isnan(v) else tex(v, digits)


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


@dataclass(frozen=True)
class Labels:
    """The cards' titles and the verdicts' names, saying what the numbers check: with a
    rate η ≠ 1 a mistake moves w by η·y·x, so Claim 1 checks a gain of ηγ and Claim 2 one of
    η²R² (the formulas write η the same way, ``_eta``); with η = 1, as in every handout,
    no η is written."""

    claim1_title: str
    claim2_title: str
    claim1: str
    lemma1: str
    claim2: str
    lemma2: str
    lemma2_slack: str  # Lemma 2's slack, named with its unit (‖w‖², as the handouts write it)


def labels(c: ProofCheck) -> Labels:
    """The titles and verdict names of the cards for the run's rate η."""
    e, e2 = ("", "") if c.eta == 1.0 else ("η", "η²")
    rate = "" if c.eta == 1.0 else f" (η = {number(c.eta)})"
    return Labels(
        claim1_title=t("1. Claim 1: w·w* grows by at least {e}γ{rate}").format(e=e, rate=rate),
        claim2_title=t("2. Claim 2: ‖w‖² grows by at most {e2}R²{rate}").format(e2=e2, rate=rate),
        claim1=t("Claim 1 (one step: gain ≥ {e}γ)").format(e=e),
        lemma1=t("Lemma 1 (w·w* ≥ {e}kγ)").format(e=e),
        claim2=t("Claim 2 (one step: gain ≤ {e2}R²)").format(e2=e2),
        lemma2=t("Lemma 2 (‖w‖² ≤ k{e2}R²)").format(e2=e2),
        lemma2_slack=t("slack k{e2}R² − ‖w‖² =").format(e2=e2),
    )


def mistake_caption(c: ProofCheck, k: int, X: Any, y: Any) -> str:
    """Where mistake k happened, counted as the Step by step log counts: the step t (the
    t-th example shown, from 1), the point i (its place in the data, from 1), that point's
    x as the perceptron saw it (``X``: the run's points) and its label y."""
    j = k - 1
    step, i = int(c.t[j]) + 1, int(c.i[j]) + 1
    x = np.asarray(X, dtype=np.float64)[i - 1]
    label = signed(float(np.asarray(y)[i - 1]))
    point = "x" + str(i).translate(SUBSCRIPT)  # x₃, x₁₇ (markdown would show x_3 as typed)
    return t(
        "Mistake k = {k} of {K}: at step t = {t}, on point i = {i}: {point} = {x}, y = {y}."
    ).format(
        k=number(k), K=number(c.n_mistakes), t=number(step), i=number(i), point=point,
        x=vector_text(x), y=label,
    )  # fmt: skip


def from_zero(c: ProofCheck) -> bool:
    """Whether the run started at w0 = 0, where the bound is the seeds' (R/γ)²."""
    return c.start_norm_sq == 0.0


def run_bound(c: ProofCheck) -> tuple[float, Inequality | None, str]:
    """The mistake bound that applies to the run, its line k ≤ bound, and its name:
    (R/γ)² from w0 = 0, else the bound with the proof redone from w0 (``start_bound``)."""
    if from_zero(c):
        return c.bound, c.conclusion, "(R/γ)²"
    return c.start_bound, c.conclusion_start, t("the bound from w₀")


def no_mistakes_reason(margins: Any, rule: str, w0_is_zero: bool) -> str:
    """Markdown: why a run made no mistake at all. ``margins`` are y·(w0·x) of every point
    (with the bias feature when the run has one), ``rule`` a key of ``RULES``."""
    m = np.asarray(margins, dtype=np.float64)
    head = t("No mistakes at all, so there is nothing to check.")
    if w0_is_zero and rule == "negative":
        why = t(
            "With the strict rule (EURECOM MALIS) w = 0 is never wrong, so it never moves: M = 0 "
            "is within the bound, but w = 0 separates nothing. Start from w₀ ≠ 0 (random or typed) "
            "to make it learn."
        )
    elif w0_is_zero:
        why = t(
            "Under this rule w₀ = 0 predicts the one label every point has, so it is never "
            "wrong and never moves: M = 0 is within the bound."
        )
    elif m.size and float(m.min()) > 0.0:
        why = t(
            "The start w₀ already separates the data: every y·(w₀·x) > 0 (the smallest is "
            "{least}), so no point is a mistake under any rule and w never moves. M = 0 is "
            "within the bound; the proof has no mistake to count."
        ).format(least=number(float(m.min())))
    else:
        why = t(
            "The start w₀ gets every point right except those exactly on its line "
            "(y·(w₀·x) = 0), and this rule does not count w·x = 0 as a mistake there, so w "
            "never moves. M = 0 is within the bound."
        )
    return f"{head} {why}"


def verdict(line: Inequality, what: str, *, ge: bool = False, slack: str | None = None) -> str:
    """One markdown sentence: does ``what`` hold at every mistake, and where is it tightest
    (or where does it fail first)? ``ge``: the line is written large ≥ small; ``slack``
    names the slack with its unit where the page has two (Lemma 2; else "slack")."""
    K = line.slack.shape[0]
    if K == 0:
        return t("{what}: no mistakes, so nothing to check.").format(what=what)
    if line.all_hold:
        j = int(np.argmin(line.slack))
        tight = max(float(line.slack[j]), 0.0)  # within rounding of 0: exactly tight
        return tn(
            "{holds} {what} holds at the one mistake; tightest at k = {k} ({slack} {tight}).",
            "{holds} {what} holds at all **{K}** mistakes; tightest at k = {k} ({slack} {tight}).",
            K,
        ).format(
            holds=HOLDS, what=what, K=number(K), k=number(j + 1), slack=slack or t("slack"),
            tight=number(tight),
        )  # fmt: skip
    j = int(line.first_failure or 1) - 1
    bad = int((~line.holds).sum())
    said = (
        t("{fails} {what} **fails** at {bad} of {K} mistakes, first at k = {k}: "
          "{a} is not ≥ {b}.")
        if ge
        else t("{fails} {what} **fails** at {bad} of {K} mistakes, first at k = {k}: "
               "{a} is not ≤ {b}.")
    )  # fmt: skip
    a, b = (line.large[j], line.small[j]) if ge else (line.small[j], line.large[j])
    return said.format(
        fails=FAILS, what=what, bad=number(bad), K=number(K), k=number(j + 1), a=number(a, 4),
        b=number(b, 4),
    )  # fmt: skip


# --- the theorem --------------------------------------------------------------------------


def _run_M(M: int, cut: int | None) -> str:
    """The run's M against a bound, with its mark: "M = 12 ≤ … ✓"; from a run that stopped
    after ``cut`` epochs without converging, "M ≥ 153" (a lower bound: no ✓, and a ✗ only
    if even that is over the bound)."""
    if cut is None:
        return rf"M = {num(M)} \;\le\; "
    stopped, also = t("(stopped after {epochs})").format(epochs=count(cut, "epoch")), t("and")
    return rf"M \ge {num(M)}\ \text{{{stopped}}}\\ \text{{{also} }} M \;\le\; "


def _run_mark(M: int, cut: int | None, bound: float) -> str:
    if bound * (1 + 1e-9) < M:
        return BAD
    return OK if cut is None else ""


def theorem_latex(c: ProofCheck, M: int, cut: int | None = None) -> tuple[str, str]:
    """The bound in the general form (seeds 001, 004) and in the unit-ball form (seeds
    000, 002: x scaled by 1/R), with the run's numbers; M is the run's mistake count, a
    lower bound when the run stopped after ``cut`` epochs without converging.

    The theorem assumes w0 = 0. From w0 = 0 the run's M is checked against the bound (the
    rate η changes no mistake there: every w is η times the w of the run with η = 1). From
    w0 ≠ 0 the theorem says nothing about the run, so the bound is given as the bound from
    w0 = 0, with no M and no verdict (``theorem_start_latex`` holds the run to its own)."""
    R, g = c.radius, c.gamma
    mark = _run_mark(M, cut, c.bound)
    general_bound = rf"\Big(\frac{{R}}{{\gamma}}\Big)^2 = {num(c.bound)}"
    unit_bound = rf"\frac{{1}}{{(\gamma/R)^2}} = {num((R / g) ** 2)}"
    if from_zero(c):
        general_end = rf"{_run_M(M, cut)}{general_bound}{mark}"
        unit_end = rf"{_run_M(M, cut)}{unit_bound}{mark}"
    else:
        bound_from, starts = t("the bound from"), t("this run starts at")
        not_this_run = (
            rf"\\ \text{{{bound_from} }} w_0 = 0\text{{;}}\\ \text{{{starts} }} w_0 \ne 0"
        )
        general_end, unit_end = general_bound + not_this_run, unit_bound + not_this_run
    general = (
        rf"\begin{{gathered}}R = \max_i\|x_i\| = {num(R)}\\ \gamma = {num(g)}\\ "
        rf"{general_end}\end{{gathered}}"
    )
    unit = (
        rf"\begin{{gathered}}x \leftarrow x/R:\quad \|x\| \le 1\\ "
        rf"\gamma \leftarrow \gamma/R = {num(g / R)}\\ {unit_end}\end{{gathered}}"
    )
    return general, unit


def theorem_start_latex(c: ProofCheck, M: int, cut: int | None = None) -> str:
    """The run's M against the bound redone from its start w0 ≠ 0 (card 0 derives it)."""
    mark = _run_mark(M, cut, c.start_bound)
    return (
        rf"\begin{{gathered}}\text{{from }} w_0 \ne 0:\\ {_run_M(M, cut)}"
        rf"k_{{\max}}(w_0) = {num(c.start_bound)}{mark}\end{{gathered}}"
    )


# --- the cards, at mistake k (1-based) -------------------------------------------------------


def _lines(*rows: str) -> str:
    """Rows aligned at their "&": one step of a derivation per line, as the handouts write
    it (seed 003), and narrow enough for a phone (a chain on one line was cut off there)."""
    return r"\begin{aligned}" + r" \\ ".join(rows) + r"\end{aligned}"


def claim1_latex(c: ProofCheck, k: int) -> tuple[str, str, str]:
    """Claim 1 (seed 000) in general, with the numbers at mistake k, and Lemma 1 (seed 004)."""
    assert c.claim1 is not None and c.lemma1 is not None
    j, e = k - 1, _eta(c.eta)
    gain, step = c.claim1.large[j], c.claim1.small[j]  # w_k.w* - w_{k-1}.w*, eta gamma
    d_k = c.lemma1.large[j]
    d_prev = d_k - gain
    general = _lines(
        rf"w_k\cdot w^* &= (w_{{k-1}} + {e}y\,x)\cdot w^*",
        rf"&= w_{{k-1}}\cdot w^* + {e}\underbrace{{y\,(x\cdot w^*)}}_{{\ge\,\gamma}}",
        rf"&\ge w_{{k-1}}\cdot w^* + {e}\gamma",
    )
    live = _lines(
        rf"w_{{{k}}}\cdot w^* &= {num(d_prev)} + {_par(gain)}",
        rf"&= {num(d_k)}",
        rf"&\ge {num(d_prev)} + {num(step)} = {num(d_prev + step)}{_mark(c.claim1, j)}",
    )
    lemma = _lines(
        rf"w_{{{k}}}\cdot w^* &= {num(d_k)}",
        rf"&\ge {e}k\gamma = {num(c.lemma1.small[j])}{_mark(c.lemma1, j)}",
    )
    return general, live, lemma


def claim2_latex(c: ProofCheck, k: int) -> tuple[str, str, str]:
    """Claim 2 (seed 000) / Lemma 2 (seed 004) in general and with the numbers at mistake k.
    Lemma 2 is written as the handouts write it, ‖w_k‖² ≤ kR² (seed 004), in units of ‖w‖²."""
    j, e, e2 = k - 1, _eta(c.eta), _eta(c.eta, "^2")
    n_k = c.lemma2.small[j]
    cross, square = c.cross.small[j], c.square.small[j]
    n_prev = n_k - cross - square
    general = _lines(
        rf"\|w_k\|^2 &= \|w_{{k-1}} + {e}y\,x\|^2",
        rf"&= \|w_{{k-1}}\|^2 + \underbrace{{2{e}y\,(w_{{k-1}}\cdot x)}}_{{\le\,0}}",
        rf"&\qquad + \underbrace{{{e2}y^2\|x\|^2}}_{{\le\,{e2}R^2}}",
        rf"&\le \|w_{{k-1}}\|^2 + {e2}R^2",
    )
    live = _lines(
        rf"\|w_{{{k}}}\|^2 &= {num(n_prev)} + {_par(cross)} + {_par(square)}",
        rf"&= {num(n_k)}",
        rf"&\le {num(n_prev)} + {num(c.claim2.large[j])} = "
        rf"{num(n_prev + c.claim2.large[j])}{_mark(c.claim2, j)}",
    )
    lemma = _lines(
        rf"\|w_{{{k}}}\|^2 &= {num(n_k)}",
        rf"&\le k\,{e2}R^2 = {num(c.lemma2.large[j])}{_mark(c.lemma2, j)}",
    )
    return general, live, lemma


def lemma2_units(c: ProofCheck, k: int) -> str:
    """Markdown: Lemma 2's slack at mistake k in the handouts' unit (‖w‖²), and the gap of
    its square root ‖w_k‖ ≤ R√k in units of ‖w‖, the form card 4 and the slack chart use,
    each named with its unit so the two numbers are never read as one."""
    j, e = k - 1, "η" if c.eta != 1.0 else ""
    e2 = e + "²" if e else ""
    w = "w" + str(k).translate(SUBSCRIPT)  # w₃, w₁₂ (markdown would show w_3 as typed)
    slack, gap = c.lemma2.slack[j], c.lemma2_root.slack[j]
    return t(
        "At k = {k}, Lemma 2's slack k{e2}R² − ‖{w}‖² = **{slack}** (in units of ‖w‖², as the "
        "handouts write the lemma). Card 4 and the chart *Which step is loose?* use its square "
        "root ‖{w}‖ ≤ {e}R√k, lengths in units of ‖w‖: the gap {e}R√k − ‖{w}‖ = **{gap}**."
    ).format(k=number(k), e2=e2, w=w, slack=number(slack, 4), e=e, gap=number(gap, 4))


def why_latex(c: ProofCheck, k: int) -> tuple[str, str]:
    """The two 'why?' of seed 002 with the numbers at mistake k: the cross term and y²‖x‖²."""
    j, e, e2 = k - 1, _eta(c.eta), _eta(c.eta, "^2")
    cross = _lines(
        rf"2{e}y\,(w_{{k-1}}\cdot x) &= {num(c.cross.small[j])}",
        rf"&\le 0{_mark(c.cross, j)}",
    )
    sq = c.square.small[j]
    square = _lines(
        rf"{e2}y^2\,\|x\|^2 &= {num(sq)}",
        r"&\ge 0",
        rf"&\le {e2}R^2 = {num(c.square.large[j])}{_mark(c.square, j)}",
    )
    return cross, square


def cauchy_latex(c: ProofCheck, k: int) -> str:
    """Cauchy–Schwarz at mistake k, in seed 002's form with the angle θ between w_k and w*."""
    assert c.cauchy is not None
    j = k - 1
    d, n = c.cauchy.small[j], c.cauchy.large[j]
    cos = d / n if n > 0 else float("nan")
    return _lines(
        rf"w_{{{k}}}\cdot w^* &= \|w_{{{k}}}\|\,\|w^*\|\cos\theta",
        rf"&= {num(n)}\cdot 1\cdot {_par(cos)} = {num(d)}",
        rf"&\le \|w_{{{k}}}\| = {num(n)}{_mark(c.cauchy, j)}",
    )


def conclusion_latex(c: ProofCheck, k: int) -> tuple[str, str]:
    """The squeeze at mistake k with its numbers, then k ≤ (R/γ)²."""
    assert c.lemma1 is not None and c.cauchy is not None and c.conclusion is not None
    j, e = k - 1, _eta(c.eta)
    ok = all(line.holds[j] for line in (c.lemma1, c.cauchy, c.lemma2_root))
    chain = _lines(
        rf"{e}k\gamma = {num(c.lemma1.small[j])} &\le w_{{{k}}}\cdot w^* = "
        rf"{num(c.lemma1.large[j])}",
        rf"&\le \|w_{{{k}}}\| = {num(c.cauchy.large[j])}",
        rf"&\le {e}R\sqrt{{k}} = {num(c.lemma2_root.large[j])}" + (OK if ok else BAD),
    )
    end = (
        rf"\begin{{gathered}}\Rightarrow\; {e}k\gamma \le {e}R\sqrt{{k}}\\ \Rightarrow\; "
        rf"k = {num(k)} \;\le\; \Big(\frac{{R}}{{\gamma}}\Big)^2 = {num(c.bound)}"
        rf"{_mark(c.conclusion, j)}\end{{gathered}}"
    )
    return chain, end


def start_latex(c: ProofCheck) -> str:
    """The proof redone from w0 (both inductions start at w0 instead of 0)."""
    e, e2 = _eta(c.eta), _eta(c.eta, "^2")
    a, b = c.start_dot, c.start_norm_sq
    return (
        rf"\begin{{gathered}}w_k\cdot w^* \ge \underbrace{{w_0\cdot w^*}}_{{{num(a)}}} + {e}k\gamma"
        rf"\\ \|w_k\|^2 \le \underbrace{{\|w_0\|^2}}_{{{num(b)}}} + k\,{e2}R^2\\ "
        rf"\Rightarrow\quad k \le k_{{\max}}(w_0) = {num(c.start_bound)}\end{{gathered}}"
    )


def start_zero_latex() -> str:
    """Card 0 from w0 = 0: the base case of both inductions."""
    return (
        r"\begin{gathered}w_0 = 0 \;\Rightarrow\\ w_0\cdot w^* = 0,\ \|w_0\|^2 = 0"
        + OK
        + r"\end{gathered}"
    )


def start_w0_latex(w0: Any) -> str:
    """Card 0 from w0 ≠ 0: w0 ≠ 0 is true (✓); the mark "fails" sits on the base case
    w0 = 0 that the inductions assume, the statement that fails."""
    return _lines(
        rf"w_0 &= ({vector(w0)})",
        r"&\ne 0" + OK,
        r"\text{base case } w_0 &= 0" + BAD,
    )


# --- tables ------------------------------------------------------------------------------------


def _marks(line: Inequality) -> np.ndarray:
    return np.where(line.holds, "✓", "✗")


def _shown(values: Any) -> Any:
    """A table column as the page shows it: floats as ``number`` writes them, 4 significant
    digits (Streamlit would write a float's every digit: −0.0000000001 for rounding noise,
    which is 0 here); other columns as they are."""
    a = np.asarray(values)
    if a.dtype.kind != "f":
        return a
    scale = float(np.nanmax(np.abs(a), initial=0.0)) if a.size else 0.0
    a = np.where(np.abs(a) <= 1e-9 * max(scale, 1.0), 0.0, a)
    return np.array([number(v, 4) for v in a], dtype=object)


def table_note(c: ProofCheck) -> str | None:
    """What an "Every mistake" table leaves out: it shows the first TABLE_ROWS mistakes."""
    if c.n_mistakes <= TABLE_ROWS:
        return None
    return t("The first {rows} of the {K} mistakes; the slider above reaches every one.").format(
        rows=number(TABLE_ROWS), K=number(c.n_mistakes)
    )


def _frame(c: ProofCheck, columns: dict[str, Any]) -> pd.DataFrame:
    rows = min(c.n_mistakes, TABLE_ROWS)
    # step t and point i from 1, as the Step by step log shows them (the engine's are 0-based)
    data = {"k": c.k[:rows], t("step t"): c.t[:rows] + 1, t("point i"): c.i[:rows] + 1}
    for name, values in columns.items():
        data[name] = _shown(np.asarray(values)[:rows])
    return pd.DataFrame(data)


def claim1_table(c: ProofCheck) -> pd.DataFrame:
    """Claim 1 and Lemma 1 at every mistake: both sides, slack, ✓."""
    assert c.claim1 is not None and c.lemma1 is not None
    return _frame(
        c,
        {
            t("gain η·y·x·w*"): c.claim1.large,
            "ηγ": c.claim1.small,
            t("slack 1"): c.claim1.slack,
            t("✓ claim 1"): _marks(c.claim1),
            "w_k·w*": c.lemma1.large,
            "ηkγ": c.lemma1.small,
            t("slack"): c.lemma1.slack,
            t("✓ lemma 1"): _marks(c.lemma1),
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
            t("gain in ‖w‖²"): c.claim2.small,
            "η²R²": c.claim2.large,
            t("slack 2"): c.claim2.slack,
            t("✓ claim 2"): _marks(c.claim2),
            "‖w_k‖²": c.lemma2.small,
            "kη²R²": c.lemma2.large,
            t("slack kη²R² − ‖w_k‖²"): c.lemma2.slack,
            t("✓ lemma 2"): _marks(c.lemma2),
            t("gap ηR√k − ‖w_k‖"): c.lemma2_root.slack,
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
            t("slack"): c.cauchy.slack,
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
        t("room ηR√k − ηkγ"): c.lemma2_root.large - c.lemma1.small,
        "(R/γ)²": c.conclusion.large,
        "✓ k ≤ (R/γ)²": _marks(c.conclusion),
    }
    if not from_zero(c) and c.conclusion_start is not None:
        columns[t("bound from w₀")] = c.conclusion_start.large
        columns[t("✓ k ≤ bound from w₀")] = _marks(c.conclusion_start)
    return _frame(c, columns)

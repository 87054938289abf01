"""The spam filter of seeds 001 and 003 (pure): word counts, the activation w·x, the
verdict, and the weights of the words and of BIAS step by step through training.

Numbers in, plain Plotly figure dicts, tables (dicts of columns), markdown or LaTeX out;
every number written by ``ui.look.numbers``.
User text only ever leaves here escaped by ``ui.look.text.safe``.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from perceptron_core import SPAM_VOCABULARIES, Trace
from perceptron_core.datasets import SPAM_EMAILS
from ui.look.numbers import AXIS, D3, number, tex, vector_text
from ui.look.palette import BOUND, CURRENT, MINUS, PLUS, STAR, W_COLOUR
from ui.look.text import safe
from ui.words import t

Fig = dict[str, Any]
VOCABULARIES = SPAM_VOCABULARIES  # the engine's registry (not a copy): spam_vocab reads it
MAX_EMAIL = 500  # characters of a typed e-mail
# the three weights the page follows (seed 003), and a colour for each
FOLLOWED = {"free": PLUS, "money": W_COLOUR, "BIAS": MINUS}
_TOKEN = re.compile(r"[A-Za-z0-9']+")


def names(words: tuple[str, ...]) -> list[str]:
    """The features: the words, then the constant feature BIAS = 1 (seed 003)."""
    return [*words, "BIAS"]


def verdict(a: float) -> str:
    """Seed 003: activation w·x > 0 → spam; otherwise not spam (seed 001's sign(0) = −1)."""
    return t("spam") if a > 0 else t("not spam")


def weights_by_step(trace: Trace) -> np.ndarray:
    """w after t steps for t = 0 .. T, shape (T + 1, d')."""
    return np.array([trace.w_before(t) for t in range(trace.n_steps + 1)])


def weights_figure(trace: Trace, feature_names: list[str], step: int, *, height: int = 360) -> Fig:
    """Every weight against the training step (free, money and BIAS in colour, other words
    grey), a mark on each mistake and a line at step ``step``."""
    W = weights_by_step(trace)
    steps = list(range(trace.n_steps + 1))
    hover = t("{weight} = {value} after {steps} steps") + "<extra></extra>"
    data: list[dict[str, Any]] = []
    for j, name in enumerate(feature_names):
        colour = FOLLOWED.get(name, STAR)
        followed = name in FOLLOWED
        data.append(
            {
                "type": "scatter",
                "x": steps,
                "y": W[:, j].tolist(),
                "mode": "lines",
                "line": {
                    "color": colour,
                    "width": 3 if followed else 1.5,
                    "shape": "hv",
                    "dash": "dash" if name == "money" else "solid",  # free's line may lie under it
                },
                "opacity": 1.0 if followed else 0.6,
                "name": f"w[{name}]",
                "hovertemplate": hover.format(
                    weight=f"w[{name}]", value=f"%{{y:{D3}}}", steps="%{x:,}"
                ),
            }
        )
    mistakes = (trace.mistake_steps[:, 0] + 1).tolist()  # w changed after these steps
    span = float(np.abs(W).max()) or 1.0
    data.append(
        {
            "type": "scatter",
            "x": mistakes,
            "y": [-1.15 * span] * len(mistakes),
            "mode": "markers",
            "marker": {"symbol": "triangle-up", "color": BOUND, "size": 9},
            "name": t("a mistake (update)"),
            "hovertemplate": t("update at step {step}").format(step="%{x}") + "<extra></extra>",
        }
    )
    n = trace.n_examples
    return {
        "data": data,
        "layout": {
            "height": height,
            "margin": {"l": 60, "r": 20, "t": 20, "b": 50},
            "xaxis": {"title": {"text": t("steps (one epoch = {n} e-mails)").format(n=n)}, **AXIS},
            "yaxis": {
                "title": {"text": t("weight")},
                "range": [-1.3 * span, 1.15 * span],
                **AXIS,
            },
            "legend": {"orientation": "h", "y": -0.25},
            "plot_bgcolor": "white",
            "shapes": [
                {
                    "type": "line",
                    "x0": step,
                    "x1": step,
                    "y0": 0,
                    "y1": 1,
                    "yref": "paper",
                    "line": {"color": CURRENT, "width": 3},
                }
            ]
            + [
                {
                    "type": "line",
                    "x0": e * n,
                    "x1": e * n,
                    "y0": 0,
                    "y1": 1,
                    "yref": "paper",
                    "line": {"color": "#dddddd", "width": 1, "dash": "dot"},
                }
                for e in range(1, trace.n_epochs)
            ],
        },
    }


def training_table(
    X: np.ndarray, y: np.ndarray, w: np.ndarray, words: tuple[str, ...]
) -> dict[str, Any]:
    """The labelled e-mails: text, label, word counts, w·x and the verdict with this w."""
    a = X @ w[:-1] + w[-1]  # the BIAS feature is 1, its weight is last
    table: dict[str, list[Any]] = {
        t("e-mail"): [text for text, _ in SPAM_EMAILS],
        t("label"): [t("spam") if v > 0 else t("not spam") for v in y],
    }
    for j, word in enumerate(words):
        table[word] = [int(v) for v in X[:, j]]
    table["w·x"] = [number(v) for v in a]  # as text: "−5", as everywhere on the page
    table[t("verdict")] = [verdict(float(v)) for v in a]
    table[t("right?")] = ["✓" if (v > 0) == (lab > 0) else "✗" for v, lab in zip(a, y, strict=True)]
    return table


def step_markdown(trace: Trace, X: np.ndarray, y: np.ndarray, step: int) -> str:
    """What training step ``step`` did (0: nothing yet), in words and numbers."""
    if step == 0:
        return t("**Before training:** w = 0, so w·x = 0 for every e-mail.")
    assert trace.steps is not None
    s = step - 1  # the step just made, 0-based
    i = int(trace.steps.index[s])
    w_old, w_new = trace.w_before(s), trace.w_before(step)
    x = [*X[i].tolist(), 1.0]
    a = float(trace.steps.margin[s]) * float(y[i])  # margin is y·w·x
    head = (
        t(
            "**Step {t}** (epoch {epoch}): e-mail {i}, “{text}”, is spam (y = +1); x = {x}, "
            "w = {w}, **w·x = {a}**, so y·(w·x) = {margin}."
        )
        if y[i] > 0
        else t(
            "**Step {t}** (epoch {epoch}): e-mail {i}, “{text}”, is not spam (y = −1); x = {x}, "
            "w = {w}, **w·x = {a}**, so y·(w·x) = {margin}."
        )
    ).format(
        t=step,
        epoch=s // trace.n_examples + 1,
        i=i + 1,
        text=safe(SPAM_EMAILS[i][0], limit=200),
        x=vector_text(x),
        w=vector_text(w_old),
        a=number(a),
        margin=number(float(y[i]) * a),
    )
    if trace.steps.mistake[s]:
        return head + " " + t("**A mistake:** w ← w + y·x = **{w}**.").format(w=vector_text(w_new))
    return head + " " + t("Right, so w stays.")


def highlight(text: str, words: tuple[str, ...]) -> str:
    """The typed e-mail for markdown: every character escaped (it shows as typed, never
    as HTML, a link or an image), the words the filter counts in bold."""
    text = text[:MAX_EMAIL]
    out: list[str] = []
    last = 0
    for match in _TOKEN.finditer(text):
        out.append(safe(text[last : match.start()], limit=MAX_EMAIL))
        token = safe(match.group(), limit=MAX_EMAIL)
        out.append(f"**{token}**" if match.group().lower() in words else token)
        last = match.end()
    out.append(safe(text[last:], limit=MAX_EMAIL))
    return "".join(out)


def activation_latex(x: np.ndarray, w: np.ndarray, feature_names: list[str]) -> str:
    """w·x = Σ w_j x_j written out over the features present (and BIAS), with its value."""

    def num(v: float) -> str:
        return f"({tex(v)})" if tex(v).startswith("-") else tex(v)

    terms = [
        rf"\underbrace{{{num(w[j])}\cdot{tex(x[j])}}}_{{\text{{{name}}}}}"
        for j, name in enumerate(feature_names)
        if x[j] != 0 or name == "BIAS"
    ]
    a = float(x @ w)
    sign = ">" if a > 0 else r"\le"
    return rf"w\cdot x = {' + '.join(terms)} = {tex(a)} {sign} 0"

"""The spam page's step text, table and activation (pure): numbers by ui.look.numbers, with
the minus sign "−" in text and "-" inside LaTeX."""

import numpy as np

from perceptron_core import spam_features, train
from ui.look.numbers import AXIS, D3
from ui.spam import figures as spam


def trace():
    X, y = spam_features()
    return X, y, train(X, y, bias=True, max_epochs=50, record_steps=True)


def test_a_step_is_written_with_the_minus_sign():
    X, y, t = trace()
    lowered = next(s for s in range(1, t.n_steps + 1) if t.w_before(s)[-1] < 0)
    text = spam.step_markdown(t, X, y, lowered)
    assert "−1" in text and "-1" not in text
    w = t.w_before(lowered)
    shown = "(" + ", ".join(f"{v:g}".replace("-", "−") for v in w) + ")"
    assert f"**A mistake:** w ← w + y·x = **{shown}**." in text


def test_the_table_writes_w_dot_x_as_text():
    X, y, t = trace()
    table = spam.training_table(X, y, t.w, spam.VOCABULARIES["two"])
    a = X @ t.w[:-1] + t.w[-1]  # word counts and weights are integers: exact on any CPU
    assert table["w·x"] == [f"{v:g}".replace("-", "−") for v in a]


def test_the_activation_in_latex_brackets_negative_weights():
    latex = spam.activation_latex(
        np.array([2.0, 0.0, 1.0]), np.array([3.0, 3.0, -5.0]), ["free", "money", "BIAS"]
    )
    assert latex == (
        r"w\cdot x = \underbrace{3\cdot2}_{\text{free}} + "
        r"\underbrace{(-5)\cdot1}_{\text{BIAS}} = 1 > 0"
    )
    big = spam.activation_latex(np.array([1.0]), np.array([-1234.0]), ["BIAS"])
    assert big.endswith(r"= -1{,}234 \le 0")


def test_the_weights_chart_hovers_and_axes_are_plain():
    _, _, t = trace()
    fig = spam.weights_figure(t, spam.names(spam.VOCABULARIES["two"]), 3)
    assert f"%{{y:{D3}}}" in fig["data"][0]["hovertemplate"]
    for key in ("xaxis", "yaxis"):
        assert fig["layout"][key].items() >= AXIS.items()
    dashes = {tr["name"]: tr["line"]["dash"] for tr in fig["data"] if "line" in tr}
    assert dashes["w[free]"] != dashes["w[money]"]  # free's line may lie under money's

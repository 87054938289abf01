"""The experts page's derivation, summary and tables (pure): the instance's numbers
written by ui.look.numbers, and the derivation as inline formulas that wrap on a phone."""

import re

import numpy as np
import pytest

from perceptron_core import simulate_experts
from ui.experts import figures as ex
from ui.look.numbers import AXIS


@pytest.fixture(scope="module")
def big():
    return simulate_experts(n=100, k=99, days=2000, behaviour="adversarial", seed=0)


def test_the_derivation_is_a_numbered_list_of_inline_formulas(big):
    text = ex.derivation_markdown(big)
    lines = text.splitlines()
    assert [line[:3] for line in lines] == ["1. ", "2. ", "3. ", "4. "]
    assert "$$" not in text  # display formulas do not wrap; inline ones do
    assert r"\sqrt{100} = 10 = D" in lines[2]
    assert r"100 \cdot 99 = 9{,}900 = n\,k" in lines[3]  # a thousands comma LaTeX keeps tight
    assert r"\frac{1}{\sqrt{99}} = 0.1005 = \gamma" in lines[1]
    assert r",\ \dots\}" in lines[0]  # 99 members: the first 12 listed
    assert lines[1].count("$") == 2 and "since k = 99 is odd" in lines[1]


def test_the_summary_writes_counts_and_shares_plainly(big):
    text = ex.summary(big)
    assert re.fullmatch(
        r"\*\*M = [\d,]+\*\* mistakes in 2,000 days \(the last on day [\d,]+\): \d+% of the "
        r"bound n·k = 9,900\.",
        text,
    ), text


def test_the_days_table_writes_w_dot_x_as_text_with_the_minus_sign():
    run = simulate_experts(n=25, k=5, days=500, behaviour="adversarial", seed=0)
    table = ex.days_table(run)
    values = table["w·x"]
    assert all(isinstance(v, str) for v in values)
    a = np.einsum("ij,ij->i", run.weights[:30], run.predictions[:30])
    # as text, exactly: w and x hold small integers, so every way of summing gives the same w·x
    assert values == [f"{v:g}".replace("-", "−") for v in a]
    assert any(v.startswith("−") for v in values)


def test_the_weights_come_in_two_figures_on_one_scale(big):
    days, final = ex.weights_figure(big), ex.final_weights_figure(big)
    assert days["layout"]["yaxis"]["range"] == final["layout"]["yaxis"]["range"]
    for fig in (days, final, ex.mistakes_figure(big)):
        assert [k for k in fig["layout"] if k.endswith("axis")] == ["xaxis", "yaxis"]
        for key in ("xaxis", "yaxis"):
            assert fig["layout"][key].items() >= AXIS.items()
    assert final["data"][0]["y"] == big.weights[-1].tolist()
    assert "bound n·k = 100 · 99 = 9,900" in [t["name"] for t in ex.mistakes_figure(big)["data"]]

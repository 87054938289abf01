"""The experts page through AppTest: the mistakes and the bound n·k come from the engine,
the derivation carries the instance's numbers, bad URLs give notices."""

import math
import re

import pytest
from apptest_helpers import assert_plain_numbers, markdown, metrics, open_app, open_page
from extremes import extreme_query
from streamlit.testing.v1 import AppTest

from perceptron_core import simulate_experts
from ui.look.numbers import number


def mistakes_shown(at: AppTest) -> str:
    """The mistakes tile, whose label names the days counted."""
    return next(v for k, v in metrics(at).items() if k.startswith("mistakes M in "))


def experts(query: dict[str, str] | None = None) -> AppTest:
    return open_page("pages/experts.py", query)


def test_default_run_shows_the_engines_mistakes_under_n_times_k():
    at = experts()
    run = simulate_experts(n=25, k=5, days=500, behaviour="random", seed=0)
    shown = metrics(at)
    assert shown["mistakes M in 500 days"] == str(run.n_mistakes)
    assert shown["bound n·k"] == "125"
    assert run.n_mistakes <= 125
    assert f"**M = {run.n_mistakes}** mistakes in 500 days" in markdown(at)
    assert f"analysts {', '.join(str(i + 1) for i in run.committee)}." in markdown(at)


def test_the_derivation_uses_the_instances_numbers():
    at = experts({"exp_n": "16", "exp_k": "7", "exp_seed": "3"})
    # a numbered list with inline formulas (they wrap on a phone; display formulas do not)
    latex = next(m.value for m in at.markdown if m.value.startswith("1. $u ="))
    assert not at.latex
    assert rf"\frac{{1}}{{\sqrt{{7}}}} = {1 / math.sqrt(7):.4g} = \gamma" in latex
    assert r"\sqrt{16} = 4 = D" in latex
    assert r"16 \cdot 7 = 112 = n\,k" in latex
    assert [line[:3] for line in latex.splitlines()] == ["1. ", "2. ", "3. ", "4. "]
    run = simulate_experts(n=16, k=7, days=500, seed=3)
    members = ", ".join(str(i + 1) for i in run.committee)
    assert rf"\{{{members}\}}" in latex
    # both lemmas hold at the end of the run, and the page says so with the numbers
    text = markdown(at)
    w = run.weights[-1]  # integers: ‖w‖² is exact however the page sums it
    assert f"Lemma 2: ‖w‖² ≤ M D²: {number(w @ w, 4)} ≤ " in text
    assert "✗" not in text


def test_the_adversary_makes_more_mistakes_and_still_stays_under_the_bound():
    at = experts({"exp_behaviour": "adversarial"})
    adversarial = int(mistakes_shown(at))
    run = simulate_experts(n=25, k=5, days=500, behaviour="adversarial", seed=0)
    assert adversarial == run.n_mistakes
    assert simulate_experts(n=25, k=5, days=500, seed=0).n_mistakes < adversarial <= 125
    at.segmented_control[0].set_value("random").run()
    assert int(mistakes_shown(at)) < adversarial


def test_lowering_n_below_k_shrinks_the_committee():
    at = experts({"exp_n": "20", "exp_k": "15"})
    at.slider(key="exp_n_w").set_value(10).run()
    assert not at.exception
    assert at.session_state["exp_k"] == 9
    assert metrics(at)["bound n·k"] == "90"


def test_a_committee_larger_than_n_or_even_gives_a_notice_not_an_exception():
    at = experts({"exp_n": "9", "exp_k": "11"})
    assert any("cannot be larger than n = 9" in i.value for i in at.info)
    assert metrics(at)["bound n·k"] == str(9 * 9)
    at = open_app(query={"exp_k": "4"})  # URL notices show on arrival
    assert any("exp_k" in w.value and "odd" in w.value for w in at.warning)
    at.switch_page("pages/experts.py").run()
    assert not at.exception and metrics(at)["bound n·k"] == "125"


def test_the_adversary_is_called_a_greedy_heuristic_with_the_engines_numbers():
    at = experts({"exp_behaviour": "adversarial"})
    notes = " ".join(markdown(at).split())
    assert "greedy heuristic" in notes
    assert "The adversary is the worst case" not in notes
    assert "It is not the worst case the theorem allows for" in notes
    # the numbers the text quotes: n = 25, k = 5, 500 days, seeds 0 to 9
    M = [
        simulate_experts(n=25, k=5, days=500, behaviour="adversarial", seed=s).n_mistakes
        for s in range(10)
    ]
    assert f"{min(M)} to {max(M)} of n·k = 125 over seeds 0 to 9" in notes
    assert max(M) < 125  # it does not reach n·k there
    # and the tiny instance the text names, where it does reach n·k
    assert simulate_experts(n=4, k=1, days=500, behaviour="adversarial").n_mistakes == 4


# --- plain numbers: what the page shows, never "e+", "−0.00" or a hyphen minus


def test_the_page_writes_plain_numbers():
    at = experts()
    run = simulate_experts(n=25, k=5, days=500, behaviour="random", seed=0)
    shown = assert_plain_numbers(at)
    assert metrics(at)["γ = 1/√k"] == "0.4472"
    assert f"**M = {run.n_mistakes}** mistakes in 500 days" in shown
    assert f"{round(100 * run.n_mistakes / 125)}% of the bound n·k = 125" in shown


@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
def test_the_page_writes_plain_numbers_at_the_extremes(largest):
    at = experts(extreme_query(largest))  # largest: 100 analysts, k = 99, 2,000 days
    shown = assert_plain_numbers(at)
    if largest:
        assert metrics(at)["bound n·k"] == "9,900"
        assert "in 2,000 days" in shown and "n·k = 100 · 99 = 9,900" in shown
        assert re.search(r"Lemma 2: ‖w‖² ≤ M D²: [\d,]+ ≤ [\d,]+ ✓", shown)


def test_one_of_a_thing_is_written_in_the_singular():
    query = {"exp_n": "3", "exp_k": "1", "exp_days": "10", "exp_seed": "3"}
    run = simulate_experts(n=3, k=1, days=10, seed=3)
    assert run.n_mistakes == 1 and list(run.committee) == [2]
    text = markdown(experts(query))
    assert "**M = 1** mistake in 10 days" in text
    assert "The committee is analyst 3." in text
    assert not re.search(r"(?<![\d.,])1 (?:mistakes|days|analysts)\b", text)

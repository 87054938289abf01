"""The proof page's pure parts: steps and points counted from 1, the theorem cards from a
start w0 ≠ 0, the titles and labels with a rate η, counts in the singular."""

import pytest

from perceptron_core import make_dataset, max_margin, proof_check, train
from ui.look.numbers import count
from ui.proof import figures as proof
from ui.proof.figures import BAD, OK


def four_points_check(**kwargs):
    """Seed 001's four points, bias on: (1, 2)+, (2, 1)+, (−1, −1)−, (−1, 1)−."""
    X, y = make_dataset("four_points")
    return proof_check(train(X, y, **kwargs), X, y, max_margin(X, y)), X, y


def test_seed_004s_rule_errs_first_on_x3_at_step_3_and_the_page_says_so():
    # predict +1 iff w·x >= 0: from w = 0 points 1 and 2 (+1) are right, x₃ = (−1, −1) is not
    c, X, y = four_points_check(rule="predict_ge")
    assert (int(c.t[0]), int(c.i[0])) == (2, 2)  # the engine's 0-based indices
    assert proof.mistake_caption(c, 1, X, y) == (
        f"Mistake k = 1 of {c.n_mistakes}: at step t = 3, on point i = 3: x₃ = (−1, −1), y = −1."
    )
    table = proof.claim2_table(c)
    assert table[["k", "step t", "point i"]].iloc[0].tolist() == [1, 3, 3]
    assert (table["step t"].to_numpy() == c.t + 1).all()
    assert (table["point i"].to_numpy() == c.i + 1).all()


def test_the_caption_names_the_point_and_its_label_from_the_same_row():
    c, X, y = four_points_check()  # y·(w·x) <= 0: w = 0 errs on point 1, (1, 2), labelled +1
    assert proof.mistake_caption(c, 1, X, y).endswith(
        "at step t = 1, on point i = 1: x₁ = (1, 2), y = +1."
    )
    k = c.n_mistakes
    t, i = int(c.t[-1]) + 1, int(c.i[-1]) + 1
    x = f"({X[i - 1, 0]:g}, {X[i - 1, 1]:g})".replace("-", "−")
    label = "+1" if y[i - 1] > 0 else "−1"
    assert proof.mistake_caption(c, k, X, y) == (
        f"Mistake k = {k} of {k}: at step t = {t}, on point i = {i}: x{'₀₁₂₃₄'[i]} = {x}, "
        f"y = {label}."
    )


def test_the_theorem_cards_hold_the_run_to_the_bound_only_from_zero():
    c, _, _ = four_points_check()
    general, unit = proof.theorem_latex(c, c.n_mistakes)
    for card in (general, unit):
        assert OK in card and f"M = {c.n_mistakes}" in card
    X, y = make_dataset("four_points")
    w0 = [0.1, -0.2, 0.3]
    c0 = proof_check(train(X, y, w0=w0), X, y, max_margin(X, y))
    assert not proof.from_zero(c0)
    for card in proof.theorem_latex(c0, c0.n_mistakes):
        assert OK not in card and BAD not in card and "M = " not in card
        assert r"\text{the bound from } w_0 = 0" in card
    assert f"= {proof.num(c0.bound)}" in proof.theorem_latex(c0, c0.n_mistakes)[0]


@pytest.mark.parametrize("eta", [1.0, 0.5])
def test_titles_and_labels_carry_eta_only_when_it_is_not_1(eta):
    c, _, _ = four_points_check(eta=eta)
    names = proof.labels(c)
    shown = [getattr(names, f) for f in names.__dataclass_fields__]
    if eta == 1.0:
        assert not [s for s in shown if "η" in s]
        assert names.lemma1 == "Lemma 1 (w·w* ≥ kγ)" and names.lemma2 == "Lemma 2 (‖w‖² ≤ kR²)"
    else:
        assert names.claim1_title == "1. Claim 1: w·w* grows by at least ηγ (η = 0.5)"
        assert names.claim2_title == "2. Claim 2: ‖w‖² grows by at most η²R² (η = 0.5)"
        assert names.claim1 == "Claim 1 (one step: gain ≥ ηγ)"
        assert names.lemma1 == "Lemma 1 (w·w* ≥ ηkγ)"
        assert names.claim2 == "Claim 2 (one step: gain ≤ η²R²)"
        assert names.lemma2 == "Lemma 2 (‖w‖² ≤ kη²R²)"
        assert names.lemma2_slack == "slack kη²R² − ‖w‖² ="


def test_counts_are_singular_for_one():
    assert count(1, "epoch") == "1 epoch"
    assert count(2, "epoch") == "2 epochs"
    assert count(0, "epoch") == "0 epochs"
    assert count(12_000, "epoch") == "12,000 epochs"

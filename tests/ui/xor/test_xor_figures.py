"""Pure figures of the Beyond linear page: points the feature map puts on one spot, lines
that coincide, and formulas short enough for a phone."""

import numpy as np

from perceptron_core import FEATURE_MAPS
from ui.xor.figures import (
    XOR_X,
    XOR_Y,
    coinciding,
    coinciding_note,
    coinciding_text,
    kernel_latex,
    remedies_figure,
)

PHI = FEATURE_MAPS["quadratic"].fn


def test_phi_puts_x_and_minus_x_on_one_spot():
    X = np.array([[0.5, -2.0], [3.0, 1.0], [-0.5, 2.0], [1.0, 1.0], [-3.0, -1.0], [2.0, 2.0]])
    groups = coinciding(PHI(X))
    assert [g.tolist() for g in groups] == [[0, 2], [1, 4]]  # x and −x; (1, 1) is alone
    assert coinciding(PHI(np.random.default_rng(1).normal(size=(50, 2)))) == []
    assert coinciding(PHI(np.zeros((0, 2)))) == []


def test_the_note_says_which_points_land_where_and_whether_labels_mix():
    note = coinciding_text(XOR_X, XOR_Y, PHI(XOR_X))
    assert note is not None and note.startswith("**4 points, 2 markers.**")
    assert "one label only" in note
    X = np.array([[1.0, 2.0], [-1.0, -2.0], [3.0, 1.0]])
    mixed = coinciding_text(X, np.array([1.0, -1.0, 1.0]), PHI(X))
    assert mixed is not None and "**3 points, 2 markers.**" in mixed
    assert "1 spot holds both labels, so no plane can separate" in mixed
    three = np.array([[1.0, 2.0], [-1.0, -2.0], [1.0, 2.0]])
    assert "(1, 2), (−1, −2) and (1, 2) all land on" in coinciding_text(
        three, np.ones(3), PHI(three)
    )


def test_the_remedies_note_counts_the_epochs_where_lines_meet():
    errors = {
        "plain": np.array([0.3, 0.1, 0.2, 0.1]),
        "pocket": np.array([0.3, 0.1, 0.1, 0.1]),
        "averaged": np.array([0.25, 0.1, 0.1, 0.1]),
    }
    note = coinciding_note(errors)
    assert note is not None
    assert "pocket and averaged in 3 of 4 epochs" in note
    assert "plain and pocket in 3 of 4 epochs" in note
    assert "plain and averaged in 2 of 4 epochs" in note
    apart = {k: v + 0.01 * i for i, (k, v) in enumerate(errors.items())}
    assert coinciding_note(apart) is None


def test_the_pocket_is_drawn_first_and_wide_the_averaged_last_and_dotted():
    errors = {k: np.full(5, 0.1) for k in ("plain", "pocket", "averaged")}
    data = remedies_figure(errors)["data"]
    assert [t["name"].split(" ")[0] for t in data] == ["pocket", "plain", "averaged"]
    assert data[0]["line"]["width"] > 2 * data[2]["line"]["width"]
    assert data[2]["line"]["dash"] == "dot"


def test_the_kernel_formula_is_on_lines_a_phone_can_hold():
    tex = kernel_latex(XOR_X)
    lines = tex.split(r"\\")
    assert len(lines) == 3
    assert "(-1,\\ -1)" in tex and "(-2)^2" in tex  # LaTeX's minus, drawn as a minus sign

"""The lecture's "scale x" setting: what each choice does to the run, said as it is.

Seed 000 assumes every x has length 1. Dividing every point by one number R changes no
mistake without the bias (w is divided by R too) and keeps separability with it; moving
each point to length 1 by its own factor makes another data set, whose γ, M and even
separability can change. The page's words say which is which, and when the scaling
breaks separability the warning blames the scaling, not the data.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import NotSeparableError, make_dataset, max_margin, train
from ui.app.state import SCALES, SETTINGS
from ui.compute.model import SCALE_HELP, SCALE_NAMES, RunSettings, record_run, scaled

SEEDS = range(12)


def test_every_choice_is_named_and_the_default_is_the_data_as_given():
    assert set(SCALE_NAMES) == set(SCALES) and SETTINGS["lec_scale"].default == "given"
    assert "÷ R" in SCALE_NAMES["radius"] and "÷ ‖x‖" in SCALE_NAMES["unit"]
    for words in ("W.L.O.G.", "no mistake changes", "separability can change", "γ, M"):
        assert words in SCALE_HELP, words


@pytest.mark.parametrize("seed", SEEDS)
def test_dividing_by_R_without_bias_changes_no_mistake(seed):
    """From w₀ = 0 without the bias: the same mistakes at the same steps on the same
    points, every point in the unit disc, and the same bound (R/γ)²."""
    X, y = make_dataset("separable", n=40, seed=seed)
    given = record_run(X, y, RunSettings(bias=False))
    by_r = record_run(X, y, RunSettings(bias=False, scale="radius"))
    margins = np.asarray(given.trace.steps.margin)
    if np.any((margins != 0) & (np.abs(margins) < 1e-9)):
        pytest.skip("a near-tie: the two runs may round it to different sides")
    np.testing.assert_array_equal(by_r.trace.mistake_steps, given.trace.mistake_steps)
    assert np.linalg.norm(by_r.X, axis=1).max() == pytest.approx(1.0)
    if given.mm is not None:
        assert by_r.mm is not None
        assert by_r.mm.bound == pytest.approx(given.mm.bound, rel=1e-6)


@pytest.mark.parametrize("seed", SEEDS)
def test_dividing_by_R_keeps_separability_with_the_bias(seed):
    X, y = make_dataset("separable", n=40, seed=seed)
    given = record_run(X, y, RunSettings())
    by_r = record_run(X, y, RunSettings(scale="radius"))
    assert (given.mm is None) == (by_r.mm is None)


def test_each_x_to_length_1_can_break_separability_and_the_warning_says_so():
    """Seed 19 of the sidebar's separable data: γ ≈ 0.35 as given, M = 3; each x ÷ ‖x‖
    with the bias leaves no line that separates. The reason names the scaling."""
    X, y = make_dataset("separable", n=40, seed=19)
    given = record_run(X, y, RunSettings())
    assert given.mm is not None and given.mm.gamma > 0.3
    unit = record_run(X, y, RunSettings(scale="unit"))
    with pytest.raises(NotSeparableError):
        max_margin(scaled(X, "unit"), y, bias=True)
    assert unit.mm is None and unit.reason is not None
    assert "Scaling each x to length 1 made these points non-separable" in unit.reason
    assert f"γ = {given.mm.gamma:.3g}" in unit.reason
    assert train(scaled(X, "unit"), y, max_epochs=50).n_mistakes > given.trace.n_mistakes


def test_data_that_are_not_separable_as_given_keep_the_data_s_reason():
    X, y = make_dataset("xor", n=40, seed=0)
    for scale in SCALES:
        run = record_run(X, y, RunSettings(scale=scale, max_epochs=5))
        assert run.mm is None and run.reason is not None
        assert "Scaling" not in run.reason

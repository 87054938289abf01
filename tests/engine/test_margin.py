"""max_margin(): exact (a KKT certificate), honest about non-separable data, and the theorem."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.optimize import nnls

from perceptron_core import NotSeparableError, augment, max_margin, proof_curves, train
from perceptron_core.datasets import make_dataset

from .data import noisy_stream, separable_stream


def kkt_residuals(X, y, mm):
    """How far w = w*/gamma is from solving min ||w||^2 s.t. y_i w.x_i >= 1 (KKT conditions)."""
    Z = y[:, None] * (augment(X) if mm.bias else X)
    w = mm.w_star / mm.gamma
    slack = Z @ w - 1.0  # primal feasibility: all >= 0
    active = slack < 1e-7  # complementary slackness: alpha_i = 0 unless z_i.w = 1
    # stationarity: w = sum over active i of alpha_i z_i, alpha_i >= 0
    _, resid = nnls(Z[active].T, w)
    return slack.min(), resid / np.linalg.norm(w)


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("bias", [True, False])
def test_solution_satisfies_the_kkt_conditions(seed, bias):
    X, y = separable_stream(seed, n=50, margin=0.05, offset=bias)
    mm = max_margin(X, y, bias=bias)
    min_slack, stationarity = kkt_residuals(X, y, mm)
    assert min_slack > -1e-9
    assert stationarity < 1e-7
    assert np.linalg.norm(mm.w_star) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_no_direction_has_a_larger_margin(seed):
    """Brute force over directions in the plane (no bias): gamma is the best min margin."""
    X, y = separable_stream(seed, n=40, offset=False)
    mm = max_margin(X, y, bias=False)
    angles = np.linspace(0, 2 * math.pi, 200_001)
    U = np.column_stack([np.cos(angles), np.sin(angles)])
    best = ((y[:, None] * X) @ U.T).min(axis=0).max()
    assert best <= mm.gamma + 1e-12
    assert best == pytest.approx(mm.gamma, abs=1e-3 * mm.radius)


def test_quantities_of_the_four_point_set():
    X, y = make_dataset("four_points")
    mm = max_margin(X, y, bias=False)
    # w* = (1, 0): margins 1, 2, 1, 1; R = |(1,2)| = sqrt 5; bound 5
    np.testing.assert_allclose(mm.w_star, [1.0, 0.0], atol=1e-9)
    assert mm.gamma == pytest.approx(1.0)
    assert mm.radius == pytest.approx(math.sqrt(5))
    assert mm.bound == pytest.approx(5.0)
    assert mm.support.tolist() == [0, 2, 3]


def test_bias_is_measured_in_the_augmented_space():
    X, y = make_dataset("four_points")
    mm = max_margin(X, y, bias=True)
    assert mm.w_star.shape == (3,)
    assert mm.radius == pytest.approx(math.sqrt(5 + 1))  # R of the points (x, 1)
    margins = y * (augment(X) @ mm.w_star)
    assert mm.gamma == pytest.approx(margins.min())


def test_scaling_the_data_leaves_the_bound_unchanged_without_bias():
    X, y = separable_stream(2, n=40, offset=False)
    a, b = max_margin(X, y, bias=False), max_margin(7.5 * X, y, bias=False)
    assert b.bound == pytest.approx(a.bound, rel=1e-9)
    assert b.gamma == pytest.approx(7.5 * a.gamma, rel=1e-9)


@pytest.mark.parametrize(
    ("X", "y", "bias", "message"),
    [
        ([[1, 1], [-1, -1], [1, -1], [-1, 1]], [-1, -1, 1, 1], True, "No line separates"),
        ([[0, 1], [2, 3], [2, 3]], [1, 1, -1], True, "Points 2 and 3 are at the same place"),
        ([[0, 0], [1, 1], [2, 0]], [1, -1, 1], False, "Point 0 is at the origin"),
        ([[0, 0], [0, 0]], [1, 1], False, "at the origin"),
        ([[0, 0], [0, 0]], [1, -1], True, "same place"),
        ([[1, 0], [-1, 0]], [1, 1], False, "No line through the origin"),
    ],
)
def test_not_separable_raises_with_a_reason(X, y, bias, message):
    with pytest.raises(NotSeparableError, match=message):
        max_margin(np.array(X, float), np.array(y, float), bias=bias)


def test_single_class_is_separable_with_bias():
    X = np.array([[1.0, 2.0], [-3.0, 0.5], [0.0, 0.0]])
    mm = max_margin(X, np.ones(3), bias=True)
    assert mm.gamma > 0
    assert (augment(X) @ mm.w_star >= mm.gamma - 1e-12).all()


def test_not_separable_error_is_a_value_error():
    assert issubclass(NotSeparableError, ValueError)


@pytest.mark.parametrize("seed", range(10))
def test_noisy_data_are_reported_not_separable(seed):
    X, y = noisy_stream(seed, n=200, noise=0.2)
    with pytest.raises(NotSeparableError):
        max_margin(X, y)


@st.composite
def separable_sets(draw):
    n = draw(st.integers(2, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    margin = draw(st.floats(0.02, 1.0))
    bias = draw(st.booleans())
    X, y = separable_stream(seed, n=n, margin=margin, offset=bias)
    scale = draw(st.floats(0.01, 100.0))
    return scale * X, y, bias


@given(data=separable_sets(), rule=st.sampled_from(["nonpositive", "predict_gt", "predict_ge"]))
def test_perceptron_convergence_theorem(data, rule):
    """From w0 = 0 with eta = 1: converges, M <= (R/gamma)^2, and both claims after each mistake."""
    X, y, bias = data
    mm = max_margin(X, y, bias=bias)
    # tiny data with bias can have a huge bound (the constant 1 dwarfs x): keep runs short
    assume(mm.bound <= 20_000)
    # every epoch before the last makes a mistake, so M <= bound means <= bound + 1 epochs
    trace = train(X, y, bias=bias, rule=rule, max_epochs=int(mm.bound) + 2)
    assert trace.converged
    assert trace.n_mistakes <= mm.bound * (1 + 1e-9)
    curves = proof_curves(trace, mm)
    k = np.arange(trace.n_mistakes + 1)
    tol = 1e-9 * (1 + k * mm.radius**2)
    assert (curves.w_dot_wstar >= k * mm.gamma - tol).all()  # Claim 1: w_k.w* >= k gamma
    assert (curves.w_norm_sq <= k * mm.radius**2 + tol).all()  # Claim 2: ||w_k||^2 <= k R^2

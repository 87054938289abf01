"""nonseparability_witness(): a valid Gordan certificate, and None exactly when max_margin works."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.optimize import nnls

from perceptron_core import NotSeparableError, augment, max_margin, nonseparability_witness
from perceptron_core.datasets import make_dataset

from .data import noisy_stream, separable_stream

XOR = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([-1.0, -1.0, 1.0, 1.0])


def combination_residual(P, z, *, convex):
    """min ||sum_j mu_j p_j - z|| over mu >= 0 (with sum mu = 1 when ``convex``), by NNLS."""
    A, b = P.T, np.asarray(z, float)
    if convex:  # a heavy row enforces sum mu = 1
        A = np.vstack([A, 1e3 * np.ones(len(P))])
        b = np.append(b, 1e3)
    return nnls(A, b)[1]


def separates(X, y, bias):
    try:
        max_margin(X, y, bias=bias)
    except NotSeparableError:
        return False
    return True


def assert_valid_witness(X, y, bias, wit):
    Xa = augment(X) if bias else X
    lam = wit.weights
    assert lam.shape == (len(y),) and wit.point.shape == (X.shape[1],) and wit.bias == bias
    assert (lam >= -1e-12).all()
    assert lam.sum() == pytest.approx(1.0, abs=1e-12)
    scale = max(1.0, np.abs(Xa).max())
    np.testing.assert_allclose((lam * y) @ Xa, 0.0, atol=1e-9 * scale)  # sum lambda_i y_i x~_i
    used = np.flatnonzero(lam > 1e-12)
    assert len(used) <= Xa.shape[1] + 1  # a basic solution: Caratheodory-sparse
    assert sorted([*wit.positives, *wit.negatives]) == used.tolist()
    assert (y[wit.positives] > 0).all() and (y[wit.negatives] < 0).all()
    P, N, z = X[wit.positives], X[wit.negatives], wit.point
    if bias:  # z is a convex combination of the positives used and of the negatives used
        assert lam[wit.positives].sum() == pytest.approx(0.5, abs=1e-9)
        assert combination_residual(P, z, convex=True) < 1e-9 * scale
        assert combination_residual(N, z, convex=True) < 1e-9 * scale
    elif len(P) and len(N):  # z is in the hull of the positives and the cone of the negatives
        assert combination_residual(P, z, convex=True) < 1e-9 * scale
        assert combination_residual(N, z, convex=False) < 1e-9 * scale
    else:  # one class alone sums to 0: the origin is the common point
        np.testing.assert_array_equal(z, 0.0)


def test_xor_corners_meet_at_the_centre_of_both_diagonals():
    wit = nonseparability_witness(XOR, XOR_Y)
    np.testing.assert_allclose(wit.weights, 0.25, atol=1e-12)
    np.testing.assert_allclose(wit.point, [0.0, 0.0], atol=1e-12)
    assert wit.positives.tolist() == [2, 3] and wit.negatives.tolist() == [0, 1]
    assert_valid_witness(XOR, XOR_Y, True, wit)


def test_xor_clusters_have_a_witness_inside_the_square():
    X, y = make_dataset("xor", n=80, seed=3, spread=0.2)
    wit = nonseparability_witness(X, y)
    assert_valid_witness(X, y, True, wit)
    assert np.abs(wit.point).max() < 1.0


@pytest.mark.parametrize("bias", [True, False])
def test_a_point_with_both_labels_is_its_own_witness(bias):
    # the line through the origin and (2, 3) has (0, 1) on one side and (1, 0) on the other,
    # so every witness puts all its weight on the duplicate
    X = np.array([[0.0, 1.0], [2.0, 3.0], [2.0, 3.0], [1.0, 0.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    wit = nonseparability_witness(X, y, bias=bias)
    np.testing.assert_allclose(wit.point, [2.0, 3.0], atol=1e-12)
    np.testing.assert_allclose(wit.weights, [0.0, 0.5, 0.5, 0.0], atol=1e-12)
    assert wit.positives.tolist() == [1] and wit.negatives.tolist() == [2]


def test_without_bias_two_opposite_points_of_one_class_meet_at_the_origin():
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0, -1.0])
    wit = nonseparability_witness(X, y, bias=False)
    assert wit.positives.tolist() == [0, 1] and wit.negatives.size == 0
    np.testing.assert_array_equal(wit.point, [0.0, 0.0])
    assert_valid_witness(X, y, False, wit)


def test_without_bias_a_point_at_the_origin_is_a_witness():
    for X in ([[0.0, 0.0], [1.0, 1.0]], [[0.0, 0.0], [0.0, 0.0]]):
        wit = nonseparability_witness(X, [1.0, 1.0], bias=False)
        assert wit.weights.tolist() == [1.0, 0.0]
        np.testing.assert_array_equal(wit.point, [0.0, 0.0])


@st.composite
def datasets(draw):
    """Random labels on random or integer points (degenerate: duplicates, collinear), noisy
    streams and separable streams, with or without bias."""
    kind = draw(st.sampled_from(["uniform", "grid", "noisy", "separable"]))
    n = draw(st.integers(1 if kind == "grid" else 4, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    bias = draw(st.booleans())
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        X, y = rng.uniform(-3, 3, (n, 2)), rng.choice([-1.0, 1.0], n)
    elif kind == "grid":
        d = draw(st.integers(1, 3))
        X, y = rng.integers(-2, 3, (n, d)).astype(float), rng.choice([-1.0, 1.0], n)
    elif kind == "noisy":
        X, y = noisy_stream(seed % 2**31, n=n, noise=0.3)
    else:
        X, y = separable_stream(seed, n=n, margin=0.05, offset=bias)
    return X, y, bias


@given(data=datasets())
def test_witness_is_none_exactly_when_max_margin_succeeds(data):
    X, y, bias = data
    wit = nonseparability_witness(X, y, bias=bias)
    assert (wit is None) == separates(X, y, bias)
    if wit is not None:
        assert_valid_witness(X, y, bias, wit)


@given(data=datasets())
def test_witness_of_random_non_separable_sets_is_valid(data):
    X, y, bias = data
    wit = nonseparability_witness(X, y, bias=bias)
    assume(wit is not None)
    assert_valid_witness(X, y, bias, wit)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("bias", [True, False])
def test_noisy_data_have_a_witness_and_separable_data_none(seed, bias):
    X, y = noisy_stream(seed, n=200, noise=0.2)
    assert_valid_witness(X, y, bias, nonseparability_witness(X, y, bias=bias))
    X, y = separable_stream(seed, n=200, offset=bias)
    assert nonseparability_witness(X, y, bias=bias) is None


def test_witness_arrays_are_read_only():
    wit = nonseparability_witness(XOR, XOR_Y)
    with pytest.raises(ValueError, match="read-only"):
        wit.weights[0] = 1.0


@pytest.mark.parametrize(
    ("X", "y", "match"),
    [
        ([1.0, 2.0], [1.0], "X must be a 2-D array"),
        ([[1.0, 2.0]], [0.0], "labels y must be -1 or"),
        ([[1.0, 2.0]], [1.0, -1.0], r"y must have shape \(1,\)"),
        ([[np.nan, 2.0]], [1.0], "X contains NaN"),
    ],
)
def test_malformed_data_are_refused_naming_the_parameter(X, y, match):
    with pytest.raises(ValueError, match=match):
        nonseparability_witness(X, y)

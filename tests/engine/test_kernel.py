"""The kernel perceptron: the same run as the perceptron on the explicit quadratic features."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron_core import (
    RULES,
    KernelTrace,
    decision,
    kernel_decision,
    kernel_train,
    poly2_kernel,
    train,
)
from perceptron_core.datasets import make_dataset
from perceptron_core.features import quadratic

from .data import noisy_stream

XOR = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([-1.0, -1.0, 1.0, 1.0])


def lifted(X, bias):
    """phi~(x) = (x1^2, sqrt2 x1 x2, x2^2, 1), the features the kernel stands for."""
    Z = quadratic(X)
    return np.column_stack([Z, np.ones(len(Z))]) if bias else Z


@given(
    A=st.lists(st.tuples(*[st.floats(-100, 100)] * 2), min_size=1, max_size=8),
    B=st.lists(st.tuples(*[st.floats(-100, 100)] * 2), min_size=1, max_size=8),
    bias=st.booleans(),
)
def test_kernel_is_the_dot_product_of_the_lifted_points(A, B, bias):
    A, B = np.array(A), np.array(B)
    K = poly2_kernel(A, B, bias=bias)
    explicit = lifted(A, bias) @ lifted(B, bias).T  # phi(a).phi(b) = (a.b)^2
    assert K.shape == (len(A), len(B))
    scale = 1.0 + (np.abs(A).max() * np.abs(B).max()) ** 2
    np.testing.assert_allclose(K, explicit, rtol=1e-12, atol=1e-12 * scale)


def test_kernel_on_the_xor_corners():
    # (a.b) is +-2 on equal / opposite corners and 0 across: K = 4 + 1 or 0 + 1
    K = poly2_kernel(XOR, XOR)
    np.testing.assert_array_equal(K, [[5, 5, 1, 1], [5, 5, 1, 1], [1, 1, 5, 5], [1, 1, 5, 5]])


@st.composite
def runs(draw):
    """Data separable after lifting (circles, XOR clusters) or not (noisy), and settings."""
    kind = draw(st.sampled_from(["circles", "xor", "noisy"]))
    n = draw(st.integers(4, 60))
    seed = draw(st.integers(0, 2**31 - 1))
    if kind == "noisy":
        X, y = noisy_stream(seed, n=n, noise=0.2)
    else:
        X, y = make_dataset(kind, n=max(n, 8), seed=seed)
    return X, y, draw(st.booleans()), draw(st.sampled_from(sorted(RULES)))


@given(run=runs())
def test_same_mistakes_and_decisions_as_the_explicit_feature_map(run):
    X, y, bias, rule = run
    kt = kernel_train(X, y, bias=bias, rule=rule, max_epochs=40)
    trace = train(quadratic(X), y, bias=bias, rule=rule, max_epochs=40)
    # the same mistakes although the activations are summed differently (a Gram matrix from
    # BLAS, w·φ(x) in train's loop): rounding flips only an activation within ~1e-16
    # (relative) of 0, which random sets do not have; at w = 0 both are exactly 0
    np.testing.assert_array_equal(kt.mistake_steps, trace.mistake_steps)
    assert (kt.converged, kt.n_epochs, kt.bias) == (trace.converged, trace.n_epochs, bias)
    np.testing.assert_array_equal(
        kt.alpha, np.bincount(trace.mistake_steps[:, 1], minlength=len(y))
    )
    assert kt.alpha.sum() == kt.n_mistakes
    grid = np.random.default_rng(0).uniform(-3, 3, (50, 2))
    for P in (X, grid):
        want = decision(trace.w, quadratic(P), bias=bias)
        got = kernel_decision(kt, X, y, P)
        scale = 1.0 + np.abs(want).max()
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9 * scale)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("dataset", ["xor", "circles"])
def test_separable_after_lifting_converges_and_classifies_the_training_set(seed, dataset):
    X, y = make_dataset(dataset, n=80, seed=seed)
    kt = kernel_train(X, y, max_epochs=10_000)
    assert kt.converged
    assert (y * kernel_decision(kt, X, y, X) > 0).all()


@pytest.mark.parametrize("rule", ["nonpositive", "predict_gt", "predict_ge"])
def test_xor_corners_converge_in_the_lifted_space(rule):
    kt = kernel_train(XOR, XOR_Y, rule=rule)
    assert isinstance(kt, KernelTrace) and kt.converged and kt.n_mistakes == 2
    f = kernel_decision(kt, XOR, XOR_Y, XOR)
    np.testing.assert_array_equal(np.sign(f), XOR_Y)  # the corners all on the right side
    # the same as the explicit map (with bias the activations here are never ties but w = 0)
    trace = train(quadratic(XOR), XOR_Y, rule=rule)
    np.testing.assert_array_equal(kt.mistake_steps, trace.mistake_steps)
    np.testing.assert_allclose(f, decision(trace.w, quadratic(XOR)), atol=1e-12)


def test_negative_rule_never_moves_from_zero():
    kt = kernel_train(XOR, XOR_Y, rule="negative")
    assert kt.converged and kt.n_mistakes == 0 and kt.n_epochs == 1
    np.testing.assert_array_equal(kernel_decision(kt, XOR, XOR_Y, XOR), 0.0)


def test_noisy_data_stop_after_max_epochs():
    X, y = noisy_stream(0, n=100, noise=0.2)
    kt = kernel_train(X, y, max_epochs=7)
    assert not kt.converged and kt.n_epochs == 7
    assert (kt.mistake_steps[:, 0] < 7 * 100).all()
    assert (kt.mistake_steps[:, 1] == kt.mistake_steps[:, 0] % 100).all()  # the given order


def test_outputs_are_read_only():
    kt = kernel_train(XOR, XOR_Y)
    with pytest.raises(ValueError, match="read-only"):
        kt.alpha[0] = 3


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: kernel_train([[1.0, 2.0]], [2.0]), "labels y must be -1 or"),
        (lambda: kernel_train(XOR, XOR_Y, max_epochs=0), "max_epochs"),
        (lambda: kernel_train(XOR, XOR_Y, rule="sometimes"), "rule must be one of"),
        (lambda: kernel_train(np.zeros((5001, 2)), np.ones(5001)), "at most 5000"),
        (lambda: poly2_kernel([1.0, 2.0], XOR), "A must be"),
        (lambda: poly2_kernel(XOR, np.zeros((2, 3))), "B must have 2 columns"),
        (lambda: kernel_decision(kernel_train(XOR, XOR_Y), XOR[:3], XOR_Y[:3], XOR), "X_train"),
        (lambda: kernel_decision(kernel_train(XOR, XOR_Y), XOR, XOR_Y, [[1.0]]), "X must have 2"),
    ],
)
def test_malformed_input_is_refused_naming_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()

"""The perceptron as SGD (seeds 000, 002): E_p, the losses of the margin, mini-batches, and the
learning rate that does not matter from w0 = 0."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron_core import (
    LOSSES,
    RULES,
    loss_step,
    make_dataset,
    margin_loss,
    max_margin,
    minibatch_train,
    perceptron_criterion,
    train,
)

from .data import noisy_stream, separable_stream

STREAMS = [("separable", s) for s in range(6)] + [("noisy", s) for s in range(6)]


def stream(kind, seed, **kw):
    return separable_stream(seed, **kw) if kind == "separable" else noisy_stream(seed, **kw)


def criterion_by_hand(w, X, y, rule):
    """Seed 002 literally: E_p(w) = -sum over the misclassified set M of y_i w.x_i."""
    total = 0.0
    for xi, yi in zip(X, y, strict=True):
        a = sum(wj * xj for wj, xj in zip(w, xi, strict=True))
        tie = RULES[rule].tie_pos if yi > 0 else RULES[rule].tie_neg
        if yi * a < 0 or (a == 0 and tie):
            total -= yi * a
    return total


def minibatch_by_hand(X, y, b, *, epochs, eta=1.0, w0=None, average=False):
    """Seed 000's mini-batch rule with seed 002's E_p, in plain Python: every batch is
    judged by the w it starts with, then w moves once by eta * (sum of y x over its mistakes)."""
    n, d = len(y), len(X[0])
    w = [0.0] * d if w0 is None else [float(v) for v in w0]
    ws, per_epoch = [list(w)], []
    for _ in range(epochs):
        made = 0
        for s in range(0, n, b):
            batch = range(s, min(s + b, n))
            wrong = [i for i in batch if y[i] * sum(w[j] * X[i][j] for j in range(d)) <= 0]
            if wrong:
                scale = eta / len(batch) if average else eta
                w = [w[j] + scale * sum(y[i] * X[i][j] for i in wrong) for j in range(d)]
                ws.append(list(w))
            made += len(wrong)
        per_epoch.append(made)
        if made == 0:
            break
    return ws, per_epoch


# --- E_p ------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", sorted(RULES))
@pytest.mark.parametrize("bias", [True, False])
def test_criterion_is_minus_the_sum_of_margins_over_the_misclassified_set(rule, bias):
    X, y = noisy_stream(3, n=30)
    Xa = np.hstack([X, np.ones((30, 1))]) if bias else X
    W = np.random.default_rng(0).normal(size=(50, Xa.shape[1]))
    W[0] = 0.0  # every point is a tie at w = 0
    got = perceptron_criterion(W, X, y, bias=bias)
    want = [criterion_by_hand(w, Xa, y, rule) for w in W]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@given(
    st.integers(0, 50),
    st.floats(0.0, 100.0, allow_nan=False),
    st.lists(st.floats(-5, 5), min_size=2, max_size=2),
)
def test_criterion_is_positively_homogeneous(seed, c, w):
    X, y = noisy_stream(seed, n=20)
    W = np.array([w, [c * w[0], c * w[1]]])
    e = perceptron_criterion(W, X, y, bias=False)
    assert e[1] == pytest.approx(c * e[0], rel=1e-9, abs=1e-9)


def test_criterion_is_zero_exactly_on_separators_and_at_the_origin():
    X, y = make_dataset("four_points")
    w_star = max_margin(X, y, bias=False).w_star
    e = perceptron_criterion([w_star, [0.0, 0.0], -w_star, [1.0, -1.0]], X, y, bias=False)
    assert e[0] == 0.0 and e[1] == 0.0
    assert e[2] > 0 and e[3] > 0


def test_on_xor_every_nonzero_w_has_positive_criterion():
    X, y = make_dataset("xor", n=40, seed=1)
    angles = np.linspace(0, 2 * np.pi, 360, endpoint=False)
    W = np.column_stack([np.cos(angles), np.sin(angles)])
    assert (perceptron_criterion(W, X, y, bias=False) > 0).all()


def test_criterion_evaluates_a_large_grid_in_chunks():
    X, y = noisy_stream(1, n=300)
    g = np.linspace(-4, 4, 120)
    W = np.array([(a, b) for a in g for b in g])  # 14,400 x 300 margins: several chunks
    e = perceptron_criterion(W, X, y, bias=False)
    assert e.shape == (len(W),)
    for k in (0, 7_000, len(W) - 1):
        assert e[k] == pytest.approx(criterion_by_hand(W[k], X, y, "nonpositive"))


def test_criterion_refuses_weights_of_the_wrong_size():
    X, y = make_dataset("four_points")
    with pytest.raises(ValueError, match=r"W must have shape \(g, 3\)"):
        perceptron_criterion([[1.0, 2.0]], X, y, bias=True)
    with pytest.raises(ValueError, match="finite"):
        perceptron_criterion([[np.nan, 2.0]], X, y, bias=False)


# --- losses of the margin ---------------------------------------------------------------


def test_losses_are_the_seeds_formulas_at_a_few_margins():
    z = np.array([-2.0, 0.0, 0.5, 1.0, 3.0])
    np.testing.assert_array_equal(margin_loss("zero_one", z), [1, 1, 0, 0, 0])
    np.testing.assert_array_equal(margin_loss("perceptron", z), [2, 0, 0, 0, 0])
    np.testing.assert_array_equal(margin_loss("hinge", z), [3, 1, 0.5, 0, 0])
    np.testing.assert_allclose(margin_loss("logistic", z), np.log1p(np.exp(-z)))
    np.testing.assert_array_equal(margin_loss("squared", z), (1 - z) ** 2)


@given(st.floats(-30, 30), st.sampled_from(["perceptron", "hinge", "logistic", "squared"]))
def test_the_step_is_minus_the_derivative_of_the_loss(z, key):
    if key in ("perceptron", "hinge"):  # away from the kink, where the subgradient is a choice
        kink = 0.0 if key == "perceptron" else 1.0
        if abs(z - kink) < 1e-3:
            z += 0.01
    h = 1e-6
    numeric = -(margin_loss(key, z + h) - margin_loss(key, z - h)) / (2 * h)
    assert float(loss_step(key, z)) == pytest.approx(float(numeric), abs=1e-5)


def test_the_squared_loss_is_seed_000s_regression_loss_for_labels_pm1():
    rng = np.random.default_rng(0)
    w, X = rng.normal(size=2), rng.normal(size=(20, 2))
    y = rng.choice([-1.0, 1.0], 20)
    np.testing.assert_allclose(margin_loss("squared", y * (X @ w)), (X @ w - y) ** 2)


def test_logistic_loss_does_not_overflow_far_from_the_boundary():
    z = np.array([-1000.0, 1000.0])
    assert np.isfinite(margin_loss("logistic", z)).all()
    np.testing.assert_allclose(margin_loss("logistic", z), [1000.0, 0.0])
    np.testing.assert_allclose(loss_step("logistic", z), [1.0, 0.0])


def test_the_perceptron_step_of_one_example_is_the_perceptron_update():
    """SGD on max(0, -z) at a mistake adds eta * y * x, and nothing otherwise (seed 000)."""
    x, w = np.array([1.0, 2.0]), np.array([-1.0, 0.0])
    for yi in (1.0, -1.0):
        z = yi * w @ x
        new = w + 0.5 * loss_step("perceptron", z) * yi * x
        expected = w + 0.5 * yi * x if z <= 0 else w
        np.testing.assert_array_equal(new, expected)
    assert set(LOSSES) == {"zero_one", "perceptron", "hinge", "logistic", "squared"}


def test_an_unknown_loss_is_refused_by_name():
    with pytest.raises(ValueError, match="loss must be one of"):
        margin_loss("cubic", 0.0)


# --- mini-batches -------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "seed"), STREAMS)
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shuffle", [False, True])
def test_online_minibatch_gives_exactly_trains_weights(kind, seed, bias, shuffle):
    X, y = stream(kind, seed)
    w0 = np.random.default_rng(seed).normal(size=3 if bias else 2) if seed % 2 else None
    eta = [1.0, 0.5, 3.0][seed % 3]
    order = seed if shuffle else None
    rule = sorted(RULES)[seed % 4]
    online = minibatch_train(
        X, y, batch_size=1, bias=bias, max_epochs=20, w0=w0, eta=eta, seed=order, rule=rule
    )
    trace = train(X, y, bias=bias, max_epochs=20, w0=w0, eta=eta, seed=order, rule=rule)
    np.testing.assert_array_equal(online.weights, trace.weights)
    assert online.converged == trace.converged and online.n_epochs == trace.n_epochs
    per_epoch = np.bincount(trace.mistake_steps[:, 0] // len(y), minlength=trace.n_epochs)
    np.testing.assert_array_equal(online.mistakes_per_epoch, per_epoch)
    np.testing.assert_array_equal(online.updates_per_epoch, per_epoch)
    assert online.n_updates == online.n_mistakes == trace.n_mistakes


@pytest.mark.parametrize("b", [2, 3, 7, 25, 60])
@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_minibatch_matches_the_rule_written_out(b, average, seed):
    X, y = noisy_stream(seed, n=60)
    w0 = [0.5, -1.0] if seed % 2 else None
    run = minibatch_train(
        X, y, batch_size=b, bias=False, max_epochs=15, w0=w0, eta=0.7, average=average
    )
    ws, per_epoch = minibatch_by_hand(
        X.tolist(), y.tolist(), b, epochs=15, eta=0.7, w0=w0, average=average
    )
    np.testing.assert_allclose(run.weights, ws, rtol=1e-12, atol=1e-12)
    assert run.mistakes_per_epoch.tolist() == per_epoch
    assert run.updates_per_epoch.max() <= run.batches_per_epoch
    assert (run.update_mistakes >= 1).all() and run.update_mistakes.sum() == run.n_mistakes


@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_a_batch_of_one_matches_the_rule_written_out(average, seed):
    """b = 1 reads train's compiled loop: the same weights and counts as the batch rule."""
    X, y = noisy_stream(seed, n=60)
    w0 = [0.5, -1.0] if seed % 2 else None
    run = minibatch_train(
        X, y, batch_size=1, bias=False, max_epochs=15, w0=w0, eta=0.7, average=average
    )
    ws, per_epoch = minibatch_by_hand(
        X.tolist(), y.tolist(), 1, epochs=15, eta=0.7, w0=w0, average=average
    )
    np.testing.assert_allclose(run.weights, ws, rtol=1e-12, atol=1e-12)
    assert run.mistakes_per_epoch.tolist() == per_epoch == run.updates_per_epoch.tolist()
    assert run.batch_size == 1 and run.average == average and run.n_epochs == len(per_epoch)
    assert (run.update_mistakes == 1).all() and run.n_updates == run.n_mistakes
    assert np.array_equal(np.bincount(run.update_epochs, minlength=run.n_epochs), per_epoch)


def test_a_full_batch_step_is_minus_eta_times_the_gradient_of_the_criterion():
    X, y = noisy_stream(2, n=50)
    w0 = np.array([0.3, -0.8])
    run = minibatch_train(X, y, batch_size=len(y), bias=False, max_epochs=1, w0=w0, eta=0.25)
    assert run.n_updates == 1 and run.updates_per_epoch.tolist() == [1]
    h = 1e-6  # E_p is linear near w0 unless a point lies within h of the boundary
    grad = [
        (perceptron_criterion([w0 + h * e], X, y, bias=False)[0]
         - perceptron_criterion([w0 - h * e], X, y, bias=False)[0]) / (2 * h)
        for e in np.eye(2)
    ]  # fmt: skip
    np.testing.assert_allclose(run.weights[1], w0 - 0.25 * np.array(grad), atol=1e-6)


def test_batch_makes_at_most_one_update_per_pass_and_online_one_per_mistake():
    X, y = separable_stream(5, n=80, offset=False)
    batch = minibatch_train(X, y, batch_size=10_000, bias=False, max_epochs=200)
    online = minibatch_train(X, y, batch_size=1, bias=False, max_epochs=200)
    assert batch.batch_size == 80 and batch.batches_per_epoch == 1
    assert (batch.updates_per_epoch <= 1).all()
    assert batch.n_updates == batch.n_epochs - batch.converged
    assert online.n_updates == online.n_mistakes
    for run in (batch, online):  # both converge on data separable through the origin
        assert run.converged
        assert perceptron_criterion([run.w], X, y, bias=False)[0] == 0.0


def test_averaging_over_equal_batches_only_rescales_w_from_zero():
    X, y = noisy_stream(4, n=60)
    plain = minibatch_train(X, y, batch_size=6, bias=False, max_epochs=10)
    mean = minibatch_train(X, y, batch_size=6, bias=False, max_epochs=10, average=True)
    assert mean.mistakes_per_epoch.tolist() == plain.mistakes_per_epoch.tolist()
    np.testing.assert_allclose(mean.weights * 6, plain.weights, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"batch_size": 0}, "batch_size must be an integer >= 1"),
        ({"batch_size": 2, "max_epochs": 0}, "max_epochs"),
        ({"batch_size": 2, "eta": -1.0}, "eta"),
        ({"batch_size": 2, "w0": [1.0]}, "w0"),
        ({"batch_size": 2, "rule": "sometimes"}, "rule"),
    ],
)
def test_bad_parameters_are_refused_by_name(kwargs, message):
    X, y = make_dataset("four_points")
    with pytest.raises(ValueError, match=message):
        minibatch_train(X, y, **kwargs)


# --- the learning rate --------------------------------------------------------------------


@given(
    st.integers(0, 10_000),
    st.integers(-8, 8),
    st.booleans(),
    st.sampled_from(sorted(RULES)),
    st.integers(4, 40),
)
def test_from_zero_eta_only_scales_w_exactly_for_powers_of_two(seed, k, bias, rule, n):
    """From w0 = 0 every w is eta times the w of eta = 1, so the signs of w.x, the mistakes
    and the predictions are the same. Multiplying by 2^k is exact in floating point, so
    here the equality is bit for bit, on any data (ties w.x = 0 included)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, (n, 2)).astype(float) if seed % 2 else rng.normal(size=(n, 2))
    y = rng.choice([-1.0, 1.0], n)
    eta = 2.0**k
    one = train(X, y, bias=bias, max_epochs=15, rule=rule)
    scaled = train(X, y, bias=bias, max_epochs=15, eta=eta, rule=rule)
    np.testing.assert_array_equal(scaled.mistake_steps, one.mistake_steps)
    np.testing.assert_array_equal(scaled.weights, eta * one.weights)
    assert scaled.converged == one.converged


@given(st.integers(0, 10_000), st.sampled_from([0.1, 10.0, 0.37, 123.0]), st.booleans())
def test_from_zero_eta_gives_the_same_mistakes_on_real_valued_data(seed, eta, separable):
    """The page's 0.1, 1, 10 on data in general position (no exact ties w.x = 0): the same
    mistakes at the same steps, and w scaled by eta up to rounding."""
    X, y = separable_stream(seed, n=40) if separable else noisy_stream(seed, n=40)
    one = train(X, y, bias=False, max_epochs=20)
    other = train(X, y, bias=False, max_epochs=20, eta=eta)
    np.testing.assert_array_equal(other.mistake_steps, one.mistake_steps)
    np.testing.assert_allclose(other.weights, eta * one.weights, rtol=1e-9, atol=1e-9 * eta)


def test_from_a_nonzero_start_eta_changes_the_mistakes():
    """Seed 001's four points from w0 = (-1, 1): a small step is dominated by w0 and needs
    many mistakes, a large one forgets w0 at the first update."""
    X, y = make_dataset("four_points")
    runs = {eta: train(X, y, bias=False, w0=[-1.0, 1.0], eta=eta) for eta in (0.1, 1.0, 10.0)}
    counts = [runs[eta].n_mistakes for eta in (0.1, 1.0, 10.0)]
    assert len(set(counts)) == 3
    assert counts[0] > counts[1] > counts[2]
    assert all(r.converged for r in runs.values())
    w01, w10 = runs[0.1].w, runs[10.0].w  # different directions, not just lengths
    assert abs(w01 @ w10) < 0.999 * np.linalg.norm(w01) * np.linalg.norm(w10)


@given(st.integers(0, 1000), st.integers(1, 12), st.integers(-4, 4))
def test_minibatch_is_eta_invariant_from_zero_too(seed, b, k):
    X, y = noisy_stream(seed, n=30)
    one = minibatch_train(X, y, batch_size=b, bias=False, max_epochs=8)
    scaled = minibatch_train(X, y, batch_size=b, bias=False, max_epochs=8, eta=2.0**k)
    assert scaled.mistakes_per_epoch.tolist() == one.mistakes_per_epoch.tolist()
    # bit for bit: the same code on the same CPU, and scaling by 2^k commutes with rounding
    np.testing.assert_array_equal(scaled.weights, 2.0**k * one.weights)

"""Held-out errors per epoch and many runs over orders and starts, against step-by-step loops."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_core import averaged_weights, max_margin, predict, train, voted_predict
from perceptron_core.generalization import (
    METHODS,
    epoch_errors,
    flip_labels,
    holdout_split,
    many_runs,
)

from .data import noisy_stream, separable_stream


@given(
    n_pos=st.integers(1, 60),
    n_neg=st.integers(1, 60),
    fraction=st.floats(0.05, 0.95),
    seed=st.integers(0, 2**31 - 1),
)
@settings(max_examples=60, deadline=None)
def test_holdout_split_is_a_stratified_partition(n_pos, n_neg, fraction, seed):
    y = np.random.default_rng(seed).permutation(np.r_[np.ones(n_pos), -np.ones(n_neg)])
    tr, te = holdout_split(y, test_fraction=fraction, seed=seed)
    assert sorted(np.r_[tr, te].tolist()) == list(range(len(y)))
    for label, count in ((1, n_pos), (-1, n_neg)):
        in_test = int((y[te] == label).sum())
        if count >= 2:  # every class with two points is in both parts
            assert 1 <= in_test <= count - 1
            assert abs(in_test - fraction * count) <= max(1.0, 0.5 + 1e-9)
    again = holdout_split(y, test_fraction=fraction, seed=seed)
    assert all(np.array_equal(a, b) for a, b in zip((tr, te), again, strict=True))


def test_holdout_split_refuses_a_fraction_outside_0_1():
    with pytest.raises(ValueError, match="test_fraction"):
        holdout_split([1, -1, 1], test_fraction=1.0)


@given(n=st.integers(1, 200), fraction=st.floats(0, 1), seed=st.integers(0, 1000))
@settings(max_examples=50, deadline=None)
def test_flip_labels_flips_exactly_the_listed_labels(n, fraction, seed):
    y = np.where(np.arange(n) % 3 == 0, 1.0, -1.0)
    noisy, flipped = flip_labels(y, fraction=fraction, seed=seed)
    assert len(flipped) == round(fraction * n) == int((noisy != y).sum())
    np.testing.assert_array_equal(np.flatnonzero(noisy != y), flipped)


def test_flip_labels_refuses_a_fraction_above_1():
    with pytest.raises(ValueError, match="fraction"):
        flip_labels([1, -1], fraction=1.5)


def step_by_step(X, y, orders, epochs):
    """The perceptron (mistake iff y w.x <= 0, bias last) shown the given order each epoch,
    for all ``epochs`` epochs; returns w after every step, shape (epochs * n, d + 1)."""
    xs = np.hstack([X, np.ones((len(X), 1))])
    w = np.zeros(xs.shape[1])
    after = []
    for e in range(epochs):
        for i in orders[e % len(orders)]:
            if y[i] * (w @ xs[i]) <= 0:
                w = w + y[i] * xs[i]
            after.append(w.copy())
    return np.array(after)


def error(scores, y):
    return float((np.where(scores > 0, 1, -1) != y).mean())


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("noisy", [False, True])
@pytest.mark.parametrize("shuffle", [False, True])
def test_errors_per_epoch_match_a_step_by_step_loop(seed, noisy, shuffle):
    """Last: w after epoch e; averaged: the mean of w after each step; voted: every step's
    w votes sign(w.x), so w_k votes c_k times (seed 003). A converged run goes on unchanged."""
    X, y = (noisy_stream if noisy else separable_stream)(seed, n=30)
    Xt, yt = separable_stream(seed + 100, n=40)
    trace = train(X, y, max_epochs=6, seed=seed if shuffle else None, record_steps=True)
    epochs = 6 if not trace.converged else 9  # read a converged run past its end
    few = epoch_errors(trace, X, y, Xt, yt, epochs=2)  # the direct sum of counts
    got = epoch_errors(trace, X, y, Xt, yt, epochs=epochs)
    n = len(y)
    orders = trace.steps.index.reshape(-1, n)
    if trace.converged:  # after a clean pass nothing changes, in any order
        orders = np.vstack([orders, np.repeat(orders[-1:], epochs - len(orders), axis=0)])
    after = step_by_step(X, y, orders, epochs)
    for e in range(1, epochs + 1):
        W = after[: e * n]
        for data, split in (((X, y), got.train), ((Xt, yt), got.test)):
            Xa = np.hstack([data[0], np.ones((len(data[0]), 1))])
            expect = {
                "last": error(Xa @ W[-1], data[1]),
                "averaged": error(Xa @ W.mean(axis=0), data[1]),
                "voted": error(np.sign(Xa @ W.T).sum(axis=1), data[1]),
            }
            for m in METHODS:
                assert split[m][e - 1] == pytest.approx(expect[m], abs=1e-12), (m, e)
    for m in METHODS:  # the two ways of summing agree
        np.testing.assert_allclose(few.test[m], got.test[m][:2])
        np.testing.assert_allclose(few.train[m], got.train[m][:2])
    k = [trace.mistakes_before(e * n) for e in range(1, epochs + 1)]
    np.testing.assert_array_equal(got.n_vectors, np.array(k) + 1)


def test_errors_cannot_be_read_past_the_end_of_a_run_that_did_not_converge():
    X, y = noisy_stream(1, n=40, noise=0.2)
    trace = train(X, y, max_epochs=4)
    with pytest.raises(ValueError, match="epochs must be at most 4"):
        epoch_errors(trace, X, y, X, y, epochs=5)
    with pytest.raises(ValueError, match="X_train"):
        epoch_errors(trace, X[:10], y[:10], X, y)


def test_averaging_steadies_the_test_error_under_label_noise():
    """Seed 003: one late update can ruin the last w; the average hardly moves."""
    X, y = separable_stream(7, n=300)
    tr, te = holdout_split(y, seed=7)
    y_noisy, _ = flip_labels(y[tr], fraction=0.1, seed=7)
    trace = train(X[tr], y_noisy, max_epochs=30, seed=7)
    got = epoch_errors(trace, X[tr], y_noisy, X[te], y[te])
    last, avg = got.test["last"][10:], got.test["averaged"][10:]
    assert np.ptp(avg) < np.ptp(last)
    assert avg.mean() < last.mean()


def test_many_runs_are_the_seeded_runs_of_train():
    X, y = separable_stream(3, n=40)
    Xt, yt = separable_stream(4, n=30)
    got = many_runs(X, y, Xt, yt, runs=6, max_epochs=20, w0_norm=2.0, seed=11)
    for r in (0, 5):  # run r draws w0's direction, then the order seed, from rng((seed, r))
        rng = np.random.default_rng((11, r))
        u = rng.standard_normal(3)
        w0 = 2.0 * u / np.linalg.norm(u)
        trace = train(X, y, max_epochs=20, w0=w0, seed=int(rng.integers(2**31)))
        np.testing.assert_allclose(got.w0[r], w0)
        # exact: w0 is built with many_runs' own expression, so train gets the same bits
        np.testing.assert_array_equal(got.w[r], trace.w)
        assert got.n_mistakes[r] == trace.n_mistakes and got.converged[r] == trace.converged
        assert got.test_error["last"][r] == (predict(trace.w, Xt) != yt).mean()
        T = 20 * len(y)  # every read-out after max_epochs epochs, a converged run continued
        avg = averaged_weights(trace, steps=T)
        np.testing.assert_allclose(got.w_avg[r], avg)
        assert got.test_error["averaged"][r] == pytest.approx((predict(avg, Xt) != yt).mean())
        voted = voted_predict(trace, Xt, steps=T)
        assert got.test_error["voted"][r] == pytest.approx((voted != yt).mean())
    np.testing.assert_allclose(np.linalg.norm(got.w0, axis=1), 2.0)
    np.testing.assert_array_equal(got.n_vectors, got.n_mistakes + 1)
    # more runs only add runs: the first six are the same
    more = many_runs(X, y, Xt, yt, runs=9, max_epochs=20, w0_norm=2.0, seed=11)
    np.testing.assert_array_equal(more.w[:6], got.w)


def test_from_zero_only_the_order_differs_and_the_solutions_differ():
    """Seed 002: on separable data which solution is found depends on the start (and order)."""
    X, y = separable_stream(5, n=60)
    got = many_runs(X, y, X, y, runs=20, max_epochs=100, w0_norm=0.0, seed=0)
    assert not got.w0.any() and got.converged.all()
    assert (got.test_error["last"] == 0).all()  # every run separates its training set
    directions = got.w / np.linalg.norm(got.w, axis=1, keepdims=True)
    assert len(np.unique(directions.round(6), axis=0)) > 1


@given(seed=st.integers(0, 10_000), w0_norm=st.floats(0.0, 20.0))
@settings(max_examples=25, deadline=None)
def test_every_run_from_a_start_of_norm_r_keeps_below_the_bound_from_that_start(seed, w0_norm):
    """Seed 002's proof with w0 kept: M <= (R/γ)² + 2‖w0‖/γ, whatever w0's direction."""
    X, y = separable_stream(seed, n=25, margin=0.3)
    mm = max_margin(X, y)
    bound = mm.bound + 2 * w0_norm / mm.gamma
    got = many_runs(X, y, X, y, runs=5, max_epochs=int(bound) + 2, w0_norm=w0_norm, seed=seed)
    assert got.converged.all()
    assert (got.n_mistakes <= bound + 1e-9).all()


def errors_by_matrix(trace, ends, X, y):
    """Every w_k at every point, weighted by the counts c_k(T) of each read-out time T:
    the (T, K+1) @ (K+1, m) products written out (what the engine avoids forming)."""
    Xa = np.hstack([X, np.ones((len(X), 1))])
    A = trace.weights @ Xa.T  # (K+1, m)
    s = np.r_[0, trace.mistake_steps[:, 0]]
    k_now = np.searchsorted(trace.mistake_steps[:, 0], ends, side="left")
    C = np.zeros((len(ends), len(s)))
    for e, (k, T) in enumerate(zip(k_now, ends, strict=True)):
        C[e, :k] = np.diff(s[: k + 1])
        C[e, k] = T - s[k]
    wrong = {
        "last": A[k_now] > 0,
        "averaged": C @ A > 0,
        "voted": C @ np.sign(A) > 0,
    }
    return {m: (np.where(p, 1, -1) != y).mean(axis=1) for m, p in wrong.items()}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("pixels", [False, True])
def test_errors_per_epoch_equal_the_full_count_matrix_exactly(seed, pixels):
    """The running totals give the same errors, to the last bit, as forming every w_k . x:
    on the variants page's 2-D set and on 64 pixels in sixteenths (sums exact)."""
    rng = np.random.default_rng(seed)
    if pixels:  # digits-like: 64 pixels k/16, labelled by a hidden w (10% flipped below)
        X = rng.integers(0, 17, (300, 64)) / 16.0
        score = X @ rng.normal(size=64)
        y = np.where(score > np.median(score), 1.0, -1.0)
    else:
        X, y = separable_stream(seed, n=200)
    tr, te = holdout_split(y, seed=seed)
    y_train, _ = flip_labels(y[tr], fraction=0.1, seed=seed)
    trace = train(X[tr], y_train, max_epochs=30, seed=seed)
    got = epoch_errors(trace, X[tr], y_train, X[te], y[te], epochs=30)
    ends = np.arange(1, 31) * len(tr)
    for data, split in (((X[tr], y_train), got.train), ((X[te], y[te]), got.test)):
        expect = errors_by_matrix(trace, ends, *data)
        # exact: these are counts of signs; on the 2-D set the two ways of summing differ in
        # the last bits, but no score there lies within 1e-8 (relative) of 0
        for m in METHODS:
            np.testing.assert_array_equal(split[m], expect[m], err_msg=m)

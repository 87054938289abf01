"""Averaged, voted and pocket perceptrons against seed 003's algorithms written out literally."""

import numpy as np
import pytest

from perceptron_core import (
    augment,
    averaged_weights,
    mistakes,
    pocket,
    survival_counts,
    train,
    voted_predict,
)

from . import reference
from .data import noisy_stream, separable_stream


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("noisy", [False, True])
def test_averaged_and_voted_match_seed_003(seed, bias, noisy):
    X, y = (noisy_stream if noisy else separable_stream)(seed, n=40)
    trace = train(X, y, bias=bias, max_epochs=10)
    pairs, w_bar = reference.averaged_and_voted(X, y, bias=bias, epochs=10)
    np.testing.assert_array_equal(survival_counts(trace), [c for _, c in pairs])
    np.testing.assert_allclose(averaged_weights(trace) * trace.n_steps, w_bar, rtol=1e-12)
    Xt = np.random.default_rng(seed).uniform(-3, 3, (100, 2))
    Xa = augment(Xt) if bias else Xt
    votes = sum(c * np.sign(Xa @ np.array(w)) for w, c in pairs)
    np.testing.assert_array_equal(voted_predict(trace, Xt), np.where(votes > 0, 1, -1))


def test_survival_counts_add_up_to_the_steps():
    X, y = noisy_stream(1, n=50)
    trace = train(X, y, max_epochs=7, seed=3)
    c = survival_counts(trace)
    assert c.sum() == trace.n_steps and (c >= 0).all()
    assert c.shape == (trace.n_mistakes + 1,)


def test_pocket_keeps_the_weights_with_fewest_training_errors():
    X, y = noisy_stream(4, n=120, noise=0.15)
    trace = train(X, y, max_epochs=20)
    best = pocket(trace, X, y)
    errors = [int(mistakes(w, X, y).sum()) for w in trace.weights]
    assert best.errors.tolist() == errors
    assert best.k == int(np.argmin(errors))
    assert mistakes(best.w, X, y).sum() <= mistakes(trace.w, X, y).sum()


def test_pocket_on_separable_data_is_the_final_separator():
    X, y = separable_stream(2, n=60)
    trace = train(X, y)
    best = pocket(trace, X, y)
    assert best.errors[best.k] == 0
    np.testing.assert_array_equal(best.w, trace.w)

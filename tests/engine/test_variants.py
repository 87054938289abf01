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
    voted_score,
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


# --- read at any step, and past the end of a converged run (seed 003 runs all T epochs) ---


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("noisy", [False, True])
def test_reading_the_run_after_t_steps_matches_seed_003_run_for_t_steps(seed, noisy):
    """Stopping seed 003's loops after T steps gives the survival counts, average and vote
    read off the whole run with steps=T, also for T past the end of a converged run."""
    X, y = (noisy_stream if noisy else separable_stream)(seed, n=30)
    trace = train(X, y, max_epochs=12)
    n = len(y)
    Xt = np.random.default_rng(seed).uniform(-3, 3, (50, 2))
    for epochs in {1, 2, trace.n_epochs, 12}:
        if epochs > trace.n_epochs and not trace.converged:
            continue
        T = epochs * n
        pairs, w_bar = reference.averaged_and_voted(X, y, epochs=epochs, stop=False)
        counts = survival_counts(trace, steps=T)
        np.testing.assert_array_equal(counts[: len(pairs)], [c for _, c in pairs])
        assert not counts[len(pairs) :].any()  # the w_k made after step T have no vote
        assert survival_counts(trace, steps=T).sum() == T
        np.testing.assert_allclose(averaged_weights(trace, steps=T) * T, w_bar, rtol=1e-12)
        votes = sum(c * np.sign(augment(Xt) @ np.array(w)) for w, c in pairs)
        np.testing.assert_array_equal(voted_score(trace, Xt, steps=T), votes)


def test_a_run_that_did_not_converge_cannot_be_read_past_its_end():
    X, y = noisy_stream(0, n=40, noise=0.2)
    trace = train(X, y, max_epochs=3)
    assert not trace.converged
    with pytest.raises(ValueError, match="steps must be at most 120"):
        averaged_weights(trace, steps=121)
    with pytest.raises(ValueError, match="steps"):
        voted_predict(trace, X, steps=0)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("epochs", [1, 3, 8])
@pytest.mark.parametrize("noisy", [False, True])
def test_averaged_perceptron_equals_sklearn_sgd_with_averaging(seed, epochs, noisy):
    """sklearn's SGDClassifier(loss="perceptron", eta0=1, penalty=None, average=True) is
    the averaged perceptron: it updates iff y w.x <= 0 (our default rule), its intercept
    is the bias feature 1 (intercept_decay = 1 on dense data), and its average is the mean
    of w after every step. It always runs max_iter epochs (tol=None), so a run that
    converged earlier is read past its end with steps."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import SGDClassifier

    X, y = (noisy_stream if noisy else separable_stream)(seed, n=40)
    trace = train(X, y, max_epochs=epochs)
    common = {"loss": "perceptron", "learning_rate": "constant", "eta0": 1, "penalty": None}
    common |= {"shuffle": False, "tol": None, "max_iter": epochs}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        avg = SGDClassifier(average=True, **common).fit(X, y)
        last = SGDClassifier(average=False, **common).fit(X, y)
    T = epochs * len(y)
    np.testing.assert_allclose(
        averaged_weights(trace, steps=T), np.r_[avg.coef_[0], avg.intercept_], atol=1e-12
    )
    np.testing.assert_allclose(trace.w_before(T), np.r_[last.coef_[0], last.intercept_])

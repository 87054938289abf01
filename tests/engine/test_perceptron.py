"""train() against the handouts' loop, scikit-learn, and the examples the seeds work by hand."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron_core import RULES, max_margin, mistakes, train
from perceptron_core import perceptron as perceptron_module
from perceptron_core._kernel import scan
from perceptron_core.datasets import make_dataset

from . import reference
from .data import noisy_stream, separable_stream

STREAMS = [("separable", s) for s in range(8)] + [("noisy", s) for s in range(8)]


def stream(kind, seed, **kw):
    return separable_stream(seed, **kw) if kind == "separable" else noisy_stream(seed, **kw)


@pytest.fixture(params=["compiled", "python"])
def kernel(request, monkeypatch):
    """Run every test on both the numba-compiled loop and its plain-Python source."""
    if request.param == "python":
        monkeypatch.setattr(perceptron_module, "get_scan", lambda: scan)
    return request.param


@pytest.mark.parametrize(("kind", "seed"), STREAMS)
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("rule", sorted(RULES))
def test_same_weights_and_mistakes_as_the_reference_loop(kernel, kind, seed, bias, rule):
    X, y = stream(kind, seed)
    w0 = np.random.default_rng(seed).normal(size=3 if bias else 2) if seed % 2 else None
    eta = [1.0, 0.5, 3.0][seed % 3]
    trace = train(X, y, bias=bias, max_epochs=25, w0=w0, eta=eta, rule=rule)
    ws, where, converged = reference.perceptron(
        X, y, bias=bias, epochs=25, w0=w0, eta=eta, rule=rule
    )
    # Exact on purpose: the engine's loop (compiled or not) and the reference do the same
    # float operations in the same order (w.x summed left to right, w + (eta y) x; numba
    # fuses no FMA without fastmath), so the weights agree to the bit on any CPU.
    np.testing.assert_array_equal(trace.weights, np.array(ws))
    assert trace.mistake_steps.tolist() == [list(p) for p in where]
    assert trace.converged == converged
    assert trace.n_mistakes == len(where)


@pytest.mark.parametrize("seed", range(6))
def test_reshuffled_order_matches_reference_with_the_same_permutations(kernel, seed):
    X, y = noisy_stream(seed)
    trace = train(X, y, max_epochs=6, seed=seed, record_steps=True)
    rng = np.random.default_rng(seed)
    orders = [rng.permutation(len(y)) for _ in range(6)]
    ws, where, _ = reference.perceptron(X, y, epochs=6, orders=orders)
    np.testing.assert_array_equal(trace.weights, np.array(ws))  # the same operations: exact
    assert trace.mistake_steps.tolist() == [list(p) for p in where]
    per_epoch = trace.steps.index.reshape(trace.n_epochs, len(y))
    for order in per_epoch:  # every pass shows every example exactly once
        assert sorted(order.tolist()) == list(range(len(y)))


@pytest.mark.parametrize(("kind", "seed"), STREAMS)
@pytest.mark.parametrize("bias", [True, False])
def test_same_final_weights_as_scikit_learn(kind, seed, bias):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    X, y = stream(kind, seed, n=200)
    trace = train(X, y, bias=bias, max_epochs=30)
    clf = Perceptron(shuffle=False, tol=None, eta0=1.0, fit_intercept=bias, max_iter=30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(X, y)
    theirs = np.append(clf.coef_[0], clf.intercept_[0]) if bias else clf.coef_[0]
    np.testing.assert_allclose(trace.w, theirs, rtol=1e-12, atol=1e-12)


def test_four_point_set_of_seed_001_makes_two_mistakes_and_ends_at_2_1():
    X, y = make_dataset("four_points")
    trace = train(X, y, bias=False)
    assert trace.n_mistakes == 2
    np.testing.assert_array_equal(trace.w, [2.0, 1.0])
    # mistakes on (1,2)+ at step 0 (w = 0 errs) and on (-1,1)- at step 3
    assert trace.mistake_steps.tolist() == [[0, 0], [3, 3]]
    assert trace.converged and trace.n_epochs == 2


def test_xor_never_converges_and_runs_all_epochs(kernel):
    X, y = make_dataset("xor", n=4, spread=0.0)
    trace = train(X, y, max_epochs=200)
    assert not trace.converged
    assert trace.n_epochs == 200 and trace.n_steps == 800
    assert mistakes(trace.w, X, y).any()


def test_strict_rule_of_seed_002_never_leaves_zero():
    X, y = make_dataset("separable", n=30, seed=1)
    trace = train(X, y, rule="negative")
    assert trace.n_mistakes == 0
    assert trace.converged  # a pass with no mistake: y w.x = 0 is not a mistake here
    np.testing.assert_array_equal(trace.w, np.zeros(3))


def test_tie_rules_differ_only_at_zero_activation():
    X = np.array([[1.0, 0.0], [-1.0, 0.0]])
    first_pos = train(X, np.array([1.0, -1.0]), bias=False, max_epochs=1, rule="predict_gt")
    first_neg = train(X, np.array([-1.0, 1.0]), bias=False, max_epochs=1, rule="predict_gt")
    # at w = 0, "predict +1 iff w.x > 0" predicts -1: wrong on a +1, right on a -1
    assert first_pos.mistake_steps[0].tolist() == [0, 0]
    assert first_neg.mistake_steps[0].tolist() == [1, 1]
    ge = train(X, np.array([-1.0, 1.0]), bias=False, max_epochs=1, rule="predict_ge")
    assert ge.mistake_steps[0].tolist() == [0, 0]  # w.x >= 0 predicts +1: wrong on a -1


def test_recorded_steps_replay_the_run(kernel):
    X, y = noisy_stream(3, n=40)
    trace = train(X, y, max_epochs=5, seed=7, record_steps=True)
    s = trace.steps
    assert s.index.shape == s.margin.shape == s.mistake.shape == (trace.n_steps,)
    assert np.flatnonzero(s.mistake).tolist() == trace.mistake_steps[:, 0].tolist()
    Xa = np.hstack([X, np.ones((len(X), 1))])
    for t in range(trace.n_steps):
        i = s.index[t]
        assert s.margin[t] == pytest.approx(y[i] * trace.w_before(t) @ Xa[i], abs=1e-12)
        assert s.mistake[t] == (s.margin[t] <= 0)
    assert trace.w_before(trace.n_steps).tolist() == trace.w.tolist()


def test_same_seed_same_run_other_seed_other_order():
    X, y = noisy_stream(0, n=50)
    a = train(X, y, max_epochs=4, seed=11, record_steps=True)
    b = train(X, y, max_epochs=4, seed=11, record_steps=True)
    c = train(X, y, max_epochs=4, seed=12, record_steps=True)
    np.testing.assert_array_equal(a.weights, b.weights)
    assert a.steps.index.tolist() == b.steps.index.tolist()
    assert a.steps.index.tolist() != c.steps.index.tolist()


def test_converged_means_the_final_w_makes_no_mistake():
    for seed in range(10):
        X, y = separable_stream(seed, n=80)
        trace = train(X, y)
        assert trace.converged
        assert not mistakes(trace.w, X, y).any()


@given(seed=st.integers(0, 10_000), eta=st.floats(0.01, 100.0))
def test_learning_rate_only_scales_w_from_zero(seed, eta):
    X, y = separable_stream(seed, n=30, margin=0.2)
    one = train(X, y, max_epochs=50)
    scaled = train(X, y, max_epochs=50, eta=eta)
    assert scaled.mistake_steps.tolist() == one.mistake_steps.tolist()
    np.testing.assert_allclose(scaled.weights, eta * one.weights, rtol=1e-9, atol=1e-9)


def test_trace_memory_is_linear_in_mistakes_not_steps():
    X, y = separable_stream(5, n=100_000, margin=0.05)
    trace = train(X, y, max_epochs=3)
    assert trace.steps is None
    stored = trace.weights.nbytes + trace.mistake_steps.nbytes
    assert stored == (trace.n_mistakes + 1) * 3 * 8 + trace.n_mistakes * 2 * 8
    assert trace.n_mistakes < trace.n_steps / 100  # so far smaller than one row per step


def test_trace_arrays_are_read_only():
    X, y = make_dataset("four_points")
    trace = train(X, y)
    with pytest.raises(ValueError, match="read-only"):
        trace.weights[0, 0] = 5.0


def test_bound_of_max_margin_holds_for_the_four_points():
    X, y = make_dataset("four_points")
    for bias in (True, False):
        assert train(X, y, bias=bias).n_mistakes <= max_margin(X, y, bias=bias).bound


GOOD_X = np.array([[0.0, 1.0], [1.0, 0.0]])
GOOD_Y = np.array([1.0, -1.0])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"X": np.zeros(3)}, "X must be a 2-D array"),
        ({"X": np.zeros((0, 2)), "y": np.zeros(0)}, "X is empty"),
        ({"X": np.array([[0.0, np.nan], [1.0, 0.0]])}, "NaN or infinite"),
        ({"X": np.array([[0.0, np.inf], [1.0, 0.0]])}, "NaN or infinite"),
        ({"X": [["a", "b"], ["c", "d"]]}, "X must be a numeric array"),
        ({"y": np.array([1.0])}, r"y must have shape \(2,\)"),
        ({"y": np.array([1.0, 0.0])}, r"labels y must be -1 or \+1; got"),
        ({"y": np.array([1.0, 2.0])}, r"labels y must be -1 or \+1; got"),
        ({"max_epochs": 0}, "max_epochs must be an integer >= 1"),
        ({"max_epochs": 2.5}, "max_epochs must be an integer"),
        ({"eta": 0.0}, "eta must be a positive"),
        ({"eta": -1.0}, "eta must be a positive"),
        ({"eta": float("nan")}, "eta must be a positive"),
        ({"w0": [1.0, 2.0]}, r"w0 must have shape \(3,\)"),
        ({"w0": [1.0, np.nan, 0.0]}, "w0 must contain only finite"),
        ({"rule": "sometimes"}, "rule must be one of"),
        ({"seed": -3}, "seed must be an integer >= 0"),
    ],
)
def test_bad_input_raises_a_value_error_naming_the_problem(kwargs, message):
    args = {"X": GOOD_X, "y": GOOD_Y} | kwargs
    X, y = args.pop("X"), args.pop("y")
    with pytest.raises(ValueError, match=message):
        train(X, y, **args)

"""find_cycle() and epoch_mistakes() against a brute-force simulation of the run's states."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron_core import RULES, Cycle, epoch_mistakes, find_cycle, train
from perceptron_core.datasets import make_dataset

from . import reference
from .data import noisy_stream, separable_stream

XOR = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([-1.0, -1.0, 1.0, 1.0])


def brute_force_cycle(X, y, *, bias, steps, rule="nonpositive", eta=1.0, w0=None):
    """Simulate the run state by state, (tuple(w), t mod n) in a dict, for t = 0..steps.

    Returns (start, period, mistakes in the period, weights in force after each of them,
    starting with w at start) of the first recurrence, or None.
    """
    xs = [[float(v) for v in x] + ([1.0] if bias else []) for x in X]
    n = len(xs)
    w = [0.0] * len(xs[0]) if w0 is None else [float(v) for v in w0]
    seen, history = {}, []  # history[t]: (w before t, mistake at t?)
    for t in range(steps + 1):
        key = (tuple(w), t % n)  # -0.0 == 0.0 and they hash alike
        if key in seen:
            t1 = seen[key]
            made = [h[0] for h in history[t1:t] if h[1]]  # w before each mistake
            return t1, t - t1, len(made), made
        seen[key] = t
        if t == steps:
            return None
        i = t % n
        a = sum(wj * xj for wj, xj in zip(w, xs[i], strict=True))
        tie = reference.TIES[rule][0 if y[i] > 0 else 1]
        wrong = y[i] * a < 0 or (a == 0 and tie)
        history.append((list(w), wrong))
        if wrong:
            w = [wj + eta * y[i] * xj for wj, xj in zip(w, xs[i], strict=True)]
    return None  # pragma: no cover


def expected(trace, X, y, **kw):
    got = brute_force_cycle(X, y, bias=trace.bias, steps=trace.n_steps, rule=trace.rule, **kw)
    if got is None or got[2] == 0 or trace.converged:  # no recurrence, or a fixed point
        return None
    return got


def assert_matches(cycle, want, trace):
    if want is None:
        assert cycle is None
        return
    start, period, m, made = want
    assert isinstance(cycle, Cycle)
    assert (cycle.start, cycle.period, cycle.mistakes_per_period) == (start, period, m)
    assert cycle.period % trace.n_examples == 0
    # exact: the brute force repeats the engine's float operations in its order (as
    # reference.perceptron does), and a cycle is an exact recurrence of w
    np.testing.assert_array_equal(cycle.weights, np.array(made))
    for t in range(cycle.start, trace.n_steps - cycle.period + 1):  # the weights really repeat
        np.testing.assert_array_equal(trace.w_before(t), trace.w_before(t + cycle.period))


@pytest.mark.parametrize("perm", list(itertools.permutations(range(4))))
@pytest.mark.parametrize("rule", sorted(RULES))
@pytest.mark.parametrize("bias", [True, False])
def test_xor_corners_cycle_in_every_order(perm, rule, bias):
    X, y = XOR[list(perm)], XOR_Y[list(perm)]
    trace = train(X, y, bias=bias, rule=rule, max_epochs=30)
    cycle = find_cycle(trace)
    assert_matches(cycle, expected(trace, X, y), trace)
    if bias and rule != "negative":  # "negative" never moves from w = 0 and converges
        assert cycle is not None and cycle.mistakes_per_period > 0


def test_xor_corners_in_the_dataset_order():
    X, y = make_dataset("xor", n=4, seed=0, spread=0.0)
    trace = train(X, y, max_epochs=50)
    cycle = find_cycle(trace)
    assert cycle.start == 0 and cycle.period == 4 and cycle.mistakes_per_period == 4
    np.testing.assert_array_equal(cycle.weights[0], 0.0)  # w returns to 0 every epoch


@st.composite
def integer_runs(draw):
    """Small integer datasets (XOR-like clusters or random labels) and settings."""
    n = draw(st.integers(2, 9))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):
        which = rng.permutation(np.arange(n) % 4)
        X, y = XOR[which] + rng.integers(-1, 2, (n, 2)), XOR_Y[which]
    else:
        X, y = rng.integers(-3, 4, (n, 2)).astype(float), rng.choice([-1.0, 1.0], n)
    settings = {
        "bias": draw(st.booleans()),
        "rule": draw(st.sampled_from(sorted(RULES))),
        "eta": draw(st.sampled_from([1.0, 0.5, 2.0])),
        "w0": None,
    }
    if draw(st.booleans()):
        settings["w0"] = rng.integers(-2, 3, 3 if settings["bias"] else 2).astype(float)
    return X, y, settings, draw(st.integers(1, 60))


@given(run=integer_runs())
def test_same_cycle_as_brute_force_on_integer_data(run):
    X, y, kw, epochs = run
    trace = train(X, y, max_epochs=epochs, **kw)
    want = expected(trace, X, y, eta=kw["eta"], w0=kw["w0"])
    assert_matches(find_cycle(trace), want, trace)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("bias", [True, False])
def test_same_answer_as_brute_force_on_float_data(seed, bias):
    X, y = noisy_stream(seed, n=12, noise=0.3)
    trace = train(X, y, bias=bias, max_epochs=200)
    assert_matches(find_cycle(trace), expected(trace, X, y), trace)


@pytest.mark.parametrize("seed", range(6))
def test_a_converging_run_has_no_cycle(seed):
    X, y = separable_stream(seed, n=40)
    assert find_cycle(train(X, y, max_epochs=10_000)) is None
    assert find_cycle(train(X, y, max_epochs=1)) is None  # cut short: nothing recurs yet


def test_a_long_run_is_handled_quickly():
    X, y = make_dataset("xor", n=40, seed=1, spread=0.0)
    X = np.round(3 * X + np.random.default_rng(0).integers(-2, 3, X.shape))
    trace = train(X, y, max_epochs=5000)  # T = 200,000 steps
    assert trace.n_steps == 200_000
    cycle = find_cycle(trace)
    assert cycle.period % 40 == 0
    np.testing.assert_array_equal(
        trace.w_before(cycle.start), trace.w_before(cycle.start + cycle.period)
    )
    np.testing.assert_array_equal(
        trace.w_before(trace.n_steps - cycle.period), trace.w_before(trace.n_steps)
    )


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("noisy", [False, True])
def test_epoch_mistakes_match_the_reference_loop(seed, noisy):
    X, y = (noisy_stream if noisy else separable_stream)(seed, n=50)
    trace = train(X, y, max_epochs=30)
    _, where, _ = reference.perceptron(X, y, epochs=30)
    per_epoch = np.zeros(trace.n_epochs, dtype=int)
    for t, _i in where:
        per_epoch[t // len(y)] += 1
    counts = epoch_mistakes(trace)
    np.testing.assert_array_equal(counts, per_epoch)
    assert counts.sum() == trace.n_mistakes
    assert counts.shape == (trace.n_epochs,)
    if trace.converged:
        assert counts[-1] == 0
    else:
        assert (counts > 0).all()


def test_refuses_what_is_not_a_trace_or_a_reshuffled_run():
    with pytest.raises(ValueError, match="trace must be a Trace"):
        find_cycle("not a trace")
    with pytest.raises(ValueError, match="trace must be a Trace"):
        epoch_mistakes(None)
    trace = train(XOR, XOR_Y, max_epochs=5, seed=1, record_steps=True)
    with pytest.raises(ValueError, match="given order"):
        find_cycle(trace)

"""Seed 004's experts application: the committee is always right, the perceptron makes at
most n·k mistakes, and the adversary really fools it whenever the rules allow."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_core import EXPERT_BEHAVIOURS, simulate_experts, spam_features, word_counts
from perceptron_core.datasets import SPAM_EMAILS, SPAM_MORE_WORDS

from .reference import perceptron


@st.composite
def instances(draw):
    n = draw(st.integers(1, 40))
    k = draw(st.integers(0, (n - 1) // 2)) * 2 + 1  # odd, at most n
    days = draw(st.integers(1, 400))
    behaviour = draw(st.sampled_from(sorted(EXPERT_BEHAVIOURS)))
    seed = draw(st.integers(0, 2**31 - 1))
    return {"n": n, "k": k, "days": days, "behaviour": behaviour, "seed": seed}


@settings(max_examples=150, deadline=None)
@given(instances())
def test_mistakes_never_exceed_n_times_k(params):
    run = simulate_experts(**params)
    assert run.n_mistakes <= params["n"] * params["k"] == run.bound


@settings(max_examples=60, deadline=None)
@given(instances())
def test_the_committee_majority_is_always_right_so_u_has_margin_one_over_root_k(params):
    run = simulate_experts(**params)
    X, y, c = run.predictions, run.truth, run.committee
    assert X.shape == (params["days"], params["n"]) and set(np.unique(X)) <= {-1.0, 1.0}
    assert len(set(c.tolist())) == params["k"] == len(c)
    right = (X[:, c] == y[:, None]).sum(axis=1)
    assert (right > params["k"] / 2).all()
    # seed 004: ||x|| = sqrt(n) = D and y (x . u) >= 1/sqrt(k) = gamma, with ||u|| = 1
    assert np.allclose(np.linalg.norm(X, axis=1), math.sqrt(params["n"]))
    assert np.isclose(np.linalg.norm(run.u), 1.0)
    assert (run.margins >= 1 / math.sqrt(params["k"]) - 1e-12).all()


@settings(max_examples=60, deadline=None)
@given(instances())
def test_mistakes_and_weights_match_seed_004s_loop(params):
    run = simulate_experts(**params)
    ws, where, _ = perceptron(run.predictions, run.truth, bias=False, epochs=1, rule="predict_ge")
    days_wrong = [t for t, _ in where]
    assert np.flatnonzero(run.mistakes).tolist() == days_wrong
    assert run.weights.shape == (params["days"] + 1, params["n"])
    assert not run.weights[0].any()
    # after day t, w is the reference's w after the mistakes made up to day t
    made = np.cumsum(run.mistakes)
    for t in range(params["days"]):
        assert run.weights[t + 1].tolist() == ws[made[t]]


def _can_be_fooled(w, y, committee, n):
    """Brute force: is there any x in {-1, 1}^n with a right committee majority on which
    seed 004's perceptron (predict +1 iff w.x >= 0) is wrong?"""
    k = len(committee)
    for x in itertools.product((-1.0, 1.0), repeat=n):
        xa = np.array(x)
        if (xa[committee] == y).sum() > k / 2 and (float(w @ xa) >= 0) != (y > 0):
            return True
    return False


@pytest.mark.parametrize("seed", range(6))
def test_the_adversary_fools_the_perceptron_every_day_it_can(seed):
    n, k = 5 + seed % 2, 1 + 2 * (seed % 3)
    run = simulate_experts(n=n, k=k, days=60, behaviour="adversarial", seed=seed)
    for t in range(run.days):
        w, y = run.weights[t], run.truth[t]
        assert run.mistakes[t] == _can_be_fooled(w, y, run.committee, n), t


def test_the_adversary_gets_closer_to_the_bound_than_random_analysts():
    for seed in range(3):
        rand = simulate_experts(n=25, k=5, days=1000, behaviour="random", seed=seed)
        adv = simulate_experts(n=25, k=5, days=1000, behaviour="adversarial", seed=seed)
        assert rand.n_mistakes < adv.n_mistakes <= 125


def test_the_weights_concentrate_on_the_committee():
    run = simulate_experts(n=40, k=3, days=2000, behaviour="random", seed=3)
    w = run.weights[-1]
    outside = np.setdiff1d(np.arange(40), run.committee)
    assert w[run.committee].min() > np.abs(w[outside]).max()
    assert w @ run.u / np.linalg.norm(w) > 0.8


def test_same_seed_same_run_and_the_arrays_are_read_only():
    a = simulate_experts(n=10, k=3, days=50, seed=7)
    b = simulate_experts(n=10, k=3, days=50, seed=7)
    assert np.array_equal(a.predictions, b.predictions) and np.array_equal(a.weights, b.weights)
    c = simulate_experts(n=10, k=3, days=50, seed=8)
    assert not np.array_equal(a.predictions, c.predictions)
    with pytest.raises(ValueError):
        a.weights[0, 0] = 1.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": 0, "k": 1, "days": 5}, "n must be an integer >= 1"),
        ({"n": 101, "k": 1, "days": 5}, "n must be at most 100"),
        ({"n": 10, "k": 4, "days": 5}, "k must be odd"),
        ({"n": 10, "k": 11, "days": 5}, "k must be odd and at most n = 10"),
        ({"n": 10, "k": 3, "days": 2001}, "days must be at most 2000"),
        ({"n": 10, "k": 3, "days": 5, "behaviour": "evil"}, "behaviour must be one of"),
        ({"n": 10, "k": 3, "days": 5, "seed": -1}, "seed must be an integer >= 0"),
    ],
)
def test_bad_parameters_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        simulate_experts(**kwargs)


def test_spam_features_over_a_larger_vocabulary_extend_the_two_word_ones():
    X2, y2 = spam_features()
    X, y = spam_features(SPAM_MORE_WORDS)
    assert X.shape == (len(SPAM_EMAILS), len(SPAM_MORE_WORDS)) and np.array_equal(y, y2)
    assert np.array_equal(X[:, :2], X2)
    assert X[0].tolist() == word_counts(SPAM_EMAILS[0][0], SPAM_MORE_WORDS).tolist()
    with pytest.raises(ValueError, match="words"):
        spam_features(())

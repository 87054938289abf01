"""proof_check(): every line of the convergence proof at every mistake; the greedy adversary."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron_core import (
    RULES,
    TIE_BREAKS,
    adversarial_order,
    augment,
    make_dataset,
    max_margin,
    proof_check,
    start_bound,
    train,
    worst_case_set,
)

from .data import noisy_stream, separable_stream
from .reference import TIES, perceptron

LINES = ("cross", "square", "claim2", "lemma2", "lemma2_root")
WITH_WSTAR = ("claim1", "lemma1", "cauchy", "conclusion", "conclusion_start")


def test_each_line_matches_the_handout_arithmetic_on_the_four_points():
    X, y = make_dataset("four_points")  # seed 001's (1,2)+, (2,1)+, (-1,-1)-, (-1,1)-
    ws, where, _ = perceptron(X, y)  # the reference loop, plain floats
    mm = max_margin(X, y)
    c = proof_check(train(X, y), X, y, mm)
    assert c.n_mistakes == len(where) >= 1
    R = math.sqrt(max(sum(v * v for v in [*x, 1.0]) for x in X))
    for k, (t, i) in enumerate(where, start=1):
        w_prev, w_k = np.array(ws[k - 1]), np.array(ws[k])
        x = np.append(X[i], 1.0)
        assert (c.t[k - 1], c.i[k - 1]) == (t, i)
        assert c.cross.small[k - 1] == pytest.approx(2 * y[i] * (w_prev @ x))
        assert c.square.small[k - 1] == pytest.approx(x @ x)
        assert c.claim2.small[k - 1] == pytest.approx(w_k @ w_k - w_prev @ w_prev)
        assert c.lemma2.large[k - 1] == pytest.approx(k * R * R)
        assert c.claim1.large[k - 1] == pytest.approx(y[i] * (x @ mm.w_star))
        assert c.lemma1.small[k - 1] == pytest.approx(k * mm.gamma)
        assert c.cauchy.large[k - 1] == pytest.approx(math.sqrt(w_k @ w_k))
        assert c.conclusion.large[k - 1] == pytest.approx((R / mm.gamma) ** 2)
    for name in LINES + WITH_WSTAR:
        line = getattr(c, name)
        np.testing.assert_allclose(line.slack, line.large - line.small)
        assert line.all_hold and line.first_failure is None, name


@given(
    seed=st.integers(0, 10_000),
    eta=st.sampled_from([0.1, 1.0, 7.0]),
    rule=st.sampled_from([r for r in RULES if r != "negative"]),
    bias=st.booleans(),
    order_seed=st.one_of(st.none(), st.integers(0, 100)),
)
def test_from_zero_every_line_holds_at_every_mistake(seed, eta, rule, bias, order_seed):
    X, y = separable_stream(seed, n=40, margin=0.1, offset=bias)
    mm = max_margin(X, y, bias=bias)
    trace = train(X, y, bias=bias, eta=eta, rule=rule, seed=order_seed, max_epochs=2000)
    c = proof_check(trace, X, y, mm)
    for name in LINES + WITH_WSTAR:
        assert getattr(c, name).all_hold, name
    assert c.start_bound == pytest.approx(mm.bound)  # w0 = 0: the seeds' bound
    assert trace.n_mistakes <= mm.bound


def test_a_start_against_w_star_breaks_the_inductions_and_then_the_seeds_bound():
    X, y = separable_stream(3, n=60, margin=0.2)
    mm = max_margin(X, y)
    w0 = -200.0 * mm.w_star  # far on the wrong side
    trace = train(X, y, w0=w0, max_epochs=5000)
    c = proof_check(trace, X, y, mm)
    # the one-step claims and Cauchy-Schwarz do not use the start: they still hold
    for name in ("cross", "square", "claim2", "claim1", "cauchy", "conclusion_start"):
        assert getattr(c, name).all_hold, name
    # the inductions' base case w_0 = 0 is gone: Lemma 1 fails at once
    assert c.lemma1.first_failure == 1
    assert c.start_dot == pytest.approx(-200.0) and c.start_norm_sq == pytest.approx(40_000.0)
    # and the run makes more mistakes than (R / gamma)^2, but not more than the bound from w0
    assert trace.n_mistakes > mm.bound
    assert c.conclusion.first_failure == math.floor(mm.bound) + 1
    assert trace.n_mistakes <= c.start_bound


@given(
    a=st.floats(-50, 50),
    extra=st.floats(0.01, 100),
    gamma=st.floats(0.01, 1),
    radius=st.floats(1, 5),
    eta=st.floats(0.1, 10),
)
def test_start_bound_is_the_last_k_the_squeeze_allows(a, extra, gamma, radius, eta):
    b = a * a + extra  # ||w0||^2 >= (w0.w*)^2; equal only if w0 is along w* (a tangent case)
    kmax = start_bound(start_dot=a, start_norm_sq=b, gamma=gamma, radius=radius, eta=eta)

    def allowed(k):  # a + eta k gamma <= ||w_k|| <= sqrt(b + eta^2 k R^2)
        return a + eta * k * gamma <= math.sqrt(b + eta**2 * k * radius**2) + 1e-9 * (1 + abs(a))

    assert allowed(kmax)
    assert not allowed(kmax * 1.01 + 0.01)
    if a <= 0:  # the squeeze never rules out a k whose lower end is still below 0
        assert kmax >= -a / (eta * gamma) - 1e-9


def test_the_four_points_from_minus_ten_w_star_are_held_to_the_bound_from_w0():
    # with bias and w0 = -10 w*, a = w0.w* = -10 and ||w0||^2 = 100 =
    # a^2, so the squeeze a + k gamma <= sqrt(100 + k R^2) ends at k = (R^2 - 2 a gamma) / gamma^2
    X, y = make_dataset("four_points", n=4, seed=0)
    mm = max_margin(X, y)
    w0 = -10.0 * mm.w_star
    R2 = float(np.max(np.sum(augment(X) ** 2, axis=1)))  # 6: the point (2, 1, 1)
    by_hand = (R2 + 20.0 * mm.gamma) / mm.gamma**2
    trace = train(X, y, w0=w0)
    adv = adversarial_order(X, y, w0=w0, tie_break="lowest")
    for run in (trace, adv):
        c = proof_check(run, X, y, mm)
        assert c.start_bound == pytest.approx(by_hand) and round(c.start_bound, 1) == 24.8
        assert mm.bound < run.n_mistakes <= c.start_bound  # past (R/gamma)^2 = 5.57, not past it
        assert c.conclusion_start.all_hold and not c.conclusion.all_hold
    assert (trace.n_mistakes, adv.n_mistakes) == (9, 11)


def test_start_bound_from_zero_is_r_over_gamma_squared():
    assert start_bound(start_dot=0, start_norm_sq=0, gamma=0.1, radius=2, eta=3) == pytest.approx(
        400.0
    )


def test_non_separable_data_keep_claim_2_only():
    X, y = noisy_stream(0, n=80, noise=0.2)
    trace = train(X, y, max_epochs=30)
    c = proof_check(trace, X, y, None)
    assert c.n_mistakes == trace.n_mistakes > 100
    for name in LINES:
        assert getattr(c, name).all_hold, name
    for name in WITH_WSTAR:
        assert getattr(c, name) is None
    assert math.isnan(c.gamma) and math.isnan(c.bound) and math.isnan(c.start_bound)
    assert c.radius == pytest.approx(np.linalg.norm(augment(X), axis=1).max())


def test_the_strict_rule_from_zero_checks_nothing():
    X, y = separable_stream(1, n=30)
    c = proof_check(train(X, y, rule="negative"), X, y, max_margin(X, y))
    assert c.n_mistakes == 0 and c.lemma1.all_hold and c.lemma1.first_failure is None


def test_mismatched_inputs_are_refused():
    X, y = separable_stream(1, n=30, offset=False)
    trace = train(X, y)
    with pytest.raises(ValueError, match="same bias"):
        proof_check(trace, X[:20], y[:20])
    with pytest.raises(ValueError, match="mm must come"):
        proof_check(trace, X, y, max_margin(X, y, bias=False))
    with pytest.raises(ValueError, match="gamma"):
        start_bound(start_dot=0, start_norm_sq=0, gamma=0, radius=1, eta=1)


# --- the adversary ------------------------------------------------------------------------


def _wrong(w, Xa, y, rule):
    a = Xa @ w
    tie = np.where(y > 0, TIES[rule][0], TIES[rule][1])
    return (y * a < 0) | ((a == 0) & tie)


@pytest.mark.parametrize("tie_break", ["lowest", "away", "random"])
@pytest.mark.parametrize("rule", list(RULES))
def test_every_adversarial_step_is_a_mistake_and_the_end_separates(tie_break, rule):
    X, y = separable_stream(4, n=50, margin=0.1)
    mm = max_margin(X, y)
    w0 = None if rule != "negative" else np.array([0.3, -0.2, 0.1])  # strict rule: w0 != 0
    run = adversarial_order(X, y, rule=rule, w0=w0, w_star=mm.w_star, tie_break=tie_break, seed=7)
    Xa = augment(X)
    assert run.n_mistakes >= 1 and run.converged
    for k, i in enumerate(run.order):
        w = run.weights[k]
        wrong = _wrong(w, Xa, y, rule)
        assert wrong[i]  # only a point the perceptron gets wrong is shown
        np.testing.assert_allclose(run.weights[k + 1], w + y[i] * Xa[i])
        if tie_break == "lowest":
            assert i == np.flatnonzero(wrong)[0]
        elif tie_break == "away":  # the new w is the one pointing furthest from w*
            cands = w + y[wrong, None] * Xa[wrong]
            cos = cands @ mm.w_star / np.linalg.norm(cands, axis=1)
            assert cos[np.flatnonzero(wrong) == i][0] <= cos.min() + 1e-12
    assert not _wrong(run.w, Xa, y, rule).any()


@given(seed=st.integers(0, 10_000), margin=st.sampled_from([0.05, 0.1, 0.3]))
def test_the_adversary_never_beats_the_bound_on_separable_sets(seed, margin):
    X, y = separable_stream(seed, n=50, margin=margin)
    mm = max_margin(X, y)
    for tie_break in TIE_BREAKS:
        run = adversarial_order(
            X, y, w_star=mm.w_star, tie_break=tie_break, seed=seed, max_steps=50_000
        )
        assert run.converged
        assert run.n_mistakes <= mm.bound
        assert proof_check(run, X, y, mm).conclusion.all_hold


def test_the_away_adversary_beats_random_orders_on_most_random_sets():
    wins = 0
    for seed in range(10):
        X, y = separable_stream(seed, n=60, margin=0.05)
        mm = max_margin(X, y)
        adv = adversarial_order(X, y, w_star=mm.w_star, tie_break="away").n_mistakes
        best_random = max(train(X, y, seed=s).n_mistakes for s in range(20))
        wins += adv >= best_random
    assert wins >= 8


@pytest.mark.parametrize("d", [2, 5, 30])
def test_orthonormal_vectors_reach_the_bound_exactly(d):
    X, y = np.eye(d), np.ones(d)  # gamma = 1/sqrt(d), R = 1: bound d
    mm = max_margin(X, y, bias=False)
    assert mm.bound == pytest.approx(d)
    for tie_break in ("lowest", "away"):
        run = adversarial_order(X, y, bias=False, w_star=mm.w_star, tie_break=tie_break)
        assert run.n_mistakes == d


@pytest.mark.parametrize("gamma", [0.2, 0.1, 0.05, 0.02])
def test_the_worst_case_set_reaches_about_half_the_bound(gamma):
    X, y = worst_case_set(gamma)
    mm = max_margin(X, y, bias=False)
    assert mm.gamma == pytest.approx(gamma) and mm.radius == pytest.approx(1.0)
    run = adversarial_order(X, y, bias=False, max_steps=100_000)
    given_order = train(X, y, bias=False, max_epochs=100_000)
    assert run.converged and given_order.converged
    for m in (run.n_mistakes, given_order.n_mistakes):
        assert mm.bound / 2.5 <= m <= mm.bound


def test_random_tie_breaks_are_reproducible_and_differ_by_seed():
    X, y = separable_stream(2, n=60, margin=0.05)
    runs = [adversarial_order(X, y, tie_break="random", seed=s).order.tolist() for s in (0, 0, 1)]
    assert runs[0] == runs[1] and runs[0] != runs[2]


def test_the_adversary_stops_at_max_steps_on_xor():
    X, y = make_dataset("xor", n=20, seed=0)
    run = adversarial_order(X, y, max_steps=300)
    assert run.n_mistakes == 300 and not run.converged
    assert run.weights.shape == (301, 3) and run.mistake_steps[:, 0].tolist() == list(range(300))


def test_adversary_parameters_are_checked():
    X, y = separable_stream(1, n=10)
    with pytest.raises(ValueError, match="w_star is required"):
        adversarial_order(X, y, tie_break="away")
    with pytest.raises(ValueError, match="tie_break"):
        adversarial_order(X, y, tie_break="worst")
    with pytest.raises(ValueError, match="seed is required"):
        adversarial_order(X, y, tie_break="random")
    with pytest.raises(ValueError, match="max_steps"):
        adversarial_order(X, y, max_steps=0)
    with pytest.raises(ValueError, match="w0"):
        adversarial_order(X, y, w0=[1.0, 2.0])
    with pytest.raises(ValueError, match="gamma"):
        worst_case_set(0.9)

"""The lecture chart's proof panels (pure: a Run in, a JSON-ready dict out): the claims and
the squeeze at step t, against the engine's own numbers: up to the window's end, thinned
with both ends for a long run, with η and from a start w₀, and nothing after step t in
reach of the step's drawing.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import make_dataset, max_margin, start_bound
from tests.ui.lecture.scene_cases import (
    CASES,
    drawn,
    run_of,
    whole_scene,
)
from ui.compute.model import RunSettings, record_run
from ui.lecture.figures import (
    MAX_CURVE_POINTS,
    lecture_scene,
)
from ui.look.numbers import number


@pytest.mark.parametrize("where", [0.0, 0.3, 1.0])
def test_the_claims_are_the_engine_s_up_to_the_window_s_end(case, where):
    run, _ = case
    T = run.trace.n_steps
    stop = round(where * T)
    scene = lecture_scene(run, start=max(0, stop - 10), stop=stop, data_name="d")
    k = run.trace.mistakes_before(stop)
    ks = scene["claim2"]["k"]
    assert ks[0] == 0 and ks[-1] == k and np.all(np.diff(ks) > 0)
    assert ks == list(range(k + 1)) or len(ks) == MAX_CURVE_POINTS  # long runs are thinned
    W = run.trace.weights[ks]
    np.testing.assert_allclose(scene["claim2"]["v"], np.einsum("kd,kd->k", W, W), atol=1e-4)
    if run.curves is None:
        assert scene["claim1"] is None and scene["squeeze"] is None
        return
    assert scene["claim1"]["k"] == ks
    np.testing.assert_allclose(scene["claim1"]["v"], run.curves.w_dot_wstar[ks], atol=1e-4)


def test_a_long_run_s_claims_are_thinned_with_both_ends():
    X, y = make_dataset("xor", n=200, seed=0)
    run = record_run(X, y, RunSettings(max_epochs=30))
    T, K = run.trace.n_steps, run.trace.n_mistakes
    assert K > MAX_CURVE_POINTS
    scene = lecture_scene(run, start=T - 5, stop=T, data_name="xor")
    ks = scene["claim2"]["k"]
    assert len(ks) == MAX_CURVE_POINTS and ks[0] == 0 and ks[-1] == K
    assert np.all(np.diff(ks) > 0)
    W = run.trace.weights[ks]
    np.testing.assert_allclose(scene["claim2"]["v"], np.einsum("kd,kd->k", W, W), atol=1e-4)


@pytest.mark.parametrize("eta", [0.5, 2.0])
def test_the_claims_titles_and_lines_carry_eta(eta):
    """With η ≠ 1 a mistake moves w·w* by at least ηγ and ‖w‖² by at most
    η²R² (proof_curves' lower and upper); the titles and the lines' names say so."""
    X, y = make_dataset("separable", n=40, seed=0)
    run = record_run(X, y, RunSettings(eta=eta))
    c = run.curves
    T, k = run.trace.n_steps, run.trace.n_mistakes
    scene = lecture_scene(run, start=T - 2, stop=T, data_name="separable")
    panels = scene["panels"]
    head = {p: panels[p]["title"] for p in ("claim1", "claim2", "squeeze")}
    assert "ηγ" in head["claim1"] and "at least γ" not in head["claim1"]
    assert "η²R²" in head["claim2"] and "at most R²" not in head["claim2"]
    assert f"η = {eta:g}" in head["claim1"] and f"η = {eta:g}" in head["claim2"]
    assert "/η" in head["squeeze"]
    assert list(panels["claim1"]["key"]) == ["w_k·w*", "≥", "kηγ"]  # w₀ = 0: the line is kηγ
    assert list(panels["claim2"]["key"]) == ["‖w_k‖²", "≤", "kη²R²"]
    assert list(panels["squeeze"]["key"]) == ["w·w*/η", "‖w‖/η", "kγ", "R√k"]
    np.testing.assert_allclose(
        scene["claim1"]["bound"], [[0, 0], [k, eta * k * c.gamma]], atol=1e-3
    )
    np.testing.assert_allclose(
        scene["claim2"]["bound"], [[0, 0], [k, eta**2 * k * c.radius**2]], rtol=1e-3
    )
    np.testing.assert_allclose(
        [c.lower[k], c.upper[k]],
        [scene["claim1"]["bound"][1][1], scene["claim2"]["bound"][1][1]],
        atol=1e-3,
    )
    sq = scene["squeeze"]  # the squeeze plots w·w*/η and ‖w‖/η against kγ and R√k
    assert sq["per_eta"] is True
    assert sq["dot"][-1] == pytest.approx(c.w_dot_wstar[k] / eta, abs=1e-3)
    assert sq["norm"][-1] == pytest.approx(np.sqrt(c.w_norm_sq[k]) / eta, abs=1e-3)
    assert sq["bound_text"] == f"(R/γ)² = {number(c.bound)}"


def test_with_eta_one_the_titles_are_the_theorem_s():
    scene = whole_scene("separable", 1, False)
    head = {p: scene["panels"][p]["title"] for p in ("claim1", "claim2", "squeeze")}
    assert head["claim1"] == "Claim 1: w·w* grows by at least γ per mistake"
    assert head["claim2"] == "Claim 2: ‖w‖² grows by at most R² per mistake"
    assert head["squeeze"] == "the squeeze: kγ ≤ w·w* ≤ ‖w‖ ≤ R√k"
    assert list(scene["panels"]["claim1"]["key"]) == ["w_k·w*", "≥", "kγ"]
    assert list(scene["panels"]["claim2"]["key"]) == ["‖w_k‖²", "≤", "kR²"]
    assert scene["squeeze"]["per_eta"] is False


@pytest.mark.parametrize("eta", [1.0, 0.5])
def test_from_a_start_w0_the_squeeze_is_the_proof_redone_from_w0(eta):
    """On the lecture page, from w₀ ≠ 0 the squeeze's curves start at
    w₀·w*/η and ‖w₀‖/η, meet at the bound from w₀ (not (R/γ)²), and the title says so."""
    X, y = make_dataset("separable", n=40, seed=0)
    mm = max_margin(X, y, bias=True)
    w0 = tuple(float(v) for v in -3.0 * mm.w_star)  # a start far on the wrong side
    run = record_run(X, y, RunSettings(eta=eta, w0=w0))
    c = run.curves
    T = run.trace.n_steps
    scene = lecture_scene(run, start=T - 2, stop=T, data_name="separable")
    a, b = float(c.lower[0]), float(c.upper[0])  # w₀·w*, ‖w₀‖² as the engine has them
    assert a < 0 and b > 0
    bound = start_bound(start_dot=a, start_norm_sq=b, gamma=c.gamma, radius=c.radius, eta=eta)
    sq = scene["squeeze"]
    low, up = sq["names"]
    assert low.startswith("w₀·w*") and up.startswith("√(‖w₀‖²")
    kk, lower = (np.asarray(v) for v in sq["lower"])
    kk_up, upper = (np.asarray(v) for v in sq["upper"])
    np.testing.assert_array_equal(kk, kk_up)
    assert kk[0] == 0 and lower[0] == pytest.approx(a / eta, abs=1e-3)
    assert upper[0] == pytest.approx(np.sqrt(b) / eta, rel=1e-3)
    np.testing.assert_allclose(lower, a / eta + kk * c.gamma, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(upper, np.sqrt(b / eta**2 + kk * c.radius**2), rtol=1e-3)
    assert sq["bound"] == pytest.approx(bound, abs=1e-3)
    assert sq["bound_text"] == f"bound from w₀ = {number(bound)}"
    assert "(R/γ)²" not in sq["bound_text"]
    assert f"bound from w₀ = {number(bound)}" in scene["facts"]
    assert scene["panels"]["squeeze"]["title"].startswith("the squeeze from w₀:")
    assert run.trace.n_mistakes <= bound  # the theorem, from w₀


# ---------------------------------------------------------------------------- no future


def test_the_scene_holds_nothing_after_its_stop():
    """A window start..stop carries the steps of the window only, and the claims up to the
    mistakes made by its last step; each step carries its own k, w_k·w* and ‖w_k‖²."""
    run = run_of("blobs", 0, True)
    T = run.trace.n_steps
    ts = run.trace.mistake_steps[:, 0]
    for start, stop in [(0, 0), (0, 5), (3, 20), (int(ts[2]) + 1, int(ts[4]) + 1), (T - 4, T)]:
        scene = lecture_scene(run, start=start, stop=stop, data_name="blobs")
        assert [v["t"] for v in scene["steps"]] == list(range(start, stop + 1))
        k_stop = run.trace.mistakes_before(stop)
        for panel in ("claim1", "claim2"):
            assert max(scene[panel]["k"]) == k_stop
            assert max(k for k, _ in scene[panel]["bound"]) == k_stop
        later = ts[ts >= stop]  # Next mistake from the window's end: its step, counted from 1
        assert scene["after"] == (int(later[0]) + 1 if later.size else T)
        for v in scene["steps"]:
            k = run.trace.mistakes_before(v["t"])
            w = run.trace.weights[k]
            assert v["k"] == k
            assert v["dot"] == pytest.approx(run.curves.w_dot_wstar[k], abs=1e-6)
            assert v["nsq"] == pytest.approx(float(w @ w), abs=1e-6)


@pytest.mark.parametrize("case_", CASES, ids=lambda c: c[0])
def test_no_point_after_step_t_is_drawn_in_the_proof_panels(case_):
    """The proof panels show no later mistake, not even under a veil. At step t the
    browser draws the claims' and the squeeze's points with k at most the step's k; what it
    draws is the engine's w_j·w* and ‖w_j‖² for j = 0..k, nothing later."""
    run = run_of(*case_)
    t = int(run.trace.mistake_steps[2, 0]) + 1  # just after the third mistake
    scene = lecture_scene(run, start=t, stop=min(run.trace.n_steps, t + 60), data_name="d")
    c = run.curves
    eta = run.trace.eta
    W = run.trace.weights
    norm_sq = np.einsum("kd,kd->k", W, W)
    for v in scene["steps"]:
        k = run.trace.mistakes_before(v["t"])
        panels = {"claim2": (scene["claim2"]["k"], scene["claim2"]["v"], v["nsq"], norm_sq)}
        if c is not None:
            sq = scene["squeeze"]
            panels |= {
                "claim1": (scene["claim1"]["k"], scene["claim1"]["v"], v["dot"], c.w_dot_wstar),
                "squeeze dot": (sq["k"], sq["dot"], v["dot"] / eta, c.w_dot_wstar / eta),
                "squeeze norm": (
                    sq["k"],
                    sq["norm"],
                    np.sqrt(v["nsq"]) / eta,
                    np.sqrt(norm_sq) / eta,
                ),
            }
        for panel, (ks, vs, now, engine) in panels.items():
            assert np.all(np.diff(ks) > 0), panel  # read in order by the browser
            points = drawn(ks, vs, v["k"], now)
            assert max(a for a, _ in points) == k, (panel, v["t"])
            for a, b in points:
                assert b == pytest.approx(engine[a], abs=1e-3), (panel, v["t"], a)


@pytest.mark.parametrize("eta", [0.5, 2.0, 1000.0, 0.1234])
def test_the_squeeze_s_point_at_the_step_is_on_its_curve(eta):
    """player.js draws the squeeze's point at the step as v.dot / scene.eta_value and
    √v.nsq / scene.eta_value: the scene's η must give back the curve's value at k
    (``eta`` is η as written, "1,000": text, not a divisor)."""
    X, y = make_dataset("separable", n=40, seed=0)
    run = record_run(X, y, RunSettings(eta=eta))
    T = run.trace.n_steps
    scene = lecture_scene(run, start=0, stop=T, data_name="separable")
    sq = scene["squeeze"]
    for v in scene["steps"]:
        j = sq["k"].index(v["k"])
        eta_value = scene["eta_value"]
        assert v["dot"] / eta_value == pytest.approx(sq["dot"][j], abs=1e-3)
        assert np.sqrt(v["nsq"]) / eta_value == pytest.approx(sq["norm"][j], abs=1e-3)


# ---------------------------------------------------------------------------- the maths

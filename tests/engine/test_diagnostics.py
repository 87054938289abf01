"""proof_curves(): the two claims of the proof, evaluated after every mistake."""

import numpy as np
import pytest

from perceptron_core import max_margin, proof_curves, train

from .data import separable_stream


def test_lines_are_k_gamma_and_k_r_squared_from_zero_with_unit_rate():
    X, y = separable_stream(0, n=80, margin=0.05)
    mm = max_margin(X, y)
    trace = train(X, y)
    c = proof_curves(trace, mm)
    k = np.arange(trace.n_mistakes + 1)
    np.testing.assert_allclose(c.lower, k * mm.gamma)
    np.testing.assert_allclose(c.upper, k * mm.radius**2)
    assert (c.w_dot_wstar >= c.lower - 1e-9).all() and (c.w_norm_sq <= c.upper + 1e-9).all()
    # Cauchy-Schwarz: w.w* <= ||w||, so cos <= 1, and it ends positive (w points like w*)
    assert (c.cos_angle[1:] <= 1 + 1e-12).all() and c.cos_angle[-1] > 0
    assert np.isnan(c.cos_angle[0])  # w0 = 0 has no direction


@pytest.mark.parametrize("eta", [0.1, 10.0])
def test_claims_hold_from_a_nonzero_start_with_any_rate(eta):
    X, y = separable_stream(3, n=60, margin=0.1)
    mm = max_margin(X, y)
    w0 = np.array([2.0, -1.0, 0.5])
    c = proof_curves(train(X, y, w0=w0, eta=eta), mm)
    assert c.lower[0] == pytest.approx(w0 @ mm.w_star)
    assert c.upper[0] == pytest.approx(w0 @ w0)
    assert (c.w_dot_wstar >= c.lower - 1e-9).all()
    assert (c.w_norm_sq <= c.upper + 1e-9).all()


def test_mismatched_settings_are_refused():
    X, y = separable_stream(1, n=30)
    with pytest.raises(ValueError, match="same data and bias"):
        proof_curves(train(X, y, bias=False), max_margin(X, y, bias=True))

"""A recorded lecture run, computed without Streamlit (cached in ``ui.compute.runs``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perceptron_core import (
    MaxMargin,
    NotSeparableError,
    ProofCurves,
    Trace,
    max_margin,
    proof_curves,
    train,
)
from ui.words import N_


@dataclass(frozen=True, eq=False)
class Run:
    """A recorded perceptron run on the points it saw, with the proof's yardsticks."""

    X: np.ndarray  # (n, 2) the points the perceptron saw (after the run's scaling)
    y: np.ndarray  # (n,) labels in {-1, +1}
    trace: Trace  # recorded with record_steps=True
    mm: MaxMargin | None  # None when the data are not separable
    curves: ProofCurves | None  # Claim 1 and Claim 2, when there is a w*
    reason: str | None  # why there is no w*, if there is none


def unit_rows(X: np.ndarray) -> np.ndarray:
    """Each x scaled to length 1 (seed 000: "all x_i has length 1"); points at the origin
    stay there. Each point moves by its own factor, so γ, M and separability can change."""
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    out = np.zeros_like(X)
    np.divide(X, norms, out=out, where=norms > 0)
    return out


# each key of ``ui.app.state.SCALES`` in words, for the widget and the run's summary
SCALE_NAMES = {
    "given": N_("x as given"),
    "radius": N_("x ÷ R (every point in the unit disc)"),
    "unit": N_("each x ÷ ‖x‖ (every point at length 1)"),
}
SCALE_HELP = N_(
    "**x ÷ R** divides every point by the same R = max ‖x‖, Princeton COS 495's “W.L.O.G.”: "
    "without the bias, from w₀ = 0, no mistake changes (w is divided by R too) and (R/γ)² is "
    "the same number. With the bias the perceptron sees (x/R, 1), whose 1 is not divided, so "
    "the run can change. **Each x ÷ ‖x‖** moves every point to length 1 (Princeton COS 495: "
    "“all x_i has length 1”) by its own factor: another data set, whose γ, M and even "
    "separability can change."
)


def scaled(X: np.ndarray, scale: str) -> np.ndarray:
    """The points the run sees: as given ("given"), all divided by R = max ‖x‖ ("radius":
    one factor for every point, so from w₀ = 0 without bias no mistake changes), or each
    to length 1 ("unit", :func:`unit_rows`)."""
    if scale == "unit":
        return unit_rows(X)
    if scale == "radius":
        R = float(np.linalg.norm(X, axis=1).max(initial=0.0))
        return X / R if R > 0 else X
    return X


@dataclass(frozen=True)
class RunSettings:
    """How the lecture page runs the perceptron (hashable: a cache key)."""

    bias: bool = True
    eta: float = 1.0
    w0: tuple[float, ...] | None = None  # None: start from w = 0
    seed: int | None = None  # None: the given order; else reshuffled each epoch
    rule: str = "nonpositive"
    scale: str = "given"  # a key of SCALES: the points as given, ÷ R or each ÷ ‖x‖
    max_epochs: int = 50


def record_run(X: np.ndarray, y: np.ndarray, settings: RunSettings) -> Run:
    """Train with every step recorded, and find w*, gamma, R (or why they do not exist)."""
    s = settings
    Xs = scaled(X, s.scale)
    trace = train(
        Xs,
        y,
        bias=s.bias,
        eta=s.eta,
        w0=s.w0,
        seed=s.seed,
        rule=s.rule,
        max_epochs=s.max_epochs,
        record_steps=True,
    )
    try:
        mm = max_margin(Xs, y, bias=s.bias)
    except NotSeparableError as exc:
        return Run(Xs, y, trace, None, None, _why_not(X, y, s, str(exc)))
    return Run(Xs, y, trace, mm, proof_curves(trace, mm), None)


def _why_not(X: np.ndarray, y: np.ndarray, s: RunSettings, reason: str) -> str:
    """Why the scaled points have no w*: the data's fault, or the scaling's (each x ÷ ‖x‖
    with a bias can make separable data inseparable; a single factor never does)."""
    if s.scale != "unit":
        return reason
    try:
        given = max_margin(X, y, bias=s.bias)
    except NotSeparableError:
        return reason
    return (
        "Scaling each x to length 1 made these points non-separable: as given they are "
        f"separable (γ = {given.gamma:.3g}). Each point moved by its own factor, so this is "
        "another data set; choose “x as given” or “x ÷ R” to keep the data's geometry."
    )

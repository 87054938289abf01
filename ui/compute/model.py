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


@dataclass(frozen=True, eq=False)
class Run:
    """A recorded perceptron run on the points it saw, with the proof's yardsticks."""

    X: np.ndarray  # (n, 2) what the perceptron saw (unit-length rows if normalized)
    y: np.ndarray  # (n,) labels in {-1, +1}
    trace: Trace  # recorded with record_steps=True
    mm: MaxMargin | None  # None when the data are not separable
    curves: ProofCurves | None  # Claim 1 and Claim 2, when there is a w*
    reason: str | None  # why there is no w*, if there is none


def unit_rows(X: np.ndarray) -> np.ndarray:
    """Each x scaled to length 1 (seed 000's assumption); points at the origin stay there."""
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    out = np.zeros_like(X)
    np.divide(X, norms, out=out, where=norms > 0)
    return out


@dataclass(frozen=True)
class RunSettings:
    """How the lecture page runs the perceptron (hashable: a cache key)."""

    bias: bool = True
    eta: float = 1.0
    w0: tuple[float, ...] | None = None  # None: start from w = 0
    seed: int | None = None  # None: the given order; else reshuffled each epoch
    rule: str = "nonpositive"
    normalize: bool = False  # scale every x to length 1 first
    max_epochs: int = 50


def record_run(X: np.ndarray, y: np.ndarray, settings: RunSettings) -> Run:
    """Train with every step recorded, and find w*, gamma, R (or why they do not exist)."""
    s = settings
    Xs = unit_rows(X) if s.normalize else X
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
        return Run(Xs, y, trace, None, None, str(exc))
    return Run(Xs, y, trace, mm, proof_curves(trace, mm), None)

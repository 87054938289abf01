"""A recorded lecture run, computed without Streamlit (the pages cache it in ``ui.runs``)."""

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
    return np.divide(X, norms, out=np.zeros_like(X), where=norms > 0)


def record_run(
    X: np.ndarray,
    y: np.ndarray,
    *,
    bias: bool,
    eta: float,
    w0: tuple[float, ...] | None,
    seed: int | None,
    rule: str,
    normalize: bool,
    max_epochs: int,
) -> Run:
    """Train with every step recorded, and find w*, gamma, R (or why they do not exist)."""
    Xs = unit_rows(X) if normalize else X
    trace = train(
        Xs,
        y,
        bias=bias,
        eta=eta,
        w0=w0,
        seed=seed,
        rule=rule,
        max_epochs=max_epochs,
        record_steps=True,
    )
    try:
        mm = max_margin(Xs, y, bias=bias)
    except NotSeparableError as exc:
        return Run(Xs, y, trace, None, None, str(exc))
    return Run(Xs, y, trace, mm, proof_curves(trace, mm), None)

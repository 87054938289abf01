"""The two quantities of the convergence proof, after every mistake.

Claim 1 (seed 000; Lemma 1 of seed 004):  w_k . w*  >=  w0 . w* + eta k gamma
Claim 2 (seed 000; Lemma 2 of seed 004):  ||w_k||^2 <=  ||w0||^2 + eta^2 k R^2
With w0 = 0 and eta = 1 these are the lines k gamma and k R^2; with
Cauchy-Schwarz, w_k . w* <= ||w_k||, they squeeze k to at most (R / gamma)^2.
Claim 2 uses only that every update happens at y w.x <= 0, which holds for all
the rules; Claim 1 uses the margin of w*.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import FloatArray, IntArray
from .margin import MaxMargin
from .perceptron import Trace


@dataclass(frozen=True, eq=False)
class ProofCurves:
    """Per-mistake quantities, index k = 0..K (k = 0 is w0).

    Attributes
    ----------
    k : ndarray of int, shape (K+1,)
    w_dot_wstar : ndarray, shape (K+1,)
        w_k . w*.
    w_norm_sq : ndarray, shape (K+1,)
        ||w_k||^2.
    lower : ndarray, shape (K+1,)
        Claim 1's bound w0 . w* + eta k gamma (k gamma for w0 = 0, eta = 1).
    upper : ndarray, shape (K+1,)
        Claim 2's bound ||w0||^2 + eta^2 k R^2 (k R^2 for w0 = 0, eta = 1).
    cos_angle : ndarray, shape (K+1,)
        w_k . w* / ||w_k||, the cosine of the angle to w* (NaN where w_k = 0).
    gamma, radius, bound : float
        From the max-margin separator.
    """

    k: IntArray
    w_dot_wstar: FloatArray
    w_norm_sq: FloatArray
    lower: FloatArray
    upper: FloatArray
    cos_angle: FloatArray
    gamma: float
    radius: float
    bound: float


def proof_curves(trace: Trace, mm: MaxMargin) -> ProofCurves:
    """Evaluate both claims of the proof on every w_k of a run.

    Parameters
    ----------
    trace : Trace
        A run of ``train``.
    mm : MaxMargin
        ``max_margin`` of the same data with the same ``bias``.
    """
    if trace.bias != mm.bias or trace.weights.shape[1] != mm.w_star.shape[0]:
        raise ValueError("mm must come from the same data and bias setting as trace")
    W = trace.weights
    k = np.arange(W.shape[0], dtype=np.int64)
    dot = W @ mm.w_star
    norm_sq = np.einsum("kd,kd->k", W, W)
    norm = np.sqrt(norm_sq)
    with np.errstate(invalid="ignore", divide="ignore"):
        cos = np.where(norm > 0.0, dot / norm, np.nan)
    return ProofCurves(
        k=k,
        w_dot_wstar=dot,
        w_norm_sq=norm_sq,
        lower=dot[0] + trace.eta * k * mm.gamma,
        upper=norm_sq[0] + trace.eta**2 * k * mm.radius**2,
        cos_angle=cos,
        gamma=mm.gamma,
        radius=mm.radius,
        bound=mm.bound,
    )

"""The max-margin separator w*, the margin gamma, the radius R and the bound (R/gamma)^2.

These are the quantities of the convergence theorem (seeds 000-004): if a unit
vector w* has ``y_i w*.x_i >= gamma > 0`` for all i and ``||x_i|| <= R``, the
perceptron makes at most ``(R / gamma)^2`` mistakes. The best such w* is the
hard-margin separator

    w* = w / ||w||,   w = argmin ||w||^2  subject to  y_i w.x_i >= 1,

solved here in the space the perceptron runs in (with the bias feature 1
appended last when ``bias``), so there is no separate unpenalised bias.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._checks import FloatArray, IntArray, check_data
from .perceptron import augment

# Relative margin below which data count as not separable: the margin of the
# data scaled into the unit ball (R = 1), so it does not depend on units.
SEPARABILITY_TOL = 1e-9


class NotSeparableError(ValueError):
    """No hyperplane (through the origin of the space the perceptron runs in)
    puts every +1 strictly on one side and every -1 strictly on the other."""


@dataclass(frozen=True, eq=False)
class MaxMargin:
    """The max-margin separator and the mistake bound it gives.

    Attributes
    ----------
    w_star : ndarray, shape (d',)
        Unit-norm separator; the bias is its last entry when ``bias``.
    gamma : float
        ``min_i y_i w*.x_i``, the geometric margin in the augmented space.
    radius : float
        R = ``max_i ||x_i||`` (of the augmented x when ``bias``).
    bound : float
        ``(R / gamma) ** 2``, the mistake bound.
    support : ndarray of int, shape (s,)
        Indices of the support vectors: the points at distance gamma.
    bias : bool
        Whether the space is augmented with the bias feature.
    """

    w_star: FloatArray
    gamma: float
    radius: float
    bound: float
    support: IntArray
    bias: bool


def _explain(X: FloatArray, y: FloatArray, bias: bool) -> str:
    """A sentence a student understands for why the data are not separable."""
    where = "" if bias else " through the origin"
    if not bias:
        at_origin = np.flatnonzero(~X.any(axis=1))
        if at_origin.size:
            return (
                f"Point {int(at_origin[0])} is at the origin: without a bias every line passes "
                "through the origin, so w·x = 0 there and no line can have it strictly on one side."
            )
    _, group = np.unique(X, axis=0, return_inverse=True)
    group = group.reshape(-1)
    for g in np.unique(group):
        members = np.flatnonzero(group == g)
        if np.unique(y[members]).size == 2:
            i = int(members[y[members] > 0][0])
            j = int(members[y[members] < 0][0])
            return (  # a student counts points from 1
                f"Points {i + 1} and {j + 1} are at the same place but have opposite labels, "
                f"so no line{where} can separate the +1 from the −1 points."
            )
    return (
        f"No line{where} separates the +1 points from the −1 points. There is no w* and no "
        "margin γ > 0, so there is no mistake bound: the perceptron never stops making mistakes."
    )


def _separable(Z: FloatArray) -> bool:
    """LP feasibility: is there w with ``z_i . w > 0`` for all rows z_i of Z (||z_i|| <= 1)?

    Solves ``max t  s.t.  Z w >= t,  -1 <= w <= 1`` and compares t with the tolerance.
    """
    from scipy.optimize import linprog

    n, d = Z.shape
    c = np.zeros(d + 1)
    c[-1] = -1.0  # maximise t
    A_ub = np.hstack([-Z, np.ones((n, 1))])  # t - z_i.w <= 0
    bounds = [(-1.0, 1.0)] * d + [(None, 1.0)]
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(n), bounds=bounds, method="highs")
    if res.status != 0:  # pragma: no cover - the LP is always feasible and bounded
        raise RuntimeError(f"separability LP failed: {res.message}")
    return bool(-res.fun > SEPARABILITY_TOL)


def _signed_rows(X: FloatArray, y: FloatArray, bias: bool) -> tuple[FloatArray, float]:
    """The rows ``z_i = y_i x_i`` (x with the bias feature 1 appended when ``bias``), shape
    (n, d'), and R = max ||x_i||; the LPs take Z / R, in the unit ball, so that their
    tolerance does not depend on units."""
    Xa = augment(X) if bias else X
    return y[:, None] * Xa, float(np.linalg.norm(Xa, axis=1).max())


def _least_distance(Z: FloatArray) -> FloatArray:
    """``argmin ||w||  s.t.  Z w >= 1`` by Lawson & Hanson's LDP-via-NNLS (exact active set).

    Solve ``min ||E u - f||, u >= 0`` with ``E = [Z^T; 1^T]``, ``f = (0, ..., 0, 1)``;
    then with ``r = E u - f``, ``w = -r[:d] / r[d]`` (Solving Least Squares Problems, ch. 23).
    """
    from scipy.optimize import nnls

    n, d = Z.shape
    E = np.vstack([Z.T, np.ones((1, n))])
    f = np.zeros(d + 1)
    f[-1] = 1.0
    u, _ = nnls(E, f, maxiter=50 * max(n, d + 1))
    r = E @ u - f
    return np.asarray(-r[:d] / r[d], dtype=np.float64)


def max_margin(X: Any, y: Any, *, bias: bool = True) -> MaxMargin:
    """The hard-margin separator, solved exactly, and the mistake bound it gives.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels, each -1 or +1.
    bias : bool
        Work in the augmented space ``(x, 1)`` the perceptron with bias runs in.

    Returns
    -------
    MaxMargin

    Raises
    ------
    NotSeparableError
        When no separator exists (decided by an LP), with a sentence saying why:
        e.g. two identical points with opposite labels, or without bias a point
        at the origin.
    ValueError
        On a malformed dataset.
    """
    X, y = check_data(X, y)
    Z, radius = _signed_rows(X, y, bias)
    if radius == 0.0 or not _separable(Z / radius):
        raise NotSeparableError(_explain(X, y, bias))
    w = _least_distance(Z / radius)
    w_star = w / np.linalg.norm(w)
    margins = Z @ w_star  # y_i w*.x_i in original units
    gamma = float(margins.min())
    if not gamma > SEPARABILITY_TOL * radius:  # pragma: no cover - guarded by the LP
        raise NotSeparableError(
            "The margin is below numerical precision, so the data count as not separable."
        )
    support = np.flatnonzero(margins <= gamma * (1.0 + 1e-6) + 1e-12 * radius)
    w_star.flags.writeable = False
    support.flags.writeable = False
    return MaxMargin(
        w_star=w_star,
        gamma=gamma,
        radius=radius,
        bound=(radius / gamma) ** 2,
        support=support.astype(np.int64),
        bias=bias,
    )

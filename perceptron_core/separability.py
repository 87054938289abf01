"""Why no separator exists: a certificate of non-separability.

Seeds 002 and 003 name XOR as data with no separator; the certificate below is Gordan's
theorem of the alternative, which the seeds do not use.

Gordan's alternative: for the rows ``z_i = y_i x~_i`` (``x~ = (x, 1)`` with bias),
exactly one of these holds:

    (a) some w has ``z_i . w > 0`` for every i            (the data are separable), or
    (b) some lambda >= 0, sum lambda = 1, has ``sum_i lambda_i z_i = 0``.

With bias the last coordinate of (b) reads ``sum_{y=+1} lambda_i = sum_{y=-1} lambda_i = 1/2``,
so ``z = 2 sum_{y=+1} lambda_i x_i = 2 sum_{y=-1} lambda_i x_i`` is a convex combination of
positives *and* of negatives: a point both classes claim (for XOR, the centre of both
diagonals). Any w would need ``w . z~ > 0`` and ``< 0`` at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._checks import FloatArray, IntArray, check_data
from .margin import _separable, _signed_rows

# lambda_i at or below this counts as "not used" (the LP returns exact zeros off its basis).
WEIGHT_TOL = 1e-12


@dataclass(frozen=True, eq=False)
class Witness:
    """A certificate that no hyperplane separates the data.

    Attributes
    ----------
    weights : ndarray, shape (n,)
        lambda >= 0 with ``sum lambda = 1`` and ``sum_i lambda_i y_i x~_i = 0``, where
        ``x~ = (x, 1)`` with bias and ``x~ = x`` without. At most d' + 1 are non-zero.
    point : ndarray, shape (d,)
        ``z = sum_{y=+1} lambda_i x_i / sum_{y=+1} lambda_i``, the lambda-weighted mean of
        the positives used. With bias it is also the weighted mean of the negatives used
        (both sums are 1/2): a convex combination of each class. Without bias it is a
        positive multiple of the negatives' weighted mean, ``z = c * sum_{y=-1} lambda_i x_i
        / sum_{y=-1} lambda_i`` with ``c = sum_{y=-1} lambda / sum_{y=+1} lambda``: the ray
        from the origin through z meets the hull of both classes, so z lies in both cones.
        When one class is not used at all (possible only without bias) z is the origin.
    positives, negatives : ndarray of int
        Indices i with ``lambda_i > WEIGHT_TOL`` and ``y_i = +1`` (resp. -1).
    bias : bool
        Whether the certificate is for the augmented space ``(x, 1)``.
    """

    weights: FloatArray
    point: FloatArray
    positives: IntArray
    negatives: IntArray
    bias: bool


def _gordan(Z: FloatArray) -> FloatArray:
    """A basic solution of ``min ||Z^T lambda||_1  s.t.  lambda >= 0, sum lambda = 1``.

    Written with slacks ``Z^T lambda + s+ - s- = 0`` (d' + 1 equality rows), so a basic
    solution has at most d' + 1 non-zeros: a sparse witness. By LP duality the optimum
    equals the t of ``margin._separable``'s LP (max t s.t. Z w >= t, |w_j| <= 1): it is 0
    when (b) holds, and at most ``SEPARABILITY_TOL`` whenever that LP says not separable.
    """
    from scipy.optimize import linprog

    n, d = Z.shape
    A_eq = np.block([[Z.T, np.eye(d), -np.eye(d)], [np.ones((1, n)), np.zeros((1, 2 * d))]])
    b_eq = np.zeros(d + 1)
    b_eq[-1] = 1.0  # sum lambda = 1
    c = np.concatenate([np.zeros(n), np.ones(2 * d)])  # minimise sum(s+ + s-)
    res = linprog(c, A_eq=A_eq, b_eq=b_eq, bounds=(0.0, None), method="highs")
    if res.status != 0:  # pragma: no cover - the LP is always feasible and bounded
        raise RuntimeError(f"witness LP failed: {res.message}")
    lam = np.clip(res.x[:n], 0.0, None)
    lam[lam <= WEIGHT_TOL] = 0.0
    return np.asarray(lam / lam.sum(), dtype=np.float64)


def nonseparability_witness(X: Any, y: Any, *, bias: bool = True) -> Witness | None:
    """A point both classes claim, or None when the data are linearly separable.

    Parameters
    ----------
    X, y : array_like, shapes (n, d) and (n,)
        The data as ``max_margin`` takes them: finite points, labels -1 or +1.
    bias : bool
        Separability in the augmented space ``(x, 1)`` (lines anywhere) when True, by a
        hyperplane through the origin when False.

    Returns
    -------
    Witness or None
        None exactly when ``max_margin(X, y, bias=bias)`` succeeds: the same LP, on the
        same data scaled into the unit ball, decides; a second LP finds lambda.

    Raises
    ------
    ValueError
        On a malformed dataset, naming X or y.
    """
    X, y = check_data(X, y)
    Z, radius = _signed_rows(X, y, bias)  # z_i = y_i x~_i, as in max_margin
    if radius == 0.0:  # without bias, every point at the origin: w . 0 = 0 for any w
        lam = np.zeros(len(y))
        lam[0] = 1.0
    elif _separable(Z / radius):
        return None
    else:
        lam = _gordan(Z / radius)
    pos = np.flatnonzero((lam > 0.0) & (y > 0)).astype(np.int64)
    neg = np.flatnonzero((lam > 0.0) & (y < 0)).astype(np.int64)
    # the weighted mean of the positives used; if one class is unused (only without bias),
    # the other alone has sum lambda_i x_i = 0 and the common point is the origin
    both = pos.size > 0 and neg.size > 0
    z = lam[pos] @ X[pos] / lam[pos].sum() if both else np.zeros(X.shape[1])
    for a in (lam, z, pos, neg):
        a.flags.writeable = False
    return Witness(weights=lam, point=np.asarray(z), positives=pos, negatives=neg, bias=bias)

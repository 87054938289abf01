"""The kernel (dual) perceptron with the degree-2 polynomial kernel.

Seed 003 maps x to quadratic features and says kernels do this efficiently; the dual
form below is the standard one (Aizerman et al. 1964), not written out in the seeds.

From w0 = 0 every update adds ``y_i phi~(x_i)``, so after the run
``w = sum_i alpha_i y_i phi~(x_i)`` with alpha_i the mistakes made on example i, and

    w . phi~(x) = sum_i alpha_i y_i K(x_i, x),   K(a, b) = phi~(a) . phi~(b) = (a . b)^2 + 1,

with ``phi~(x) = (x1^2, sqrt2 x1 x2, x2^2, 1)``: the perceptron on the quadratic features,
run without ever computing them (the kernel trick).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._checks import FloatArray, IntArray, check_choice, check_data, check_positive_int
from .perceptron import RULES, _MistakeCount

MAX_POINTS = 5000  # the n x n Gram matrix is kept in memory: 200 MB at n = 5000


@dataclass(frozen=True, eq=False)
class KernelTrace(_MistakeCount):
    """What one run of the kernel perceptron did.

    Attributes
    ----------
    alpha : ndarray of int, shape (n,)
        Mistakes made on each example: the dual coefficients.
    mistake_steps : ndarray of int, shape (n_mistakes, 2)
        Global step t and example index i of each mistake, as in ``Trace``.
    converged : bool
        True iff some full pass made no mistake.
    n_epochs : int
        Passes run, including the final mistake-free one if converged.
    bias : bool
        Whether the kernel has the constant feature (``+1``).
    """

    alpha: IntArray
    mistake_steps: IntArray
    converged: bool
    n_epochs: int
    bias: bool


def _points(A: Any, name: str) -> FloatArray:
    Aa = np.asarray(A, dtype=np.float64)
    if Aa.ndim != 2 or Aa.shape[1] == 0 or not np.isfinite(Aa).all():
        raise ValueError(f"{name} must be a finite array of shape (n, d); got shape {Aa.shape}")
    return Aa


def poly2_kernel(A: Any, B: Any, *, bias: bool = True) -> FloatArray:
    """The Gram matrix ``K[i, j] = (a_i . b_j)^2 (+ 1 with bias)``.

    For 2-D points this is ``phi~(a_i) . phi~(b_j)`` with ``phi~ = (quadratic(x), 1)``,
    since ``phi(a) . phi(b) = a1^2 b1^2 + 2 a1 a2 b1 b2 + a2^2 b2^2 = (a . b)^2``.

    Parameters
    ----------
    A : array_like, shape (n, d)
    B : array_like, shape (m, d)

    Returns
    -------
    ndarray, shape (n, m)
    """
    Aa, Ba = _points(A, "A"), _points(B, "B")
    if Aa.shape[1] != Ba.shape[1]:
        raise ValueError(f"B must have {Aa.shape[1]} columns like A; got {Ba.shape[1]}")
    K = (Aa @ Ba.T) ** 2
    return np.asarray(K + 1.0 if bias else K, dtype=np.float64)


def kernel_train(
    X: Any, y: Any, *, bias: bool = True, max_epochs: int = 1000, rule: str = "nonpositive"
) -> KernelTrace:
    """Run the dual perceptron in the given order until a full pass makes no mistake.

    Makes the same mistakes as ``train(quadratic(X), y, bias=bias, rule=rule)`` (up to
    rounding at activations within machine precision of 0). The activations
    ``f_i = w . phi~(x_i)`` of all examples are kept and, on a mistake on i, updated by
    ``f += y_i K[i, :]``; a pass jumps from one mistake to the next.

    Parameters
    ----------
    X : array_like, shape (n, d)
        n <= 5000 (the Gram matrix is precomputed once).
    y : array_like, shape (n,)
        Labels, each -1 or +1.
    bias : bool
        Include the constant feature 1 (the kernel's ``+ 1``).
    max_epochs : int
        Maximum number of passes, >= 1.
    rule : str
        Mistake convention, a key of ``RULES``.

    Returns
    -------
    KernelTrace

    Raises
    ------
    ValueError
        On a malformed dataset or parameter, naming it.
    """
    X, y = check_data(X, y)
    max_epochs = check_positive_int(max_epochs, "max_epochs")
    rule = check_choice(rule, "rule", tuple(RULES))
    n = X.shape[0]
    if n > MAX_POINTS:
        raise ValueError(f"X has {n} points; the kernel perceptron takes at most {MAX_POINTS}")
    G = poly2_kernel(X, X, bias=bias)  # G[i, j] = K(x_i, x_j)
    tie = np.where(y > 0, RULES[rule].tie_pos, RULES[rule].tie_neg)
    f = np.zeros(n)  # f_i = sum_j alpha_j y_j K(x_j, x_i) = w . phi~(x_i); w0 = 0
    alpha = np.zeros(n, dtype=np.int64)
    steps: list[int] = []
    converged, n_epochs = False, 0
    while n_epochs < max_epochs and not converged:
        s, made = 0, 0
        while s < n:
            # mistake iff y f < 0, or f == 0 where the rule's tie convention says so
            wrong = (y[s:] * f[s:] < 0.0) | ((f[s:] == 0.0) & tie[s:])
            j = int(np.argmax(wrong))
            if not wrong[j]:
                break
            i = s + j
            f += y[i] * G[i]  # w <- w + y_i phi~(x_i)
            alpha[i] += 1
            steps.append(n_epochs * n + i)
            made += 1
            s = i + 1
        n_epochs += 1
        converged = made == 0
    t = np.array(steps, dtype=np.int64)
    mistake_steps = np.column_stack([t, t % n]).astype(np.int64)
    for a in (alpha, mistake_steps):
        a.flags.writeable = False
    return KernelTrace(alpha, mistake_steps, converged, n_epochs, bias)


def kernel_decision(model: KernelTrace, X_train: Any, y_train: Any, X: Any) -> FloatArray:
    """The activation ``w . phi~(x) = sum_i alpha_i y_i K(x_i, x)`` at new points.

    Parameters
    ----------
    model : KernelTrace
    X_train : array_like, shape (n, d)
        The points ``model`` was trained on.
    y_train : array_like, shape (n,)
    X : array_like, shape (m, d)

    Returns
    -------
    ndarray, shape (m,)
        Equal to ``decision(w, quadratic(X), bias=model.bias)`` for the explicit w.
    """
    X_train, y_train = check_data(X_train, y_train)
    if y_train.shape != model.alpha.shape:
        raise ValueError(f"X_train must have the {model.alpha.shape[0]} points of the model")
    Xn = _points(X, "X")
    if Xn.shape[1] != X_train.shape[1]:
        raise ValueError(f"X must have {X_train.shape[1]} columns like X_train; got {Xn.shape[1]}")
    sv = np.flatnonzero(model.alpha)  # only the examples with a mistake contribute
    K = poly2_kernel(X_train[sv], Xn, bias=model.bias)  # (s, m)
    return np.asarray((model.alpha[sv] * y_train[sv]) @ K, dtype=np.float64)

"""The perceptron as stochastic gradient descent on the perceptron criterion.

Seed 002 (EURECOM MALIS) defines the perceptron criterion over the set M(w) of
misclassified points,

    E_p(w) = - sum_{i in M(w)} y_i w.x_i  =  sum_i max(0, -y_i w.x_i),

whose gradient is ``-sum_{i in M} y_i x_i``; SGD with rate alpha on one example
gives ``w <- w + alpha y_i x_i`` on a mistake: the perceptron. Seed 000
(Princeton COS 495, "Example 3: Perceptron") writes the same step as SGD on
``l(w, x, y) = -y w.x 1[mistake on x]``, beside squared loss (Example 1) and
logistic loss (Example 2), and the mini-batch rule "instead of one data point,
work with a small batch of b points".

Every loss here is a function of the functional margin ``z = y w.x``; one SGD
step on it is ``w <- w + eta * (-l'(z)) * y * x``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._checks import (
    FloatArray,
    IntArray,
    by_key,
    check_choice,
    check_data,
    check_positive_int,
    check_run,
)
from .perceptron import RULES, _FinalWeights, augment, train

_CHUNK = 1 << 16  # margins y_i w.x_i per block: 512 KB, one buffer reused (stays in cache)


def perceptron_criterion(W: Any, X: Any, y: Any, *, bias: bool = True) -> FloatArray:
    """Seed 002's perceptron criterion E_p(w) for many weight vectors at once.

    ``E_p(w) = -sum_{i in M(w)} y_i w.x_i = sum_i max(0, -y_i w.x_i)``: zero for a
    correctly classified point, ``|w.x_i|`` for a misclassified one. A point with
    ``w.x_i = 0`` adds 0 whichever tie rule counts it as a mistake, so E_p does not
    depend on the rule. E_p is piecewise linear and positively homogeneous,
    ``E_p(c w) = c E_p(w)`` for ``c >= 0``; ``E_p(0) = 0``.

    Parameters
    ----------
    W : array_like, shape (g, d')
        Weight vectors, one per row (``d' = d + 1`` with bias, the bias last).
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels, each -1 or +1.
    bias : bool
        Append the constant feature 1 to every x.

    Returns
    -------
    ndarray, shape (g,)

    Raises
    ------
    ValueError
        On a malformed dataset, or if W is not a finite (g, d') array.
    """
    X, y = check_data(X, y)
    Xa = augment(X) if bias else X
    d_aug = Xa.shape[1]
    try:
        Wa = np.asarray(W, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"W must be a numeric array of shape (g, {d_aug})") from None
    if Wa.ndim != 2 or Wa.shape[1] != d_aug:
        raise ValueError(f"W must have shape (g, {d_aug}); got shape {Wa.shape}")
    if not np.isfinite(Wa).all():
        raise ValueError("W must contain only finite numbers")
    ZT = np.ascontiguousarray((y[:, None] * Xa).T)  # z_i = y_i x_i, so y_i w.x_i = w.z_i
    out = np.empty(Wa.shape[0])
    rows = max(1, _CHUNK // Xa.shape[0])
    buf = np.empty((min(rows, Wa.shape[0]), Xa.shape[0]))
    for s in range(0, Wa.shape[0], rows):
        margins = buf[: min(rows, Wa.shape[0] - s)]
        np.matmul(Wa[s : s + rows], ZT, out=margins)  # (rows, n): y_i w.x_i
        np.minimum(margins, 0.0, out=margins)  # -max(0, -y_i w.x_i), exactly
        out[s : s + rows] = 0.0 - margins.sum(axis=1)  # 0.0 - : never -0.0
    return out


# --- losses of the margin z = y w.x -------------------------------------------------


def _perceptron(z: FloatArray) -> FloatArray:
    return np.maximum(-z, 0.0)


def _perceptron_step(z: FloatArray) -> FloatArray:
    return (z <= 0.0).astype(np.float64)  # the subgradient 1 at z = 0: w = 0 errs (seed 001)


def _hinge(z: FloatArray) -> FloatArray:
    return np.maximum(1.0 - z, 0.0)


def _hinge_step(z: FloatArray) -> FloatArray:
    return (z < 1.0).astype(np.float64)


def _logistic(z: FloatArray) -> FloatArray:
    return np.logaddexp(0.0, -z)  # log(1 + e^{-z}), without overflow


def _logistic_step(z: FloatArray) -> FloatArray:
    return np.exp(-np.logaddexp(0.0, z))  # sigma(-z) = 1 / (1 + e^{z})


def _squared(z: FloatArray) -> FloatArray:
    return (1.0 - z) ** 2  # (w.x - y)^2 = (1 - y w.x)^2 since y^2 = 1


def _squared_step(z: FloatArray) -> FloatArray:
    return 2.0 * (1.0 - z)


def _zero_one(z: FloatArray) -> FloatArray:
    return (z <= 0.0).astype(np.float64)


def _zero_one_step(z: FloatArray) -> FloatArray:
    return np.zeros_like(z)  # piecewise constant: no gradient to follow (seed 002)


@dataclass(frozen=True)
class Loss:
    """A loss l(z) of the functional margin ``z = y w.x`` and the SGD step it gives.

    ``step(z) = -l'(z)``: one SGD step on l at example (x, y) is
    ``w <- w + eta * step(z) * y * x``.
    """

    key: str
    title: str
    latex: str  # l(z) in LaTeX
    step_latex: str  # -l'(z) in LaTeX
    source: str
    fn: Callable[[FloatArray], FloatArray]
    step: Callable[[FloatArray], FloatArray]


LOSSES: dict[str, Loss] = by_key(
    Loss(
        "zero_one",
        "0-1 (mistakes)",
        r"\mathbb{1}[z \le 0]",
        r"0",
        "the 0/1 loss: piecewise constant, no gradient (EURECOM MALIS)",
        _zero_one,
        _zero_one_step,
    ),
    Loss(
        "perceptron",
        "perceptron",
        r"\max(0, -z)",
        r"\mathbb{1}[z \le 0]",
        "the criterion Eₚ (EURECOM MALIS); Princeton COS 495's Example 3",
        _perceptron,
        _perceptron_step,
    ),
    Loss(
        "hinge",
        "hinge (SVM)",
        r"\max(0, 1 - z)",
        r"\mathbb{1}[z < 1]",
        "the perceptron loss moved by a margin of 1",
        _hinge,
        _hinge_step,
    ),
    Loss(
        "logistic",
        "logistic",
        r"\log(1 + e^{-z})",
        r"\sigma(-z) = \frac{1}{1 + e^{z}}",
        "Princeton COS 495's Example 2 (logistic regression)",
        _logistic,
        _logistic_step,
    ),
    Loss(
        "squared",
        "squared",
        r"(1 - z)^2",
        r"2(1 - z)",
        "Princeton COS 495's Example 1 (linear regression): (w·x − y)² = (1 − z)²",
        _squared,
        _squared_step,
    ),
)


def margin_loss(key: str, z: Any) -> FloatArray:
    """The loss ``key`` of ``LOSSES`` at margins z (array_like, any shape; same shape out)."""
    key = check_choice(key, "loss", tuple(LOSSES))
    return LOSSES[key].fn(np.asarray(z, dtype=np.float64))


def loss_step(key: str, z: Any) -> FloatArray:
    """``-l'(z)``: the multiple of ``y x`` one SGD step on loss ``key`` adds (times eta)."""
    key = check_choice(key, "loss", tuple(LOSSES))
    return LOSSES[key].step(np.asarray(z, dtype=np.float64))


# --- online, mini-batch and batch ----------------------------------------------------


@dataclass(frozen=True, eq=False)
class BatchTrace(_FinalWeights):
    """What one run of the mini-batch perceptron did.

    A **mistake** is an example of a batch with ``y_i w.x_i <= 0`` (under the run's
    tie rule), w being the weights at the start of that batch: every example of a
    batch is judged by the same w. An **update** is one change of w: a batch with at
    least one mistake moves w once, by ``eta * sum_{i in batch, mistake} y_i x_i``
    (the negative gradient of E_p restricted to the batch), so updates <= mistakes,
    with equality for batch size 1 (online).

    Attributes
    ----------
    weights : ndarray, shape (n_updates + 1, d')
        Row 0 is w0; row k is w after the k-th update.
    update_epochs : ndarray of int, shape (n_updates,)
        The epoch (0-based) of each update.
    update_mistakes : ndarray of int, shape (n_updates,)
        How many mistakes of its batch each update summed (>= 1).
    mistakes_per_epoch, updates_per_epoch : ndarray of int, shape (n_epochs,)
    converged : bool
        True iff some full pass made no mistake.
    n_epochs : int
        Passes run, including the final mistake-free one if converged.
    n_examples, batch_size : int
    bias, eta, rule, average
        The settings of the run.
    """

    weights: FloatArray
    update_epochs: IntArray
    update_mistakes: IntArray
    mistakes_per_epoch: IntArray
    updates_per_epoch: IntArray
    converged: bool
    n_epochs: int
    n_examples: int
    batch_size: int
    bias: bool
    eta: float
    rule: str
    average: bool

    @property
    def n_updates(self) -> int:
        """Number of times w changed."""
        return int(self.update_epochs.shape[0])

    @property
    def n_mistakes(self) -> int:
        """Number of misclassified examples met, over all batches."""
        return int(self.mistakes_per_epoch.sum())

    @property
    def batches_per_epoch(self) -> int:
        """ceil(n / batch_size); the last batch of a pass may be smaller."""
        return math.ceil(self.n_examples / self.batch_size)


def minibatch_train(
    X: Any,
    y: Any,
    *,
    batch_size: int,
    bias: bool = True,
    max_epochs: int = 100,
    w0: Any = None,
    eta: float = 1.0,
    seed: int | None = None,
    rule: str = "nonpositive",
    average: bool = False,
) -> BatchTrace:
    """The perceptron in mini-batches: SGD on E_p with b examples per step.

    Each pass cuts the examples (in the given order, or reshuffled every pass from
    ``seed`` exactly as ``train`` does) into consecutive batches of ``batch_size``
    (the last may be smaller). For each batch B, with w fixed for the whole batch,

        M_B = {i in B : y_i w.x_i <= 0}     (the run's tie rule decides w.x_i = 0)
        w  <- w + eta * sum_{i in M_B} y_i x_i     if M_B is not empty,

    i.e. ``w <- w - eta * grad E_p^B(w)`` with E_p^B seed 002's criterion summed
    over the batch's points. ``batch_size = 1`` is the online perceptron (the same
    weights as ``train``); ``batch_size = n`` is batch gradient descent on E_p, one
    update per pass. With ``average=True`` the sum is divided by the batch's size,
    seed 000's mini-batch rule ``(1/b) sum``: from ``w0 = 0`` with equal batches
    that only rescales w by 1/b. The run stops after the first pass with no
    mistake, or after ``max_epochs`` passes.

    Parameters
    ----------
    X, y : array_like, shapes (n, d) and (n,)
        The data as ``train`` takes them: finite inputs, labels -1 or +1.
    batch_size : int
        b >= 1; values above n mean n (full batch).
    bias : bool
        Append the constant feature 1 (last) to every x.
    max_epochs : int
        Maximum number of passes, >= 1.
    w0 : array_like, shape (d',), optional
        Starting weights; zeros by default.
    eta : float
        Learning rate, > 0.
    seed : int, optional
        None: the given order every pass; an int: ``np.random.default_rng(seed)``
        draws a new permutation at the start of every pass.
    rule : str
        Mistake convention, a key of ``RULES``.
    average : bool
        Divide each batch's sum by the batch's size (seed 000) instead of summing
        (seed 002's E_p).

    Returns
    -------
    BatchTrace

    Raises
    ------
    ValueError
        On a malformed dataset or parameter, naming it.
    """
    batch_size = check_positive_int(batch_size, "batch_size")
    X, y, w, eta, seed = check_run(X, y, bias=bias, w0=w0, eta=eta, seed=seed)
    max_epochs = check_positive_int(max_epochs, "max_epochs")
    rule = check_choice(rule, "rule", tuple(RULES))
    n = X.shape[0]
    b = min(batch_size, n)
    Xa = augment(X) if bias else X
    d_aug = Xa.shape[1]
    if b == 1:  # the online perceptron: train's compiled loop, the same weights and order
        return _online(X, y, None if w0 is None else w, bias, max_epochs, eta, seed, rule, average)
    tie = np.where(y > 0, RULES[rule].tie_pos, RULES[rule].tie_neg)
    rng = None if seed is None else np.random.default_rng(seed)

    weights = [w.copy()]
    update_epochs: list[int] = []
    update_mistakes: list[int] = []
    mistakes_per_epoch: list[int] = []
    updates_per_epoch: list[int] = []
    converged = False
    for epoch in range(max_epochs):
        order = np.arange(n) if rng is None else rng.permutation(n)
        Xo, yo, tieo = Xa[order], y[order], tie[order]
        made = updates = 0
        for s in range(0, n, b):
            xb, yb = Xo[s : s + b], yo[s : s + b]
            # activation a_i = sum_j w_j x_ij, summed in train's order (the same rounding)
            a = xb[:, 0] * w[0]
            for j in range(1, d_aug):
                a = a + xb[:, j] * w[j]
            # mistake iff y w.x < 0, or w.x == 0 where the rule's tie convention says so
            wrong = (yb * a < 0.0) | ((a == 0.0) & tieo[s : s + b])
            k = int(wrong.sum())
            if k == 0:
                continue
            # on mistakes: w <- w + eta * sum_{i in M_B} y_i x_i  (= w - eta * grad E_p^B)
            step = eta / len(yb) if average else eta
            w = w + step * (yb[wrong][:, None] * xb[wrong]).sum(axis=0)
            weights.append(w.copy())
            update_epochs.append(epoch)
            update_mistakes.append(k)
            made += k
            updates += 1
        mistakes_per_epoch.append(made)
        updates_per_epoch.append(updates)
        if made == 0:
            converged = True
            break

    def ints(values: list[int]) -> IntArray:
        a = np.array(values, dtype=np.int64)
        a.flags.writeable = False
        return a

    W = np.array(weights)
    W.flags.writeable = False
    return BatchTrace(
        weights=W,
        update_epochs=ints(update_epochs),
        update_mistakes=ints(update_mistakes),
        mistakes_per_epoch=ints(mistakes_per_epoch),
        updates_per_epoch=ints(updates_per_epoch),
        converged=converged,
        n_epochs=len(mistakes_per_epoch),
        n_examples=n,
        batch_size=b,
        bias=bias,
        eta=eta,
        rule=rule,
        average=average,
    )


def _online(
    X: FloatArray,
    y: FloatArray,
    w0: FloatArray | None,
    bias: bool,
    max_epochs: int,
    eta: float,
    seed: int | None,
    rule: str,
    average: bool,
) -> BatchTrace:
    """``minibatch_train`` with b = 1, read off ``train`` (one update per mistake).

    A batch of one is the online perceptron: the same activations summed in the same
    order, the same permutation per pass from the same generator, and the step
    eta / 1 = eta even when averaging, so the weights are ``train``'s exactly; the
    compiled loop makes 20,000 examples take milliseconds instead of 0.2 s of Python.
    """
    trace = train(X, y, bias=bias, max_epochs=max_epochs, w0=w0, eta=eta, seed=seed, rule=rule)
    n = X.shape[0]
    epochs = (trace.mistake_steps[:, 0] // n).astype(np.int64)
    per_epoch = np.bincount(epochs, minlength=trace.n_epochs).astype(np.int64)
    ones = np.ones(epochs.shape[0], dtype=np.int64)
    for a in (epochs, per_epoch, ones):
        a.flags.writeable = False
    return BatchTrace(
        weights=trace.weights,
        update_epochs=epochs,
        update_mistakes=ones,
        mistakes_per_epoch=per_epoch,
        updates_per_epoch=per_epoch,
        converged=trace.converged,
        n_epochs=trace.n_epochs,
        n_examples=n,
        batch_size=1,
        bias=bias,
        eta=eta,
        rule=rule,
        average=average,
    )

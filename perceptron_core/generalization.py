"""Generalization of the perceptron's variants: a held-out split, errors per epoch,
and many runs over orders and starts.

Seed 003 lists the plain perceptron's limitations, "mediocre generation" (sic:
generalization) and "overtraining" (test accuracy rises and then falls), and the remedy of
Freund & Schapire (1999): vote or average all the weight vectors of the run.
Seed 002 adds that on separable data there are many solutions, "and which one is
found depends on the starting values". Everything here reads one ``Trace`` per run, so the last,
averaged and voted perceptrons are compared on exactly the same stream.

Errors are prediction errors: a point counts as wrong when the predicted label
(+1 iff the score is > 0, else -1) differs from y.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._checks import (
    FloatArray,
    IntArray,
    check_data,
    check_positive_float,
    check_positive_int,
    check_seed,
)
from .perceptron import Trace, augment, train
from .variants import _sign_sums, averaged_weights

METHODS = ("last", "averaged", "voted")
_BLOCK = 2_000_000  # entries of an (end times x points) block: ~16 MB of float64


def holdout_split(
    y: Any, *, test_fraction: float = 0.3, seed: int = 0
) -> tuple[IntArray, IntArray]:
    """A seeded, stratified train/test split.

    Each class is shuffled with ``np.random.default_rng(seed)`` and
    ``round(test_fraction * n_class)`` of its points go to the test set, keeping
    at least one point of every class with two or more in each part.

    Parameters
    ----------
    y : array_like, shape (n,)
        Labels, each -1 or +1.
    test_fraction : float
        In (0, 1).
    seed : int

    Returns
    -------
    train, test : ndarray of int
        Sorted indices into y; together every index exactly once.
    """
    ya = np.asarray(y, dtype=np.float64).reshape(-1)
    _, ya = check_data(np.zeros((ya.shape[0], 1)), ya)
    test_fraction = check_positive_float(test_fraction, "test_fraction")
    if not test_fraction < 1.0:
        raise ValueError(f"test_fraction must be between 0 and 1; got {test_fraction!r}")
    rng = np.random.default_rng(check_seed(seed))
    test: list[IntArray] = []
    for label in (1.0, -1.0):
        idx = rng.permutation(np.flatnonzero(ya == label)).astype(np.int64)
        k = round(test_fraction * idx.shape[0])
        if idx.shape[0] >= 2:
            k = min(max(k, 1), idx.shape[0] - 1)
        test.append(idx[:k])
    test_idx = np.sort(np.concatenate(test))
    train_idx = np.setdiff1d(np.arange(ya.shape[0]), test_idx).astype(np.int64)
    return train_idx, test_idx.astype(np.int64)


def flip_labels(y: Any, *, fraction: float, seed: int = 0) -> tuple[FloatArray, IntArray]:
    """Label noise (seed 003's "noise can cause this"): flip exactly
    ``round(fraction * n)`` labels, chosen with ``np.random.default_rng(seed)``.

    Parameters
    ----------
    y : array_like, shape (n,)
    fraction : float
        In [0, 1].

    Returns
    -------
    y_noisy : ndarray, shape (n,)
    flipped : ndarray of int
        Sorted indices of the flipped labels.
    """
    ya = np.asarray(y, dtype=np.float64).reshape(-1)
    _, ya = check_data(np.zeros((ya.shape[0], 1)), ya)
    if isinstance(fraction, bool) or not 0.0 <= float(fraction) <= 1.0:
        raise ValueError(f"fraction must be a number from 0 to 1; got {fraction!r}")
    rng = np.random.default_rng(check_seed(seed))
    k = round(float(fraction) * ya.shape[0])
    flipped = np.sort(rng.choice(ya.shape[0], size=k, replace=False)).astype(np.int64)
    out = ya.copy()
    out[flipped] = -out[flipped]
    return out, flipped


def _augmented(trace: Trace, X: FloatArray) -> FloatArray:
    """The rows of X as the run saw its examples (with the constant 1 if it had a bias)."""
    Xa = augment(X) if trace.bias else X
    if Xa.shape[1] != trace.weights.shape[1]:
        raise ValueError(
            f"X must have {trace.weights.shape[1] - int(trace.bias)} columns, like the "
            f"training data; got {X.shape[1]}"
        )
    return np.asarray(Xa, dtype=np.float64)


def _wrong(scores: FloatArray, y: FloatArray) -> IntArray:
    """Points whose predicted label (+1 iff score > 0, else -1) differs from y, per row."""
    predicted = np.where(scores > 0.0, 1.0, -1.0)
    wrong: IntArray = (predicted != y[None, :]).sum(axis=1)
    return wrong


def _errors_at(trace: Trace, ends: IntArray, X: FloatArray, y: FloatArray) -> dict[str, FloatArray]:
    """Prediction error of the last, averaged and voted perceptron after each T in ``ends``.

    With k(T) the vector current after step T, s_k the step that made w_k and
    c_k(T) = s_{k+1} - s_k for the vectors replaced by T, T - s_{k(T)} for the
    current one (0 for those not made yet):

    - last: w_{k(T)} . x;
    - averaged: sum_k c_k(T) w_k . x = v(T) . x with v(T) = sum_k c_k(T) w_k, a running
      total over k read at k(T): O(K d) for all T, then O(m d) per T;
    - voted: sum_k c_k(T) sign(w_k . x), the one O(K m) part (``_sign_sums``: blocks of
      vectors through a reused buffer; integer terms, so the sums are exact).

    ``ends`` must be ascending.
    """
    Xa = _augmented(trace, X)
    W = np.asarray(trace.weights, dtype=np.float64)
    s = np.concatenate([[0], trace.mistake_steps[:, 0]]).astype(np.int64)  # s_k, (K+1,)
    k_now = np.searchsorted(trace.mistake_steps[:, 0], ends, side="left")  # k(T)
    share = (ends - s[k_now]).astype(np.float64)[:, None]  # (E, 1): T - s_k(T)
    full = np.diff(s).astype(np.float64)  # (K,): the count of a vector replaced by T
    running = np.vstack([np.zeros((1, W.shape[1])), np.cumsum(full[:, None] * W[:-1], axis=0)])
    v = running[k_now] + share * W[k_now]  # (E, d'): sum_k c_k(T) w_k
    wrong = {m: np.zeros(ends.shape[0], dtype=np.int64) for m in METHODS}
    cols = max(1, _BLOCK // ends.shape[0])
    for start in range(0, Xa.shape[0], cols):  # blocks of points bound the (E, m) arrays
        Xb, yb = Xa[start : start + cols], y[start : start + cols]
        last = W[k_now] @ Xb.T  # (E, b)
        wrong["last"] += _wrong(last, yb)
        wrong["averaged"] += _wrong(v @ Xb.T, yb)
        votes = _sign_sums(W[:-1], full, Xb, k_now) + share * np.sign(last)
        wrong["voted"] += _wrong(votes, yb)
    return {m: wrong[m] / Xa.shape[0] for m in METHODS}


@dataclass(frozen=True, eq=False)
class EpochErrors:
    """Training and test error of the three read-outs of one run, epoch by epoch.

    Attributes
    ----------
    epochs : ndarray of int, shape (E,)
        1, 2, ..., E: errors are measured at the end of each epoch.
    train, test : dict of str to ndarray, shape (E,)
        For each of ``METHODS`` ("last", "averaged", "voted"): the fraction of
        training (test) points predicted wrong.
    n_vectors : ndarray of int, shape (E,)
        Weight vectors the voted perceptron keeps at the end of each epoch
        (K + 1: w0 and one per mistake so far); the averaged one keeps one.
    """

    epochs: IntArray
    train: dict[str, FloatArray]
    test: dict[str, FloatArray]
    n_vectors: IntArray


def epoch_errors(
    trace: Trace,
    X_train: Any,
    y_train: Any,
    X_test: Any,
    y_test: Any,
    *,
    epochs: int | None = None,
) -> EpochErrors:
    """Errors per epoch of the last, averaged and voted perceptron of one run.

    Parameters
    ----------
    trace : Trace
        A run on (X_train, y_train).
    X_train : array_like, shape (n, d)
    y_train : array_like, shape (n,)
    X_test : array_like, shape (m, d)
    y_test : array_like, shape (m,)
    epochs : int, optional
        E, the number of epochs (seed 003's T); the run's own by default. A
        converged run is continued: its last w makes no more mistakes.

    Returns
    -------
    EpochErrors
    """
    X_train, y_train = check_data(X_train, y_train)
    X_test, y_test = check_data(X_test, y_test)
    if X_train.shape[0] != trace.n_examples:
        raise ValueError(
            f"X_train must be the {trace.n_examples} points the run saw; got {X_train.shape[0]}"
        )
    E = trace.n_epochs if epochs is None else check_positive_int(epochs, "epochs")
    if trace.n_epochs < E and not trace.converged:
        raise ValueError(
            f"epochs must be at most {trace.n_epochs}: the run stopped there without "
            f"converging; got {E}"
        )
    ends = np.arange(1, E + 1, dtype=np.int64) * trace.n_examples  # T at the end of each epoch
    k = np.searchsorted(trace.mistake_steps[:, 0], ends, side="left")
    return EpochErrors(
        epochs=np.arange(1, E + 1, dtype=np.int64),
        train=_errors_at(trace, ends, X_train, y_train),
        test=_errors_at(trace, ends, X_test, y_test),
        n_vectors=(k + 1).astype(np.int64),
    )


@dataclass(frozen=True, eq=False)
class ManyRuns:
    """Many runs of the perceptron on one training set, each with its own order and start.

    Run r draws from ``np.random.default_rng((seed, r))``: a start w0 of norm
    ``w0_norm`` in a uniformly random direction, then a seed for reshuffling
    the examples at every pass.

    Attributes
    ----------
    w0, w, w_avg : ndarray, shape (runs, d')
        Start, final (last) and averaged weights after ``max_epochs`` epochs.
    n_mistakes : ndarray of int, shape (runs,)
        M, the number of updates of each run.
    converged : ndarray of bool, shape (runs,)
    n_vectors : ndarray of int, shape (runs,)
        Weight vectors the voted perceptron keeps (M + 1).
    test_error : dict of str to ndarray, shape (runs,)
        For each of ``METHODS``: the fraction of test points predicted wrong.
    """

    w0: FloatArray
    w: FloatArray
    w_avg: FloatArray
    n_mistakes: IntArray
    converged: NDArray[np.bool_]
    n_vectors: IntArray
    test_error: dict[str, FloatArray]


def many_runs(
    X: Any,
    y: Any,
    X_test: Any,
    y_test: Any,
    *,
    runs: int,
    max_epochs: int,
    w0_norm: float = 0.0,
    seed: int = 0,
    bias: bool = True,
) -> ManyRuns:
    """Train ``runs`` perceptrons on (X, y), over seeded orders and starts, and test them.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    X_test : array_like, shape (m, d)
    y_test : array_like, shape (m,)
    runs : int
        >= 1.
    max_epochs : int
        Each run stops after a clean pass or ``max_epochs`` passes; every
        read-out is taken after ``max_epochs`` epochs (a converged run keeps its w).
    w0_norm : float
        ||w0|| >= 0; 0 starts every run at w0 = 0, so only the order differs.
    seed : int
    bias : bool

    Returns
    -------
    ManyRuns
    """
    X, y = check_data(X, y)
    X_test, y_test = check_data(X_test, y_test)
    runs = check_positive_int(runs, "runs")
    max_epochs = check_positive_int(max_epochs, "max_epochs")
    seed_ = check_seed(seed)
    if isinstance(w0_norm, bool) or not np.isfinite(w0_norm) or w0_norm < 0:
        raise ValueError(f"w0_norm must be a finite number >= 0; got {w0_norm!r}")
    d = X.shape[1] + int(bias)
    T = np.array([max_epochs * X.shape[0]], dtype=np.int64)
    W0, W, W_avg = np.zeros((runs, d)), np.zeros((runs, d)), np.zeros((runs, d))
    M = np.zeros(runs, dtype=np.int64)
    converged = np.zeros(runs, dtype=np.bool_)
    errors = {m: np.zeros(runs) for m in METHODS}
    for r in range(runs):
        rng = np.random.default_rng((seed_ or 0, r))
        u = rng.standard_normal(d)
        W0[r] = float(w0_norm) * u / np.linalg.norm(u)
        trace = train(
            X, y, bias=bias, max_epochs=max_epochs, w0=W0[r], seed=int(rng.integers(2**31))
        )
        W[r], W_avg[r] = trace.w, averaged_weights(trace, steps=int(T[0]))
        M[r], converged[r] = trace.n_mistakes, trace.converged
        for m, e in _errors_at(trace, T, X_test, y_test).items():
            errors[m][r] = e[0]
    return ManyRuns(
        w0=W0,
        w=W,
        w_avg=W_avg,
        n_mistakes=M,
        converged=converged,
        n_vectors=M + 1,
        test_error=errors,
    )

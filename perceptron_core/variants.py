"""Averaged, voted and pocket perceptrons, all read off one ``Trace``.

Freund & Schapire (1999), as in seed 003: every weight vector w_k of a run
"survives" c_k steps, the number of steps after which it was the current one
(the vector made at a mistake counts that step). With s_k the step of the k-th
mistake, s_0 = 0 and s_{K+1} = T:  c_k = s_{k+1} - s_k,  sum_k c_k = T.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._checks import FloatArray, IntArray, check_data, check_positive_int
from .perceptron import Trace, augment


def _steps(trace: Trace, steps: int | None) -> int:
    """The number of steps T to read the run at (default: the whole run)."""
    if steps is None:
        return trace.n_steps
    steps = check_positive_int(steps, "steps")
    if steps > trace.n_steps and not trace.converged:
        raise ValueError(
            f"steps must be at most {trace.n_steps} for this run: it stopped after "
            f"{trace.n_epochs} epochs without converging, so what came next is unknown; "
            f"got {steps}"
        )
    return steps


def survival_counts(trace: Trace, *, steps: int | None = None) -> IntArray:
    """c_k, how many of the first T steps each w_k was current after.

    Parameters
    ----------
    steps : int, optional
        T; the whole run by default. A converged run may be read past its end:
        seed 003 runs all T epochs, and after a clean pass the last w makes no
        more mistakes, so only its count grows.

    Returns
    -------
    ndarray of int, shape (n_mistakes + 1,)
        Sums to T; 0 for the w_k not made yet by step T.
    """
    T = _steps(trace, steps)
    # w_k is current after steps s_k .. s_{k+1} - 1, cut at T: c_k = min(s_{k+1}, T) - min(s_k, T)
    edges = np.minimum(np.concatenate([[0], trace.mistake_steps[:, 0], [max(T, trace.n_steps)]]), T)
    counts: IntArray = np.diff(edges).astype(np.int64)
    return counts


def averaged_weights(trace: Trace, *, steps: int | None = None) -> FloatArray:
    """The averaged perceptron: w_avg = (1/T) sum_k c_k w_k, shape (d',).

    This is the mean of w after every one of the first T steps (``steps``, the
    whole run by default); seed 003 returns the unnormalised sum, which predicts
    the same labels.
    """
    c = survival_counts(trace, steps=steps)
    return np.asarray(c @ trace.weights / c.sum(), dtype=np.float64)


def voted_score(trace: Trace, X: Any, *, steps: int | None = None) -> FloatArray:
    """The voted perceptron's vote, sum_k c_k sign(w_k . x), after the first T steps.

    Parameters
    ----------
    X : array_like, shape (m, d)
    steps : int, optional
        T; the whole run by default (see ``survival_counts``).

    Returns
    -------
    ndarray, shape (m,)
    """
    Xa = np.asarray(X, dtype=np.float64)
    if trace.bias:
        Xa = augment(Xa)
    c = survival_counts(trace, steps=steps)
    keep = c > 0  # vectors not made yet (or never current) have no vote
    W, ck = trace.weights[keep], c[keep].astype(np.float64)
    votes: FloatArray = _sign_sums(W, ck, Xa, np.array([W.shape[0]]))[0]
    return votes


_SIGN_BLOCK = 65_536  # entries of one (vectors x points) block of signs: 512 KB, reused


def _sign_sums(W: FloatArray, counts: FloatArray, Xa: FloatArray, stops: IntArray) -> FloatArray:
    """Weighted votes of the first vectors: sum_{k < stops[e]} counts_k sign(w_k . x).

    The signs of every w_k at every point, summed in blocks of vectors through one
    reused buffer (no large temporaries). With integer counts every partial sum is
    an integer, exact in float64, so the order of summation does not matter.

    Parameters
    ----------
    W : ndarray, shape (K, d')
        The vectors w_k.
    counts : ndarray, shape (K,)
        The weight of each vector's vote.
    Xa : ndarray, shape (m, d')
        The points (augmented when the run has a bias).
    stops : ndarray of int, shape (E,)
        Ascending; row e sums the vectors k < stops[e].

    Returns
    -------
    ndarray, shape (E, m)
    """
    m = Xa.shape[0]
    stops = np.asarray(stops, dtype=np.int64)
    used = int(stops.max(initial=0))
    # vector k votes in row e iff k < stops[e], i.e. in the rows from group[k] on
    group = np.searchsorted(stops, np.arange(used), side="right")
    totals = np.zeros((stops.shape[0] + 1, m))
    XT = np.ascontiguousarray(Xa.T)
    rows = max(1, _SIGN_BLOCK // max(1, m))
    buf = np.empty((min(rows, max(used, 1)), m))
    for start in range(0, used, rows):
        stop = min(start + rows, used)
        A = buf[: stop - start]
        np.matmul(W[start:stop], XT, out=A)
        np.sign(A, out=A)
        g = group[start:stop] - group[start]  # the block's groups, from 0 (ascending)
        P = np.zeros((int(g[-1]) + 1, stop - start))  # each vector's count in its group's row
        P[g, np.arange(stop - start)] = counts[start:stop]
        totals[group[start] : group[start] + P.shape[0]] += P @ A
    sums: FloatArray = np.cumsum(totals, axis=0)[:-1]
    return sums


def voted_predict(trace: Trace, X: Any, *, steps: int | None = None) -> NDArray[np.int64]:
    """The voted perceptron: y = sign(sum_k c_k sign(w_k . x)); +1 iff the vote is > 0.

    Parameters
    ----------
    X : array_like, shape (m, d)
    steps : int, optional
        Read the run after its first T steps (see ``survival_counts``).

    Returns
    -------
    ndarray of int, shape (m,)
    """
    votes = voted_score(trace, X, steps=steps)
    return np.where(votes > 0.0, 1, -1).astype(np.int64)


@dataclass(frozen=True, eq=False)
class Pocket:
    """The pocket perceptron: the w_k of a run with the fewest training errors.

    Attributes
    ----------
    w : ndarray, shape (d',)
    k : int
        Which w_k (0 = w0); the earliest one among ties.
    errors : ndarray of int, shape (n_mistakes + 1,)
        Training errors (y w.x <= 0) of every w_k.
    """

    w: FloatArray
    k: int
    errors: IntArray


def pocket(trace: Trace, X: Any, y: Any) -> Pocket:
    """Keep the best weights seen (Gallant's pocket algorithm with a ratchet).

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    """
    X, y = check_data(X, y)
    Xa = augment(X) if trace.bias else X
    errors = np.empty(trace.weights.shape[0], dtype=np.int64)
    chunk = max(1, 2_000_000 // max(1, Xa.shape[0]))  # bound memory to ~16 MB per block
    for start in range(0, errors.shape[0], chunk):
        block = trace.weights[start : start + chunk] @ Xa.T  # (b, n) activations
        errors[start : start + chunk] = (y * block <= 0.0).sum(axis=1)
    k = int(np.argmin(errors))
    return Pocket(w=trace.weights[k].copy(), k=k, errors=errors)

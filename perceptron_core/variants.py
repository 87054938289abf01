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

from ._checks import FloatArray, IntArray, check_data
from .perceptron import Trace, augment


def survival_counts(trace: Trace) -> IntArray:
    """c_k, how many steps each w_k was current after. Shape (n_mistakes + 1,), sums to T."""
    edges = np.concatenate([[0], trace.mistake_steps[:, 0], [trace.n_steps]])
    return np.diff(edges).astype(np.int64)


def averaged_weights(trace: Trace) -> FloatArray:
    """The averaged perceptron: w_avg = (1/T) sum_k c_k w_k, shape (d',).

    This is the mean of w after every step; seed 003 returns the unnormalised
    sum, which predicts the same labels.
    """
    c = survival_counts(trace)
    return np.asarray(c @ trace.weights / trace.n_steps, dtype=np.float64)


def voted_predict(trace: Trace, X: Any) -> NDArray[np.int64]:
    """The voted perceptron: y = sign(sum_k c_k sign(w_k . x)); +1 iff the vote is > 0.

    Parameters
    ----------
    X : array_like, shape (m, d)

    Returns
    -------
    ndarray of int, shape (m,)
    """
    Xa = np.asarray(X, dtype=np.float64)
    if trace.bias:
        Xa = augment(Xa)
    c = survival_counts(trace)
    votes = c @ np.sign(trace.weights @ Xa.T)  # (K+1,) @ (K+1, m)
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

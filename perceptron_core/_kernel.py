"""The inner loop: one pass of the online perceptron over the data.

Written once in plain Python that numba can compile. ``get_epoch()`` returns the
compiled version (cached on disk, ``nogil`` so a long run never blocks other
threads of the server) when numba is installed, else this very function.
Tests run both against the same reference loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._checks import FloatArray, IntArray

EpochResult = tuple[FloatArray, IntArray, IntArray, FloatArray]


def epoch_python(
    Xa: FloatArray,
    y: FloatArray,
    order: IntArray,
    w: FloatArray,
    eta: float,
    tie_pos: bool,
    tie_neg: bool,
    record: bool,
) -> EpochResult:
    """One pass over ``Xa[order]``; ``w`` is updated in place.

    Parameters
    ----------
    Xa : ndarray, shape (n, d)
        Inputs, already augmented with the constant bias feature if any.
    y : ndarray, shape (n,)
        Labels in {-1, +1}.
    order : ndarray of int, shape (n,)
        The example shown at each position of this pass.
    w : ndarray, shape (d,)
        The current weights; modified in place.
    eta : float
        Learning rate.
    tie_pos, tie_neg : bool
        Whether ``w . x == 0`` counts as a mistake for a +1 / -1 example.
    record : bool
        Whether to return ``y * w . x`` for every position.

    Returns
    -------
    W : ndarray, shape (k, d)
        ``w`` after each of the k mistakes of this pass.
    pos : ndarray of int, shape (k,)
        Position in the pass (0..n-1) of each mistake.
    idx : ndarray of int, shape (k,)
        Example index of each mistake.
    margins : ndarray, shape (n,) if ``record`` else (0,)
        ``y_i * w . x_i`` before the update, at each position.
    """
    n = order.shape[0]
    d = Xa.shape[1]
    cap = 16
    W = np.empty((cap, d))
    pos = np.empty(cap, dtype=np.int64)
    idx = np.empty(cap, dtype=np.int64)
    margins = np.empty(n if record else 0)
    k = 0
    for s in range(n):
        i = order[s]
        a = 0.0  # activation a = w . x_i
        for j in range(d):
            a += w[j] * Xa[i, j]
        yi = y[i]
        m = yi * a  # functional margin y_i * w . x_i
        if record:
            margins[s] = m
        # mistake iff y w.x < 0, or w.x == 0 where the rule's tie convention says so
        if m < 0.0 or (a == 0.0 and (tie_pos if yi > 0.0 else tie_neg)):
            step = eta * yi
            for j in range(d):
                w[j] += step * Xa[i, j]  # on a mistake: w <- w + eta * y * x
            if k == cap:  # grow the buffers geometrically: O(mistakes) memory
                cap *= 2
                W2 = np.empty((cap, d))
                W2[:k] = W[:k]
                W = W2
                pos2 = np.empty(cap, dtype=np.int64)
                pos2[:k] = pos[:k]
                pos = pos2
                idx2 = np.empty(cap, dtype=np.int64)
                idx2[:k] = idx[:k]
                idx = idx2
            W[k] = w
            pos[k] = s
            idx[k] = i
            k += 1
    return W[:k].copy(), pos[:k].copy(), idx[:k].copy(), margins


_compiled: Callable[..., EpochResult] | None = None


def get_epoch() -> Callable[..., EpochResult]:
    """The compiled epoch kernel if numba is available, else ``epoch_python``."""
    global _compiled
    if _compiled is None:
        try:
            import numba
        except ImportError:  # pragma: no cover - numba is in requirements.txt
            _compiled = epoch_python
        else:
            jit: Any = numba.njit(cache=True, nogil=True)
            _compiled = jit(epoch_python)
    return _compiled

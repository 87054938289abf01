"""The inner loop: one pass of the online perceptron over the data.

``scan`` is written once in plain Python that numba can compile; ``get_scan()``
returns the compiled version (cached on disk, ``nogil`` so a long run never
blocks the other threads of a server) when numba is installed, else ``scan``
itself. Tests run both against the same reference loop.

``scan`` writes into buffers it is given and stops when they are full, and
``run_epoch`` hands it bigger ones: memory stays O(mistakes), and the compiled
loop never reallocates (which would cost it a factor of five).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._checks import FloatArray, IntArray


def scan(
    X: FloatArray,
    y: FloatArray,
    order: IntArray,
    start: int,
    w: FloatArray,
    bias: bool,
    eta: float,
    tie_pos: bool,
    tie_neg: bool,
    W: FloatArray,
    pos: IntArray,
    idx: IntArray,
    margins: FloatArray,
) -> tuple[int, int]:
    """Show ``X[order[start:]]`` one at a time until the pass ends or the buffers fill.

    Parameters
    ----------
    X : ndarray, shape (n, d)
        Inputs, without the bias feature.
    y : ndarray, shape (n,)
        Labels in {-1, +1}.
    order : ndarray of int, shape (n,)
        The example shown at each position of this pass.
    start : int
        First position to show.
    w : ndarray, shape (d',)
        Current weights, ``d' = d + 1`` with bias (bias last); updated in place.
    bias : bool
        Whether ``w[d]`` multiplies a constant feature 1.
    eta : float
        Learning rate.
    tie_pos, tie_neg : bool
        Whether ``w . x == 0`` counts as a mistake for a +1 / -1 example.
    W : ndarray, shape (cap, d')
        Out: ``w`` after each mistake.
    pos, idx : ndarray of int, shape (cap,)
        Out: position in the pass and example index of each mistake.
    margins : ndarray, shape (n,) or (0,)
        Out, if non-empty: ``y_i * w . x_i`` before the update at each position.

    Returns
    -------
    k : int
        Mistakes written to the buffers.
    stop : int
        Next position to show (n when the pass is complete).
    """
    n = order.shape[0]
    d = X.shape[1]
    cap = W.shape[0]
    record = margins.shape[0] > 0
    k = 0
    s = start
    while s < n and k < cap:
        i = int(order[s])
        a = 0.0  # activation a = w . x_i (+ w_bias * 1)
        for j in range(d):
            a += w[j] * X[i, j]
        if bias:
            a += float(w[d])
        yi = float(y[i])
        m = yi * a  # functional margin y_i * w . x_i
        if record:
            margins[s] = m
        # mistake iff y w.x < 0, or w.x == 0 where the rule's tie convention says so
        if m < 0.0 or (a == 0.0 and (tie_pos if yi > 0.0 else tie_neg)):
            step = eta * yi
            for j in range(d):
                w[j] += step * X[i, j]  # on a mistake: w <- w + eta * y * x
            if bias:
                w[d] += step  # ... whose last feature is the constant 1
            for j in range(w.shape[0]):
                W[k, j] = w[j]
            pos[k] = s
            idx[k] = i
            k += 1
        s += 1
    return k, s


_compiled: Callable[..., tuple[int, int]] | None = None


def get_scan() -> Callable[..., tuple[int, int]]:
    """The compiled ``scan`` if numba is available, else the plain-Python one."""
    global _compiled
    if _compiled is None:
        try:
            import numba
        except ImportError:  # pragma: no cover - numba is in requirements.txt
            _compiled = scan
        else:
            jit: Any = numba.njit(cache=True, nogil=True)
            _compiled = jit(scan)
    return _compiled


def run_epoch(
    scan_fn: Callable[..., tuple[int, int]],
    X: FloatArray,
    y: FloatArray,
    order: IntArray,
    w: FloatArray,
    bias: bool,
    eta: float,
    tie_pos: bool,
    tie_neg: bool,
    record: bool,
) -> tuple[FloatArray, IntArray, IntArray, FloatArray]:
    """One full pass; returns (W (k, d'), pos (k,), idx (k,), margins (n,) or (0,))."""
    n = order.shape[0]
    margins = np.empty(n if record else 0)
    Ws: list[FloatArray] = []
    poss: list[IntArray] = []
    idxs: list[IntArray] = []
    cap, s = 64, 0
    while s < n:
        W = np.empty((cap, w.shape[0]))
        pos = np.empty(cap, dtype=np.int64)
        idx = np.empty(cap, dtype=np.int64)
        k, s = scan_fn(X, y, order, s, w, bias, eta, tie_pos, tie_neg, W, pos, idx, margins)
        Ws.append(W[:k])
        poss.append(pos[:k])
        idxs.append(idx[:k])
        cap = min(2 * cap, 1 << 20)  # geometric growth: O(mistakes) memory, few calls
    if len(Ws) == 1:
        return Ws[0].copy(), poss[0].copy(), idxs[0].copy(), margins
    return np.concatenate(Ws), np.concatenate(poss), np.concatenate(idxs), margins

"""Non-convergence made visible: mistakes per epoch, and the cycle the weights fall into.

In the given order (``train(..., seed=None)``) the run is a deterministic function of its
state ``(w before step t, t mod n)``. On non-separable data the perceptron never stops (seeds
002, 003: it "does not converge", "may not terminate"). Yet ||w|| stays bounded (the
perceptron cycling theorem: Minsky & Papert 1969, Block & Levin 1970; no seed states it),
and with integer inputs w lives on a lattice, so some state recurs and from then on the run
repeats itself exactly: a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import FloatArray, IntArray
from .perceptron import Trace


@dataclass(frozen=True, eq=False)
class Cycle:
    """The periodic regime of a run: ``state(t + period) = state(t)`` for all t >= start.

    Attributes
    ----------
    start : int
        The first step t whose state ``(w before t, t mod n)`` recurs later.
    period : int
        Steps per cycle, the least such; a multiple of n.
    mistakes_per_period : int
        Mistakes made at steps ``start, ..., start + period - 1`` (p, at least 1).
    weights : ndarray, shape (p, d')
        The weights in force in turn during one period: w before ``start``, then w after
        each mistake of the period but the last (which brings back the first). A vector
        may appear twice if the run meets it at two places of the epoch.
    """

    start: int
    period: int
    mistakes_per_period: int
    weights: FloatArray


def _check(trace: Trace) -> None:
    if not isinstance(trace, Trace):
        raise ValueError(f"trace must be a Trace returned by train(); got {type(trace).__name__}")


def epoch_mistakes(trace: Trace) -> IntArray:
    """Mistakes made in each epoch (step t is in epoch ``t // n``).

    Returns
    -------
    ndarray of int, shape (n_epochs,)
        Sums to ``trace.n_mistakes``; it never reaches 0 on non-separable data.
    """
    _check(trace)
    epochs = trace.mistake_steps[:, 0] // trace.n_examples
    return np.bincount(epochs, minlength=trace.n_epochs).astype(np.int64)


def find_cycle(trace: Trace) -> Cycle | None:
    """Find where a run in the given order starts repeating itself, and its period.

    The state before step t is ``(w before t, t mod n)``, for t = 0, ..., T (T = n_steps:
    the final w). Weights are compared exactly (``-0.0 == 0.0``: the run cannot tell them
    apart). Each distinct weight vector gets an id g, each state the integer key
    ``g * n + t mod n``, and the first t2 whose key occurred at some t1 < t2 closes the
    cycle: ``start = t1``, ``period = t2 - t1``. By determinism ``state(t + period) =
    state(t)`` for every t >= start. Only ``trace.weights`` and ``trace.mistake_steps``
    are used; time and memory O(T log T).

    Parameters
    ----------
    trace : Trace
        A run in the given order (``seed=None``); a reshuffled run has no such state.

    Returns
    -------
    Cycle or None
        None when the run converged, no state recurs within the recorded steps, or the
        first recurrence makes no mistake (n clean steps in a row: the run is converging).

    Raises
    ------
    ValueError
        If ``trace`` is not a Trace, or its recorded steps show a reshuffled order.
    """
    _check(trace)
    n, T = trace.n_examples, trace.n_steps
    if trace.steps is not None and not np.array_equal(
        trace.steps.index, np.tile(np.arange(n), trace.n_epochs)
    ):
        raise ValueError("trace must come from a run in the given order (train(..., seed=None))")
    if trace.converged or trace.n_mistakes == 0:
        return None
    W = trace.weights + 0.0  # + 0.0 turns -0.0 into 0.0
    order = np.lexsort(W.T)  # equal rows side by side
    ranked = W[order]
    new = np.concatenate([[True], (ranked[1:] != ranked[:-1]).any(axis=1)])
    g = np.empty(len(W), dtype=np.int64)
    g[order] = np.cumsum(new) - 1  # g[k]: id of the distinct vector w_k
    t = np.arange(T + 1, dtype=np.int64)
    k = np.searchsorted(trace.mistake_steps[:, 0], t, side="left")  # w before t is w_k
    _, first, which = np.unique(g[k] * n + t % n, return_index=True, return_inverse=True)
    seen = np.ones(T + 1, dtype=bool)
    seen[first] = False  # seen[t]: the state at t occurred before
    if not seen.any():
        return None
    t2 = int(np.argmax(seen))
    t1 = int(first[which.reshape(-1)[t2]])
    m = int(k[t2] - k[t1])  # mistakes at steps t1, ..., t2 - 1
    if m == 0:
        return None
    weights = np.array(trace.weights[k[t1] : k[t1] + m], dtype=np.float64)
    weights.flags.writeable = False
    return Cycle(start=t1, period=t2 - t1, mistakes_per_period=m, weights=weights)

"""Cached engine calls of the SGD page (``ui.server.cache``: by value, within a byte budget)."""

from __future__ import annotations

import numpy as np

from perceptron_core import BatchTrace, Trace, minibatch_train, nonseparability_witness, train
from ui.server.cache import cached
from ui.sgd import figures as sgd

MAX_STEPS = 20_000  # examples shown per run (epochs x n): the mini-batch loop is plain numpy


def epochs_within_cap(epochs: int, n: int) -> int:
    """The epochs a run may take on n points: at most MAX_STEPS examples shown, at least 1."""
    return max(1, min(epochs, MAX_STEPS // max(n, 1)))


@cached(max_mb=1)
def separable(X: np.ndarray, y: np.ndarray, bias: bool) -> bool:
    """Does some line separate the data (through the origin unless ``bias``)?"""
    return nonseparability_witness(X, y, bias=bias) is None


@cached(max_mb=16, heavy=True)
def online(
    X: np.ndarray, y: np.ndarray, epochs: int, eta: float, w0: tuple[float, float] | None
) -> Trace:
    """The online perceptron without bias, in the given order."""
    return train(X, y, bias=False, max_epochs=epochs, eta=eta, w0=w0)


@cached(max_mb=8, heavy=True)
def batches(X: np.ndarray, y: np.ndarray, b: int, epochs: int, seed: int | None) -> BatchTrace:
    """Mini-batches of b without bias (b = 1 online, b >= n batch)."""
    return minibatch_train(
        X, y, batch_size=b, bias=False, max_epochs=epochs_within_cap(epochs, len(y)), seed=seed
    )


@cached(max_mb=8, heavy=True)
def surface(X: np.ndarray, y: np.ndarray, r: float, size: int = sgd.GRID) -> sgd.Surface:
    """E_p on the grid [-r, r]² (coarser for large n, see ``sgd.grid_size``)."""
    return sgd.surface(X, y, r, sgd.grid_size(len(y), size))

"""The cached engine calls that several lessons share: the registry datasets and
the lecture's run (``ui.server.cache``: by value, in a byte budget).

Students on the default settings share one cache entry; nothing cached is
mutable shared state.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from perceptron_core import make_dataset
from ui.compute.model import Run, RunSettings, record_run
from ui.server.cache import cached


@cached(max_mb=8)
def dataset(
    name: str, n: int, seed: int, params: tuple[tuple[str, float], ...]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """A registry dataset, by value (X (n, 2), y (n,))."""
    return make_dataset(name, n=n, seed=seed, **dict(params))


@cached(max_mb=48, heavy=True)
def lecture_run(X: np.ndarray, y: np.ndarray, settings: RunSettings) -> Run:
    """``model.record_run``, cached."""
    return record_run(X, y, settings)

"""Cached experiments of the variants page (``ui.server.cache``: by value, in a byte budget).

Bounded: the 2-D set has at most 500 points (350 for training) and 100 epochs, so at most
35,000 steps per run; the digit pairs have about 360 images; the many runs of section 3
see at most ``variants.MAX_RUN_STEPS`` examples in all.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from perceptron_core import make_dataset
from ui.server.cache import cached
from ui.variants import figures as variants


@cached(max_mb=4)
def digits() -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's bundled 8x8 handwritten digits (ships inside the package, no download):
    X (1797, 64) with pixels scaled to [0, 1], and the digit of each image."""
    return variants.bundled_digits()  # the file scikit-learn ships, without importing it


def digit_pair(pair: str) -> tuple[np.ndarray, np.ndarray]:
    """The images of one pair of digits: label +1 for the first digit, -1 for the second."""
    a, b = variants.PAIRS[pair]
    X, target = digits()
    sel = (target == a) | (target == b)
    return X[sel], np.where(target[sel] == a, 1.0, -1.0)


@cached(max_mb=2)
def own_data(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The page's own 2-D set: the registry's separable set (margin 0.3, radius 3) of n points."""
    return make_dataset("separable", n=n, seed=seed)


@cached(max_mb=8, heavy=True)
def two_d(
    X: np.ndarray, y: np.ndarray, noise: float, epochs: int, seed: int
) -> tuple[variants.Experiment, dict[str, Any]]:
    """The 2-D experiment and the voted perceptron's vote on a grid."""
    exp, trace = variants.experiment(X, y, noise=noise, epochs=epochs, seed=seed)
    grid = variants.voted_grid(
        trace, np.vstack([exp.X_train, exp.X_test]), epochs * len(exp.y_train)
    )
    return exp, grid


@cached(max_mb=8, heavy=True)
def digits_run(pair: str, noise: float, epochs: int, seed: int) -> variants.Experiment:
    """The same experiment on one pair of digits (64 pixels)."""
    X, y = digit_pair(pair)
    return variants.experiment(X, y, noise=noise, epochs=epochs, seed=seed)[0]


@cached(max_mb=8, heavy=True)
def starts_2d(
    X: np.ndarray, y: np.ndarray, runs: int, epochs: int, w0_norm: float, seed: int
) -> variants.Starts:
    """Many runs on the clean 2-D training split."""
    return variants.starts(X, y, runs=runs, epochs=epochs, w0_norm=w0_norm, seed=seed)


@cached(max_mb=8, heavy=True)
def starts_digits(pair: str, runs: int, epochs: int, w0_norm: float, seed: int) -> variants.Starts:
    """Many runs on the clean training split of one pair of digits."""
    X, y = digit_pair(pair)
    return variants.starts(X, y, runs=runs, epochs=epochs, w0_norm=w0_norm, seed=seed)

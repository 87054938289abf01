"""Feature maps phi: R^2 -> R^m that can make non-separable data separable (seed 003).

Train the perceptron on ``phi(X)`` instead of X; with the quadratic map,
``phi(x) . phi(z) = (x . z)^2``, so circles and XOR become linearly separable.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._checks import FloatArray, by_key

SQRT2 = math.sqrt(2.0)


def _as_2d(X: Any) -> FloatArray:
    Xa = np.asarray(X, dtype=np.float64)
    if Xa.ndim != 2 or Xa.shape[1] != 2:
        raise ValueError(f"X must have shape (n, 2) for a 2-D feature map; got {Xa.shape}")
    return Xa


def identity(X: Any) -> FloatArray:
    """phi(x1, x2) = (x1, x2). Shape (n, 2) -> (n, 2)."""
    return _as_2d(X).copy()


def product(X: Any) -> FloatArray:
    """phi(x1, x2) = (x1 * x2,): the one feature that makes XOR separable. (n, 2) -> (n, 1)."""
    Xa = _as_2d(X)
    return (Xa[:, 0] * Xa[:, 1])[:, None]


def quadratic(X: Any) -> FloatArray:
    """phi(x1, x2) = (x1^2, sqrt(2) x1 x2, x2^2) (seed 003). (n, 2) -> (n, 3).

    Chosen so that ``phi(x) . phi(z) = (x . z)^2``.
    """
    Xa = _as_2d(X)
    x1, x2 = Xa[:, 0], Xa[:, 1]
    return np.column_stack([x1 * x1, SQRT2 * x1 * x2, x2 * x2])


@dataclass(frozen=True)
class FeatureMap:
    """A registered feature map and how the page names its coordinates."""

    key: str
    title: str
    formula: str  # LaTeX
    fn: Callable[[Any], FloatArray]
    names: tuple[str, ...]


FEATURE_MAPS: dict[str, FeatureMap] = by_key(
    FeatureMap("identity", "identity", r"\varphi(x) = (x_1, x_2)", identity, ("x1", "x2")),
    FeatureMap("product", "x1·x2 only", r"\varphi(x) = (x_1 x_2)", product, ("x1·x2",)),
    FeatureMap(
        "quadratic",
        "full quadratic",
        r"\varphi(x) = (x_1^2, \sqrt{2}\,x_1 x_2, x_2^2)",
        quadratic,
        ("x1²", "√2·x1x2", "x2²"),
    ),
)

"""Input validation, done once at each public entry point.

Every check raises a ``ValueError`` whose message names the parameter and says
what was expected, so the app can show it to a student unchanged. ``check_run`` checks
what every way of training shares; ``by_key`` builds the registries (rules, losses,
datasets, feature maps) and refuses a repeated key.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


def check_data(X: Any, y: Any) -> tuple[FloatArray, FloatArray]:
    """Validate a labelled dataset.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Finite real inputs, n >= 1, d >= 1.
    y : array_like, shape (n,)
        Labels, each -1 or +1.

    Returns
    -------
    X : ndarray of float64, shape (n, d), C-contiguous
    y : ndarray of float64, shape (n,), values in {-1.0, +1.0}
    """
    try:
        Xa = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"X must be a numeric array of shape (n, d): {exc}") from None
    if Xa.ndim != 2:
        raise ValueError(f"X must be a 2-D array of shape (n, d); got shape {Xa.shape}")
    n, d = Xa.shape
    if n == 0:
        raise ValueError("X is empty: the dataset needs at least one point")
    if d == 0:
        raise ValueError("X has no features: shape (n, 0)")
    if not np.isfinite(Xa).all():
        bad = ~np.isfinite(Xa).all(axis=1)
        raise ValueError(f"X contains NaN or infinite values (first at row {int(np.argmax(bad))})")
    try:
        ya = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"y must be an array of labels -1 or +1: {exc}") from None
    if ya.ndim != 1 or ya.shape[0] != n:
        raise ValueError(f"y must have shape ({n},), one label per row of X; got shape {ya.shape}")
    if (np.abs(ya) != 1.0).any():
        i = int(np.argmax(np.abs(ya) != 1.0))
        raise ValueError(f"labels y must be -1 or +1; got {ya[i]:g} at row {i}")
    return np.ascontiguousarray(Xa), ya


def check_positive_int(value: Any, name: str, *, minimum: int = 1) -> int:
    """Return ``value`` as an int >= ``minimum`` or raise naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value}")
    return int(value)


def check_positive_float(value: Any, name: str) -> float:
    """Return ``value`` as a finite float > 0 or raise naming ``name``."""
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a positive number; got {value!r}")
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive number; got {value!r}") from None
    if not math.isfinite(v) or v <= 0.0:
        raise ValueError(f"{name} must be a positive finite number; got {value!r}")
    return v


def check_vector(value: Any, name: str, size: int) -> FloatArray:
    """Return a finite float64 copy of shape ``(size,)`` or raise naming ``name``."""
    try:
        v = np.array(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a vector of {size} numbers; got {value!r}") from None
    if v.shape != (size,):
        raise ValueError(f"{name} must have shape ({size},); got {v.shape[0]} values")
    if not np.isfinite(v).all():
        raise ValueError(f"{name} must contain only finite numbers")
    return v


def check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``choices`` or raise naming ``name``."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
    return value


def check_seed(value: Any, name: str = "seed") -> int | None:
    """Return ``value`` as a non-negative int, or None."""
    if value is None:
        return None
    return check_positive_int(value, name, minimum=0)


class Run(NamedTuple):
    """The inputs every way of training by updates takes, checked (``check_run``)."""

    X: FloatArray  # shape (n, d), finite, without the bias feature
    y: FloatArray  # shape (n,), each -1.0 or +1.0
    w: FloatArray  # shape (d',): the starting weights, a fresh array (zeros by default)
    eta: float  # the learning rate, > 0
    seed: int | None  # seed of the order of the examples, or None for the given order


def check_run(X: Any, y: Any, *, bias: bool, w0: Any, eta: Any, seed: Any) -> Run:
    """Validate a run's dataset, starting weights, learning rate and seed.

    Parameters
    ----------
    X, y : array_like, shapes (n, d) and (n,)
        As ``check_data`` takes them.
    bias : bool
        Whether the weights end with the bias weight: ``d' = d + 1``, else ``d' = d``.
    w0 : array_like, shape (d',), or None
        Starting weights; None means zeros.
    eta : float
        Learning rate, > 0.
    seed : int or None
        Seed of the order, >= 0.

    Returns
    -------
    Run
    """
    X, y = check_data(X, y)
    rate = check_positive_float(eta, "eta")
    checked_seed = check_seed(seed)
    d_aug = X.shape[1] + 1 if bias else X.shape[1]  # the bias is a constant feature 1, last
    w = np.zeros(d_aug) if w0 is None else check_vector(w0, "w0", d_aug)
    return Run(X, y, w, rate, checked_seed)


class _Keyed(Protocol):
    @property
    def key(self) -> str: ...


_K = TypeVar("_K", bound=_Keyed)


def by_key(*entries: _K) -> dict[str, _K]:
    """A registry: ``entries`` by their ``key``, in the given order (the app lists them so).

    Raises ``ValueError`` on a repeated key, which would silently hide an entry.
    """
    registry = {entry.key: entry for entry in entries}
    if len(registry) != len(entries):
        raise ValueError(f"repeated key in {[entry.key for entry in entries]}")
    return registry

"""Cached engine calls and figures for the pages (``kit.cache``: by value, in a byte budget).

Students on the default settings share one cache entry; nothing cached is
mutable shared state.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from perceptron_core import (
    FEATURE_MAPS,
    decision,
    find_cycle,
    kernel_decision,
    kernel_train,
    make_dataset,
    nonseparability_witness,
    train,
)

from .beyond import error_per_epoch
from .figures import lecture_figure
from .kit.cache import cached
from .model import Run, RunSettings, record_run


@cached(max_mb=8)
def dataset(name: str, n: int, seed: int, params: tuple[tuple[str, float], ...]) -> tuple:
    """A registry dataset, by value (X (n, 2), y (n,))."""
    return make_dataset(name, n=n, seed=seed, **dict(params))


@cached(max_mb=48, heavy=True)
def lecture_run(X: np.ndarray, y: np.ndarray, settings: RunSettings) -> Run:
    """``model.record_run``, cached."""
    return record_run(X, y, settings)


@cached(max_mb=16, heavy=True)
def lecture_chart(
    X: np.ndarray, y: np.ndarray, settings: RunSettings, start: int, stop: int, presenter: bool
) -> dict[str, Any]:
    """The lecture figure at step ``start`` with one frame per step up to ``stop``."""
    run = lecture_run(X, y, settings)
    return lecture_figure(
        run,
        start,
        replay=range(start, stop + 1),
        height=820 if presenter else 700,
        font_size=18 if presenter else 13,
    )


# --- beyond linear ----------------------------------------------------------------------


@cached(max_mb=16, heavy=True)
def beyond_run(X: np.ndarray, y: np.ndarray, max_epochs: int) -> tuple[Any, Any, Any]:
    """(trace, non-separability witness or None, cycle or None): bias, given order."""
    trace = train(X, y, bias=True, max_epochs=max_epochs)
    return trace, nonseparability_witness(X, y, bias=True), find_cycle(trace)


@cached(max_mb=16, heavy=True)
def lifted_run(X: np.ndarray, y: np.ndarray, map_key: str, max_epochs: int) -> Any:
    """The perceptron on phi(X) (with bias) for a registered feature map."""
    return train(FEATURE_MAPS[map_key].fn(X), y, bias=True, max_epochs=max_epochs)


@cached(max_mb=1, heavy=True)
def kernel_check(X: np.ndarray, y: np.ndarray, max_epochs: int) -> dict[str, int]:
    """The kernel perceptron against the explicit quadratic map: mistakes and predictions."""
    explicit = train(FEATURE_MAPS["quadratic"].fn(X), y, bias=True, max_epochs=max_epochs)
    dual = kernel_train(X, y, bias=True, max_epochs=max_epochs)
    G = np.random.default_rng(0).uniform(-3, 3, (2000, 2))
    a = np.sign(decision(explicit.w, FEATURE_MAPS["quadratic"].fn(G), bias=True))
    b = np.sign(kernel_decision(dual, X, y, G))
    return {
        "explicit_mistakes": explicit.n_mistakes,
        "kernel_mistakes": len(dual.mistake_steps),
        "same_steps": int(np.array_equal(explicit.mistake_steps, dual.mistake_steps)),
        "agree": int((a == b).sum()),
        "points": len(G),
    }


@cached(max_mb=2, heavy=True)
def remedies(n: int, seed: int, noise: float, max_epochs: int) -> dict[str, np.ndarray]:
    """Training error per epoch of the plain, pocket and averaged perceptron on noisy data."""
    X, y = make_dataset("noisy", n=n, seed=seed, noise=noise)
    return error_per_epoch(train(X, y, bias=True, max_epochs=max_epochs), X, y)

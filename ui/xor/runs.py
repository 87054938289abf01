"""Cached engine calls of the XOR lesson (``ui.server.cache``), and the error per epoch of
the plain, pocket and averaged perceptron."""

from __future__ import annotations

from typing import Any

import numpy as np

from perceptron_core import (
    FEATURE_MAPS,
    Trace,
    decision,
    find_cycle,
    kernel_decision,
    kernel_train,
    make_dataset,
    mistakes,
    nonseparability_witness,
    train,
)
from ui.server.cache import cached


def error_per_epoch(trace: Trace, X: np.ndarray, y: np.ndarray) -> dict[str, np.ndarray]:
    """Training error (fraction) at the end of every epoch of the plain perceptron, of the
    pocket (best weights seen so far) and of the averaged weights so far."""
    n, bias = trace.n_examples, trace.bias
    W = trace.weights
    errors = np.array([mistakes(w, X, y, bias=bias).mean() for w in W])  # error of every w_k
    ends = np.minimum(np.arange(1, trace.n_epochs + 1) * n, trace.n_steps)
    ks = np.array([trace.mistakes_before(t) for t in ends])
    plain = errors[ks]
    pocket = np.minimum.accumulate(errors)[ks]
    # averaged: mean of the w in force at each step so far (seed 003's w_avg)
    starts = np.concatenate([[0], trace.mistake_steps[:, 0]])
    averaged = []
    for t in ends:
        counts = np.clip(np.minimum(np.append(starts[1:], trace.n_steps), t) - starts, 0, None)
        w_avg = counts @ W / max(t, 1)
        averaged.append(mistakes(w_avg, X, y, bias=bias).mean())
    return {"plain": plain, "pocket": pocket, "averaged": np.array(averaged)}


@cached(max_mb=16, heavy=True)
def xor_run(X: np.ndarray, y: np.ndarray, max_epochs: int) -> tuple[Any, Any, Any]:
    """(trace, non-separability witness or None, cycle or None): bias, given order."""
    trace = train(X, y, bias=True, max_epochs=max_epochs)
    return trace, nonseparability_witness(X, y, bias=True), find_cycle(trace)


@cached(max_mb=16, heavy=True)
def lifted_run(X: np.ndarray, y: np.ndarray, map_key: str, max_epochs: int) -> tuple[Any, bool]:
    """The perceptron on phi(X) (with bias) for a registered feature map, and whether a
    hyperplane separates phi(X) (whether more epochs would finish a run that stopped)."""
    Z = FEATURE_MAPS[map_key].fn(X)
    trace = train(Z, y, bias=True, max_epochs=max_epochs)
    return trace, trace.converged or nonseparability_witness(Z, y, bias=True) is None


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
        "converged": int(dual.converged),
        "same_steps": int(np.array_equal(explicit.mistake_steps, dual.mistake_steps)),
        "agree": int((a == b).sum()),
        "points": len(G),
    }


@cached(max_mb=2, heavy=True)
def remedies(n: int, seed: int, noise: float, max_epochs: int) -> dict[str, np.ndarray]:
    """Training error per epoch of the plain, pocket and averaged perceptron on noisy data."""
    X, y = make_dataset("noisy", n=n, seed=seed, noise=noise)
    return error_per_epoch(train(X, y, bias=True, max_epochs=max_epochs), X, y)

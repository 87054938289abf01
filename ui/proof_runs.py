"""Cached engine calls of the proof page (``st.cache_data``: by value, per caller copy).

The run is the lecture's (``runs.lecture_run``), so both pages show the same mistakes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from perceptron_core import (
    AdversarialTrace,
    ProofCheck,
    adversarial_order,
    max_margin,
    proof_check,
    train,
    worst_case_set,
)

from . import runs
from .model import RunSettings
from .state import MAX_STEPS

ADVERSARY_STEPS = 20_000  # the adversary's steps are all mistakes: at most this many
ORDER_STEPS = 4_000_000  # all the random-order runs together: at most this many steps
REPEAT = 3  # "n does not matter": the same points, each shown this many times per pass


@dataclass(frozen=True, eq=False)
class Adversary:
    """The longer of the two greedy adversaries, and what both made."""

    trace: AdversarialTrace
    tie_break: str  # which one: "lowest" or "away"
    counts: dict[str, int]  # mistakes of each
    check: ProofCheck  # the proof's lines on its run


@st.cache_data(max_entries=64, show_spinner=False)
def check(X: np.ndarray, y: np.ndarray, settings: RunSettings) -> ProofCheck:
    """Every line of the proof at every mistake of the lecture's run."""
    run = runs.lecture_run(X, y, settings)
    return proof_check(run.trace, run.X, run.y, run.mm)


@st.cache_data(max_entries=64, show_spinner=False)
def adversary(X: np.ndarray, y: np.ndarray, settings: RunSettings) -> Adversary | None:
    """Both greedy adversaries from the run's start, with its rule and rate (None without w*)."""
    run = runs.lecture_run(X, y, settings)
    if run.mm is None:
        return None
    found = {
        tie_break: adversarial_order(
            run.X,
            run.y,
            bias=settings.bias,
            w0=settings.w0,
            eta=settings.eta,
            rule=settings.rule,
            w_star=run.mm.w_star,
            tie_break=tie_break,
            max_steps=ADVERSARY_STEPS,
        )
        for tie_break in ("away", "lowest")
    }
    best = max(found, key=lambda tb: found[tb].n_mistakes)  # a tie goes to "away"
    return Adversary(
        trace=found[best],
        tie_break=best,
        counts={tb: t.n_mistakes for tb, t in found.items()},
        check=proof_check(found[best], run.X, run.y, run.mm),
    )


def orders_plan(n: int, n_orders: int, max_epochs: int) -> tuple[int, int]:
    """(orders, epochs of the repeated set) so all runs stay within ORDER_STEPS steps."""
    per_order = max_epochs * n * (1 + REPEAT)
    return max(1, min(n_orders, ORDER_STEPS // per_order)), max(
        1, min(max_epochs, MAX_STEPS // (REPEAT * n))
    )


@st.cache_data(max_entries=64, show_spinner=False)
def orders(
    X: np.ndarray, y: np.ndarray, settings: RunSettings, n_orders: int
) -> dict[str, np.ndarray]:
    """Mistakes of the run's settings in ``n_orders`` random orders (reshuffled every pass,
    seeds 0, 1, ...), and of the same points each repeated REPEAT times."""
    run = runs.lecture_run(X, y, settings)
    n = run.X.shape[0]
    n_orders, rep_epochs = orders_plan(n, n_orders, settings.max_epochs)
    common = {"bias": settings.bias, "eta": settings.eta, "w0": settings.w0, "rule": settings.rule}
    Xr, yr = np.tile(run.X, (REPEAT, 1)), np.tile(run.y, REPEAT)
    shuffled = [
        train(run.X, run.y, seed=s, max_epochs=settings.max_epochs, **common)
        for s in range(n_orders)
    ]
    repeated = [train(Xr, yr, seed=s, max_epochs=rep_epochs, **common) for s in range(n_orders)]
    return {
        "shuffled": np.array([t.n_mistakes for t in shuffled]),
        "shuffled_converged": np.array([t.converged for t in shuffled]),
        "repeated": np.array([t.n_mistakes for t in repeated]),
        "repeated_converged": np.array([t.converged for t in repeated]),
    }


@st.cache_data(max_entries=32, show_spinner=False)
def worst_case(gamma: float, n_orders: int) -> dict[str, float]:
    """The three-point set of ``worst_case_set``: its bound and the mistakes of the given
    order, the best of ``n_orders`` random orders and the greedy adversary (no bias, w0 = 0)."""
    X, y = worst_case_set(gamma)
    mm = max_margin(X, y, bias=False)
    cap = int(mm.bound) + 2  # no order can go past the bound: these runs always end
    given = train(X, y, bias=False, max_epochs=cap)
    shuffled = max(
        train(X, y, bias=False, seed=s, max_epochs=cap).n_mistakes for s in range(n_orders)
    )
    adv = adversarial_order(X, y, bias=False, max_steps=cap)
    return {
        "gamma": float(mm.gamma),
        "radius": float(mm.radius),
        "bound": float(mm.bound),
        "given": given.n_mistakes,
        "shuffled": shuffled,
        "adversary": adv.n_mistakes,
    }

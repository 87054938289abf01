"""Cached engine calls of the proof page (``ui.server.cache``: by value, in a byte budget).

The run is the lecture's (``runs.lecture_run``), so both pages show the same mistakes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

import numpy as np
import numpy.typing as npt

from perceptron_core import (
    AdversarialTrace,
    ProofCheck,
    adversarial_order,
    max_margin,
    proof_check,
    train,
    worst_case_set,
)
from ui.app.state import MAX_STEPS
from ui.compute import runs
from ui.compute.model import RunSettings
from ui.server.cache import cached
from ui.words import N_, t

ADVERSARY_STEPS = 20_000  # the adversary's steps are all mistakes: at most this many a run
ADVERSARY_BUDGET = 100_000  # and this many over all its runs (restarts stop before)
RESTARTS = 20  # runs of the random tie-break, seeds 0, 1, ...
ORDER_STEPS = 4_000_000  # all the random-order runs together: at most this many steps
REPEAT = 3  # "n does not matter": the same points, each shown this many times per pass


class _Start(TypedDict):
    """The run's settings, as keyword arguments of ``train`` and ``adversarial_order``."""

    bias: bool
    w0: tuple[float, ...] | None
    eta: float
    rule: str


class _Greedy(_Start):
    """The keyword arguments every adversary of one run shares."""

    w_star: npt.NDArray[np.float64]
    max_steps: int


@dataclass(frozen=True, eq=False)
class Adversary:
    """The longest of the greedy adversaries' runs, and what each kind made."""

    trace: AdversarialTrace
    name: str  # which one: "away", "lowest" or "random, seed s"
    counts: dict[str, int]  # mistakes of "away", "lowest", the best "random"; "random_runs"
    check: ProofCheck  # the proof's lines on its run

    def shown_name(self) -> str:
        """Which one, in this run's language: "away", "lowest", "random, seed 3"."""
        if self.name in _NAMES:
            return t(_NAMES[self.name])
        seed = self.name.removeprefix("random, seed ")
        return t("random, seed {seed}").format(seed=seed)


_NAMES = {"away": N_("away"), "lowest": N_("lowest")}  # the tie-breaks' names


@cached(max_mb=32, heavy=True)
def check(X: np.ndarray, y: np.ndarray, settings: RunSettings) -> ProofCheck:
    """Every line of the proof at every mistake of the lecture's run."""
    run = runs.lecture_run(X, y, settings)
    return proof_check(run.trace, run.X, run.y, run.mm)


@cached(max_mb=8, heavy=True)
def adversary(X: np.ndarray, y: np.ndarray, settings: RunSettings) -> Adversary | None:
    """The greedy adversaries from the run's start, with its rule and rate: "away",
    "lowest", then "random" with seeds 0, 1, ... while the step budget lasts (None
    without w*)."""
    run = runs.lecture_run(X, y, settings)
    if run.mm is None:
        return None
    common: _Greedy = {
        "bias": settings.bias,
        "w0": settings.w0,
        "eta": settings.eta,
        "rule": settings.rule,
        "w_star": run.mm.w_star,
        "max_steps": ADVERSARY_STEPS,
    }
    found = {
        tb: adversarial_order(run.X, run.y, tie_break=tb, **common) for tb in ("away", "lowest")
    }
    budget = ADVERSARY_BUDGET - sum(t.n_mistakes for t in found.values())
    best_random = 0
    for seed in range(RESTARTS):
        if budget < ADVERSARY_STEPS:
            break
        t = adversarial_order(run.X, run.y, tie_break="random", seed=seed, **common)
        budget -= t.n_mistakes
        found[f"random, seed {seed}"] = t
        best_random = max(best_random, t.n_mistakes)
    best = max(found, key=lambda name: found[name].n_mistakes)  # ties: the first found
    return Adversary(
        trace=found[best],
        name=best,
        counts={"away": found["away"].n_mistakes, "lowest": found["lowest"].n_mistakes}
        | {"random": best_random, "random_runs": len(found) - 2},
        check=proof_check(found[best], run.X, run.y, run.mm),
    )


def orders_plan(n: int, n_orders: int, max_epochs: int) -> tuple[int, int]:
    """(orders, epochs of the repeated set) so all runs stay within ORDER_STEPS steps."""
    per_order = max_epochs * n * (1 + REPEAT)
    return max(1, min(n_orders, ORDER_STEPS // per_order)), max(
        1, min(max_epochs, MAX_STEPS // (REPEAT * n))
    )


@cached(max_mb=4, heavy=True)
def orders(
    X: np.ndarray, y: np.ndarray, settings: RunSettings, n_orders: int
) -> dict[str, np.ndarray]:
    """Mistakes of the run's settings in ``n_orders`` random orders (reshuffled every pass,
    seeds 0, 1, ...), and of the same points each repeated REPEAT times."""
    run = runs.lecture_run(X, y, settings)
    n = run.X.shape[0]
    n_orders, rep_epochs = orders_plan(n, n_orders, settings.max_epochs)
    common: _Start = {
        "bias": settings.bias,
        "eta": settings.eta,
        "w0": settings.w0,
        "rule": settings.rule,
    }
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


@cached(max_mb=1, heavy=True)
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

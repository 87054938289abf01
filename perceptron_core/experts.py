"""Seed 004's application: learning whom to follow among n analysts.

Every day each of n analysts predicts whether the market goes up (+1) or down
(-1); the day's predictions form ``x_t`` in {-1, +1}^n and the market's move is
the label ``y_t``. A hidden committee of k analysts (k odd) always has the right
majority. The perceptron without bias, predicting +1 iff ``w . x >= 0`` (seed
004's tie rule), learns weights over the analysts.

The bound, as seed 004 derives it: with ``u = (1/sqrt(k)) * 1_committee`` (a unit
vector), ``y_t (x_t . u) = (#right - #wrong in the committee) / sqrt(k) >= 1/sqrt(k)``
because the committee's majority is right (k odd, so right - wrong >= 1), and
``||x_t|| = sqrt(n)`` because every entry is +-1. So gamma = 1/sqrt(k), D = sqrt(n)
and the perceptron makes at most ``(D / gamma)^2 = n k`` mistakes, whatever the
other analysts do and however many days there are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ._checks import FloatArray, IntArray, check_choice, check_positive_int, check_seed
from .perceptron import train

EXPERT_BEHAVIOURS: dict[str, str] = {
    "random": (
        "each analyst outside the committee says up or down by a fair coin, every day; "
        "each day a random majority of the committee (from (k+1)/2 to all k of them, "
        "as many as a uniform draw says) is right"
    ),
    "adversarial": (
        "an adversary who knows the algorithm sees today's weights w and the market's move "
        "(a fair coin) and sets everybody's predictions to fool the perceptron: in the "
        "committee the (k+1)/2 analysts with the smallest weights are right (the others "
        "only if their weight is negative); outside it, every analyst is right (so each "
        "update raises their weights: they earn trust) except the fewest, largest-weighted "
        "ones it takes to make the perceptron wrong (if even all of them cannot, they are "
        "all wrong that day)"
    ),
}
MAX_ANALYSTS = 100
MAX_DAYS = 2000
TIE_RULE = "predict_ge"  # seed 004: predict +1 iff w . x >= 0


@dataclass(frozen=True, eq=False)
class ExpertsRun:
    """One simulated run of the experts problem.

    Attributes
    ----------
    predictions : ndarray, shape (days, n)
        ``x_t``: analyst i's prediction (+1 up, -1 down) on day t.
    truth : ndarray, shape (days,)
        ``y_t``: how the market moved.
    committee : ndarray of int, shape (k,)
        The hidden committee, sorted analyst indices (0-based).
    mistakes : ndarray of bool, shape (days,)
        Whether the perceptron's prediction on day t was wrong (and so it updated).
    weights : ndarray, shape (days + 1, n)
        Row 0 is w before day 1 (zeros); row t is w after day t.
    behaviour : str
        How the analysts outside the committee behaved (a key of ``EXPERT_BEHAVIOURS``).
    seed : int
        Seed of the ``np.random.Generator`` the run drew from.
    """

    predictions: FloatArray
    truth: FloatArray
    committee: IntArray
    mistakes: NDArray[np.bool_]
    weights: FloatArray
    behaviour: str
    seed: int

    @property
    def n(self) -> int:
        """Number of analysts."""
        return int(self.predictions.shape[1])

    @property
    def k(self) -> int:
        """Size of the committee."""
        return int(self.committee.shape[0])

    @property
    def days(self) -> int:
        """Number of days simulated."""
        return int(self.truth.shape[0])

    @property
    def n_mistakes(self) -> int:
        """M, the perceptron's mistakes over all days."""
        return int(self.mistakes.sum())

    @property
    def bound(self) -> int:
        """Seed 004's mistake bound (D / gamma)^2 = n k."""
        return self.n * self.k

    @property
    def gamma(self) -> float:
        """The margin seed 004 guarantees for u: 1 / sqrt(k)."""
        return 1.0 / math.sqrt(self.k)

    @property
    def radius(self) -> float:
        """D = ||x_t|| = sqrt(n) for every day."""
        return math.sqrt(self.n)

    @property
    def u(self) -> FloatArray:
        """The unit vector u = (1/sqrt(k)) * indicator of the committee, shape (n,)."""
        u = np.zeros(self.n)
        u[self.committee] = 1.0 / math.sqrt(self.k)
        return u

    @property
    def margins(self) -> FloatArray:
        """``y_t (x_t . u)`` for every day, shape (days,); each is >= 1/sqrt(k)."""
        return np.asarray(self.truth * (self.predictions @ self.u), dtype=np.float64)


def _committee_right(rng: np.random.Generator, days: int, k: int) -> NDArray[np.bool_]:  # (days, k)
    """A random majority of the committee is right each day: a uniform count r in
    (k+1)/2 .. k, then a uniformly random set of r members."""
    r = rng.integers((k + 1) // 2, k + 1, size=days)
    ranks = np.argsort(rng.random((days, k)), axis=1).argsort(axis=1)
    return np.asarray(ranks < r[:, None], dtype=np.bool_)


def _is_mistake(a: float, y: float) -> bool:
    """Seed 004's rule: predict +1 iff a = w . x >= 0; a mistake is a wrong prediction."""
    return (a >= 0.0) != (y > 0.0)


def _adversary_day(w: FloatArray, y: float, committee: IntArray, others: IntArray) -> FloatArray:
    """The adversary's predictions x (shape (n,)) for a day with market move y, given w.

    Committee: in s_i = y x_i (+1 right, -1 wrong) it minimises sum w_i s_i with at least
    (k+1)/2 of s_i = +1: the (k+1)/2 smallest w_i are right, the rest right iff w_i < 0.
    Outsiders: all right (so an update raises their weights: they earn trust), then the
    ones with the largest w_i turn wrong, one at a time, until the perceptron errs (or
    all of them are wrong).
    """
    x = np.empty(w.shape[0])
    k = committee.shape[0]
    order = committee[np.argsort(w[committee], kind="stable")]
    s = np.where(w[order] < 0.0, 1.0, -1.0)
    s[: (k + 1) // 2] = 1.0
    x[order] = y * s
    x[others] = y
    a0 = float(w @ x)
    # turning outsider i wrong changes w . x by -2 y w_i: largest w_i first
    betray = others[np.argsort(-w[others], kind="stable")]
    a = a0 - 2.0 * y * np.concatenate([[0.0], np.cumsum(w[betray])])  # a after j turns
    fooled = np.flatnonzero((a >= 0.0) != (y > 0.0))
    j = int(fooled[0]) if fooled.size else betray.shape[0]
    x[betray[:j]] = -y
    return x


def _predict_update(w: FloatArray, x: FloatArray, y: float) -> tuple[FloatArray, bool]:
    """One day of seed 004's perceptron: predict +1 iff w . x >= 0; on a mistake w <- w + y x."""
    if _is_mistake(float(w @ x), y):
        return w + y * x, True  # on a mistake: w <- w + y x
    return w, False


def simulate_experts(
    *, n: int, k: int, days: int, behaviour: str = "random", seed: int = 0
) -> ExpertsRun:
    """Simulate seed 004's experts problem and run the perceptron on it.

    Parameters
    ----------
    n : int
        Number of analysts, 1 <= n <= ``MAX_ANALYSTS``.
    k : int
        Size of the hidden committee, odd, 1 <= k <= n (odd, so its majority vote
        never ties).
    days : int
        Number of days, 1 <= days <= ``MAX_DAYS``; the perceptron sees each day once.
    behaviour : str
        How the analysts outside the committee predict: a key of ``EXPERT_BEHAVIOURS``
        ("random" or "adversarial").
    seed : int
        Seed of the ``np.random.Generator`` (committee, market, predictions).

    Returns
    -------
    ExpertsRun
        Predictions (days, n), truth (days,), committee (k,), mistakes (days,) and
        the weights before the first day and after each day (days + 1, n).

    Raises
    ------
    ValueError
        On a parameter out of range, naming it.
    """
    n = check_positive_int(n, "n")
    if n > MAX_ANALYSTS:
        raise ValueError(f"n must be at most {MAX_ANALYSTS}; got {n}")
    k = check_positive_int(k, "k")
    if k > n or k % 2 == 0:
        raise ValueError(f"k must be odd and at most n = {n}; got {k}")
    days = check_positive_int(days, "days")
    if days > MAX_DAYS:
        raise ValueError(f"days must be at most {MAX_DAYS}; got {days}")
    behaviour = check_choice(behaviour, "behaviour", tuple(EXPERT_BEHAVIOURS))
    checked = check_seed(seed)
    seed = 0 if checked is None else checked

    rng = np.random.default_rng(seed)
    committee = np.sort(rng.choice(n, size=k, replace=False)).astype(np.int64)
    others = np.setdiff1d(np.arange(n), committee).astype(np.int64)
    y = rng.choice(np.array([-1.0, 1.0]), size=days)  # the market: a fair coin
    if behaviour == "random":
        X = np.where(rng.random((days, n)) < 0.5, 1.0, -1.0)
        right = _committee_right(rng, days, k)
        X[:, committee] = np.where(right, y[:, None], -y[:, None])
    else:
        # the adversary replays the perceptron to know w before each day
        X = np.empty((days, n))
        w = np.zeros(n)
        for t in range(days):
            X[t] = _adversary_day(w, float(y[t]), committee, others)
            w, _ = _predict_update(w, X[t], float(y[t]))

    # the perceptron itself: one pass over the days, no bias, seed 004's tie rule
    trace = train(X, y, bias=False, max_epochs=1, rule=TIE_RULE)
    wrong = np.zeros(days, dtype=np.bool_)
    wrong[trace.mistake_steps[:, 0]] = True
    after = np.cumsum(wrong)  # mistakes made up to and including day t
    weights = trace.weights[np.concatenate([[0], after])]
    for a in (X, y, committee, wrong, weights):
        a.flags.writeable = False
    return ExpertsRun(
        predictions=X,
        truth=y,
        committee=committee,
        mistakes=wrong,
        weights=weights,
        behaviour=behaviour,
        seed=seed,
    )

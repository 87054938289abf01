"""The convergence proof, line by line, evaluated on a run; and an adversary for the order.

The theorem (seed 001 with R, seed 004 with D; seeds 000, 002, 003 with R = 1): if
a unit vector w* has ``y_i w*.x_i >= gamma > 0`` and ``||x_i|| <= R`` for all i,
the perceptron started at w = 0 makes at most ``(R / gamma)^2`` mistakes, in any
order. With a learning rate eta every update is ``w <- w + eta y x`` and each
line below carries the factor eta (eta = 1 in every seed's proof). The lines, at the
k-th mistake (w_{k-1} before it, w_k after it, x its example):

* Claim 1, one step:   w_k.w* - w_{k-1}.w* = eta y x.w*  >=  eta gamma
* Lemma 1 (induction): w_k.w*  >=  eta k gamma                  (needs w_0 = 0)
* the cross term:      2 eta y w_{k-1}.x  <=  0                  (it was a mistake)
* the square term:     eta^2 ||x||^2  <=  eta^2 R^2
* Claim 2, one step:   ||w_k||^2 - ||w_{k-1}||^2  <=  eta^2 R^2
* Lemma 2 (induction): ||w_k||^2  <=  eta^2 k R^2               (needs w_0 = 0)
* Cauchy-Schwarz:      w_k.w*  <=  ||w_k|| ||w*||  =  ||w_k||
* Lemma 2, rooted:     ||w_k||  <=  eta R sqrt(k)
* the conclusion:      k  <=  (R / gamma)^2

Every inequality is stored as ``small <= large`` with its slack ``large - small``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._checks import (
    FloatArray,
    IntArray,
    check_choice,
    check_data,
    check_positive_float,
    check_positive_int,
    check_run,
    check_vector,
)
from .margin import MaxMargin
from .perceptron import RULES, Trace, _FinalWeights, _MistakeCount, augment

# An inequality counts as holding when it fails by less than this, relative to the
# size of its sides (the margin of a support vector is gamma up to rounding).
RELATIVE_TOL = 1e-9
TIE_BREAKS = ("lowest", "away", "random")  # how adversarial_order picks among misclassified points
# What a ProofCheck has only with w*: without it these numbers are NaN and these lines None.
_NEED_W_STAR_NUMBERS = ("gamma", "bound", "start_dot", "start_bound")
_NEED_W_STAR_LINES = ("claim1", "lemma1", "cauchy", "conclusion", "conclusion_start")


@dataclass(frozen=True, eq=False)
class Inequality:
    """One line of the proof, ``small <= large``, at every mistake k = 1..K.

    Attributes
    ----------
    small, large : ndarray, shape (K,)
        The two sides.
    slack : ndarray, shape (K,)
        ``large - small``: how loose the line is (negative where it fails).
    holds : ndarray of bool, shape (K,)
        ``slack >= -RELATIVE_TOL * (1 + |small| + |large|)``.
    """

    small: FloatArray
    large: FloatArray
    slack: FloatArray
    holds: NDArray[np.bool_]

    @property
    def all_hold(self) -> bool:
        """Whether the line holds at every mistake (true when there are none)."""
        return bool(self.holds.all())

    @property
    def first_failure(self) -> int | None:
        """The first k (from 1) at which the line fails, or None."""
        bad = np.flatnonzero(~self.holds)
        return int(bad[0]) + 1 if bad.size else None


def _inequality(small: Any, large: Any) -> Inequality:
    s = np.asarray(small, dtype=np.float64)
    g = np.asarray(large, dtype=np.float64)
    s, g = np.broadcast_arrays(s, g)
    slack = g - s
    tol = RELATIVE_TOL * (1.0 + np.abs(s) + np.abs(g))
    for a in (s, g, slack):
        a.flags.writeable = False
    holds = slack >= -tol
    holds.flags.writeable = False
    return Inequality(small=s, large=g, slack=slack, holds=holds)


@dataclass(frozen=True, eq=False)
class AdversarialTrace(_FinalWeights, _MistakeCount):
    """A run in which the adversary chose every example, so every step is a mistake.

    Attributes
    ----------
    weights : ndarray, shape (K + 1, d')
        Row 0 is w0; row k is w after the k-th mistake.
    mistake_steps : ndarray of int, shape (K, 2)
        Column 0 the step t (= k - 1: every step is a mistake), column 1 the example i.
    converged : bool
        True iff the adversary ran out of misclassified points (w separates the data
        under the rule); False if it stopped at ``max_steps``.
    n_examples : int
        n, the size of the dataset.
    bias, eta, rule
        The settings of the run.
    """

    weights: FloatArray
    mistake_steps: IntArray
    converged: bool
    n_examples: int
    bias: bool
    eta: float
    rule: str

    @property
    def order(self) -> IntArray:
        """The examples in the order the adversary showed them, shape (K,)."""
        return np.asarray(self.mistake_steps[:, 1], dtype=np.int64)


@dataclass(frozen=True, eq=False)
class ProofCheck:
    """Every line of the proof, evaluated at each mistake k = 1..K of a run.

    The lines that need w* (Claim 1, Lemma 1, Cauchy-Schwarz, the conclusion) are
    None when the data are not separable; Claim 2 and Lemma 2 need no w*.

    Attributes
    ----------
    k, t, i : ndarray of int, shape (K,)
        Mistake number (from 1), the step it happened at, and its example.
    eta : float
        Learning rate of the run.
    radius : float
        R = max ||x|| over the data (augmented with the bias feature when ``bias``).
    gamma, bound : float
        Margin of w* and (R / gamma)^2; NaN when the data are not separable.
    start_dot, start_norm_sq : float
        w0.w* (NaN without w*) and ||w0||^2: the base case of both inductions is 0.
    start_bound : float
        The bound with the proof redone from w0 (``start_bound``); (R / gamma)^2
        when w0 = 0, NaN without w*.
    cross : Inequality
        2 eta y w_{k-1}.x <= 0.
    square : Inequality
        eta^2 ||x||^2 <= eta^2 R^2.
    claim2 : Inequality
        ||w_k||^2 - ||w_{k-1}||^2 <= eta^2 R^2.
    lemma2 : Inequality
        ||w_k||^2 <= eta^2 k R^2.
    lemma2_root : Inequality
        ||w_k|| <= eta R sqrt(k).
    claim1 : Inequality or None
        eta gamma <= w_k.w* - w_{k-1}.w*.
    lemma1 : Inequality or None
        eta k gamma <= w_k.w*.
    cauchy : Inequality or None
        w_k.w* <= ||w_k||.
    conclusion : Inequality or None
        k <= (R / gamma)^2.
    conclusion_start : Inequality or None
        k <= ``start_bound``.
    """

    k: IntArray
    t: IntArray
    i: IntArray
    eta: float
    radius: float
    gamma: float
    bound: float
    start_dot: float
    start_norm_sq: float
    start_bound: float
    cross: Inequality
    square: Inequality
    claim2: Inequality
    lemma2: Inequality
    lemma2_root: Inequality
    claim1: Inequality | None
    lemma1: Inequality | None
    cauchy: Inequality | None
    conclusion: Inequality | None
    conclusion_start: Inequality | None

    @property
    def n_mistakes(self) -> int:
        """K, the number of mistakes checked."""
        return int(self.k.shape[0])


def start_bound(
    *, start_dot: float, start_norm_sq: float, gamma: float, radius: float, eta: float
) -> float:
    """The mistake bound with the proof redone from any start w0.

    From w0 the two inductions give ``w_k.w* >= a + eta k gamma`` and
    ``||w_k||^2 <= b + eta^2 k R^2`` with ``a = w0.w*``, ``b = ||w0||^2``; with
    Cauchy-Schwarz, ``a + eta k gamma <= sqrt(b + eta^2 k R^2)``. Squaring (where
    the left side is positive) and writing u = eta k:
    ``gamma^2 u^2 + (2 a gamma - eta R^2) u + a^2 - b <= 0``, so k is at most the
    larger root over eta. Since ``a^2 <= b`` the root is real and >= 0; with
    w0 = 0 it is ``(R / gamma)^2``.

    Parameters
    ----------
    start_dot : float
        w0.w* for a unit w*.
    start_norm_sq : float
        ||w0||^2, at least ``start_dot ** 2``.
    gamma, radius, eta : float
        The margin of w*, R and the learning rate, all > 0.

    Returns
    -------
    float
    """
    gamma = check_positive_float(gamma, "gamma")
    radius = check_positive_float(radius, "radius")
    eta = check_positive_float(eta, "eta")
    a, b = float(start_dot), float(start_norm_sq)
    if not (math.isfinite(a) and math.isfinite(b)) or b < 0.0:
        raise ValueError("start_dot and start_norm_sq must be finite, start_norm_sq >= 0")
    lin = eta * radius**2 - 2.0 * a * gamma  # minus the linear coefficient
    const = max(b - a * a, 0.0)  # b >= a^2 by Cauchy-Schwarz (up to rounding)
    u = (lin + math.sqrt(lin * lin + 4.0 * gamma**2 * const)) / (2.0 * gamma**2)
    return u / eta


def proof_check(
    trace: Trace | AdversarialTrace, X: Any, y: Any, mm: MaxMargin | None = None
) -> ProofCheck:
    """Evaluate every line of the convergence proof at every mistake of a run.

    Parameters
    ----------
    trace : Trace or AdversarialTrace
        A run of ``train`` or ``adversarial_order`` on ``X, y``.
    X : array_like, shape (n, d)
        The inputs the run saw (before the bias feature is appended).
    y : array_like, shape (n,)
        Labels, -1 or +1.
    mm : MaxMargin, optional
        ``max_margin`` of the same data and bias; None when the data are not
        separable (only the lines without w* are evaluated).

    Returns
    -------
    ProofCheck

    Raises
    ------
    ValueError
        If the run, the data and ``mm`` do not belong together.
    """
    X, y = check_data(X, y)
    Xa = augment(X) if trace.bias else X
    if trace.weights.shape[1] != Xa.shape[1] or trace.n_examples != Xa.shape[0]:
        raise ValueError("trace must be a run on X, y with the same bias setting")
    if mm is not None and (mm.bias != trace.bias or mm.w_star.shape[0] != Xa.shape[1]):
        raise ValueError("mm must come from the same data and bias setting as trace")
    eta = float(trace.eta)
    W = np.asarray(trace.weights, dtype=np.float64)
    t = np.asarray(trace.mistake_steps[:, 0], dtype=np.int64)
    i = np.asarray(trace.mistake_steps[:, 1], dtype=np.int64)
    K = i.shape[0]
    k = np.arange(1, K + 1, dtype=np.int64)
    before = W[:-1]  # w_{k-1}, the weights each mistake was made with
    x, yk = Xa[i], y[i]
    radius = float(np.sqrt(np.max(np.einsum("nd,nd->n", Xa, Xa))))
    norm_sq = np.einsum("kd,kd->k", W, W)

    # Claim 2: ||w + eta y x||^2 = ||w||^2 + 2 eta y w.x + eta^2 ||x||^2
    cross = 2.0 * eta * yk * np.einsum("kd,kd->k", before, x)
    square = eta**2 * np.einsum("kd,kd->k", x, x)
    R2 = eta**2 * radius**2
    common: dict[str, Any] = {
        "k": k,
        "t": t,
        "i": i,
        "eta": eta,
        "radius": radius,
        "start_norm_sq": float(norm_sq[0]),
        "cross": _inequality(cross, 0.0),
        "square": _inequality(square, R2),
        "claim2": _inequality(norm_sq[1:] - norm_sq[:-1], R2),
        "lemma2": _inequality(norm_sq[1:], k * R2),
        "lemma2_root": _inequality(np.sqrt(norm_sq[1:]), eta * radius * np.sqrt(k)),
    }
    if mm is None:
        without: dict[str, Any] = dict.fromkeys(_NEED_W_STAR_LINES)
        without.update(dict.fromkeys(_NEED_W_STAR_NUMBERS, float("nan")))
        return ProofCheck(**common, **without)
    # Claim 1: (w + eta y x).w* = w.w* + eta y x.w*, and y x.w* >= gamma (the margin)
    dot = W @ mm.w_star
    again = start_bound(
        start_dot=float(dot[0]),
        start_norm_sq=float(norm_sq[0]),
        gamma=mm.gamma,
        radius=radius,
        eta=eta,
    )
    return ProofCheck(
        gamma=float(mm.gamma),
        bound=float(mm.bound),
        start_dot=float(dot[0]),
        start_bound=again,
        claim1=_inequality(eta * mm.gamma, dot[1:] - dot[:-1]),
        lemma1=_inequality(eta * k * mm.gamma, dot[1:]),
        cauchy=_inequality(dot[1:], np.sqrt(norm_sq[1:])),  # ||w*|| = 1
        conclusion=_inequality(k.astype(np.float64), mm.bound),
        conclusion_start=_inequality(k.astype(np.float64), again),
        **common,
    )


def adversarial_order(
    X: Any,
    y: Any,
    *,
    bias: bool = True,
    w0: Any = None,
    eta: float = 1.0,
    rule: str = "nonpositive",
    w_star: Any = None,
    tie_break: str = "lowest",
    seed: int | None = None,
    max_steps: int = 10_000,
) -> AdversarialTrace:
    """A greedy adversary: always show the perceptron a point it currently gets wrong.

    The convergence theorem holds for *every* order of the examples, so an
    adversary that picks the next example after seeing w cannot push the
    mistakes past the bound. This one only ever shows a currently misclassified
    point (under ``rule``), so every step is a mistake, and it stops when there
    is none left (w then separates the data) or after ``max_steps`` steps.

    Which misclassified point (``tie_break``, both deterministic):

    * ``"lowest"``: the one with the lowest index;
    * ``"away"`` (needs ``w_star``): the one after whose update w points furthest
      from w*, the smallest ``cos = w_new.w* / ||w_new||`` (0 for w_new = 0);
      cosines equal to 1e-12 go to the lowest index.

    * ``"random"`` (needs ``seed``): uniformly at random, from
      ``np.random.default_rng(seed)``: restarts with several seeds explore
      other sequences.

    None is best everywhere: "away" makes more mistakes on most random sets,
    but on ``worst_case_set`` it is short-sighted (2 mistakes where "lowest"
    makes about half the bound), so callers may run several and keep the longest.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels, -1 or +1.
    bias : bool
        Append the constant feature 1 last, as ``train`` does.
    w0 : array_like, shape (d',), optional
        Starting weights; zeros by default.
    eta : float
        Learning rate, > 0.
    rule : str
        Mistake convention, a key of ``RULES``.
    w_star : array_like, shape (d',), optional
        A separator to steer away from (``max_margin(...).w_star``), nonzero;
        required by ``tie_break="away"``.
    tie_break : str
        "lowest", "away" or "random" (see above).
    seed : int, optional
        Seed of the random tie-break; required by ``tie_break="random"``.
    max_steps : int
        At most this many steps (= mistakes), >= 1.

    Returns
    -------
    AdversarialTrace

    Raises
    ------
    ValueError
        On a malformed dataset or parameter, naming it.
    """
    tie_break = check_choice(tie_break, "tie_break", TIE_BREAKS)
    max_steps = check_positive_int(max_steps, "max_steps")
    X, y, w, eta, seed = check_run(X, y, bias=bias, w0=w0, eta=eta, seed=seed)
    rule = check_choice(rule, "rule", tuple(RULES))
    Xa = augment(X) if bias else X
    n, d = Xa.shape
    u = None
    if w_star is not None:
        u = check_vector(w_star, "w_star", d)
        if not np.any(u):
            raise ValueError("w_star must be a nonzero vector")
    if tie_break == "away" and u is None:
        raise ValueError('w_star is required by tie_break="away"')
    if tie_break == "random" and seed is None:
        raise ValueError('seed is required by tie_break="random"')
    rng = np.random.default_rng(seed)
    tie = np.where(y > 0, RULES[rule].tie_pos, RULES[rule].tie_neg)
    Z = y[:, None] * Xa  # rows y_i x_i: the update direction of each example
    weights = [w.copy()]
    order: list[int] = []
    converged = False
    for _ in range(max_steps):
        a = Xa @ w  # the activations w.x_i
        wrong = np.flatnonzero((y * a < 0.0) | ((a == 0.0) & tie))
        if wrong.size == 0:
            converged = True
            break
        pick = int(wrong[0])
        if tie_break == "random":
            pick = int(wrong[rng.integers(wrong.size)])
        if tie_break == "away" and u is not None and wrong.size > 1:
            # on a mistake: w <- w + eta y x; keep the new w as far from w* as possible
            W_new = w[None, :] + eta * Z[wrong]
            norms = np.sqrt(np.einsum("kd,kd->k", W_new, W_new))
            dots = W_new @ u
            cos = np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0.0)
            pick = int(wrong[np.flatnonzero(cos <= cos.min() + 1e-12)[0]])
        w = w + eta * Z[pick]
        weights.append(w.copy())
        order.append(pick)
    else:
        a = Xa @ w
        converged = not bool(((y * a < 0.0) | ((a == 0.0) & tie)).any())
    K = len(order)
    steps = np.column_stack([np.arange(K, dtype=np.int64), np.array(order, dtype=np.int64)])
    W = np.array(weights, dtype=np.float64).reshape(K + 1, d)
    W.flags.writeable = False
    steps.flags.writeable = False
    return AdversarialTrace(
        weights=W,
        mistake_steps=steps.reshape(K, 2),
        converged=converged,
        n_examples=n,
        bias=bias,
        eta=eta,
        rule=rule,
    )


def worst_case_set(gamma: float) -> tuple[FloatArray, FloatArray]:
    """Three points (use without bias) on which the perceptron makes about half of
    its bound ``(1 / gamma)^2``, in the given order and against the adversary.

    All labels are +1, R = 1 and w* = (0, 1). With ``c = sqrt(1 - gamma^2)``, the
    first point ``(c/2, 0.55)`` sets w = (c/2, 0.55); then the two points at
    height gamma, ``(+-c, gamma)``, are wrong in turn: each flips the sign of
    w_1 (between +-c/2) while w_2 grows by only gamma, until
    ``gamma w_2 > c^2 / 2``, that is after about ``1 / (2 gamma^2)`` mistakes.
    (The first point stays right: 0.55 w_2 > c^2 / 4.) The adversary with
    ``tie_break="lowest"`` does the same. The bound is reached exactly by d
    orthonormal vectors, all labelled +1, in d dimensions: gamma = 1/sqrt(d),
    R = 1, d mistakes in any order.

    Parameters
    ----------
    gamma : float
        The margin, in (0, 0.5].

    Returns
    -------
    X : ndarray, shape (3, 2)
    y : ndarray, shape (3,)
    """
    g = check_positive_float(gamma, "gamma")
    if g > 0.5:
        raise ValueError(f"gamma must be in (0, 0.5]; got {gamma!r}")
    c = math.sqrt(1.0 - g * g)
    X = np.array([[c / 2.0, 0.55], [c, g], [-c, g]])
    return X, np.ones(3)

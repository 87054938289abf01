"""The online perceptron (Rosenblatt 1957), one example at a time.

The bias is absorbed as a constant feature 1 appended *last* to every x, so
``w . (x, 1) = w[:d] . x + w[d]``, as seeds 003 and 004 do (seed 002 puts the 1 first,
``[1; x] . [b; w]``: the same model, its coordinates in another order). The radius R and
the margin gamma of the mistake bound are then measured in that augmented space, which
keeps the bound honest for the algorithm actually run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._checks import FloatArray, IntArray, by_key, check_choice, check_positive_int, check_run
from ._kernel import get_scan, run_epoch


@dataclass(frozen=True)
class Rule:
    """A convention for what counts as a mistake; the seeds disagree only at w . x = 0.

    Every rule makes a mistake when y w.x < 0; they differ on ties w.x = 0.
    """

    key: str
    text: str  # the rule in words, for the page
    source: str  # which handout uses it
    tie_pos: bool  # is w.x == 0 a mistake on a +1 example?
    tie_neg: bool  # is w.x == 0 a mistake on a -1 example?
    short: str  # the rule as a formula, named beside a verdict on a tie

    def tie_note(self, margin: float) -> str:
        """Words naming this rule after a verdict on ``margin`` = y w.x, when the rule made
        it: only a tie (exactly 0) is judged differently by different rules."""
        return f" (a tie: {self.short})" if margin == 0 else ""


RULES: dict[str, Rule] = by_key(
    Rule(
        "nonpositive",
        "mistake iff y·(w·x) ≤ 0, so w = 0 errs on every example",
        "Cornell CS6780",
        True,
        True,
        "mistake iff y·(w·x) ≤ 0",
    ),
    Rule(
        "predict_gt",
        "predict +1 iff w·x > 0; a mistake is a wrong prediction",
        "Princeton COS 495, UMass CMPSCI 689",
        True,
        False,
        "predict +1 iff w·x > 0",
    ),
    Rule(
        "predict_ge",
        "predict +1 iff w·x ≥ 0; a mistake is a wrong prediction",
        "the handwritten notes",
        False,
        True,
        "predict +1 iff w·x ≥ 0",
    ),
    Rule(
        "negative",
        "mistake iff y·(w·x) < 0: from w = 0 nothing is a mistake, so w never moves",
        "EURECOM MALIS",
        False,
        False,
        "mistake iff y·(w·x) < 0",
    ),
)


def augment(X: Any, c: float = 1.0) -> FloatArray:
    """Append the constant bias feature ``c`` as the last column.

    Parameters
    ----------
    X : array_like, shape (n, d)
    c : float
        The constant feature (1 in every seed that absorbs the bias: 002, 003, 004).

    Returns
    -------
    ndarray, shape (n, d + 1)
    """
    Xa = np.asarray(X, dtype=np.float64)
    return np.hstack([Xa, np.full((Xa.shape[0], 1), float(c))])


def _readonly(a: NDArray[Any]) -> NDArray[Any]:
    a.flags.writeable = False
    return a


class _FinalWeights:
    """For a run record whose ``weights`` hold w0 and then w after each update."""

    weights: FloatArray

    @property
    def w(self) -> FloatArray:
        """Final weights, shape (d',); the bias is the last entry when ``bias``."""
        return np.asarray(self.weights[-1], dtype=np.float64)


class _MistakeCount:
    """For a run record that updates once per mistake and keeps a row per mistake."""

    mistake_steps: IntArray

    @property
    def n_mistakes(self) -> int:
        """Number of updates made: one per mistake."""
        return int(self.mistake_steps.shape[0])


@dataclass(frozen=True, eq=False)
class Steps:
    """Every step of a run, for replay (``train(..., record_steps=True)``).

    Attributes
    ----------
    index : ndarray of int, shape (T,)
        The example shown at step t.
    margin : ndarray, shape (T,)
        ``y_i * w . x_i`` for that example, with w as it was *before* step t.
    mistake : ndarray of bool, shape (T,)
        Whether step t was a mistake (and so an update).
    """

    index: IntArray
    margin: FloatArray
    mistake: NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class Trace(_FinalWeights, _MistakeCount):
    """What one run of the perceptron did.

    Attributes
    ----------
    weights : ndarray, shape (n_mistakes + 1, d')
        Row 0 is w0; row k is w after the k-th mistake. ``d' = d + 1`` with bias.
    mistake_steps : ndarray of int, shape (n_mistakes, 2)
        For each mistake: column 0 the global step t (0-based count of examples
        seen before it), column 1 the example index i.
    converged : bool
        True iff some full pass over the data made no mistake.
    n_epochs : int
        Passes run, including the final mistake-free one if converged.
    n_steps : int
        Examples seen, ``n_epochs * n_examples``.
    n_examples : int
        n, the size of the dataset; step t belongs to epoch ``t // n``.
    bias, eta, rule
        The settings of the run.
    steps : Steps or None
        Per-step record, present when trained with ``record_steps=True``.
    """

    weights: FloatArray
    mistake_steps: IntArray
    converged: bool
    n_epochs: int
    n_steps: int
    n_examples: int
    bias: bool
    eta: float
    rule: str
    steps: Steps | None = None

    def mistakes_before(self, t: int) -> int:
        """Number of mistakes made at steps strictly before step ``t``."""
        return int(np.searchsorted(self.mistake_steps[:, 0], t, side="left"))

    def w_before(self, t: int) -> FloatArray:
        """The weights in force when step ``t`` is shown (``t = n_steps``: the final w)."""
        return np.asarray(self.weights[self.mistakes_before(t)], dtype=np.float64)


def train(
    X: Any,
    y: Any,
    *,
    bias: bool = True,
    max_epochs: int = 1000,
    w0: Any = None,
    eta: float = 1.0,
    seed: int | None = None,
    rule: str = "nonpositive",
    record_steps: bool = False,
) -> Trace:
    """Run the online perceptron until a full pass makes no mistake.

    Each example is shown in turn; on a mistake ``w <- w + eta * y * x``. The
    run stops after the first pass with no mistake (``converged=True``) or after
    ``max_epochs`` passes, so non-separable data never hangs.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Finite inputs.
    y : array_like, shape (n,)
        Labels, each -1 or +1.
    bias : bool
        Absorb a bias by appending the constant feature 1 as the last column.
    max_epochs : int
        Maximum number of passes over the data, >= 1.
    w0 : array_like, shape (d',), optional
        Starting weights (``d' = d + 1`` with bias); zeros by default.
    eta : float
        Learning rate, > 0. From ``w0 = 0`` it only scales w (same mistakes).
    seed : int, optional
        None: show the examples in the given order every pass. An int: reshuffle
        the order at the start of every pass with ``np.random.default_rng(seed)``.
    rule : str
        Mistake convention, a key of ``RULES``; the default is "mistake iff
        y w.x <= 0".
    record_steps : bool
        Also keep, for every step, the example index, ``y * w . x`` before the
        update and whether it was a mistake (``Trace.steps``). Memory O(steps).

    Returns
    -------
    Trace
        Weights after each mistake and where the mistakes happened; memory
        O(mistakes) unless ``record_steps``.

    Raises
    ------
    ValueError
        On a malformed dataset or parameter, naming it.
    """
    X, y, w, eta, seed = check_run(X, y, bias=bias, w0=w0, eta=eta, seed=seed)
    max_epochs = check_positive_int(max_epochs, "max_epochs")
    rule = check_choice(rule, "rule", tuple(RULES))
    n = X.shape[0]
    tie_pos, tie_neg = RULES[rule].tie_pos, RULES[rule].tie_neg
    rng = None if seed is None else np.random.default_rng(seed)
    given = np.arange(n, dtype=np.int64)
    scan = get_scan()

    W_parts: list[FloatArray] = [w.copy()[None, :]]
    t_parts: list[IntArray] = []
    i_parts: list[IntArray] = []
    orders: list[IntArray] = []
    margins: list[FloatArray] = []
    converged = False
    n_epochs = 0
    while n_epochs < max_epochs:
        order = given if rng is None else rng.permutation(n).astype(np.int64)
        W, pos, idx, m = run_epoch(scan, X, y, order, w, bias, eta, tie_pos, tie_neg, record_steps)
        W_parts.append(W)
        t_parts.append(pos + n_epochs * n)
        i_parts.append(idx)
        if record_steps:
            orders.append(order)
            margins.append(m)
        n_epochs += 1
        if pos.shape[0] == 0:
            converged = True
            break

    weights = np.concatenate(W_parts)
    t_all = np.concatenate(t_parts).astype(np.int64)
    mistake_steps = np.column_stack([t_all, np.concatenate(i_parts).astype(np.int64)])
    steps = None
    if record_steps:
        flags = np.zeros(n_epochs * n, dtype=bool)
        flags[t_all] = True
        steps = Steps(
            index=_readonly(np.concatenate(orders)),
            margin=_readonly(np.concatenate(margins)),
            mistake=_readonly(flags),
        )
    return Trace(
        weights=_readonly(weights),
        mistake_steps=_readonly(mistake_steps),
        converged=converged,
        n_epochs=n_epochs,
        n_steps=n_epochs * n,
        n_examples=n,
        bias=bias,
        eta=eta,
        rule=rule,
        steps=steps,
    )


def decision(w: Any, X: Any, *, bias: bool = True) -> FloatArray:
    """The activation ``w . x`` (with the bias feature appended when ``bias``).

    Parameters
    ----------
    w : array_like, shape (d',)
    X : array_like, shape (n, d)

    Returns
    -------
    ndarray, shape (n,)
    """
    Xa = np.asarray(X, dtype=np.float64)
    wa = np.asarray(w, dtype=np.float64)
    a = Xa @ wa[:-1] + wa[-1] if bias else Xa @ wa
    return np.asarray(a, dtype=np.float64)


def predict(w: Any, X: Any, *, bias: bool = True) -> NDArray[np.int64]:
    """Predicted labels: +1 iff ``w . x > 0``, else -1 (seed 001's sign).

    Returns
    -------
    ndarray of int, shape (n,)
    """
    return np.where(decision(w, X, bias=bias) > 0.0, 1, -1).astype(np.int64)


def mistakes(
    w: Any, X: Any, y: Any, *, bias: bool = True, rule: str = "nonpositive"
) -> NDArray[np.bool_]:
    """Which examples ``w`` gets wrong under ``rule``.

    Returns
    -------
    ndarray of bool, shape (n,)
    """
    rule = check_choice(rule, "rule", tuple(RULES))
    a = decision(w, X, bias=bias)
    ya = np.asarray(y, dtype=np.float64)
    tie = np.where(ya > 0, RULES[rule].tie_pos, RULES[rule].tie_neg)
    return np.asarray((ya * a < 0.0) | ((a == 0.0) & tie), dtype=np.bool_)

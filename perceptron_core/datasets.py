"""Datasets for the lab, in one registry that also declares their slider ranges.

Every generator has the signature ``(n, rng, **params) -> (X, y)`` with
``X`` of shape (n, 2), ``y`` in {-1, +1} and all randomness drawn from the
seeded ``np.random.Generator`` it is given, so a seed reproduces a dataset.
``make_dataset(name, n=..., seed=..., **params)`` validates against the
declared ranges and calls it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._checks import FloatArray, by_key, check_positive_int, check_seed

Generator = Callable[..., tuple[FloatArray, FloatArray]]


@dataclass(frozen=True)
class Param:
    """A numeric parameter of a generator and the slider range the app offers."""

    name: str
    label: str
    low: float
    high: float
    default: float
    step: float
    help: str = ""


@dataclass(frozen=True)
class Dataset:
    """A registered dataset: its generator, parameters, sizes and where it comes from."""

    key: str
    title: str
    make: Generator
    params: tuple[Param, ...] = ()
    n_min: int = 4
    n_max: int = 500
    n_default: int = 40
    source: str = ""
    description: str = ""
    separable: bool | None = None  # True/False if always so, None if it depends
    defaults: dict[str, float] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "defaults", {p.name: p.default for p in self.params})

    @property
    def fixed_size(self) -> bool:
        """True for fixed example sets (the 4 points of seed 001, the spam e-mails)."""
        return self.n_min == self.n_max


# --- generators: (n, rng, **params) -> (X (n, 2), y (n,)) ---------------------------


def _balanced_labels(n: int, rng: np.random.Generator) -> FloatArray:
    """n labels, half +1 and half -1 (one more +1 if n is odd), in random order."""
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return rng.permutation(y)


def separable(
    n: int,
    rng: np.random.Generator,
    *,
    margin: float = 0.3,
    radius: float = 3.0,
    offset: float = 0.5,
) -> tuple[FloatArray, FloatArray]:
    """Two classes inside the disc of ``radius``, split by a random line at distance
    ``offset`` from the origin with an empty band of half-width ``margin`` around it.

    Every point is at distance >= ``margin`` from that line, so the data are
    linearly separable with geometric margin at least ``margin`` (in the plane).
    """
    theta = rng.uniform(0.0, 2.0 * math.pi)
    u = np.array([math.cos(theta), math.sin(theta)])  # unit normal of the line u.x = offset
    v = np.array([-u[1], u[0]])  # direction along the line
    y = _balanced_labels(n, rng)
    # distance s from the line, on the side y, keeping |coordinate along u| <= radius
    s_max = radius - y * offset
    s = rng.uniform(margin, s_max)
    c = offset + y * s  # coordinate along u
    half_chord = np.sqrt(np.maximum(radius**2 - c**2, 0.0))
    p = rng.uniform(-half_chord, half_chord)
    X = c[:, None] * u + p[:, None] * v
    return X, y


def noisy(
    n: int,
    rng: np.random.Generator,
    *,
    noise: float = 0.1,
    margin: float = 0.3,
) -> tuple[FloatArray, FloatArray]:
    """Separable data (radius 3, offset 0.5) whose labels are each flipped with
    probability ``noise``: label noise makes the data non-separable (seed 003)."""
    X, y = separable(n, rng, margin=margin, radius=3.0, offset=0.5)
    flip = rng.random(n) < noise
    return X, np.where(flip, -y, y)


def xor(n: int, rng: np.random.Generator, *, spread: float = 0.15) -> tuple[FloatArray, FloatArray]:
    """XOR (seeds 002, 003): clusters at the corners (+-1, +-1); label +1 where
    exactly one coordinate is positive. ``spread = 0`` gives the integer corners."""
    corners = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    labels = np.array([-1.0, -1.0, 1.0, 1.0])
    which = np.arange(n) % 4
    X = corners[which] + spread * rng.standard_normal((n, 2))
    return X, labels[which].copy()


def circles(
    n: int,
    rng: np.random.Generator,
    *,
    inner: float = 1.0,
    outer: float = 2.0,
    noise: float = 0.1,
) -> tuple[FloatArray, FloatArray]:
    """Concentric circles: +1 on the inner circle, -1 on the outer one. Not
    linearly separable; separable after the quadratic feature map (seed 003)."""
    y = _balanced_labels(n, rng)
    r = np.where(y > 0, inner, outer) + noise * rng.standard_normal(n)
    angle = rng.uniform(0.0, 2.0 * math.pi, n)
    return np.column_stack([r * np.cos(angle), r * np.sin(angle)]), y


def blobs(
    n: int,
    rng: np.random.Generator,
    *,
    distance: float = 3.0,
    spread: float = 0.6,
) -> tuple[FloatArray, FloatArray]:
    """Two Gaussian blobs ``distance`` apart with standard deviation ``spread``,
    centred away from the origin (so the separator needs a bias)."""
    theta = rng.uniform(0.0, 2.0 * math.pi)
    u = np.array([math.cos(theta), math.sin(theta)])
    centre = rng.uniform(-1.5, 1.5, 2)
    y = _balanced_labels(n, rng)
    X = centre + (y[:, None] * distance / 2.0) * u + spread * rng.standard_normal((n, 2))
    return X, y


FOUR_POINTS_X = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -1.0], [-1.0, 1.0]])
FOUR_POINTS_Y = np.array([1.0, 1.0, -1.0, -1.0])


def four_points(n: int, rng: np.random.Generator) -> tuple[FloatArray, FloatArray]:
    """The training set of seed 001: (1,2)+, (2,1)+, (-1,-1)-, (-1,1)-."""
    return FOUR_POINTS_X.copy(), FOUR_POINTS_Y.copy()


SPAM_WORDS = ("free", "money")

# Short e-mails in the spirit of seed 003's spam example (spam is the +1 class there);
# the features are the counts of "free" and "money", plus the BIAS feature 1.
SPAM_EMAILS: tuple[tuple[str, int], ...] = (
    ("FREE money!!! Claim your free prize money now", +1),
    ("Get free money fast: free, free, free", +1),
    ("Make money from home, money guaranteed", +1),
    ("Free vacation and a free cruise, just pay the fee", +1),
    ("Free money for you", +1),
    ("Win cash and money prizes, totally free", +1),
    ("Lunch tomorrow? I am free at noon", -1),
    ("Can you send me the slides from the lecture?", -1),
    ("I owe you money for the pizza", -1),
    ("The meeting moved to Friday", -1),
    ("Are you free this weekend?", -1),
    ("Reminder: homework 1 is due next week", -1),
)


def word_counts(text: str, words: tuple[str, ...] = SPAM_WORDS) -> FloatArray:
    """Counts of each word of ``words`` in ``text`` (case-insensitive, whole words).

    Returns
    -------
    ndarray, shape (len(words),)
    """
    tokens = re.findall(r"[a-z0-9']+", text.lower())
    return np.array([float(tokens.count(w)) for w in words])


# A larger vocabulary for the spam page: seed 003's two words, then words of the e-mails
# above that lean one way (win, prize, cash, now) or the other (lecture, meeting, ...).
SPAM_MORE_WORDS = (*SPAM_WORDS, "win", "prize", "cash", "now", "lecture", "meeting", "homework")
# The spam page's choice of words (its setting ``spam_vocab`` reads its options here).
SPAM_VOCABULARIES: dict[str, tuple[str, ...]] = {"two": SPAM_WORDS, "more": SPAM_MORE_WORDS}

# Two-class pairs of scikit-learn's bundled 8x8 digits, (+1 digit, -1 digit): the variants
# page's choice (its setting ``var_pair`` reads its options here).
DIGIT_PAIRS: dict[str, tuple[int, int]] = {
    "8v9": (8, 9),
    "1v8": (1, 8),
    "3v8": (3, 8),
    "5v9": (5, 9),
    "7v9": (7, 9),
    "3v5": (3, 5),
}


def spam_features(words: tuple[str, ...] = SPAM_WORDS) -> tuple[FloatArray, FloatArray]:
    """The labelled e-mails ``SPAM_EMAILS`` as word counts over ``words``.

    Returns
    -------
    X : ndarray, shape (len(SPAM_EMAILS), len(words))
        ``X[i, j]`` = how often ``words[j]`` occurs in e-mail i.
    y : ndarray, shape (len(SPAM_EMAILS),)
        +1 = spam, -1 = not spam (seed 003's classes).
    """
    if not words or not all(isinstance(w, str) and w for w in words):
        raise ValueError(f"words must be a non-empty tuple of words; got {words!r}")
    X = np.array([word_counts(text, words) for text, _ in SPAM_EMAILS])
    y = np.array([float(label) for _, label in SPAM_EMAILS])
    return X, y


def spam(n: int, rng: np.random.Generator) -> tuple[FloatArray, FloatArray]:
    """Seed 003's spam example: x = (count of "free", count of "money"), +1 = spam."""
    return spam_features(SPAM_WORDS)


# --- the registry ------------------------------------------------------------------

# The generators' knobs are lengths in the plane, not the theorem's γ and R: those belong to
# the vectors the perceptron sees ((x, 1) with a bias) and the pages compute them from the
# points. So no label here names γ or R (the keys stay: they are the links' parameters).
_MARGIN = Param(
    "margin",
    "empty band half-width",
    0.05,
    0.9,
    0.3,
    0.05,
    "Every point is at least this far from the generator's line, in the plane. Not the "
    "theorem's margin γ: the pages compute γ from the points (with the bias).",
)
DATASETS: dict[str, Dataset] = by_key(
    Dataset(
        "separable",
        "Separable, chosen margin",
        separable,
        (
            _MARGIN,
            Param(
                "radius",
                "disc radius",
                2.0,
                6.0,
                3.0,
                0.5,
                "All points lie in the disc of this radius around 0. Not the theorem's R: "
                "the pages compute R = max ‖(x, 1)‖ from the points (with the bias).",
            ),
            Param("offset", "line offset", -1.0, 1.0, 0.5, 0.1, "distance of the line from 0"),
        ),
        source=(
            "separable data for the mistake bound of Princeton COS 495, Cornell CS6780 and the "
            "handwritten notes"
        ),
        description="Two classes in a disc, with an empty band around a line between them.",
        separable=True,
    ),
    Dataset(
        "noisy",
        "Separable + label noise",
        noisy,
        (
            Param("noise", "label noise", 0.0, 0.4, 0.1, 0.02, "chance each label flips"),
            _MARGIN,
        ),
        source="limitations: noise (UMass CMPSCI 689)",
        description="Flipped labels make the data non-separable.",
    ),
    Dataset(
        "xor",
        "XOR",
        xor,
        (Param("spread", "spread", 0.0, 0.5, 0.15, 0.05, "0 gives the integer corners"),),
        source="the XOR problem (EURECOM MALIS and UMass CMPSCI 689)",
        description="+1 where exactly one coordinate is positive: no line separates it.",
        separable=False,
    ),
    Dataset(
        "circles",
        "Concentric circles",
        circles,
        (
            Param("inner", "inner radius", 0.3, 1.5, 1.0, 0.1),
            Param("outer", "outer radius", 1.6, 3.0, 2.0, 0.1),
            Param("noise", "noise", 0.0, 0.3, 0.1, 0.05),
        ),
        source="feature map φ(x1, x2) = (x1², √2·x1x2, x2²) (UMass CMPSCI 689)",
        description="+1 inside, -1 outside: separable only after a feature map.",
        separable=False,
    ),
    Dataset(
        "blobs",
        "Gaussian blobs",
        blobs,
        (
            Param("distance", "distance", 0.5, 6.0, 3.0, 0.25, "between the centres"),
            Param("spread", "spread", 0.1, 2.0, 0.6, 0.1, "standard deviation"),
        ),
        source="biased hypotheses (Cornell CS6780 and UMass CMPSCI 689)",
        description="Two clouds away from the origin: they need a bias to be separated.",
    ),
    Dataset(
        "four_points",
        "4 points (Cornell CS6780)",
        four_points,
        n_min=4,
        n_max=4,
        n_default=4,
        source="training data of Cornell CS6780",
        description="(1,2)+, (2,1)+, (−1,−1)−, (−1,1)−: 2 mistakes, w = (2, 1) without bias.",
        separable=True,
    ),
    Dataset(
        "spam",
        "Spam: free / money",
        spam,
        n_min=len(SPAM_EMAILS),
        n_max=len(SPAM_EMAILS),
        n_default=len(SPAM_EMAILS),
        source="spam example with a BIAS feature (UMass CMPSCI 689)",
        description="x = (count of 'free', count of 'money'); +1 = spam.",
    ),
)


def make_dataset(
    name: str, *, n: int | None = None, seed: int | None = 0, **params: Any
) -> tuple[FloatArray, FloatArray]:
    """Generate a registered dataset, validating ``n`` and ``params`` against its ranges.

    Parameters
    ----------
    name : str
        A key of ``DATASETS``.
    n : int, optional
        Number of points; the dataset's default if omitted. Ignored-but-checked
        for fixed sets (it must equal their size when given).
    seed : int, optional
        Seed of the ``np.random.Generator`` the generator draws from.
    **params : float
        The generator's parameters; missing ones take their defaults.

    Returns
    -------
    X : ndarray, shape (n, 2)
    y : ndarray, shape (n,), values in {-1, +1}
    """
    if name not in DATASETS:
        raise ValueError(f"name must be one of {', '.join(DATASETS)}; got {name!r}")
    spec = DATASETS[name]
    n = spec.n_default if n is None else check_positive_int(n, "n")
    if not spec.n_min <= n <= spec.n_max:
        raise ValueError(f"n must be between {spec.n_min} and {spec.n_max} for {name}; got {n}")
    seed = check_seed(seed)
    declared = {p.name: p for p in spec.params}
    unknown = set(params) - set(declared)
    if unknown:
        raise ValueError(f"unknown parameter(s) for {name}: {', '.join(sorted(unknown))}")
    values = dict(spec.defaults)
    for key, value in params.items():
        p = declared[key]
        try:
            v = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"{key} must be a number; got {value!r}") from None
        if not p.low <= v <= p.high:  # also rejects NaN
            raise ValueError(f"{key} must be between {p.low} and {p.high}; got {value!r}")
        values[key] = v
    X, y = spec.make(n, np.random.default_rng(seed), **values)
    return np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
